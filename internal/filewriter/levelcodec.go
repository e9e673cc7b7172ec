package filewriter

import (
	"encoding/binary"
	"math/bits"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// levelCodec compresses rep or def levels with a block codec, chunk by chunk.
type levelCodec struct {
	enc   *pb.CompressiveEncoding
	width int  // bit-packing width (0 = flat 16 or rle)
	rle   bool // 2.2 RLE block form
}

// chooseLevelCodec picks the block codec for a page's levels: out-of-line
// bit-packing at the page's maximum width, or (2.2) the RLE block form when
// that is smaller.
func chooseLevelCodec(levels []uint16, v format.Version) levelCodec {
	var acc uint16
	for _, l := range levels {
		acc |= l
	}
	w := bits.Len16(acc)
	packed := (len(levels)*w + 7) / 8
	if v >= format.V2_2 && levelRuns(levels)*3+8 < packed {
		return levelCodec{rle: true, enc: &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{
			Values: codecs.FlatEncoding(16), RunLengths: codecs.FlatEncoding(8)}}}}
	}
	if w == 0 || w >= 16 {
		return levelCodec{enc: codecs.FlatEncoding(16)}
	}
	return levelCodec{width: w, enc: &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{
		OutOfLineBitpacking: &pb.OutOfLineBitpacking{UncompressedBitsPerValue: 16, Values: codecs.FlatEncoding(uint64(w))}}}}
}

// levelRuns counts runs of equal levels (runs split at 255).
func levelRuns(levels []uint16) int {
	runs, n := 0, 0
	for i, l := range levels {
		if i == 0 || n == 255 || l != levels[i-1] {
			runs++
			n = 0
		}
		n++
	}
	return runs
}

// encode compresses one chunk's levels.
func (c levelCodec) encode(levels []uint16) []byte {
	var tmp []byte
	return c.encodeTo(&tmp, levels)
}

// encodeTo is encode using *tmp as scratch: the result is appended to it.
func (c levelCodec) encodeTo(tmp *[]byte, levels []uint16) []byte {
	at := len(*tmp)
	*tmp = appendU16s(*tmp, levels)
	raw := (*tmp)[at:]
	if !c.rle && c.width == 0 {
		return raw
	}
	out := len(*tmp)
	if c.rle {
		*tmp, _ = codecs.EncodeRLEBlock(*tmp, raw, 16, 8, uint64(len(levels)))
	} else {
		*tmp, _ = codecs.EncodeOutOfLineBitpacking(*tmp, raw, 16, c.width, uint64(len(levels)))
	}
	return (*tmp)[out:]
}

// appendU16s appends levels as little-endian bytes.
func appendU16s(dst []byte, levels []uint16) []byte {
	at := len(dst)
	dst = append(dst, make([]byte, 2*len(levels))...)
	out := dst[at:]
	for i, l := range levels {
		binary.LittleEndian.PutUint16(out[2*i:], l)
	}
	return dst
}

// u16Bytes returns levels as little-endian bytes.
func u16Bytes(levels []uint16) []byte {
	out := make([]byte, 2*len(levels))
	for i, l := range levels {
		binary.LittleEndian.PutUint16(out[2*i:], l)
	}
	return out
}
