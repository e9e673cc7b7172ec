package fileread

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	lanceio "github.com/lancego/lancego/io"
)

// TestCorpusTakeViewsOutliveNothing takes random rows (the first, the
// last, and both sides of each multiple of 1,024 among them) of every
// real Lance file, and of a written file of
// every column kind over small pages, through views of the memory map
// (mini-block and copying full-zip pages, fetchTake), holds the batches
// past Close (which unmaps the file once the views are released) and
// compares them with the same take read without the map.
func TestCorpusTakeViewsOutliveNothing(t *testing.T) {
	ctx := context.Background()
	check := func(t *testing.T, path string) {
		rows := takeViewRows(ctx, t, path)
		if len(rows) == 0 {
			return
		}
		// Many rows, and one alone (a single piece, whose values an
		// aliasing decoder would hand on uncopied).
		for _, set := range [][]uint64{rows, rows[len(rows)/2 : len(rows)/2+1]} {
			mapped, _ := takeThenClose(ctx, t, path, set, false)
			read, _ := takeThenClose(ctx, t, path, set, true)
			if ok, diff := valuejsonEqual(read, mapped); !ok {
				t.Fatalf("take of %d rows through views differs after Close: %s", len(set), diff)
			}
		}
	}
	eachCorpusFile(t, func(t *testing.T, path string, _ any) { check(t, path) })
	t.Run("written", func(t *testing.T) {
		path, _ := mappedTestFile(t)
		check(t, path)
	})
	t.Run("full-zip", func(t *testing.T) {
		check(t, fullZipTestFile(t))
	})
}

// fullZipTestFile writes nullable long strings and non-null 256-float
// vectors, both on full-zip pages (with and without control words), in a
// file larger than the tail read at open, so that takes view its pages.
func fullZipTestFile(t *testing.T) string {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "v", Type: arrow.FixedSizeListOf(256, arrow.PrimitiveTypes.Float32)},
	}, nil)
	r := rand.New(rand.NewPCG(8, 9))
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	sb := b.Field(0).(*array.StringBuilder)
	vb := b.Field(1).(*array.FixedSizeListBuilder)
	fb := vb.ValueBuilder().(*array.Float32Builder)
	for i := range 3000 {
		if i%7 == 3 {
			sb.AppendNull()
		} else {
			sb.Append(strings.Repeat(string(rune('a'+i%26)), 300+r.IntN(700)))
		}
		vb.Append(true)
		for range 256 {
			fb.Append(r.Float32())
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return roundTrip(t, schema, []arrow.RecordBatch{rec})
}

// takeViewRows picks ascending rows of path: random ones, its first and
// last, and both sides of every multiple of 1,024.
func takeViewRows(ctx context.Context, t *testing.T, path string) []uint64 {
	t.Helper()
	f, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := f.NumRows()
	if n == 0 {
		return nil
	}
	r := rand.New(rand.NewPCG(n, 11))
	rows := []uint64{0, n - 1}
	for range min(n, 300) {
		rows = append(rows, r.Uint64N(n))
	}
	for b := uint64(1024); b < n; b += 1024 { // where chunks and pages often end
		rows = append(rows, b-1, b)
	}
	slices.Sort(rows)
	return slices.Compact(rows)
}

// takeThenClose takes rows of path, closes the File and only then returns
// the batch's values in the corpus JSON form, and whether the file was
// mapped before Close.
func takeThenClose(ctx context.Context, t *testing.T, path string, rows []uint64, noMmap bool) (any, bool) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f, err := Open(ctx, path, WithAllocator(mem), WithIOConfig(lanceio.Config{NoMmap: noMmap}))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := f.Take(ctx, rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	schema := f.Schema()
	mapped := mappedNow(t, path)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if mappedNow(t, path) {
		t.Fatalf("%s still mapped after Close: a take view was not released", path)
	}
	_, got := recordsJSON(t, schema, []arrow.RecordBatch{rec})
	return got, mapped
}

// TestMergeFetched checks that fetched buffers return to their places
// among the viewed ones.
func TestMergeFetched(t *testing.T) {
	b := func(s string) []byte { return []byte(s) }
	for _, tc := range []struct {
		views, fetched [][]byte
		idx            []int
		want           string
	}{
		{[][]byte{b("a"), b("c")}, [][]byte{b("B")}, []int{1}, "aBc"},
		{[][]byte{b("b")}, [][]byte{b("A"), b("C")}, []int{0, 2}, "AbC"},
		{[][]byte{b("a"), b("b")}, [][]byte{b("C"), b("D")}, []int{2, 3}, "abCD"},
		{nil, [][]byte{b("A")}, []int{0}, "A"},
	} {
		var got []byte
		for _, p := range mergeFetched(tc.views, tc.fetched, tc.idx) {
			got = append(got, p...)
		}
		if string(got) != tc.want {
			t.Errorf("mergeFetched(%q, %q, %v) = %q, want %q", tc.views, tc.fetched, tc.idx, got, tc.want)
		}
	}
}
