package codecs

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lebits"
)

// DecodeInlineBitpacking decodes numValues t-bit values stored as a sequence
// of InlineBitpacking chunks, each [width as one t-bit word][128·width bytes of
// FastLanes-packed data] covering 1024 values (the last chunk zero-padded), and
// appends them as t-bit little-endian words to dst. src must be consumed
// exactly.
func DecodeInlineBitpacking(dst, src []byte, t int, numValues uint64) ([]byte, error) {
	if err := checkWordWidth("inline bitpacking", t, 0); err != nil {
		return dst, err
	}
	wb := uint64(t / 8)
	chunks := numValues/FastLanesBlockValues + boolToU64(numValues%FastLanesBlockValues != 0)
	if chunks > uint64(len(src))/wb {
		return dst, fmt.Errorf("%w: inline bitpacking: %d values need at least %d chunk headers, buffer has %d bytes", ErrCorrupt, numValues, chunks, len(src))
	}
	// Grow dst once to its final size and unpack every chunk in place; a
	// partial last chunk goes through a scratch block (unpackTail).
	start := len(dst)
	dst = extend(dst, int(numValues*wb))
	out := dst[start:]
	blockOut := FastLanesBlockValues * int(wb)
	pos, done := 0, 0
	for left := numValues; left > 0; {
		if len(src)-pos < int(wb) {
			return dst[:start+done], fmt.Errorf("%w: inline bitpacking: buffer ends before chunk header (%d values left)", ErrCorrupt, left)
		}
		w := readUint(src[pos:], 0, t)
		if w > uint64(t) {
			return dst[:start+done], fmt.Errorf("%w: inline bitpacking: width %d > %d", ErrCorrupt, w, t)
		}
		pos += int(wb)
		need := FastLanesPackedBytes(int(w))
		if need > len(src)-pos {
			return dst[:start+done], fmt.Errorf("%w: inline bitpacking: chunk of width %d needs %d bytes, %d left", ErrCorrupt, w, need, len(src)-pos)
		}
		if left >= FastLanesBlockValues {
			fastUnpackBlock(out[done:done+blockOut], src[pos:pos+need], t, int(w))
			done += blockOut
			left -= FastLanesBlockValues
		} else {
			unpackTail(out[done:], src[pos:pos+need], t, int(w))
			done = len(out)
			left = 0
		}
		pos += need
	}
	if pos != len(src) {
		return dst, fmt.Errorf("%w: inline bitpacking: %d trailing bytes after %d values", ErrCorrupt, len(src)-pos, numValues)
	}
	return dst, nil
}

// DecodeOutOfLineBitpacking decodes numValues values bit-packed with width w
// into t-bit words: full FastLanes blocks followed by the n%1024 tail, either
// packed as a zero-padded block or stored raw (t-bit words); which one is
// inferred from len(src). Values are appended to dst as t-bit LE words.
func DecodeOutOfLineBitpacking(dst, src []byte, t, w int, numValues uint64) ([]byte, error) {
	if err := checkWordWidth("out-of-line bitpacking", t, w); err != nil {
		return dst, err
	}
	full, tail := numValues/FastLanesBlockValues, numValues%FastLanesBlockValues
	blockBytes := uint64(FastLanesPackedBytes(w))
	hi, fullBytes := bits.Mul64(full, blockBytes)
	if hi != 0 || fullBytes > uint64(len(src)) {
		return dst, fmt.Errorf("%w: out-of-line bitpacking: %d values of width %d need more than %d bytes", ErrCorrupt, numValues, w, len(src))
	}
	wb := uint64(t / 8)
	if hi, out := bits.Mul64(numValues, wb); hi != 0 || out > MaxDecodedSize {
		return dst, fmt.Errorf("%w: out-of-line bitpacking: %d values exceed the decode limit", ErrCorrupt, numValues)
	}
	rawTail := tail > 0 && uint64(len(src)) == fullBytes+tail*wb
	packedLen := fullBytes + blockBytes*boolToU64(tail > 0)
	if !rawTail && uint64(len(src)) != packedLen {
		return dst, fmt.Errorf("%w: out-of-line bitpacking: buffer of %d bytes fits neither packed (%d) nor raw tail (%d) for %d values", ErrCorrupt, len(src), packedLen, fullBytes+tail*wb, numValues)
	}
	start := len(dst)
	dst = extend(dst, int(numValues*wb))
	out := dst[start:]
	bb, blockOut := int(blockBytes), FastLanesBlockValues*int(wb)
	for b := 0; b < int(full); b++ {
		fastUnpackBlock(out[b*blockOut:], src[b*bb:], t, w)
	}
	switch {
	case tail == 0:
	case rawTail:
		copy(out[int(full)*blockOut:], src[fullBytes:])
	default:
		unpackTail(out[int(full)*blockOut:], src[fullBytes:], t, w)
	}
	return dst, nil
}

// EncodeInlineBitpacking encodes numValues t-bit LE values from src as
// InlineBitpacking chunks (one width word per 1024 values, width = bit length
// of the chunk's largest value) and appends them to dst.
func EncodeInlineBitpacking(dst, src []byte, t int, numValues uint64) ([]byte, error) {
	if err := checkWordWidth("inline bitpacking", t, 0); err != nil {
		return dst, err
	}
	wb := t / 8
	if uint64(len(src))/uint64(wb) < numValues {
		return dst, fmt.Errorf("%w: inline bitpacking: %d values need %d bytes, have %d", ErrCorrupt, numValues, numValues*uint64(wb), len(src))
	}
	for start := uint64(0); start < numValues; start += FastLanesBlockValues {
		n := min(numValues-start, FastLanesBlockValues)
		chunk := src[start*uint64(wb) : (start+n)*uint64(wb)]
		w := maxBitLen(chunk, t)
		dst = appendUint(dst, uint64(w), t)
		if n < FastLanesBlockValues {
			// The last chunk is packed zero-padded.
			var block [FastLanesBlockValues * 8]byte
			copy(block[:], chunk)
			chunk = block[:FastLanesBlockValues*wb]
		}
		dst, _ = PackFastLanes(dst, chunk, t, w)
	}
	return dst, nil
}

