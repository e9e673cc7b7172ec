package indices

import (
	"encoding/binary"
	"math"
	"testing"
)

// graphFromBytes builds an HNSW partition from fuzz bytes: b[0] nodes
// (1..64), b[1] levels (1..4), b[2] the entry point, then per level and
// node a neighbour count and neighbours, all taken as they come (ids out
// of range, nodes missing from upper levels, offsets that do not add up
// when b[3] is odd). Distances are the bytes after.
func graphFromBytes(b []byte) (*HNSWGraph, uint32, []Candidate) {
	next := func() byte {
		if len(b) == 0 {
			return 0
		}
		x := b[0]
		b = b[1:]
		return x
	}
	n := int(next())%64 + 1
	levels := int(next())%4 + 1
	entry := uint32(next())
	broken := next()%2 == 1
	g := &HNSWGraph{EntryPoint: entry}
	for l := 0; l < levels; l++ {
		lv := HNSWLevel{Offsets: []int{0}}
		nodes := n
		if l > 0 {
			nodes = int(next()) % (n + 1)
		}
		for i := 0; i < nodes; i++ {
			id := uint32(i)
			if l > 0 {
				id = uint32(next())
			}
			lv.Nodes = append(lv.Nodes, id)
			for range int(next()) % 8 {
				lv.Neighbors = append(lv.Neighbors, uint32(next()))
				lv.Dists = append(lv.Dists, 0)
			}
			lv.Offsets = append(lv.Offsets, len(lv.Neighbors))
		}
		if broken && len(lv.Offsets) > 1 {
			lv.Offsets[len(lv.Offsets)/2] += int(next())
		}
		g.Levels = append(g.Levels, lv)
	}
	rows := make([]Candidate, n)
	for i := range rows {
		var d float32
		if len(b) >= 4 {
			d = math.Float32frombits(binary.LittleEndian.Uint32(b))
			b = b[4:]
		} else {
			d = float32(n - i)
		}
		rows[i] = Candidate{RowID: uint64(i % 50), Dist: d}
	}
	return g, entry, rows
}

// FuzzHNSWSearch walks hostile HNSW graphs (neighbours and entry points
// out of range, broken offsets, cycles, NaN distances, any K, Ef, range
// and prefilter): an error or at most K distinct allowed rows, never a
// panic or an endless walk.
func FuzzHNSWSearch(f *testing.F) {
	f.Add([]byte{4, 2, 1, 0, 1, 1, 2, 0, 1, 3, 2, 0, 2, 1, 1, 2, 2, 0}, uint8(2), uint8(0), uint8(0), false)
	f.Add([]byte{10, 3, 9, 0}, uint8(3), uint8(5), uint8(3), true)
	f.Add([]byte{1, 1, 0, 0, 0}, uint8(1), uint8(1), uint8(0), false)
	f.Add([]byte{8, 2, 200, 1, 3, 1, 9}, uint8(4), uint8(0), uint8(7), true)
	f.Fuzz(func(t *testing.T, b []byte, k, ef, allowMod uint8, ranged bool) {
		g, entry, rows := graphFromBytes(b)
		sp := SearchParams{K: int(k % 20), Ef: int(ef % 40)}
		if ranged {
			sp.Range = &[2]float32{1, 30}
		}
		if allowMod > 0 {
			m := uint64(allowMod)
			sp.Allow = func(id uint64) bool { return id%m == 0 }
		}
		got, err := searchGraph(g, entry, rows, sp, "fuzz")
		if err != nil {
			return
		}
		if len(got) > sp.K {
			t.Fatalf("%d results for k = %d", len(got), sp.K)
		}
		seen := map[uint64]bool{}
		for _, c := range got {
			if seen[c.RowID] {
				t.Fatalf("row %d twice", c.RowID)
			}
			seen[c.RowID] = true
			if sp.Allow != nil && !sp.Allow(c.RowID) {
				t.Fatalf("row %d not allowed", c.RowID)
			}
		}
	})
}
