package filewriter

import (
	"encoding/binary"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// levelCodec compresses rep or def levels with a block codec, chunk by chunk.
type levelCodec struct {
	enc   *pb.CompressiveEncoding
	width int  // bit-packing width (0 = flat 16 or rle)
	rle   bool // 2.2 RLE block form
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
