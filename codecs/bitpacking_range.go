package codecs

import (
	"fmt"
	"math/bits"
)

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
	var l inlineLayout
	ok, err := l.parse(src, t, numValues)
	if err != nil {
		return dst, err
	}
	if !ok {
		// Too many blocks to locate on the stack: decode them all.
		return decodeInlineViaFull(dst, src, t, numValues, lo, hi)
	}
	wb := t / 8
	shift := uint(bits.TrailingZeros(uint(t)))
	dst = growCap(dst, int(hi-lo)*wb)
	for i := lo; i < hi; {
		b := i / FastLanesBlockValues
		end := min(hi, (b+1)*FastLanesBlockValues)
		packed := src[l.starts[b] : l.starts[b]+FastLanesPackedBytes(l.widths[b])]
		first, last := int(i%FastLanesBlockValues), int(end-b*FastLanesBlockValues)
		if last-first >= fewValues {
			var block [FastLanesBlockValues * 8]byte
			fastUnpackBlock(block[:], packed, t, l.widths[b])
			dst = append(dst, block[first*wb:last*wb]...)
		} else {
			for k := first; k < last; k++ {
				dst = appendUint(dst, fastLanesValueShift(packed, shift, l.widths[b], k), t)
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
	return fastLanesValueShift(packed, uint(bits.TrailingZeros(uint(t))), w, i)
}
