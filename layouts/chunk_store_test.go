package layouts

import "testing"

// TestChunkStore puts chunks past the indexed threshold, finds each one,
// drops those before an index and then all, with and without the index.
func TestChunkStore(t *testing.T) {
	for _, n := range []int{10, memoScanMax + 50} {
		var s chunkStore
		for i := range n {
			s.put(2*i, DecodedChunk{Levels: Levels{N: i}})
		}
		if (s.index != nil) != (n > memoScanMax) {
			t.Fatalf("n=%d: index present %v", n, s.index != nil)
		}
		for i := range n {
			dc, ok := s.get(2 * i)
			if !ok || dc.Levels.N != i {
				t.Fatalf("n=%d: chunk %d: %v %d", n, 2*i, ok, dc.Levels.N)
			}
			if _, ok := s.get(2*i + 1); ok {
				t.Fatalf("n=%d: found absent chunk %d", n, 2*i+1)
			}
		}
		dropped := 0
		s.removeBefore(n, func(DecodedChunk) { dropped++ })
		if want := (n + 1) / 2; dropped != want {
			t.Fatalf("n=%d: dropped %d chunks, want %d", n, dropped, want)
		}
		if _, ok := s.get(0); ok {
			t.Fatalf("n=%d: chunk 0 survived removeBefore", n)
		}
		if dc, ok := s.get(2 * (n - 1)); !ok || dc.Levels.N != n-1 {
			t.Fatalf("n=%d: last chunk lost", n)
		}
		s.removeAll(func(DecodedChunk) { dropped++ })
		if dropped != n || len(s.list) != 0 || s.index != nil {
			t.Fatalf("n=%d: %d dropped, %d left", n, dropped, len(s.list))
		}
	}
}