// EncodeOutOfLineBitpacking packs numValues t-bit LE values from src with
// width w as out-of-line blocks, choosing a packed or raw tail like the Lance
// writer (packed iff w·(1024−tail) < (t−w)·tail), and appends them to dst.
func EncodeOutOfLineBitpacking(dst, src []byte, t, w int, numValues uint64) ([]byte, error) {
	if err := checkWordWidth("out-of-line bitpacking", t, w); err != nil {
		return dst, err
	}
	wb := uint64(t / 8)
	if uint64(len(src))/wb < numValues {
		return dst, fmt.Errorf("%w: out-of-line bitpacking: %d values need %d bytes, have %d", ErrCorrupt, numValues, numValues*wb, len(src))
	}
	full, tail := numValues/FastLanesBlockValues, numValues%FastLanesBlockValues
	for b := uint64(0); b < full; b++ {
		dst, _ = PackFastLanes(dst, src[b*FastLanesBlockValues*wb:], t, w)
	}
	if tail == 0 {
		return dst, nil
	}
	rest := src[full*FastLanesBlockValues*wb : numValues*wb]
	if uint64(w)*(FastLanesBlockValues-tail) < uint64(t-w)*tail {
		var block [FastLanesBlockValues * 8]byte
		copy(block[:], rest)
		return PackFastLanes(dst, block[:FastLanesBlockValues*wb], t, w)
	}
	return append(dst, rest...), nil
}

// maxBitLen is the bit length of the largest t-bit value in src: the values
// are or-ed eight bytes at a time and the lanes of the result folded.
func maxBitLen(src []byte, t int) int {
	src = src[:len(src)/(t/8)*(t/8)]
	var acc uint64
	i := 0
	for ; i+8 <= len(src); i += 8 {
		acc |= binary.LittleEndian.Uint64(src[i:])
	}
	var tail [8]byte
	copy(tail[:], src[i:])
	acc |= binary.LittleEndian.Uint64(tail[:])
	switch t {
	case 8:
		acc |= acc >> 32
		acc |= acc >> 16
		acc = (acc | acc>>8) & 0xFF
	case 16:
		acc |= acc >> 32
		acc = (acc | acc>>16) & 0xFFFF
	case 32:
		acc = (acc | acc>>32) & 0xFFFFFFFF
	}
	return bits.Len64(acc)
}

// readUint reads the i-th t-bit little-endian word of src (t ∈ 8,16,32,64).
func readUint(src []byte, i, t int) uint64 { return lebits.Word(src, i, t) }

// appendUint appends v as a t-bit little-endian word.
func appendUint(dst []byte, v uint64, t int) []byte { return lebits.AppendWord(dst, v, t) }

func boolToU64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// growCap makes sure dst has room for n more bytes (n is already bounded).
func growCap(dst []byte, n int) []byte {
	if n <= 0 || cap(dst)-len(dst) >= n {
		return dst
	}
	// Grow geometrically so that repeated small appends stay amortized O(1).
	out := make([]byte, len(dst), max(len(dst)+n, 2*cap(dst)))
	copy(out, dst)
	return out
}

// InlineBitpackingBlock is the number of values per InlineBitpacking chunk.
const InlineBitpackingBlock = 1024

// InlineBitpackingEncoder stores InlineBitpacking chunks of 1024 values of
// Bits (8, 16, 32, 64) bits.
type InlineBitpackingEncoder struct{ Bits int }

// Encoding implements MiniBlockEncoder.
func (c InlineBitpackingEncoder) Encoding() *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_InlineBitpacking{
		InlineBitpacking: &pb.InlineBitpacking{UncompressedBitsPerValue: uint64(c.Bits)}}}
}

// NumBuffers implements MiniBlockEncoder.
func (c InlineBitpackingEncoder) NumBuffers() int { return 1 }

// Name implements MiniBlockEncoder.
func (c InlineBitpackingEncoder) Name() string { return "inline_bitpacking" }

// Next implements MiniBlockEncoder.
func (c InlineBitpackingEncoder) Next(v *Values, start, _ int) int {
	return min(InlineBitpackingBlock, v.N-start)
}

// Encode implements MiniBlockEncoder.
func (c InlineBitpackingEncoder) Encode(v *Values, start, end int, tmp *[]byte) [][]byte {
	w := c.Bits / 8
	at := len(*tmp)
	*tmp, _ = EncodeInlineBitpacking(*tmp, v.Data[start*w:end*w], c.Bits, uint64(end-start))
	return [][]byte{(*tmp)[at:]}
}

// InlineBitpackedSize estimates the InlineBitpacking size of fixed values
// (the choice policy compares it with the flat and RLE sizes).
func InlineBitpackedSize(v *Values) int {
	w := v.Bits / 8
	total := 0
	for s := 0; s < v.N; s += InlineBitpackingBlock {
		e := min(s+InlineBitpackingBlock, v.N)
		var acc uint64
		for i := s; i < e; i++ {
			acc |= lebits.Uint(v.Data[i*w:], w)
		}
		total += w + 128*bits.Len64(acc)
	}
	return total
}
