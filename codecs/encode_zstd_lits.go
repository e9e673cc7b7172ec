package codecs

import (
	"encoding/binary"

	"github.com/klauspost/compress/huff0"
)

// zstd frames made of Huffman-coded literal blocks only.
//
// libzstd, which Lance writes with, Huffman-codes a block's literals when
// that saves about 1/64 of them; klauspost's encoder wants 1/16 and keeps
// the rest raw. On data with no matches but a skewed byte histogram (small
// offsets beside random bytes) libzstd then shrinks a buffer a few percent
// where klauspost does not, and Lance's "keep general compression only if
// it shrinks" check decides differently for the two writers. This frame
// writer closes that gap: no match finding, each block's bytes become one
// compressed literals section with any saving at all, and zero sequences.
// Any zstd decoder reads the frames (RFC 8878 §3.1).

const (
	zstdFrameMagic       = 0xFD2FB528
	zstdMaxBlockSize     = 128 << 10
	zstdLitsFrameMaxSize = 8 << 20 // single-segment frames: content size is the window
	zstdBlockRaw         = 0
	zstdBlockRLE         = 1
	zstdBlockCompressed  = 2
	zstdLitsCompressed   = 2
)

// appendZstdLiteralsFrame appends to dst a zstd frame holding src, every
// block a raw, RLE or Huffman-literals block, whichever is smallest. sc is
// the Huffman scratch (nil: one is made). ok is false when src is too big
// for a single-segment frame.
func appendZstdLiteralsFrame(dst, src []byte, sc *huff0.Scratch) (out []byte, ok bool) {
	if len(src) > zstdLitsFrameMaxSize {
		return dst, false
	}
	if sc == nil {
		sc = &huff0.Scratch{}
	}
	sc.WantLogLess = 0
	sc.Reuse = huff0.ReusePolicyNone
	dst = binary.LittleEndian.AppendUint32(dst, zstdFrameMagic)
	dst = appendZstdSingleSegmentHeader(dst, len(src))
	for off := 0; ; {
		end := min(off+zstdMaxBlockSize, len(src))
		dst = appendZstdLiteralsBlock(dst, src[off:end], end == len(src), sc)
		if end == len(src) {
			return dst, true
		}
		off = end
	}
}

// appendZstdSingleSegmentHeader appends the frame header descriptor and
// the frame content size of a single-segment frame without checksum or
// dictionary.
func appendZstdSingleSegmentHeader(dst []byte, n int) []byte {
	const singleSegment = 1 << 5
	switch {
	case n < 256:
		return append(dst, singleSegment, byte(n))
	case n < 65536+256:
		dst = append(dst, 1<<6|singleSegment)
		return binary.LittleEndian.AppendUint16(dst, uint16(n-256))
	default:
		dst = append(dst, 2<<6|singleSegment)
		return binary.LittleEndian.AppendUint32(dst, uint32(n))
	}
}

// appendZstdBlockHeader appends a 3-byte block header.
func appendZstdBlockHeader(dst []byte, last bool, typ, size int) []byte {
	h := uint32(size)<<3 | uint32(typ)<<1
	if last {
		h |= 1
	}
	return append(dst, byte(h), byte(h>>8), byte(h>>16))
}

// appendZstdLiteralsBlock appends b as one block, following libzstd's
// rules for literals at the default levels: fewer than 64 bytes stay raw,
// fewer than 256 make one Huffman stream, and Huffman coding (and the
// compressed block as a whole) must save zstdMinGain.
func appendZstdLiteralsBlock(dst, b []byte, last bool, sc *huff0.Scratch) []byte {
	var (
		huff []byte
		err  error
	)
	single := len(b) < 256
	switch {
	case len(b) < 64:
		err = huff0.ErrIncompressible
	case single:
		huff, _, err = huff0.Compress1X(b, sc)
	default:
		huff, _, err = huff0.Compress4X(b, sc)
	}
	if err == huff0.ErrUseRLE {
		dst = appendZstdBlockHeader(dst, last, zstdBlockRLE, len(b))
		return append(dst, b[0])
	}
	var lh []byte
	if err == nil {
		lh = zstdLiteralsHeader(len(huff), len(b), single)
	}
	maxSize := len(b) - zstdMinGain(len(b))
	if err != nil || len(huff) >= maxSize || len(lh)+len(huff)+1 >= maxSize {
		dst = appendZstdBlockHeader(dst, last, zstdBlockRaw, len(b))
		return append(dst, b...)
	}
	dst = appendZstdBlockHeader(dst, last, zstdBlockCompressed, len(lh)+len(huff)+1)
	dst = append(dst, lh...)
	dst = append(dst, huff...)
	return append(dst, 0) // no sequences
}

// zstdMinGain is the saving libzstd requires of an entropy-coded section
// of n bytes at levels below btultra.
func zstdMinGain(n int) int { return n>>6 + 2 }

// zstdLiteralsHeader is the header of a compressed literals section of
// regenerated size n whose Huffman table and streams take comp bytes
// (RFC 8878 §3.1.1.3.1.1): sizes of 10, 10, 14 or 18 bits each.
func zstdLiteralsHeader(comp, n int, single bool) []byte {
	var format, bits, size int
	switch {
	case single && n < 1<<10:
		format, bits, size = 0, 10, 3
	case n < 1<<10 && comp < 1<<10:
		format, bits, size = 1, 10, 3
	case n < 1<<14 && comp < 1<<14:
		format, bits, size = 2, 14, 4
	default:
		format, bits, size = 3, 18, 5
	}
	h := uint64(zstdLitsCompressed) | uint64(format)<<2 | uint64(n)<<4 | uint64(comp)<<(4+bits)
	out := make([]byte, size)
	for i := range out {
		out[i] = byte(h >> (8 * i))
	}
	return out
}
