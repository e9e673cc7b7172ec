package codecs

import (
	"fmt"
	"strings"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// describe renders enc at the given depth.
func describe(enc *pb.CompressiveEncoding, depth int) string {
	if depth > maxTreeDepth {
		return "…"
	}
	sub := func(e *pb.CompressiveEncoding) string { return describe(e, depth+1) }
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_Flat:
		return fmt.Sprintf("flat(%d%s)", c.Flat.GetBitsPerValue(), slot(c.Flat.GetData()))
	case *pb.CompressiveEncoding_Variable:
		return fmt.Sprintf("variable(offsets=%s%s)", sub(c.Variable.GetOffsets()), slot(c.Variable.GetValues()))
	case *pb.CompressiveEncoding_Constant:
		if c.Constant.Value == nil {
			return "constant(null)"
		}
		return fmt.Sprintf("constant(%dB)", len(c.Constant.GetValue()))
	case *pb.CompressiveEncoding_OutOfLineBitpacking:
		o := c.OutOfLineBitpacking
		return fmt.Sprintf("out_of_line_bitpacking(%d, values=%s)", o.GetUncompressedBitsPerValue(), sub(o.GetValues()))
	case *pb.CompressiveEncoding_InlineBitpacking:
		return fmt.Sprintf("inline_bitpacking(%d%s)", c.InlineBitpacking.GetUncompressedBitsPerValue(), slot(c.InlineBitpacking.GetValues()))
	case *pb.CompressiveEncoding_Fsst:
		return fmt.Sprintf("fsst(symtab=%dB, %s)", len(c.Fsst.GetSymbolTable()), sub(c.Fsst.GetValues()))
	case *pb.CompressiveEncoding_Dictionary:
		dc := c.Dictionary
		return fmt.Sprintf("dictionary(indices=%s, items=%s, n=%d)", sub(dc.GetIndices()), sub(dc.GetItems()), dc.GetNumDictionaryItems())
	case *pb.CompressiveEncoding_Rle:
		return fmt.Sprintf("rle(values=%s, runs=%s)", sub(c.Rle.GetValues()), sub(c.Rle.GetRunLengths()))
	case *pb.CompressiveEncoding_ByteStreamSplit:
		return fmt.Sprintf("byte_stream_split(%s)", sub(c.ByteStreamSplit.GetValues()))
	case *pb.CompressiveEncoding_General:
		return fmt.Sprintf("general(%s, %s)", schemeName(c.General.GetCompression()), sub(c.General.GetValues()))
	case *pb.CompressiveEncoding_FixedSizeList:
		return describeFSL(c.FixedSizeList, sub)
	case *pb.CompressiveEncoding_PackedStruct:
		return describePacked(c.PackedStruct, sub)
	case *pb.CompressiveEncoding_VariablePackedStruct:
		return describeVPS(c.VariablePackedStruct, sub)
	case *pb.CompressiveEncoding_Range:
		r := c.Range
		return fmt.Sprintf("range(%d, start=%d, step=%d)", r.GetUncompressedBitsPerValue(), r.GetStart(), r.GetStep())
	case *pb.CompressiveEncoding_Delta:
		dl := c.Delta
		return fmt.Sprintf("delta(%d, base=%d, deltas=%s)", dl.GetUncompressedBitsPerValue(), dl.GetBase(), sub(dl.GetDeltas()))
	case *pb.CompressiveEncoding_Alp:
		return fmt.Sprintf("alp(%d)", c.Alp.GetBitsPerValue())
	case *pb.CompressiveEncoding_Pcodec:
		return fmt.Sprintf("pcodec(level=%d, values=%s)", c.Pcodec.GetCompressionLevel(), sub(c.Pcodec.GetValues()))
	case *pb.CompressiveEncoding_AxisDelta:
		a := c.AxisDelta
		return fmt.Sprintf("axis_delta(axis=%d, stride=%d, values=%s)", a.GetAxisLength(), a.GetInnerStride(), sub(a.GetValues()))
	case nil:
		if enc == nil {
			return "<nil>"
		}
		if n := unknownField(enc); n > 0 {
			return fmt.Sprintf("unknown(field %d)", n)
		}
		return "<empty>"
	}
	return "?"
}

// slot renders a (normally absent) BufferCompression slot.
func slot(bc *pb.BufferCompression) string {
	if bc == nil {
		return ""
	}
	return ", compressed=" + schemeName(bc)
}

// schemeName renders a BufferCompression as "lz4", "zstd" or "zstd:3".
func schemeName(bc *pb.BufferCompression) string {
	var s string
	switch bc.GetScheme() {
	case pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4:
		s = "lz4"
	case pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD:
		s = "zstd"
	default:
		s = fmt.Sprintf("scheme%d", int32(bc.GetScheme()))
	}
	if bc != nil && bc.Level != nil {
		s += fmt.Sprintf(":%d", bc.GetLevel())
	}
	return s
}

func describeFSL(f *pb.FixedSizeList, sub func(*pb.CompressiveEncoding) string) string {
	v := ""
	if f.GetHasValidity() {
		v = ", validity"
	}
	return fmt.Sprintf("fixed_size_list(%d%s, %s)", f.GetItemsPerValue(), v, sub(f.GetValues()))
}

func describePacked(p *pb.PackedStruct, sub func(*pb.CompressiveEncoding) string) string {
	ws := make([]string, len(p.GetBitsPerValue()))
	for i, w := range p.GetBitsPerValue() {
		ws[i] = fmt.Sprint(w)
	}
	return fmt.Sprintf("packed_struct([%s], %s)", strings.Join(ws, ","), sub(p.GetValues()))
}

func describeVPS(v *pb.VariablePackedStruct, sub func(*pb.CompressiveEncoding) string) string {
	parts := make([]string, len(v.GetFields()))
	for i, f := range v.GetFields() {
		switch l := f.GetLayout().(type) {
		case *pb.VariablePackedStruct_FieldEncoding_BitsPerLength:
			parts[i] = fmt.Sprintf("len%d:%s", l.BitsPerLength, sub(f.GetValue()))
		default:
			parts[i] = sub(f.GetValue())
		}
	}
	return "variable_packed_struct(" + strings.Join(parts, ", ") + ")"
}
