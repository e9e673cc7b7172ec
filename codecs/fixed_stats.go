package codecs

import (
	"math/bits"
	"unsafe"

	"github.com/lancego/lancego/internal/lebits"
)

// FixedStats returns in one pass over fixed values of 8, 16, 32 or 64
// bits what the codec choice weighs: InlineBitpackedSize, CountRuns over
// all values, and the OR of every value. Other widths report ok false.
func FixedStats(v *Values) (packed, runs int, or uint64, ok bool) {
	n := v.N
	switch v.Bits {
	case 8:
		packed, runs, or = fixedStatsOf(lebits.Words[uint8](v.Data[:n]))
	case 16:
		packed, runs, or = fixedStatsOf(lebits.Words[uint16](v.Data[:2*n]))
	case 32:
		packed, runs, or = fixedStatsOf(lebits.Words[uint32](v.Data[:4*n]))
	case 64:
		packed, runs, or = fixedStatsOf(lebits.Words[uint64](v.Data[:8*n]))
	default:
		return 0, 0, 0, false
	}
	return packed, runs, or, true
}

// fixedStatsOf is FixedStats over words xs.
func fixedStatsOf[T uint8 | uint16 | uint32 | uint64](xs []T) (packed, runs int, or uint64) {
	var z T
	w := int(unsafe.Sizeof(z))
	if len(xs) == 0 {
		return 0, 0, 0
	}
	runs, length := 1, 0
	prev := xs[0]
	for s := 0; s < len(xs); s += InlineBitpackingBlock {
		block := xs[s:min(s+InlineBitpackingBlock, len(xs))]
		var acc T
		for _, x := range block {
			acc |= x
			if length == 255 || x != prev {
				runs++
				length = 0
			}
			length++
			prev = x
		}
		packed += w + 128*bits.Len64(uint64(acc))
		or |= uint64(acc)
	}
	return packed, runs, or
}
