package codecs

import (
	"fmt"
	"math/bits"
)

// MaxDecodedSize bounds the bytes any single decode step may produce (a
// decompressed buffer, a materialized constant, an unpacked block). Inputs
// whose description implies more are rejected with ErrCorrupt.
const MaxDecodedSize = 1 << 31

// maxTreeDepth bounds the nesting of a compressive-encoding tree.
const maxTreeDepth = 32

// mulBytes returns a·b, failing with ErrCorrupt (naming codec) when it
// overflows or exceeds MaxDecodedSize.
func mulBytes(codec string, a, b uint64) (uint64, error) {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 || lo > MaxDecodedSize {
		return 0, fmt.Errorf("%w: %s: %d × %d bytes exceeds the %d-byte decode limit", ErrCorrupt, codec, a, b, uint64(MaxDecodedSize))
	}
	return lo, nil
}

// bitsToBytes returns ⌈n·bitsPer/8⌉ with overflow and limit checks.
func bitsToBytes(codec string, n, bitsPer uint64) (uint64, error) {
	hi, lo := bits.Mul64(n, bitsPer)
	if hi != 0 || lo/8 > MaxDecodedSize {
		return 0, fmt.Errorf("%w: %s: %d values × %d bits exceeds the decode limit", ErrCorrupt, codec, n, bitsPer)
	}
	return (lo + 7) / 8, nil
}
