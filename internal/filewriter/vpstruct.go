package filewriter

import (
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lebits"
	"github.com/lancego/lancego/internal/lerr"
)

// fixedField is a VariablePackedStruct field of raw fixed-width bytes.
func fixedField(bits int) *pb.VariablePackedStruct_FieldEncoding {
	return &pb.VariablePackedStruct_FieldEncoding{Value: codecs.FlatEncoding(uint64(bits)),
		Layout: &pb.VariablePackedStruct_FieldEncoding_BitsPerValue{BitsPerValue: uint64(bits)}}
}

// varField is a VariablePackedStruct field stored as [length][bytes].
func varField(lenBits int) *pb.VariablePackedStruct_FieldEncoding {
	return &pb.VariablePackedStruct_FieldEncoding{Value: codecs.VariableEncoder{OffsetBits: lenBits}.Encoding(),
		Layout: &pb.VariablePackedStruct_FieldEncoding_BitsPerLength{BitsPerLength: uint64(lenBits)}}
}

// vpsEnc wraps fields in a VariablePackedStruct encoding.
func vpsEnc(fields []*pb.VariablePackedStruct_FieldEncoding) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_VariablePackedStruct{
		VariablePackedStruct: &pb.VariablePackedStruct{Fields: fields}}}
}

// encodeVPRows writes a full-zip page of packed rows (variable values,
// invalid = null row without bytes): per level entry a control word, then
// for each non-null visible row [u32 length][row bytes].
func encodeVPRows(s *shredded, rows *values, enc *pb.CompressiveEncoding, layers []pb.RepDefLayer, desc string) *encodedPage {
	bitsRep, bitsDef := bits.Len16(maxLevel(s.Rep)), bits.Len16(maxLevel(s.Def))
	cw := controlWordBytes(bitsRep + bitsDef)
	l := &pb.FullZipLayout{BitsRep: uint32(bitsRep), BitsDef: uint32(bitsDef), NumItems: uint32(s.NumItems()),
		NumVisibleItems: uint32(rows.N), Layers: layers, ValueCompression: enc,
		Details: &pb.FullZipLayout_BitsPerOffset{BitsPerOffset: 32}}
	valueAt := func(j int, dst []byte) []byte {
		if !rows.Valid[j] {
			return dst
		}
		val := rows.Data[rows.Offsets[j]:rows.Offsets[j+1]]
		dst = lebits.AppendUint(dst, uint64(len(val)), 4)
		return append(dst, val...)
	}
	data, starts := zipEntries(s, cw, bitsDef, s.NumItems()*cw+len(rows.Data)+4*rows.N, valueAt)
	return &encodedPage{Buffers: [][]byte{data, bytePack(starts, uint64(len(data)))}, NumRows: uint64(s.NumRows),
		Desc: "fullzip/" + desc, Layout: &pb.PageLayout{Layout: &pb.PageLayout_FullZipLayout{FullZipLayout: l}}}
}

// encodeVPStruct writes a 2.2 packed struct with variable-width children
// (Lance: PackedStructVariablePerValueEncoder): a row is each child's value
// in order, fixed children as raw bytes, variable ones as [u32|u64
// length][bytes]; null rows have no bytes. Child validity is not stored.
func encodeVPStruct(s *shredded, st *array.Struct, kids []*values, ver format.Version) (*encodedPage, error) {
	if ver < format.V2_2 {
		return nil, fmt.Errorf("%w: packed struct with variable-width children needs file version 2.2", lerr.ErrUnsupportedType)
	}
	var fields []*pb.VariablePackedStruct_FieldEncoding
	for _, k := range kids {
		switch {
		case k.Kind == valFixed:
			fields = append(fields, fixedField(k.Bits))
		case k.Kind == valVariable && k.Large:
			fields = append(fields, varField(64))
		case k.Kind == valVariable:
			fields = append(fields, varField(32))
		default:
			return nil, fmt.Errorf("%w: packed struct child of kind %d", lerr.ErrUnsupportedType, k.Kind)
		}
	}
	rows := &values{Values: codecs.Values{Kind: valVariable, N: s.NumSlots(), Offsets: make([]uint64, 1, s.NumSlots()+1), Valid: make([]bool, s.NumSlots())}}
	for j, i := range s.slots() {
		if i >= 0 && st.IsValid(i) {
			rows.Valid[j] = true
			rows.Data = appendPackedRow(rows.Data, kids, j)
		}
		rows.Offsets = append(rows.Offsets, uint64(len(rows.Data)))
	}
	return encodeVPRows(s, rows, vpsEnc(fields), s.Layers, "variable_packed_struct"), nil
}

// appendPackedRow appends row j of the children.
func appendPackedRow(dst []byte, kids []*values, j int) []byte {
	for _, k := range kids {
		if k.Kind == valFixed {
			w := k.Bits / 8
			dst = append(dst, k.Data[j*w:(j+1)*w]...)
			continue
		}
		lw := 4
		if k.Large {
			lw = 8
		}
		dst = lebits.AppendUint(dst, k.ValueLen(j), lw)
		dst = append(dst, k.Data[k.Offsets[j]:k.Offsets[j+1]]...)
	}
	return dst
}
