package fileread

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	lanceio "github.com/lancego/lancego/io"
)

// TestPylance20Files writes 2.0 files with pylance 14.0.2 at test time
// (testdata/pylance/gen.py --versions 2.0 --all-2.0: every case pylance accepts as
// 2.0, including the 2.0-only cases of all scalar types, nested lists and
// structs, multi-page columns, compression and legacy blobs), which gen.py
// checks against pylance's own read, and compares our scan and takes with
// the values pylance read.
func TestPylance20Files(t *testing.T) {
	py := lancePython()
	if py == "" {
		t.Skip("no pylance venv (set LANCE_PY or create .ci/venv)")
	}
	dir := t.TempDir()
	cmd := exec.Command(py, "gen.py", "--versions", "2.0", "--all-2.0", "--out", dir)
	cmd.Dir = filepath.Join("..", "..", "testdata", "pylance")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen.py: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "2.0", "*.lance"))
	if len(files) < 10 {
		t.Fatalf("gen.py wrote %d 2.0 files", len(files))
	}
	ctx := context.Background()
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) { checkCorpusFile(ctx, t, path) })
	}
}

// TestV20ColdTakes takes rows from freshly opened 2.0 files, before any
// scan has cached their pages, so takes read only their rows' bytes from
// pages of fixed-width and binary values (takeWindowsV20), and compares
// with expected.json; a single-row take of a file larger than two open tails must read
// less than the file.
func TestV20ColdTakes(t *testing.T) {
	ctx := context.Background()
	for _, dir := range corpusDirs(t) {
		if filepath.Base(dir) != "2.0" {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.lance"))
		for _, path := range files {
			t.Run(filepath.Base(dir)+"/"+filepath.Base(path), func(t *testing.T) {
				_, wantCols := loadExpected(t, path[:len(path)-len(".lance")]+".expected.json")
				want := wantCols.(map[string]any)
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				f, err := Open(ctx, path, WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if f.NumRows() > 1 && f.Metadata().FileSize > 2*DefaultTailSize { // smaller files come whole with the tail
					rec, err := f.Take(ctx, []uint64{f.NumRows() / 2}, nil)
					if err != nil {
						t.Fatal(err)
					}
					rec.Release()
					if st := f.Stats(); uint64(st.BytesRead) >= f.Metadata().FileSize {
						t.Errorf("a one-row take read %d bytes of a %d-byte file", st.BytesRead, f.Metadata().FileSize)
					}
				}
				checkTake(ctx, t, f, want)
			})
		}
	}
}

// TestV20RequestCounts checks the requests a 2.0 file costs through the
// scheduler (the committed pylance file, opened with a tail that holds its
// metadata and no page). Read as object stores read it (here: without a
// memory map): one for the open; a column scan one per page (its buffers
// in one request) and none when repeated (the pages are cached); a one-row
// take of a fixed-width column one request for its row's bytes and no page
// load, of a string column two (offsets, then bytes), of a dictionary
// column one (its page loads whole); a take after a scan none. Read
// through the memory map, a scan views each page in one request, again
// when repeated (views are not cached), and leaves takes cold.
func TestV20RequestCounts(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join("..", "..", "testdata", "pylance", "2.0", "v20_small_types.lance")
	f0, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	meta := f0.Metadata().MetadataRange().Length
	f0.Close()
	open := func(opts ...Option) *File {
		f, err := Open(ctx, path, append([]Option{WithTailSize(meta)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		if st := f.Stats(); st.Requests != 1 {
			t.Fatalf("open: %d requests, want 1", st.Requests)
		}
		return f
	}
	noMap := WithIOConfig(lanceio.Config{NoMmap: true})
	f := open(noMap)
	defer f.Close()
	g := open(noMap)
	defer g.Close()
	v := open()
	defer v.Close()
	tests := []struct {
		col                string
		takeReqs, takeMiss int64
	}{
		{"i32", 1, 0}, {"f64", 1, 0}, {"vec", 1, 0}, {"s", 2, 0}, {"bin", 2, 0}, {"dict", 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.col, func(t *testing.T) {
			leaf := f.leaves[f.schema.FieldIndices(tc.col)[0]][0]
			pages := int64(len(f.meta.Columns[leaf.Column].GetPages()))
			if pages < 3 {
				t.Fatalf("column %q has %d pages, want several", tc.col, pages)
			}
			for i, want := range []Stats{{Requests: pages, CacheMisses: pages}, {CacheHits: pages}} {
				if got := statsDelta(f, func() { scanColumn(ctx, t, f, tc.col) }); got != want {
					t.Errorf("scan %d: %+v, want %+v", i, got, want)
				}
			}
			cold := statsDelta(g, func() { takeRow(ctx, t, g, tc.col, 123) })
			if cold.Requests != tc.takeReqs || cold.CacheMisses != tc.takeMiss {
				t.Errorf("cold take: %d requests, %d page loads; want %d, %d", cold.Requests, cold.CacheMisses, tc.takeReqs, tc.takeMiss)
			}
			if warm := statsDelta(f, func() { takeRow(ctx, t, f, tc.col, 123) }); warm.Requests != 0 || warm.CacheHits != 1 {
				t.Errorf("take after a scan: %+v, want no request and one cached page", warm)
			}
			for i := range 2 {
				if got := statsDelta(v, func() { scanColumn(ctx, t, v, tc.col) }); got != (Stats{Requests: pages}) {
					t.Errorf("view scan %d: %+v, want %d requests and no page cached", i, got, pages)
				}
			}
			after := statsDelta(v, func() { takeRow(ctx, t, v, tc.col, 123) })
			if after.Requests != tc.takeReqs || after.CacheMisses != tc.takeMiss {
				t.Errorf("take after a view scan: %d requests, %d page loads; want %d, %d (cold)", after.Requests, after.CacheMisses, tc.takeReqs, tc.takeMiss)
			}
		})
	}
}

// statsDelta returns the change of f's request and cache counts over fn.
func statsDelta(f *File, fn func()) Stats {
	b := f.Stats()
	fn()
	a := f.Stats()
	return Stats{Requests: a.Requests - b.Requests, CacheMisses: a.CacheMisses - b.CacheMisses, CacheHits: a.CacheHits - b.CacheHits}
}

// scanColumn scans one column of f whole.
func scanColumn(ctx context.Context, t *testing.T, f *File, col string) {
	t.Helper()
	n := int64(0)
	for rec, err := range f.Batches(ctx, ScanOptions{Columns: []string{col}}) {
		if err != nil {
			t.Fatal(err)
		}
		n += rec.NumRows()
		rec.Release()
	}
	if uint64(n) != f.NumRows() {
		t.Fatalf("scan of %q: %d rows, want %d", col, n, f.NumRows())
	}
}

// takeRow takes one row of one column.
func takeRow(ctx context.Context, t *testing.T, f *File, col string, row uint64) {
	t.Helper()
	rec, err := f.Take(ctx, []uint64{row}, []string{col})
	if err != nil {
		t.Fatal(err)
	}
	if rec.NumRows() != 1 {
		t.Fatalf("take of %q: %d rows", col, rec.NumRows())
	}
	rec.Release()
}
