package layouts

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// ConstantPage is a page whose visible values are all null or all one value
// (AllNullLayout in 2.1, ConstantLayout in 2.2). Such pages are small, so
// they are decoded whole from their buffers at initialization.
type ConstantPage struct {
	Layout  *pb.ConstantLayout
	Set     LayerSet
	NumRows uint64
	Levels  Levels
	// Value is the one value (nil for all-null pages).
	Value *codecs.Block
	// rowStart[r] is the first entry of row r (nil without lists).
	rowStart []int
	// allNullRows marks a page without levels whose every row is null.
	allNullRows bool
}

// NewConstantPage decodes a constant page from all its buffers. leaf is the
// Arrow type of the values, needed to interpret an inline scalar.
func NewConstantPage(l *pb.ConstantLayout, numRows uint64, bufs [][]byte, leaf arrow.DataType) (*ConstantPage, error) {
	set, err := NewLayerSet(l.GetLayers())
	if err != nil {
		return nil, err
	}
	p := &ConstantPage{Layout: l, Set: set, NumRows: numRows}
	var repBuf, defBuf, valBuf []byte
	switch {
	case len(bufs) == 0:
	case len(bufs) == 1 && l.InlineValue == nil:
		valBuf = bufs[0]
	case len(bufs) == 2:
		repBuf, defBuf = bufs[0], bufs[1]
	case len(bufs) == 3 && l.InlineValue == nil:
		valBuf, repBuf, defBuf = bufs[0], bufs[1], bufs[2]
	default:
		return nil, fmt.Errorf("%w: constant page with %d buffers", ErrCorrupt, len(bufs))
	}
	if err := p.decodeLevels(repBuf, defBuf); err != nil {
		return nil, err
	}
	if err := p.decodeValue(l.InlineValue, valBuf, leaf); err != nil {
		return nil, err
	}
	return p, p.indexRows()
}

func (p *ConstantPage) decodeLevels(repBuf, defBuf []byte) error {
	l := p.Layout
	var err error
	if len(repBuf) > 0 {
		if p.Levels.Rep, err = constLevels(l.GetRepCompression(), repBuf, l.GetNumRepValues()); err != nil {
			return fmt.Errorf("repetition levels: %w", err)
		}
	}
	if len(defBuf) > 0 {
		if p.Levels.Def, err = constLevels(l.GetDefCompression(), defBuf, l.GetNumDefValues()); err != nil {
			return fmt.Errorf("definition levels: %w", err)
		}
	}
	switch {
	case p.Levels.Rep != nil:
		p.Levels.N = len(p.Levels.Rep)
	case p.Levels.Def != nil:
		p.Levels.N = len(p.Levels.Def)
	default:
		p.Levels.N = int(p.NumRows)
		if p.Set.HasLists() {
			return fmt.Errorf("%w: constant list page without levels", ErrCorrupt)
		}
		// All null without levels: every row is null at the outer-most
		// layer; DecodeRows synthesizes those levels for the rows asked.
		p.allNullRows = p.Layout.InlineValue == nil && p.Set.MaxDef > 0
	}
	if p.Levels.Rep != nil && p.Levels.Def != nil && len(p.Levels.Rep) != len(p.Levels.Def) {
		return fmt.Errorf("%w: %d repetition and %d definition levels", ErrCorrupt, len(p.Levels.Rep), len(p.Levels.Def))
	}
	return p.Levels.check(p.Set)
}

func constLevels(enc *pb.CompressiveEncoding, b []byte, n uint64) ([]uint16, error) {
	if enc == nil {
		if len(b)%2 != 0 {
			return nil, fmt.Errorf("%w: raw levels of odd length %d", ErrCorrupt, len(b))
		}
		return rawLevels(b), nil
	}
	if n > uint64(len(b))*255*8+1024 {
		return nil, fmt.Errorf("%w: %d levels in %d bytes", ErrCorrupt, n, len(b))
	}
	return decodeLevels(enc, b, n)
}

func (p *ConstantPage) decodeValue(inline, buf []byte, leaf arrow.DataType) error {
	switch {
	case inline != nil:
		if len(inline) > 32 {
			return fmt.Errorf("%w: inline constant of %d bytes", ErrCorrupt, len(inline))
		}
		b := codecs.Block{Kind: codecs.KindFixed, NumValues: 1, BitsPerValue: uint64(len(inline)) * 8, Data: inline}
		if leaf != nil && leaf.ID() == arrow.BOOL {
			b.BitsPerValue, b.Data = 1, []byte{inline[0] & 1}
		}
		p.Value = &b
	case buf != nil:
		b, err := parseConstantBuffers(buf)
		if err != nil {
			return err
		}
		p.Value = &b
	}
	return nil
}

