package codecs

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestFSSTAppendBlock checks that AppendBlock appends exactly what
// DecompressBlock returns, after bytes already in dst, for parsed,
// hand-built and switched-off tables.
func TestFSSTAppendBlock(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for iter := 0; iter < 2000; iter++ {
		tab := randFSSTTable(r, []int{0, 1, 7, 200, 254}[r.IntN(5)])
		switch iter % 5 {
		case 3:
			tab.dec = nil // built by hand: decoder made per call
		case 4:
			tab.Compressed = false
		}
		data := make([]byte, r.IntN(300))
		for i := range data {
			data[i] = byte(r.IntN(max(1, tab.NumSymbols)))
			if r.IntN(30) == 0 {
				data[i] = fsstEscape
			}
		}
		var lens []int
		for range r.IntN(40) {
			lens = append(lens, r.IntN(20))
		}
		in := fsstBlockOf(data, lens, []int{32, 64}[r.IntN(2)], r.IntN(3))
		want, werr := tab.DecompressBlock(in)
		prefix := bytes.Repeat([]byte{7}, r.IntN(50))
		dst, got, gerr := tab.AppendBlock(append([]byte(nil), prefix...), in)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("error %v, DecompressBlock %v", gerr, werr)
		}
		if werr != nil {
			continue
		}
		if !bytes.Equal(dst[:len(prefix)], prefix) || !bytes.Equal(dst[len(prefix):], want.Data) ||
			!bytes.Equal(got.Data, want.Data) || !bytes.Equal(got.Offsets, want.Offsets) || got.NumValues != want.NumValues {
			t.Fatalf("iter %d: appended block differs", iter)
		}
	}
}
