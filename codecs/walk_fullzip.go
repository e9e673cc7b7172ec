package codecs

import (
	"fmt"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// decodeFullZipFixed decodes concatenated fixed-width full-zip values.
func decodeFullZipFixed(enc *pb.CompressiveEncoding, data []byte, n uint64) (Block, error) {
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_Flat:
		f, err := flatOf("flat", enc)
		if err != nil {
			return Block{}, err
		}
		return DecodeFlat(data, f.GetBitsPerValue(), n)
	case *pb.CompressiveEncoding_FixedSizeList:
		s, err := parseFSL(enc)
		if err != nil {
			return Block{}, err
		}
		return decodeFSLZipped(s, data, n)
	case *pb.CompressiveEncoding_Constant:
		return decodeConstant(c.Constant, n)
	case *pb.CompressiveEncoding_AxisDelta:
		return decodeAxisDeltaFixed(c.AxisDelta, data, n)
	case *pb.CompressiveEncoding_Dictionary:
		return Block{}, errDictionary()
	case nil:
		return Block{}, errUnknown(enc)
	}
	return Block{}, errNotHere("full-zip fixed", enc)
}

// decodePerValue decodes a variable-width block of independently encoded
// values (full-zip variable).
func decodePerValue(d *Decompressor, enc *pb.CompressiveEncoding, in Block, depth int) (Block, error) {
	if err := checkDepth(depth); err != nil {
		return Block{}, err
	}
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_Variable:
		if _, err := offsetBitsOf(c.Variable); err != nil {
			return Block{}, err
		}
		return in, checkVariable("variable", in)
	case *pb.CompressiveEncoding_Fsst:
		return decodeFsst(c.Fsst, func(inner *pb.CompressiveEncoding) (Block, error) {
			return decodePerValue(d, inner, in, depth+1)
		})
	case *pb.CompressiveEncoding_General:
		raw, err := decompressEach(d, c.General.GetCompression().GetScheme(), in)
		if err != nil {
			return Block{}, err
		}
		return decodePerValue(d, c.General.GetValues(), raw, depth+1)
	case *pb.CompressiveEncoding_VariablePackedStruct:
		return decodeVariablePackedStruct(d, c.VariablePackedStruct, in, depth)
	case *pb.CompressiveEncoding_AxisDelta:
		return decodeAxisDeltaPerValue(c.AxisDelta, in)
	case *pb.CompressiveEncoding_Dictionary:
		return Block{}, errDictionary()
	case nil:
		return Block{}, errUnknown(enc)
	}
	return Block{}, errNotHere("full-zip variable", enc)
}

// decompressEach decompresses every value of in independently.
func decompressEach(d *Decompressor, scheme pb.CompressionScheme, in Block) (Block, error) {
	if err := checkVariable("general", in); err != nil {
		return Block{}, err
	}
	out := Block{Kind: KindVariable, NumValues: in.NumValues, OffsetBits: in.OffsetBits}
	out.Offsets = appendUint(make([]byte, 0, len(in.Offsets)), 0, in.OffsetBits)
	var data []byte
	for i := uint64(0); i < in.NumValues; i++ {
		var err error
		if data, err = d.Decompress(data, valueAt(in, i), scheme); err != nil {
			return Block{}, fmt.Errorf("value %d: %w", i, err)
		}
		if len(data) > MaxDecodedSize || (in.OffsetBits == 32 && uint64(len(data)) > 0xFFFFFFFF) {
			return Block{}, fmt.Errorf("%w: general: decompressed values exceed the decode limit", ErrCorrupt)
		}
		out.Offsets = appendUint(out.Offsets, uint64(len(data)), in.OffsetBits)
	}
	out.Data = data
	return out, nil
}
