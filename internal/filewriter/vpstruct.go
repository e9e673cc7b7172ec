package filewriter

import (
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lebits"
	"github.com/lancego/lancego/internal/lerr"
)

// fixedField is a VariablePackedStruct field of raw fixed-width bytes.
func fixedField(bits int) *pb.VariablePackedStruct_FieldEncoding {
	return &pb.VariablePackedStruct_FieldEncoding{Value: flatEnc(uint64(bits)),
		Layout: &pb.VariablePackedStruct_FieldEncoding_BitsPerValue{BitsPerValue: uint64(bits)}}
}

// varField is a VariablePackedStruct field stored as [length][bytes].
func varField(lenBits int) *pb.VariablePackedStruct_FieldEncoding {
	return &pb.VariablePackedStruct_FieldEncoding{Value: variableCodec{offsetBits: lenBits}.encoding(),
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
	bitsRep, bitsDef := bits.Len16(maxLevel(s.rep)), bits.Len16(maxLevel(s.def))
	cw := controlWordBytes(bitsRep + bitsDef)
	l := &pb.FullZipLayout{BitsRep: uint32(bitsRep), BitsDef: uint32(bitsDef), NumItems: uint32(s.numItems()),
		NumVisibleItems: uint32(rows.n), Layers: layers, ValueCompression: enc,
		Details: &pb.FullZipLayout_BitsPerOffset{BitsPerOffset: 32}}
	valueAt := func(j int, dst []byte) []byte {
		if !rows.valid[j] {
			return dst
		}
		val := rows.data[rows.offsets[j]:rows.offsets[j+1]]
		dst = lebits.AppendUint(dst, uint64(len(val)), 4)
		return append(dst, val...)
	}
	data, starts := zipEntries(s, cw, bitsDef, s.numItems()*cw+len(rows.data)+4*rows.n, valueAt)
	return &encodedPage{buffers: [][]byte{data, bytePack(starts, uint64(len(data)))}, numRows: uint64(s.numRows),
		desc: "fullzip/" + desc, layout: &pb.PageLayout{Layout: &pb.PageLayout_FullZipLayout{FullZipLayout: l}}}
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
		case k.kind == valFixed:
			fields = append(fields, fixedField(k.bits))
		case k.kind == valVariable && k.large:
			fields = append(fields, varField(64))
		case k.kind == valVariable:
			fields = append(fields, varField(32))
		default:
			return nil, fmt.Errorf("%w: packed struct child of kind %d", lerr.ErrUnsupportedType, k.kind)
		}
	}
	rows := &values{kind: valVariable, n: len(s.idx), offsets: make([]uint64, 1, len(s.idx)+1), valid: make([]bool, len(s.idx))}
	for j, i := range s.idx {
		if i >= 0 && st.IsValid(i) {
			rows.valid[j] = true
			rows.data = appendPackedRow(rows.data, kids, j)
		}
		rows.offsets = append(rows.offsets, uint64(len(rows.data)))
	}
	return encodeVPRows(s, rows, vpsEnc(fields), s.layers, "variable_packed_struct"), nil
}

// appendPackedRow appends row j of the children.
func appendPackedRow(dst []byte, kids []*values, j int) []byte {
	for _, k := range kids {
		if k.kind == valFixed {
			w := k.bits / 8
			dst = append(dst, k.data[j*w:(j+1)*w]...)
			continue
		}
		lw := 4
		if k.large {
			lw = 8
		}
		dst = lebits.AppendUint(dst, k.valueLen(j), lw)
		dst = append(dst, k.data[k.offsets[j]:k.offsets[j+1]]...)
	}
	return dst
}
