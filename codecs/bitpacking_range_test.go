package codecs

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// TestFastLanesValueMatchesUnpack checks every value of blocks of every
// word and value width against the whole-block unpack.
func TestFastLanesValueMatchesUnpack(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tw := range []int{8, 16, 32, 64} {
		for w := 0; w <= tw; w++ {
			packed := make([]byte, FastLanesPackedBytes(w))
			for i := range packed {
				packed[i] = byte(rng.Uint32())
			}
			var block [FastLanesBlockValues * 8]byte
			fastUnpackBlock(block[:], packed, tw, w)
			for i := range FastLanesBlockValues {
				if got, want := fastLanesValue(packed, tw, w, i), readUint(block[:], i, tw); got != want {
					t.Fatalf("t=%d w=%d value %d: %#x, unpack %#x", tw, w, i, got, want)
				}
			}
		}
	}
}

// TestDecodeInlineBitpackingRange compares ranges of inline bit-packed
// buffers (full and partial last blocks, random widths) with the full
// decode: random ranges, single values, each block's first and last value,
// and the buffer's first and last.
func TestDecodeInlineBitpackingRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tw := range []int{8, 16, 32, 64} {
		for _, n := range []uint64{1, 100, 1023, 1024, 1025, 3000, 4096} {
			src := inlineBuffer(rng, tw, n)
			full, err := DecodeInlineBitpacking(nil, src, tw, n)
			if err != nil {
				t.Fatal(err)
			}
			wb := uint64(tw / 8)
			ranges := [][2]uint64{{0, n}, {0, 1}, {n - 1, n}, {0, 0}}
			for b := uint64(0); b*1024 < n; b++ {
				ranges = append(ranges, [2]uint64{b * 1024, b*1024 + 1}, [2]uint64{min(n, b*1024+1024) - 1, min(n, b*1024+1024)})
			}
			for range 40 {
				lo := rng.Uint64N(n)
				hi := lo + 1 + rng.Uint64N(min(n-lo, 300))
				ranges = append(ranges, [2]uint64{lo, hi})
			}
			for _, r := range ranges {
				prefix := []byte{0xAA}
				got, err := DecodeInlineBitpackingRange(prefix, src, tw, n, r[0], r[1])
				if err != nil {
					t.Fatalf("t=%d n=%d %v: %v", tw, n, r, err)
				}
				if !bytes.Equal(got[1:], full[r[0]*wb:r[1]*wb]) || got[0] != 0xAA {
					t.Fatalf("t=%d n=%d values %v differ from the full decode", tw, n, r)
				}
			}
			// A buffer the full decode refuses is refused too.
			for _, bad := range [][]byte{src[:len(src)-1], append(append([]byte{}, src...), 0), src[:int(wb)-1]} {
				_, errFull := DecodeInlineBitpacking(nil, bad, tw, n)
				_, errRange := DecodeInlineBitpackingRange(nil, bad, tw, n, 0, 1)
				if errFull == nil || !errors.Is(errRange, ErrCorrupt) {
					t.Fatalf("t=%d n=%d: truncated/extended buffer: full %v, range %v", tw, n, errFull, errRange)
				}
			}
			if _, err := DecodeInlineBitpackingRange(nil, src, tw, n, 0, n+1); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("range past the values: %v", err)
			}
		}
	}
	wide := inlineBuffer(rng, 64, 1024)
	wide[0] = 65
	if _, err := DecodeInlineBitpackingRange(nil, wide, 64, 1024, 0, 1); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("width 65: %v", err)
	}
}

// inlineBuffer builds n random t-bit values' inline bit-packed buffer,
// each block with a random width.
func inlineBuffer(rng *rand.Rand, tw int, n uint64) []byte {
	var src []byte
	for left := n; left > 0; left -= min(left, 1024) {
		w := rng.IntN(tw + 1)
		src = appendUint(src, uint64(w), tw)
		for range FastLanesPackedBytes(w) {
			src = append(src, byte(rng.Uint32()))
		}
	}
	return src
}
