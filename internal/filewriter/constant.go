package filewriter

import (
	"bytes"
	"encoding/binary"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// Constant pages (2.2 ConstantLayout).

// constantValue returns the single fixed-width value (at most 32 bytes;
// booleans as one byte) shared by every non-null value of v, if there is
// at least one non-null value and no other.
func constantValue(v *values) ([]byte, bool) {
	first := -1
	for i := 0; i < v.N && first < 0; i++ {
		if v.Valid == nil || v.Valid[i] {
			first = i
		}
	}
	if first < 0 {
		return nil, false
	}
	switch v.Kind {
	case valBool:
		bit := func(i int) byte { return (v.Data[i/8] >> (i % 8)) & 1 }
		for i := first + 1; i < v.N; i++ {
			if (v.Valid == nil || v.Valid[i]) && bit(i) != bit(first) {
				return nil, false
			}
		}
		return []byte{bit(first)}, true
	case valFixed:
		w := v.Bits / 8
		if w > 32 {
			return nil, false
		}
		val := v.Data[first*w : (first+1)*w]
		for i := first + 1; i < v.N; i++ {
			if (v.Valid == nil || v.Valid[i]) && !bytes.Equal(v.Data[i*w:(i+1)*w], val) {
				return nil, false
			}
		}
		return append([]byte(nil), val...), true
	}
	return nil, false
}

// encodeConstant writes a ConstantLayout with an inline value and, when
// the page has levels, raw u16 [rep][def] buffers (rep empty without
// lists), as Lance 2.2 does.
func encodeConstant(s *shredded, value []byte) *encodedPage {
	l := &pb.ConstantLayout{Layers: s.Layers, InlineValue: value}
	var bufs [][]byte
	if s.Rep != nil || s.Def != nil {
		bufs = [][]byte{u16Bytes(s.Rep), u16Bytes(s.Def)}
	}
	return &encodedPage{buffers: bufs, numRows: uint64(s.NumRows), desc: "constant",
		layout: &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: l}}}
}

// constantString returns the value buffer of a page of identical non-null
// strings or binaries with 32-bit offsets and no levels:
// [u32 2][u32 8][u32 len][offsets u32 0, len][bytes] (the only verified
// form; pages with levels or 64-bit offsets are not made constant).
func constantString(s *shredded, v *values) ([]byte, bool) {
	if v.Kind != valVariable || v.Large || v.Valid != nil || v.N == 0 || s.Rep != nil || s.Def != nil {
		return nil, false
	}
	val := v.Data[v.Offsets[0]:v.Offsets[1]]
	for i := 1; i < v.N; i++ {
		if !bytes.Equal(v.Data[v.Offsets[i]:v.Offsets[i+1]], val) {
			return nil, false
		}
	}
	out := binary.LittleEndian.AppendUint32(nil, 2)
	out = binary.LittleEndian.AppendUint32(out, 8)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(val)))
	out = binary.LittleEndian.AppendUint32(out, 0)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(val)))
	return append(out, val...), true
}

// encodeConstantBuffer writes a ConstantLayout whose value is in buffer 0.
func encodeConstantBuffer(s *shredded, value []byte) *encodedPage {
	l := &pb.ConstantLayout{Layers: s.Layers}
	return &encodedPage{buffers: [][]byte{value}, numRows: uint64(s.NumRows), desc: "constant",
		layout: &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: l}}}
}