// parseConstantBuffers reads `[u32 n][u32 size × n][buffers]` holding one
// value; two buffers mean u32 offsets then bytes (a string or binary).
func parseConstantBuffers(b []byte) (codecs.Block, error) {
	r := byteReader{b: b}
	n := r.u32()
	if n == 0 || n > 4 {
		return codecs.Block{}, fmt.Errorf("%w: constant value with %d buffers", ErrUnsupported, n)
	}
	sizes := make([]uint64, n)
	for i := range sizes {
		sizes[i] = r.u32()
	}
	parts := make([][]byte, n)
	for i, s := range sizes {
		parts[i] = r.take(s)
	}
	if r.err != nil {
		return codecs.Block{}, r.err
	}
	switch n {
	case 1:
		return codecs.Block{Kind: codecs.KindFixed, NumValues: 1, BitsPerValue: uint64(len(parts[0])) * 8, Data: parts[0]}, nil
	case 2:
		if len(parts[0]) == 16 { // large string/binary: u64 offsets
			lo, hi := binary.LittleEndian.Uint64(parts[0]), binary.LittleEndian.Uint64(parts[0][8:])
			if hi < lo || hi > uint64(len(parts[1])) {
				return codecs.Block{}, fmt.Errorf("%w: constant string offsets", ErrCorrupt)
			}
			return codecs.Block{Kind: codecs.KindVariable, NumValues: 1, Offsets: parts[0], OffsetBits: 64, Data: parts[1]}, nil
		}
		if len(parts[0]) != 8 || binary.LittleEndian.Uint32(parts[0][4:]) < binary.LittleEndian.Uint32(parts[0]) ||
			uint64(binary.LittleEndian.Uint32(parts[0][4:])) > uint64(len(parts[1])) {
			return codecs.Block{}, fmt.Errorf("%w: constant string offsets", ErrCorrupt)
		}
		return codecs.Block{Kind: codecs.KindVariable, NumValues: 1, Offsets: parts[0], OffsetBits: 32, Data: parts[1]}, nil
	}
	return codecs.Block{}, fmt.Errorf("%w: constant value with %d buffers", ErrUnsupported, n)
}

func (p *ConstantPage) indexRows() error {
	if !p.Set.HasLists() {
		if uint64(p.Levels.N) != p.NumRows {
			return fmt.Errorf("%w: constant page has %d entries for %d rows", ErrCorrupt, p.Levels.N, p.NumRows)
		}
		return nil
	}
	for i, r := range p.Levels.Rep {
		if r == p.Set.MaxRep {
			p.rowStart = append(p.rowStart, i)
		}
	}
	if uint64(len(p.rowStart)) != p.NumRows {
		return fmt.Errorf("%w: constant page has %d rows in levels, %d in metadata", ErrCorrupt, len(p.rowStart), p.NumRows)
	}
	p.rowStart = append(p.rowStart, p.Levels.N)
	return nil
}

// DecodeRows appends the levels and values of page rows [from, to).
func (p *ConstantPage) DecodeRows(from, to uint64, lv *Levels, vals *Values, leaf arrow.DataType) error {
	if from >= to || to > p.NumRows {
		return fmt.Errorf("%w: rows [%d,%d) of a page of %d", ErrCorrupt, from, to, p.NumRows)
	}
	lo, hi := int(from), int(to)
	if p.rowStart != nil {
		lo, hi = p.rowStart[from], p.rowStart[to]
	}
	var part Levels
	if p.allNullRows {
		part = Levels{N: hi - lo, Def: make([]uint16, hi-lo)}
		for i := range part.Def {
			part.Def[i] = p.Set.MaxDef
		}
	} else {
		part = sliceLevels(p.Levels, lo, hi)
	}
	n := visibleBefore(part, part.N, p.Set.MaxVisibleDef)
	appendLevels(lv, part)
	if p.Value == nil {
		return appendNulls(vals, n, leaf)
	}
	vals.InitShape(p.Value)
	for i := 0; i < n; i++ {
		if err := vals.Append(p.Value, 0, 1); err != nil {
			return err
		}
	}
	return nil
}

// ---- Encoding (2.2 ConstantLayout pages).

// ConstantValue returns the single fixed-width value (at most 32 bytes;
// booleans as one byte) shared by every non-null value of v, if there is
// at least one non-null value and no other.
func ConstantValue(v *codecs.Values) ([]byte, bool) {
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
	case codecs.ValBool:
		bit := func(i int) byte { return (v.Data[i/8] >> (i % 8)) & 1 }
		for i := first + 1; i < v.N; i++ {
			if (v.Valid == nil || v.Valid[i]) && bit(i) != bit(first) {
				return nil, false
			}
		}
		return []byte{bit(first)}, true
	case codecs.ValFixed:
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

// EncodeConstant writes a ConstantLayout with an inline value and, when
// the page has levels, raw u16 [rep][def] buffers (rep empty without
// lists), as Lance 2.2 does.
func EncodeConstant(s *Shredded, value []byte) *EncodedPage {
	l := &pb.ConstantLayout{Layers: s.Layers, InlineValue: value}
	var bufs [][]byte
	if s.Rep != nil || s.Def != nil {
		bufs = [][]byte{U16Bytes(s.Rep), U16Bytes(s.Def)}
	}
	return &EncodedPage{Buffers: bufs, NumRows: uint64(s.NumRows), Desc: "constant",
		Layout: &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: l}}}
}

// ConstantString returns the value buffer of a page of identical non-null
// strings or binaries with 32-bit offsets and no levels:
// [u32 2][u32 8][u32 len][offsets u32 0, len][bytes] (the only verified
// form; pages with levels or 64-bit offsets are not made constant).
func ConstantString(s *Shredded, v *codecs.Values) ([]byte, bool) {
	if v.Kind != codecs.ValVariable || v.Large || v.Valid != nil || v.N == 0 || s.Rep != nil || s.Def != nil {
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

// EncodeConstantBuffer writes a ConstantLayout whose value is in buffer 0.
func EncodeConstantBuffer(s *Shredded, value []byte) *EncodedPage {
	l := &pb.ConstantLayout{Layers: s.Layers}
	return &EncodedPage{Buffers: [][]byte{value}, NumRows: uint64(s.NumRows), Desc: "constant",
		Layout: &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: l}}}
}
