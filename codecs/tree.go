package codecs

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// errNotHere reports a valid codec used in a context that does not allow it.
func errNotHere(ctx string, enc *pb.CompressiveEncoding) error {
	return fmt.Errorf("%w: %s is not valid in %s context", ErrUnsupported, Describe(enc), ctx)
}

// errUnknown reports an encoding with no (known) oneof variant set.
func errUnknown(enc *pb.CompressiveEncoding) error {
	if enc == nil {
		return fmt.Errorf("%w: missing compressive encoding", ErrCorrupt)
	}
	if n := unknownField(enc); n > 0 {
		return fmt.Errorf("%w: unknown compressive encoding variant (field %d)", ErrUnsupported, n)
	}
	return fmt.Errorf("%w: compressive encoding has no variant set", ErrCorrupt)
}

// errDictionary rejects the Dictionary compressive encoding.
func errDictionary() error {
	return fmt.Errorf("%w: dictionary compressive encoding is not used by Lance 2.1/2.2 (dictionaries are structural)", ErrUnsupported)
}

// unknownField returns the field number of the first unknown field of enc.
func unknownField(enc *pb.CompressiveEncoding) protowire.Number {
	raw := enc.ProtoReflect().GetUnknown()
	if len(raw) == 0 {
		return 0
	}
	num, _, n := protowire.ConsumeTag(raw)
	if n < 0 {
		return 0
	}
	return num
}

// checkDepth bounds recursion through nested encodings.
func checkDepth(depth int) error {
	if depth > maxTreeDepth {
		return fmt.Errorf("%w: encoding tree deeper than %d", ErrCorrupt, maxTreeDepth)
	}
	return nil
}

// offsetBitsOf validates a Variable encoding (offsets Flat 32/64, no buffer
// compression slot) and returns the offset width.
func offsetBitsOf(v *pb.Variable) (int, error) {
	if v.GetValues() != nil {
		return 0, fmt.Errorf("%w: variable: buffer compression slot is set", ErrUnsupported)
	}
	f, err := flatOf("variable offsets", v.GetOffsets())
	if err != nil {
		return 0, err
	}
	if b := f.GetBitsPerValue(); b != 32 && b != 64 {
		return 0, fmt.Errorf("%w: variable: offset width %d not 32 or 64", ErrCorrupt, b)
	}
	return int(f.GetBitsPerValue()), nil
}

// inlineWidth validates an InlineBitpacking encoding and returns its word width.
func inlineWidth(ib *pb.InlineBitpacking) (int, error) {
	if ib.GetValues() != nil {
		return 0, fmt.Errorf("%w: inline bitpacking: buffer compression slot is set", ErrUnsupported)
	}
	t := ib.GetUncompressedBitsPerValue()
	if t != 8 && t != 16 && t != 32 && t != 64 {
		return 0, fmt.Errorf("%w: inline bitpacking: word width %d not in {8,16,32,64}", ErrCorrupt, t)
	}
	return int(t), nil
}

// rleWidths returns the value and run-length widths of an Rle encoding.
func rleWidths(r *pb.Rle) (int, int, error) {
	v, err := flatOf("rle values", r.GetValues())
	if err != nil {
		return 0, 0, err
	}
	l, err := flatOf("rle run lengths", r.GetRunLengths())
	if err != nil {
		return 0, 0, err
	}
	vb, lb := v.GetBitsPerValue(), l.GetBitsPerValue()
	if vb > 128 || lb > 32 {
		return 0, 0, fmt.Errorf("%w: rle: widths %d/%d out of range", ErrCorrupt, vb, lb)
	}
	return int(vb), int(lb), checkRLEWidths(int(vb), int(lb))
}

// bssWidth returns the value width of a ByteStreamSplit encoding.
func bssWidth(b *pb.ByteStreamSplit) (int, error) {
	f, err := flatOf("byte stream split", b.GetValues())
	if err != nil {
		return 0, err
	}
	if w := f.GetBitsPerValue(); w != 32 && w != 64 {
		return 0, fmt.Errorf("%w: byte stream split: value width %d not 32 or 64", ErrCorrupt, w)
	}
	return int(f.GetBitsPerValue()), nil
}

// fixedBlock wraps decoded fixed-width bytes.
func fixedBlock(data []byte, bitsPer int, n uint64) Block {
	return Block{Kind: KindFixed, NumValues: n, BitsPerValue: uint64(bitsPer), Data: data}
}
