package codecs

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDictRanks checks the table ranking of small values against sorting
// and searching, for small and large values and the half-distinct limit.
func TestDictRanks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct{ n, distinct, scale int }{
		{10, 2, 1}, {1000, 10, 1}, {1000, 499, 3}, {1000, 600, 1}, {5000, 50, 100000}, {4, 1, 1}, {100, 40, 60000},
	} {
		vals := make([]uint64, c.n)
		for i := range vals {
			vals[i] = uint64(rng.IntN(c.distinct) * c.scale)
		}
		items, idx := dictRanks(vals)
		want := slices.Compact(slices.Sorted(slices.Values(vals)))
		if 2*len(want) > len(vals) {
			if items != nil {
				t.Fatalf("%+v: %d distinct of %d should be refused", c, len(want), len(vals))
			}
			continue
		}
		if !slices.Equal(items, want) {
			t.Fatalf("%+v: items %v, want %v", c, items, want)
		}
		for i, v := range vals {
			if items[idx[i]] != v {
				t.Fatalf("%+v: value %d ranked %d", c, v, idx[i])
			}
		}
	}
}
