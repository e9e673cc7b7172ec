package fileread

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/internal/valuejson"
)

// TestCorpusTakeGathered takes, from every real Lance file, row sets that
// put many rows in one chunk, as a take of 10,000 rows of a million does
// (sorted rows every few rows with short runs, the same rows shuffled with
// repeats, and reversed), and compares them with the expected values of
// those rows: pages of fixed-width values without lists are read per chunk
// by GatherChunkRows.
func TestCorpusTakeGathered(t *testing.T) {
	ctx := context.Background()
	eachCorpusFile(t, func(t *testing.T, path string, want any) {
		f, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		n := f.NumRows()
		if n == 0 {
			return
		}
		rng := rand.New(rand.NewPCG(n, 11))
		var sorted []uint64
		for r := uint64(0); r < n; r += 1 + rng.Uint64N(6) {
			sorted = append(sorted, r)
			if rng.IntN(8) == 0 { // a short run of consecutive rows
				for k := r + 1; k < min(n, r+1+rng.Uint64N(5)); k++ {
					sorted = append(sorted, k)
				}
			}
		}
		sorted = slices.Compact(slices.Sorted(slices.Values(sorted)))
		shuffled := append(slices.Clone(sorted), sorted[:len(sorted)/3]...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		reversed := slices.Clone(sorted)
		slices.Reverse(reversed)
		for _, rows := range [][]uint64{sorted, shuffled, reversed} {
			checkTakeRows(ctx, t, f, rows, want.(map[string]any))
		}
	})
}

// checkTakeRows takes rows of f and compares them with want's values.
func checkTakeRows(ctx context.Context, t *testing.T, f *File, rows []uint64, want map[string]any) {
	t.Helper()
	rec, err := f.Take(ctx, rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	_, got := recordsJSON(t, f.Schema(), []arrow.RecordBatch{rec})
	sub := map[string]any{}
	for name, col := range want {
		vals := col.([]any)
		picked := make([]any, len(rows))
		for i, r := range rows {
			picked[i] = vals[r]
		}
		sub[name] = picked
	}
	if ok, diff := valuejson.EqualJSON(sub, got); !ok {
		t.Fatalf("take of %d rows differs: %s", len(rows), diff)
	}
}

// TestTakeGathersPerChunk checks that a take plans one piece per chunk for
// the rows of pylance's nullable inline bit-packed page (null_patterns,
// column leading, page 0: definition levels out-of-line bit-packed) and of
// its plain bit-packed page, and for the string column's dictionary page
// (page 0, 1,200 rows in 2 chunks) but none for its other string pages,
// and that unsorted rows gather per run of rows in one chunk.
func TestTakeGathersPerChunk(t *testing.T) {
	ctx := context.Background()
	f, err := Open(ctx, filepath.Join("..", "..", "testdata", "pylance", "2.1", "null_patterns.lance"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ranges []RowRange
	for r := uint64(0); r < f.NumRows(); r += 3 {
		ranges = append(ranges, RowRange{r, r + 1})
	}
	cases := []struct {
		col      int
		gathered bool
		dictOnly bool // gathering pieces only on the dictionary page
	}{{0, true, false}, {1, true, true}}
	for _, c := range cases {
		leaf := f.leaves[c.col][0]
		rows := f.gatherBuf(gatherRowsCap(ranges))
		ps, err := f.pieces(ctx, leaf, ranges, nil, rows)
		if err != nil {
			t.Fatal(err)
		}
		g := 0
		for _, p := range ps {
			if p.rows != nil {
				g++
				if p.span.First != p.span.Last || len(p.rows) < 2 {
					t.Fatalf("column %d: gathering piece of span %v, %d rows", c.col, p.span, len(p.rows))
				}
				if c.dictOnly && (p.page.mini == nil || p.page.mini.Dictionary == nil) {
					t.Fatalf("column %d: gathering piece on a page without dictionary", c.col)
				}
			}
		}
		if c.gathered && (g == 0 || g > len(ranges)/50) {
			t.Fatalf("column %d: %d gathering pieces for %d rows", c.col, g, len(ranges))
		}
		if !c.gathered && g != 0 {
			t.Fatalf("column %d: %d gathering pieces on pages that cannot gather", c.col, g)
		}
	}
	// Rows out of order: a piece per run of rows in one chunk, in order.
	leaf := f.leaves[0][0]
	rows := f.gatherBuf(4)
	ps, err := f.pieces(ctx, leaf, []RowRange{{5, 6}, {2, 3}, {1500, 1501}, {7, 8}}, nil, rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 || !slices.Equal(ps[0].rows, []uint64{5, 2}) || !slices.Equal(ps[2].rows, []uint64{7}) {
		t.Fatalf("unsorted rows planned as %d pieces: %v %v", len(ps), ps[0].rows, ps[len(ps)-1].rows)
	}
}
