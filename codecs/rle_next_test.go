package codecs

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// rleNextPlain is RLEEncoder.Next as Lance's chunker states it: halve a
// power of two of values until its runs fit, counting the runs anew each
// time.
func rleNextPlain(c RLEEncoder, v *Values, start, maxValues int) int {
	left := v.N - start
	n := min(maxValues, 4096)
	if left <= n && CountRuns(v, start, v.N)*(c.Bits/8+1) <= MiniBlockFixedChunkBytes {
		return left
	}
	n = 1 << (bits.Len(uint(min(n, left))) - 1)
	for n > 2 && CountRuns(v, start, start+n)*(c.Bits/8+1) > MiniBlockFixedChunkBytes {
		n /= 2
	}
	return n
}

// TestRLENextMatchesPlain checks the one-scan chunker against the plain
// one over values with runs of every length (255-splits included), at
// every width, chunk by chunk over whole pages.
func TestRLENextMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, width := range []int{1, 2, 4, 8, 16} {
		for _, maxRun := range []int{1, 2, 5, 40, 300, 5000} {
			for _, maxValues := range []int{4096, 1000, 37} {
				n := 20000 + rng.IntN(5000)
				data := make([]byte, 0, n*width)
				for len(data) < n*width {
					run := 1 + rng.IntN(maxRun)
					x := rng.Uint64() % 7
					for range run {
						var b [16]byte
						binary.LittleEndian.PutUint64(b[:], x)
						data = append(data, b[:width]...)
					}
				}
				v := &Values{Kind: ValFixed, N: n, Bits: 8 * width, Data: data[:n*width]}
				c := RLEEncoder{Bits: 8 * width}
				for start := 0; start < n; {
					got, want := c.Next(v, start, maxValues), rleNextPlain(c, v, start, maxValues)
					if got != want {
						t.Fatalf("width %d maxRun %d maxValues %d start %d: %d, want %d", width, maxRun, maxValues, start, got, want)
					}
					start += got
				}
			}
		}
	}
}
