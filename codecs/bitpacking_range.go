package codecs

import "fmt"

// maxInlineBlocks bounds the blocks DecodeInlineBitpackingRange locates
// without allocating (a mini-block chunk holds at most 4,096 values, 4
// blocks; larger buffers are refused there too).
const maxInlineBlocks = 64

// DecodeInlineBitpackingRange appends values [lo, hi) of the numValues
// values in src (DecodeInlineBitpacking's layout) to dst as t-bit words,
// decoding only what is asked: every block header is read and checked as
// DecodeInlineBitpacking does (so a buffer one refuses the other refuses
// too), then a block with few asked values has them read straight from its
// packed bits and one with many is unpacked whole through a scratch block.
func DecodeInlineBitpackingRange(dst, src []byte, t int, numValues, lo, hi uint64) ([]byte, error) {
	if err := checkWordWidth("inline bitpacking", t, 0); err != nil {
		return dst, err
	}
	if lo > hi || hi > numValues {
		return dst, fmt.Errorf("%w: inline bitpacking: values [%d,%d) of %d", ErrCorrupt, lo, hi, numValues)
	}
	blocks := numValues/FastLanesBlockValues + boolToU64(numValues%FastLanesBlockValues != 0)
	if blocks > maxInlineBlocks {
		// Too many blocks to locate on the stack: decode them all.
		return decodeInlineViaFull(dst, src, t, numValues, lo, hi)
	}
	var starts [maxInlineBlocks]int // byte offset of each block's packed data
	var widths [maxInlineBlocks]int
	wb := t / 8
	pos := 0
	for b := range int(blocks) {
		if len(src)-pos < wb {
			return dst, fmt.Errorf("%w: inline bitpacking: buffer ends before chunk header (block %d of %d)", ErrCorrupt, b, blocks)
		}
		w := readUint(src[pos:], 0, t)
		if w > uint64(t) {
			return dst, fmt.Errorf("%w: inline bitpacking: width %d > %d", ErrCorrupt, w, t)
		}
		pos += wb
		need := FastLanesPackedBytes(int(w))
		if need > len(src)-pos {
			return dst, fmt.Errorf("%w: inline bitpacking: chunk of width %d needs %d bytes, %d left", ErrCorrupt, w, need, len(src)-pos)
		}
		starts[b], widths[b] = pos, int(w)
		pos += need
	}
	if pos != len(src) {
		return dst, fmt.Errorf("%w: inline bitpacking: %d trailing bytes after %d values", ErrCorrupt, len(src)-pos, numValues)
	}
	dst = growCap(dst, int(hi-lo)*wb)
	for i := lo; i < hi; {
		b := i / FastLanesBlockValues
		end := min(hi, (b+1)*FastLanesBlockValues)
		packed := src[starts[b] : starts[b]+FastLanesPackedBytes(widths[b])]
		first, last := int(i%FastLanesBlockValues), int(end-b*FastLanesBlockValues)
		if last-first >= fewValues {
			var block [FastLanesBlockValues * 8]byte
			fastUnpackBlock(block[:], packed, t, widths[b])
			dst = append(dst, block[first*wb:last*wb]...)
		} else {
			for k := first; k < last; k++ {
				dst = appendUint(dst, fastLanesValue(packed, t, widths[b], k), t)
			}
		}
		i = end
	}
	return dst, nil
}

// fewValues is the count of asked values in one block from which
// unpacking the whole block costs less than reading them one by one: with
// the block in cache a 64-bit block (width 21 or 64) unpacks in ~550 ns
// and a value alone reads in ~10 ns.
const fewValues = 48

// decodeInlineViaFull decodes all values and keeps [lo, hi).
func decodeInlineViaFull(dst, src []byte, t int, numValues, lo, hi uint64) ([]byte, error) {
	n := len(dst)
	out, err := DecodeInlineBitpacking(dst, src, t, numValues)
	if err != nil {
		return out[:n], err
	}
	wb := uint64(t / 8)
	m := copy(out[n:], out[uint64(n)+lo*wb:uint64(n)+hi*wb])
	return out[:n+m], nil
}

// fastLanesValue returns value i (0 ≤ i < 1024, logical order) of the
// FastLanes block of width w in packed (128·w bytes) of t-bit words: the
// inverse of the layout fastUnpackBlock writes. Unpacked row r holds the
// 1024/t values from fastlanesRowBase(r); the value of row r, lane j is
// bits [r·w, r·w+w) of lane j across the packed rows.
func fastLanesValue(packed []byte, t, w, i int) uint64 {
	if w == 0 {
		return 0
	}
	lanes := FastLanesBlockValues / t
	q := (i % 128) / 16
	q -= q % (lanes / 16)
	r := int(fastlanesOrder[q])*8 + i/128
	j := i % lanes
	p := r * w
	k, s := p/t, p%t
	v := readUint(packed[k*128:], j, t) >> uint(s)
	if s+w > t {
		v |= readUint(packed[(k+1)*128:], j, t) << uint(t-s)
	}
	if w < 64 {
		v &= 1<<uint(w) - 1
	}
	return v
}
