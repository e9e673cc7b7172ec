package codecs

import (
	"fmt"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// MiniBlockBufferCount returns how many value buffers a mini-block chunk
// encoded with enc carries (1 for most codecs, 2 for RLE, 0 for Constant,
// validity layers + 1 for FixedSizeList).
func MiniBlockBufferCount(enc *pb.CompressiveEncoding) (int, error) {
	for depth := 0; depth <= maxTreeDepth; depth++ {
		switch c := enc.GetCompression().(type) {
		case *pb.CompressiveEncoding_General:
			enc = c.General.GetValues()
			continue
		case *pb.CompressiveEncoding_Rle:
			return 2, nil
		case *pb.CompressiveEncoding_Constant:
			return 0, nil
		case *pb.CompressiveEncoding_FixedSizeList:
			s, err := parseFSL(enc)
			if err != nil {
				return 0, err
			}
			return s.numValidity() + 1, nil
		case *pb.CompressiveEncoding_Variable:
			if genericOffsets(c.Variable) && SequenceHasPayload(c.Variable.GetOffsets()) {
				return 2, nil // [offset payload][value bytes]
			}
			return 1, nil
		case *pb.CompressiveEncoding_Fsst:
			enc = c.Fsst.GetValues() // FSST keeps its inner codec's buffers
			continue
		case *pb.CompressiveEncoding_Flat, *pb.CompressiveEncoding_InlineBitpacking,
			*pb.CompressiveEncoding_PackedStruct, *pb.CompressiveEncoding_ByteStreamSplit:
			return 1, nil
		case *pb.CompressiveEncoding_Dictionary:
			return 0, errDictionary()
		case nil:
			return 0, errUnknown(enc)
		default:
			return 0, errNotHere("mini-block", enc)
		}
	}
	return 0, checkDepth(maxTreeDepth + 1)
}

// decodeMiniBlock is the mini-block tree walker.
func decodeMiniBlock(d *Decompressor, enc *pb.CompressiveEncoding, bufs [][]byte, n uint64, depth int) (Block, error) {
	if err := checkDepth(depth); err != nil {
		return Block{}, err
	}
	want, err := MiniBlockBufferCount(enc)
	if err != nil {
		return Block{}, err
	}
	if len(bufs) != want {
		return Block{}, fmt.Errorf("%w: mini-block: %s needs %d buffers, got %d", ErrCorrupt, Describe(enc), want, len(bufs))
	}
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_Flat:
		f, err := flatOf("flat", enc)
		if err != nil {
			return Block{}, err
		}
		return DecodeFlat(bufs[0], f.GetBitsPerValue(), n)
	case *pb.CompressiveEncoding_InlineBitpacking:
		t, err := inlineWidth(c.InlineBitpacking)
		if err != nil {
			return Block{}, err
		}
		data, err := DecodeInlineBitpacking(d.scratch(), bufs[0], t, n)
		return fixedBlock(d.keep(data), t, n), err
	case *pb.CompressiveEncoding_Variable:
		if genericOffsets(c.Variable) {
			return decodeGenericVariableChunk(c.Variable, bufs, n)
		}
		ob, err := offsetBitsOf(c.Variable)
		if err != nil {
			return Block{}, err
		}
		return DecodeVariableChunk(bufs[0], ob, n)
	case *pb.CompressiveEncoding_Fsst:
		return decodeFsst(c.Fsst, func(inner *pb.CompressiveEncoding) (Block, error) {
			return decodeMiniBlock(d, inner, bufs, n, depth+1)
		})
	case *pb.CompressiveEncoding_General:
		return decodeGeneralMiniBlock(d, c.General, bufs, n, depth)
	default:
		return decodeMiniBlockFixed(d, enc, bufs, n)
	}
}

// decodeMiniBlockFixed handles the fixed-width mini-block codecs.
func decodeMiniBlockFixed(d *Decompressor, enc *pb.CompressiveEncoding, bufs [][]byte, n uint64) (Block, error) {
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_PackedStruct:
		return decodePackedStruct(c.PackedStruct, bufs[0], n)
	case *pb.CompressiveEncoding_FixedSizeList:
		s, err := parseFSL(enc)
		if err != nil {
			return Block{}, err
		}
		return decodeFSLMiniBlock(s, bufs, n)
	case *pb.CompressiveEncoding_Rle:
		if c.Rle.GetValues().GetFlat() == nil || c.Rle.GetRunLengths().GetFlat() == nil {
			return decodeGenericRLE(d, c.Rle, bufs, n)
		}
		vb, lb, err := rleWidths(c.Rle)
		if err != nil {
			return Block{}, err
		}
		data, err := DecodeRLE(d.scratch(), bufs[0], bufs[1], vb, lb, n)
		return fixedBlock(d.keep(data), vb, n), err
	case *pb.CompressiveEncoding_ByteStreamSplit:
		w, err := bssWidth(c.ByteStreamSplit)
		if err != nil {
			return Block{}, err
		}
		data, err := DecodeByteStreamSplit(d.scratch(), bufs[0], w, n)
		return fixedBlock(d.keep(data), w, n), err
	case *pb.CompressiveEncoding_Constant:
		return decodeConstant(c.Constant, n)
	}
	return Block{}, errNotHere("mini-block", enc)
}

// decodeGeneralMiniBlock decompresses buffer 0 of the chunk and decodes the
// result with the inner mini-block codec.
func decodeGeneralMiniBlock(d *Decompressor, g *pb.General, bufs [][]byte, n uint64, depth int) (Block, error) {
	if len(bufs) == 0 {
		return Block{}, fmt.Errorf("%w: general: inner codec has no buffer to decompress", ErrCorrupt)
	}
	raw, err := d.Decompress(nil, bufs[0], g.GetCompression().GetScheme())
	if err != nil {
		return Block{}, err
	}
	inner := append([][]byte{raw}, bufs[1:]...)
	return decodeMiniBlock(d, g.GetValues(), inner, n, depth+1)
}

// decodeFsst decodes the inner (compressed strings) with decodeInner and
// FSST-decompresses every value.
func decodeFsst(f *pb.Fsst, decodeInner func(*pb.CompressiveEncoding) (Block, error)) (Block, error) {
	tab, err := ParseFSSTTable(f.GetSymbolTable())
	if err != nil {
		return Block{}, err
	}
	inner, err := decodeInner(f.GetValues())
	if err != nil {
		return Block{}, err
	}
	return tab.DecompressBlock(inner)
}
