package layouts

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestListCursorMatchesScan checks that rows located through the memo's
// cursor (rows asked in ascending order, repeated, out of order, across
// chunks) get the same entries and visible values as a scan from the
// chunk's start, including its first and last rows.
func TestListCursorMatchesScan(t *testing.T) {
	set := LayerSet{MaxRep: 1, MaxDef: 2, MaxVisibleDef: 0}
	rng := rand.New(rand.NewPCG(7, 19))
	chunk := func(rows int, withDef bool) Levels {
		var lv Levels
		for range rows {
			n := rng.IntN(4) // 0: an empty or null list, one entry
			for e := range max(n, 1) {
				lv.Rep = append(lv.Rep, uint16(b2i(e == 0)))
				d := uint16(0)
				if n == 0 {
					d = uint16(1 + rng.IntN(2))
				}
				lv.Def = append(lv.Def, d)
			}
		}
		lv.N = len(lv.Rep)
		if !withDef {
			lv.Def = nil
		}
		return lv
	}
	for _, tc := range []struct {
		name  string
		rows  int
		def   bool
		picks func(rows int) []uint64
	}{
		{"ascending", 300, true, func(r int) []uint64 { return sortedPicks(rng, r, 60, false) }},
		{"ascending-repeats", 300, true, func(r int) []uint64 { return sortedPicks(rng, r, 60, true) }},
		{"first-last", 50, true, func(r int) []uint64 { return []uint64{0, 1, uint64(r - 2), uint64(r - 1)} }},
		{"out-of-order", 200, true, func(r int) []uint64 {
			p := sortedPicks(rng, r, 40, true)
			rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
			return append(p, 0, uint64(r-1))
		}},
		{"no-def", 200, false, func(r int) []uint64 { return sortedPicks(rng, r, 50, false) }},
		{"one-row", 1, true, func(int) []uint64 { return []uint64{0, 0} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chunks := []Levels{chunk(tc.rows, tc.def), chunk(tc.rows, tc.def)}
			memo := NewChunkMemo(nil)
			for _, ci := range []int{0, 1, 0} {
				lv := chunks[ci]
				for _, want := range tc.picks(tc.rows) {
					for _, n := range []uint64{1, 2} {
						if want+n > uint64(tc.rows) {
							continue
						}
						lo, hi, vlo, vhi, err := memo.locateList(ci, lv, want, n, set)
						elo, ehi, evlo, evhi, eerr := (*ChunkMemo)(nil).locateList(ci, lv, want, n, set)
						if err != nil || eerr != nil {
							t.Fatalf("chunk %d row %d: %v / %v", ci, want, err, eerr)
						}
						if [4]int{lo, hi, vlo, vhi} != [4]int{elo, ehi, evlo, evhi} {
							t.Fatalf("chunk %d rows [%d,+%d): cursor %v, scan %v", ci, want, n, [4]int{lo, hi, vlo, vhi}, [4]int{elo, ehi, evlo, evhi})
						}
						// The scan itself against a count from the definition.
						if elo != nthRowStart(lv.Rep, 0, want, 1) || evlo != visibleBefore(lv, elo, 0) {
							t.Fatalf("chunk %d row %d: scan entry %d vis %d", ci, want, elo, evlo)
						}
					}
				}
			}
			if _, _, _, _, err := memo.locateList(0, chunks[0], uint64(tc.rows), 1, set); err == nil {
				t.Fatal("a row past the chunk was found")
			}
		})
	}
}

func sortedPicks(rng *rand.Rand, rows, n int, repeats bool) []uint64 {
	p := make([]uint64, 0, n+2)
	for range n {
		p = append(p, uint64(rng.IntN(rows)))
	}
	p = append(p, 0, uint64(rows-1))
	slices.Sort(p)
	if !repeats {
		p = slices.Compact(p)
	}
	return p
}
