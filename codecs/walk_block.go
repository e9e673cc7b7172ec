package codecs

import (
	"fmt"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// decodeBlock is the block-codec tree walker (levels, dictionaries).
func decodeBlock(d *Decompressor, enc *pb.CompressiveEncoding, buf []byte, n uint64, depth int) (Block, error) {
	if err := checkDepth(depth); err != nil {
		return Block{}, err
	}
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_Flat:
		f, err := flatOf("flat", enc)
		if err != nil {
			return Block{}, err
		}
		return DecodeFlat(buf, f.GetBitsPerValue(), n)
	case *pb.CompressiveEncoding_InlineBitpacking:
		t, err := inlineWidth(c.InlineBitpacking)
		if err != nil {
			return Block{}, err
		}
		data, err := DecodeInlineBitpacking(d.scratch(), buf, t, n)
		return fixedBlock(d.keep(data), t, n), err
	case *pb.CompressiveEncoding_OutOfLineBitpacking:
		return decodeOutOfLine(d, c.OutOfLineBitpacking, buf, n)
	case *pb.CompressiveEncoding_Variable:
		if _, err := offsetBitsOf(c.Variable); err != nil {
			return Block{}, err
		}
		return DecodeVariableBlock(buf, n)
	case *pb.CompressiveEncoding_General:
		raw, err := d.Decompress(nil, buf, c.General.GetCompression().GetScheme())
		if err != nil {
			return Block{}, err
		}
		return decodeBlock(d, c.General.GetValues(), raw, n, depth+1)
	case *pb.CompressiveEncoding_Rle:
		vb, lb, err := rleWidths(c.Rle)
		if err != nil {
			return Block{}, err
		}
		data, err := DecodeRLEBlock(d.scratch(), buf, vb, lb, n)
		return fixedBlock(d.keep(data), vb, n), err
	default:
		return decodeBlockOther(enc, buf, n)
	}
}

// decodeBlockOther handles the remaining block codecs.
func decodeBlockOther(enc *pb.CompressiveEncoding, buf []byte, n uint64) (Block, error) {
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_FixedSizeList:
		s, err := parseFSL(enc)
		if err != nil {
			return Block{}, err
		}
		return decodeFSLZipped(s, buf, n)
	case *pb.CompressiveEncoding_Constant:
		return decodeConstant(c.Constant, n)
	case *pb.CompressiveEncoding_PackedStruct:
		return decodePackedStruct(c.PackedStruct, buf, n)
	case *pb.CompressiveEncoding_Dictionary:
		return Block{}, errDictionary()
	case nil:
		return Block{}, errUnknown(enc)
	}
	return Block{}, errNotHere("block", enc)
}

// decodeOutOfLine decodes OutOfLineBitpacking(values=Flat W) over T-bit words.
func decodeOutOfLine(d *Decompressor, o *pb.OutOfLineBitpacking, buf []byte, n uint64) (Block, error) {
	f, err := flatRaw("out-of-line bitpacking", o.GetValues())
	if err != nil {
		return Block{}, err
	}
	t, w := o.GetUncompressedBitsPerValue(), f.GetBitsPerValue()
	if t > 64 || w > t {
		return Block{}, fmt.Errorf("%w: out-of-line bitpacking: width %d > %d", ErrCorrupt, w, t)
	}
	data, err := DecodeOutOfLineBitpacking(d.scratch(), buf, int(t), int(w), n)
	return fixedBlock(d.keep(data), int(t), n), err
}
