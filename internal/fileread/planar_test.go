package fileread

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/valuejson"
	"github.com/lancego/lancego/layouts"
)

// planarFile opens a pylance 2.3 test file with every page read on demand
// (no small-page residency, a minimal tail), so a take's bytes show.
func planarFile(t *testing.T, name string) (*File, []any) {
	t.Helper()
	path := "../../testdata/pylance/2.3/" + name + ".lance"
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	f, err := Open(context.Background(), path, WithSmallPageSize(0), WithTailSize(40), WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	_, want := loadExpected(t, path[:len(path)-len(".lance")]+".expected.json")
	return f, []any{want}
}

// columnIndex returns the leaf column storing a top-level primitive field.
func columnIndex(t *testing.T, f *File, name string) int {
	t.Helper()
	for c := range f.meta.Columns {
		if f.columnName(c) == name {
			return c
		}
	}
	t.Fatalf("no column %q", name)
	return -1
}

// takeCost takes rows of one column and returns the bytes the decoders
// asked storage for, checking the values against the expected ones.
func takeCost(t *testing.T, f *File, want map[string]any, col string, rows []uint64) int64 {
	t.Helper()
	ctx := context.Background()
	before := f.Stats().BytesUsed
	rec, err := f.Take(ctx, rows, []string{col})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	cost := f.Stats().BytesUsed - before
	_, got := recordsJSON(t, rec.Schema(), []arrow.RecordBatch{rec})
	picked := make([]any, len(rows))
	for i, r := range rows {
		picked[i] = want[col].([]any)[r]
	}
	if ok, diff := valuejson.EqualJSON(map[string]any{col: picked}, got); !ok {
		t.Fatalf("take %v of %s differs: %s", rows, col, diff)
	}
	return cost
}

// rowsWhere returns up to n rows of col whose expected value is (or is
// not) null.
func rowsWhere(want map[string]any, col string, null bool, n int) []uint64 {
	var out []uint64
	for r, v := range want[col].([]any) {
		if (v == nil) == null && len(out) < n {
			out = append(out, uint64(r))
		}
	}
	return out
}

// TestSparseTakeReadsOnlyWhatRowsMaterialize: on sparse pages (chunked and
// zipped values) a take of null-only rows reads no value bytes once the
// page is initialized, and a take of one valid row reads exactly the chunk
// (chunked) or the value bytes (zipped) holding it.
func TestSparseTakeReadsOnlyWhatRowsMaterialize(t *testing.T) {
	for _, tc := range []struct{ file, col string }{
		{"planar_sparse_scalars", "i64_p50"},
		{"planar_sparse_scalars", "str_p50"},
		{"planar_sparse_scalars", "f64_p999"},
		{"planar_sparse_scalars", "dict_p999"},
		{"planar_zipped", "big_str_sparse"},
		{"planar_zipped", "vec_sparse"},
	} {
		t.Run(tc.file+"/"+tc.col, func(t *testing.T) {
			f, w := planarFile(t, tc.file)
			want := w[0].(map[string]any)
			nulls := rowsWhere(want, tc.col, true, 40)
			valid := rowsWhere(want, tc.col, false, 1<<30)
			if len(nulls) < 2 || len(valid) == 0 {
				t.Fatalf("%s: %d null and %d valid rows", tc.col, len(nulls), len(valid))
			}
			takeCost(t, f, want, tc.col, nulls[:1]) // initializes the page
			if cost := takeCost(t, f, want, tc.col, nulls[1:]); cost != 0 {
				t.Fatalf("a take of %d null rows read %d value bytes, want 0", len(nulls)-1, cost)
			}
			row := valid[len(valid)/2]
			st, err := f.page(context.Background(), columnIndex(t, f, tc.col), 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			sp := st.sparse
			if sp == nil {
				t.Fatalf("%s page 0 is not sparse", tc.col)
			}
			lo, hi, ok, err := sp.ValueRows(row, row+1)
			if err != nil || !ok {
				t.Fatalf("row %d: value rows %v %v", row, ok, err)
			}
			var want64 int64
			if sp.Mini != nil {
				span, err := sp.Mini.ChunksForRows(lo, hi)
				if err != nil || span.First != span.Last {
					t.Fatalf("row %d: chunks %+v, %v", row, span, err)
				}
				want64 = int64(sp.Mini.Chunks[span.First].Size)
				if tc.col == "str_p50" && len(sp.Mini.Chunks) < 2 {
					t.Fatalf("str_p50 has %d chunk(s): the test needs several", len(sp.Mini.Chunks))
				}
			} else {
				a, b, err := sp.Full.RowBytes(lo, hi)
				if err != nil {
					t.Fatal(err)
				}
				want64 = int64(b - a)
			}
			if cost := takeCost(t, f, want, tc.col, []uint64{row}); cost != want64 {
				t.Fatalf("a take of valid row %d read %d bytes, want %d (its chunk or value only)", row, cost, want64)
			}
		})
	}
}

// TestPlanarCorruptPositionsNamed: a sparse page whose validity positions
// leave their domain fails the read with an error naming the file, the
// column, the field, the page and the protobuf field of the bad sequence.
func TestPlanarCorruptPositionsNamed(t *testing.T) {
	ctx := context.Background()
	b, err := os.ReadFile("../../testdata/pylance/2.3/planar_sparse_scalars.lance")
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := format.ParseTail(uint64(len(b)), b)
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for c := range m.Columns {
		if fl := m.Schema.ColumnField(c); fl != nil && fl.Name == "i64_p50" {
			col = c
		}
	}
	ranges, err := m.PageRanges(col, 0)
	if err != nil || len(ranges) != 3 {
		t.Fatalf("page ranges %v, %v", ranges, err)
	}
	pos := ranges[2] // the validity positions payload (Delta over bit-packed deltas)
	for i := pos.Offset; i < pos.Offset+pos.Length; i++ {
		b[i] = 0xff // every delta at its widest: positions run past the page
	}
	f, err := newFile(ctx, "corrupt.lance", bytesSource{b}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = f.Take(ctx, []uint64{1}, []string{"i64_p50"})
	want := []string{"corrupt.lance", fmt.Sprintf("column %d", col), `field "i64_p50"`, "page 0",
		"structure.sparse.layers[0].validity.positions"}
	if err == nil || !errors.Is(err, layouts.ErrCorrupt) {
		t.Fatalf("err = %v, want layouts.ErrCorrupt", err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Fatalf("error %q does not name %q", err, w)
		}
	}
}

// TestIndexedTakeReadsOnlyItsItems: a take of consecutive rows of an
// indexed page (one piece) whose items lie apart reads each item's bytes,
// not the span between them, and the values match pylance's.
func TestIndexedTakeReadsOnlyItsItems(t *testing.T) {
	f, w := planarFile(t, "planar_indexed")
	want := w[0].(map[string]any)
	st, err := f.page(context.Background(), columnIndex(t, f, "s"), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	sp := st.sparse
	if sp == nil || sp.Full == nil || !sp.Direct() {
		t.Fatal("s page 0 is not an indexed sparse page read as a tree")
	}
	takeCost(t, f, want, "s", rowsWhere(want, "s", true, 1)) // initializes the page
	tested := 0
	for r := uint64(0); r+1 < uint64(len(want["s"].([]any))); r++ {
		a, b := sp.ItemRuns(r, r+1), sp.ItemRuns(r+1, r+2)
		if len(a) != 1 || len(b) != 1 || a[0].Lo == b[0].Lo || max(a[0].Lo, b[0].Lo)-min(a[0].Lo, b[0].Lo) < 2 {
			continue
		}
		var wantBytes int64
		for _, run := range append(a, b...) {
			lo, hi, err := sp.Full.RowBytes(run.Lo, run.Hi)
			if err != nil {
				t.Fatal(err)
			}
			wantBytes += int64(hi - lo)
		}
		lo, hi, _, _ := sp.ValueRows(r, r+2)
		slo, shi, err := sp.Full.RowBytes(lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		if runs := sp.ItemRuns(r, r+2); len(runs) != 2 {
			t.Fatalf("rows %d-%d: runs %v", r, r+1, runs)
		}
		if cost := takeCost(t, f, want, "s", []uint64{r, r + 1}); cost != wantBytes || cost >= int64(shi-slo) {
			t.Fatalf("rows %d-%d: take read %d bytes, want %d (their two items; the span is %d)", r, r+1, cost, wantBytes, shi-slo)
		}
		tested++
	}
	if tested < 3 {
		t.Fatalf("only %d row pairs with items apart", tested)
	}
}

// TestSparse999ColdTakeReadsStructureAndOneChunk: on a fresh file, a take
// of one valid row of a 99.9%-null sparse column reads at most the page's
// structural plane and value metadata (chunk table, dictionary) plus the
// row's one chunk; a take of null rows after it reads nothing.
func TestSparse999ColdTakeReadsStructureAndOneChunk(t *testing.T) {
	for _, col := range []string{"f64_p999", "dict_p999"} {
		t.Run(col, func(t *testing.T) {
			f, w := planarFile(t, "planar_sparse_scalars")
			want := w[0].(map[string]any)
			valid := rowsWhere(want, col, false, 1<<30)
			if n := len(want[col].([]any)); len(valid) == 0 || len(valid)*100 > n {
				t.Fatalf("%s: %d valid rows of %d (want at most 1%%)", col, len(valid), n)
			}
			row := valid[len(valid)/2]
			cost := takeCost(t, f, want, col, []uint64{row})
			st, err := f.page(context.Background(), columnIndex(t, f, col), 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			sp := st.sparse
			if sp == nil || sp.Mini == nil {
				t.Fatalf("%s page 0 is not sparse with chunked values", col)
			}
			var limit int64
			for i, b := range st.bufs {
				if i != sp.Layout.DataBuffer {
					limit += int64(b.Length)
				}
			}
			lo, hi, _, _ := sp.ValueRows(row, row+1)
			span, err := sp.Mini.ChunksForRows(lo, hi)
			if err != nil || span.First != span.Last {
				t.Fatalf("row %d: chunks %+v, %v", row, span, err)
			}
			limit += int64(sp.Mini.Chunks[span.First].Size)
			if cost > limit || cost <= int64(sp.Mini.Chunks[span.First].Size) {
				t.Fatalf("cold take of row %d read %d bytes, want at most %d (structure, metadata, one chunk) and more than the chunk", row, cost, limit)
			}
			if cost := takeCost(t, f, want, col, rowsWhere(want, col, true, 100)); cost != 0 {
				t.Fatalf("a take of 100 null rows read %d bytes, want 0", cost)
			}
		})
	}
}

// TestPlanarNullParentsOwningListsAgainstPylance writes
// testdata/pylance/gen_planar_dropped.py's file (struct<list<...>>,
// list<struct<list<...>, utf8>> and struct<struct<list<...>>> columns of
// sparse pages whose null parents own list children in Arrow) with
// pylance 14.0.2 and compares scans and takes with what pylance reads.
func TestPlanarNullParentsOwningListsAgainstPylance(t *testing.T) {
	py := lancePython()
	if py == "" {
		t.Skip("needs LANCE_PY (pylance 14.0.2)")
	}
	out := filepath.Join(t.TempDir(), "dropped")
	gen := filepath.Join("..", "..", "testdata", "pylance", "gen_planar_dropped.py")
	if b, err := exec.Command(py, gen, out, "2000").CombinedOutput(); err != nil {
		t.Fatalf("gen_planar_dropped.py: %v\n%s", err, b)
	}
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f, err := Open(ctx, out+".lance", WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	wantRows, wantCols := loadExpected(t, out+".expected.json")
	checkFileReads(ctx, t, f, wantRows, wantCols)
}
