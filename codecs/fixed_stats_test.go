package codecs

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestFixedStats checks the one-pass statistics against
// InlineBitpackedSize, CountRuns and a plain OR, at every width, over
// runs of every length and partial last blocks.
func TestFixedStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, width := range []int{1, 2, 4, 8} {
		for _, maxRun := range []int{1, 4, 300, 3000} {
			for _, n := range []int{0, 1, 1023, 1024, 5000} {
				data := make([]byte, 0, n*width)
				for len(data) < n*width {
					x := rng.Uint64() >> uint(rng.IntN(64))
					for range 1 + rng.IntN(maxRun) {
						var b [8]byte
						binary.LittleEndian.PutUint64(b[:], x)
						data = append(data, b[:width]...)
					}
				}
				v := &Values{Kind: ValFixed, N: n, Bits: 8 * width, Data: data[:n*width]}
				packed, runs, or, ok := FixedStats(v)
				var wantOr uint64
				for i := 0; i < n; i++ {
					var b [8]byte
					copy(b[:], v.Data[i*width:(i+1)*width])
					wantOr |= binary.LittleEndian.Uint64(b[:])
				}
				if !ok || packed != InlineBitpackedSize(v) || runs != CountRuns(v, 0, n) || or != wantOr {
					t.Fatalf("width %d maxRun %d n %d: (%d, %d, %x), want (%d, %d, %x)", width, maxRun, n,
						packed, runs, or, InlineBitpackedSize(v), CountRuns(v, 0, n), wantOr)
				}
			}
		}
	}
	if _, _, _, ok := FixedStats(&Values{Kind: ValFixed, N: 1, Bits: 128, Data: make([]byte, 16)}); ok {
		t.Fatal("128-bit values have no FixedStats")
	}
}
