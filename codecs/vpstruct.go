package codecs

import (
	"fmt"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// vpsField is one parsed VariablePackedStruct field.
type vpsField struct {
	enc     *pb.CompressiveEncoding
	fixed   bool
	width   uint64 // bytes per value (fixed) or per length prefix (variable)
	data    []byte
	offsets []byte
	lenBits int
}

// parseVPSFields validates the field list of a VariablePackedStruct.
func parseVPSFields(v *pb.VariablePackedStruct) ([]vpsField, error) {
	fs := v.GetFields()
	if len(fs) == 0 {
		return nil, fmt.Errorf("%w: variable packed struct: no fields", ErrCorrupt)
	}
	out := make([]vpsField, len(fs))
	for i, f := range fs {
		out[i].enc = f.GetValue()
		switch l := f.GetLayout().(type) {
		case *pb.VariablePackedStruct_FieldEncoding_BitsPerValue:
			if l.BitsPerValue%8 != 0 || l.BitsPerValue > 1<<20 {
				return nil, fmt.Errorf("%w: variable packed struct: field %d fixed width %d bits not byte-aligned", ErrCorrupt, i, l.BitsPerValue)
			}
			out[i].fixed, out[i].width = true, l.BitsPerValue/8
		case *pb.VariablePackedStruct_FieldEncoding_BitsPerLength:
			if l.BitsPerLength != 32 && l.BitsPerLength != 64 {
				return nil, fmt.Errorf("%w: variable packed struct: field %d length width %d not 32 or 64", ErrCorrupt, i, l.BitsPerLength)
			}
			out[i].width, out[i].lenBits = l.BitsPerLength/8, int(l.BitsPerLength)
		default:
			return nil, fmt.Errorf("%w: variable packed struct: field %d has no layout", ErrCorrupt, i)
		}
	}
	return out, nil
}

// decodeVariablePackedStruct splits each row of in into its fields (fixed:
// raw bytes; variable: [u32|u64 length][bytes]) and decodes every child.
func decodeVariablePackedStruct(d *Decompressor, v *pb.VariablePackedStruct, in Block, depth int) (Block, error) {
	if err := checkVariable("variable packed struct", in); err != nil {
		return Block{}, err
	}
	fields, err := parseVPSFields(v)
	if err != nil {
		return Block{}, err
	}
	for i := range fields {
		if !fields[i].fixed {
			fields[i].offsets = appendUint(nil, 0, fields[i].lenBits)
		}
	}
	for r := uint64(0); r < in.NumValues; r++ {
		if err := splitVPSRow(fields, valueAt(in, r), r); err != nil {
			return Block{}, err
		}
	}
	out := Block{Kind: KindStruct, NumValues: in.NumValues, Children: make([]Block, len(fields))}
	for i, f := range fields {
		var child Block
		if f.fixed {
			child, err = decodeFullZipFixed(f.enc, f.data, in.NumValues)
		} else {
			vb := Block{Kind: KindVariable, NumValues: in.NumValues, OffsetBits: f.lenBits, Offsets: f.offsets, Data: f.data}
			child, err = decodePerValue(d, f.enc, vb, depth+1)
		}
		if err != nil {
			return Block{}, fmt.Errorf("variable packed struct field %d: %w", i, err)
		}
		out.Children[i] = child
	}
	return out, nil
}

// splitVPSRow appends one row's field bytes to the field accumulators.
func splitVPSRow(fields []vpsField, row []byte, r uint64) error {
	for i := range fields {
		f := &fields[i]
		if uint64(len(row)) < f.width {
			return fmt.Errorf("%w: variable packed struct: row %d field %d needs %d bytes, %d left", ErrCorrupt, r, i, f.width, len(row))
		}
		if f.fixed {
			f.data = append(f.data, row[:f.width]...)
			row = row[f.width:]
			continue
		}
		n := readUint(row, 0, f.lenBits)
		row = row[f.width:]
		if n > uint64(len(row)) {
			return fmt.Errorf("%w: variable packed struct: row %d field %d length %d exceeds %d remaining bytes", ErrCorrupt, r, i, n, len(row))
		}
		f.data = append(f.data, row[:n]...)
		if f.lenBits == 32 && uint64(len(f.data)) > 0xFFFFFFFF {
			return fmt.Errorf("%w: variable packed struct: field %d overflows 32-bit offsets", ErrCorrupt, i)
		}
		f.offsets = appendUint(f.offsets, uint64(len(f.data)), f.lenBits)
		row = row[n:]
	}
	if len(row) != 0 {
		return fmt.Errorf("%w: variable packed struct: row %d has %d unparsed bytes", ErrCorrupt, r, len(row))
	}
	return nil
}
