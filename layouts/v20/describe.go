package v20

import (
	"fmt"
	"strings"

	pb "github.com/lancego/lancego/format/pb/encodingspb"
)

// Describe renders a 2.0 encoding tree on one line, e.g.
// "nullable(some_nulls, validity=flat(1), flat(32))".
func Describe(enc *pb.ArrayEncoding) string {
	var b strings.Builder
	describe(&b, enc, 0)
	return b.String()
}

func describe(b *strings.Builder, enc *pb.ArrayEncoding, depth int) {
	if depth > maxDepth {
		b.WriteString("…")
		return
	}
	d := func(e *pb.ArrayEncoding) { describe(b, e, depth+1) }
	switch e := enc.GetArrayEncoding().(type) {
	case *pb.ArrayEncoding_Flat:
		fmt.Fprintf(b, "flat(%d)", e.Flat.GetBitsPerValue())
		if s := e.Flat.GetCompression().GetScheme(); s != "" {
			b.WriteString("+" + s)
		}
	case *pb.ArrayEncoding_Nullable:
		switch n := e.Nullable.GetNullability().(type) {
		case *pb.Nullable_NoNulls:
			b.WriteString("nullable(no_nulls, ")
			d(n.NoNulls.GetValues())
		case *pb.Nullable_SomeNulls:
			b.WriteString("nullable(some_nulls, validity=")
			d(n.SomeNulls.GetValidity())
			b.WriteString(", ")
			d(n.SomeNulls.GetValues())
		default:
			b.WriteString("nullable(all_nulls")
		}
		b.WriteString(")")
	case *pb.ArrayEncoding_FixedSizeList:
		fmt.Fprintf(b, "fsl(%d, ", e.FixedSizeList.GetDimension())
		d(e.FixedSizeList.GetItems())
		b.WriteString(")")
	case *pb.ArrayEncoding_List:
		b.WriteString("list(offsets=")
		d(e.List.GetOffsets())
		fmt.Fprintf(b, ", items=%d, null_adjustment=%d)", e.List.GetNumItems(), e.List.GetNullOffsetAdjustment())
	case *pb.ArrayEncoding_Struct:
		b.WriteString("struct")
	case *pb.ArrayEncoding_Binary:
		b.WriteString("binary(indices=")
		d(e.Binary.GetIndices())
		b.WriteString(", bytes=")
		d(e.Binary.GetBytes())
		b.WriteString(")")
	case *pb.ArrayEncoding_Fsst:
		fmt.Fprintf(b, "fsst(table=%dB, ", len(e.Fsst.GetSymbolTable()))
		d(e.Fsst.GetBinary())
		b.WriteString(")")
	case *pb.ArrayEncoding_Dictionary:
		fmt.Fprintf(b, "dictionary(n=%d, indices=", e.Dictionary.GetNumDictionaryItems())
		d(e.Dictionary.GetIndices())
		b.WriteString(", items=")
		d(e.Dictionary.GetItems())
		b.WriteString(")")
	case *pb.ArrayEncoding_FixedSizeBinary:
		fmt.Fprintf(b, "fixed_size_binary(%d, ", e.FixedSizeBinary.GetByteWidth())
		d(e.FixedSizeBinary.GetBytes())
		b.WriteString(")")
	case *pb.ArrayEncoding_PackedStruct:
		b.WriteString("packed_struct[")
		for i, c := range e.PackedStruct.GetInner() {
			if i > 0 {
				b.WriteString(", ")
			}
			d(c)
		}
		b.WriteString("]")
	case *pb.ArrayEncoding_Bitpacked:
		fmt.Fprintf(b, "bitpacked(%d of %d bits, signed=%v)", e.Bitpacked.GetCompressedBitsPerValue(),
			e.Bitpacked.GetUncompressedBitsPerValue(), e.Bitpacked.GetSigned())
	case *pb.ArrayEncoding_BitpackedForNonNeg:
		fmt.Fprintf(b, "fastlanes(%d of %d bits)", e.BitpackedForNonNeg.GetCompressedBitsPerValue(),
			e.BitpackedForNonNeg.GetUncompressedBitsPerValue())
	case *pb.ArrayEncoding_Constant:
		fmt.Fprintf(b, "constant(%dB)", len(e.Constant.GetValue()))
	case nil:
		b.WriteString("none")
	default:
		fmt.Fprintf(b, "%T", e)
	}
}
