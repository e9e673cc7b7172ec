package fileread

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/internal/valuejson"
	lanceio "github.com/lancego/lancego/io"
)

// v20Files returns the committed pylance 2.0 files and the shared
// corpus's (Lance core 8.0.0).
func v20Files(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "pylance", "2.0", "*.lance"))
	for _, dir := range corpusDirs(t) {
		if filepath.Base(dir) == "2.0" {
			m, _ := filepath.Glob(filepath.Join(dir, "*.lance"))
			files = append(files, m...)
		}
	}
	if len(files) < 10 {
		t.Fatalf("%d 2.0 files", len(files))
	}
	return files
}

// scanBatches scans every column of f in batches of size rows.
func scanBatches(ctx context.Context, t *testing.T, f *File, size int) []arrow.RecordBatch {
	t.Helper()
	var out []arrow.RecordBatch
	for rec, err := range f.Batches(ctx, ScanOptions{BatchSize: size}) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

// batchJSON renders a batch in the corpus value conventions (float bit
// patterns, so NaNs compare equal).
func batchJSON(t *testing.T, rec arrow.RecordBatch) string {
	t.Helper()
	var b strings.Builder
	if err := valuejson.WriteRecords(&b, rec.Schema(), []arrow.RecordBatch{rec}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestV20ScanViews scans 2.0 files through views of the memory map
// (v20scan.go) and through the search cache (the same file read without a
// map, as object stores are), in batches that cross pages: the values are
// the same, the view scan loads nothing into the search cache, and its
// batches stay valid after the file (and its map) is closed, so no array
// refers to a view. Every allocation goes back to the allocator.
func TestV20ScanViews(t *testing.T) {
	ctx := context.Background()
	for _, path := range v20Files(t) {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			for _, size := range []int{1000, 61} {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				viewed, err := Open(ctx, path, WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				got := scanBatches(ctx, t, viewed, size)
				if st := viewed.Stats(); st.CacheMisses != 0 || st.CacheHits != 0 {
					t.Errorf("view scan used the search cache: %d misses, %d hits", st.CacheMisses, st.CacheHits)
				}
				viewed.Close() // unmaps the file: batches must not refer to it
				read, err := Open(ctx, path, WithIOConfig(lanceio.Config{NoMmap: true}))
				if err != nil {
					t.Fatal(err)
				}
				want := scanBatches(ctx, t, read, size)
				read.Close()
				if len(got) != len(want) {
					t.Fatalf("batch size %d: %d batches through views, %d read", size, len(got), len(want))
				}
				for i := range got {
					if g, w := batchJSON(t, got[i]), batchJSON(t, want[i]); g != w {
						t.Fatalf("batch size %d: batch %d differs:\nviews %.2000s\nread  %.2000s", size, i, g, w)
					}
				}
				for i := range got {
					got[i].Release()
					want[i].Release()
				}
				mem.AssertSize(t, 0)
			}
		})
	}
}

// TestV20ScanViewsPartial stops a scan early, and scans a row range that
// starts and ends inside pages: the rows are the take's, and every
// allocation returns to the allocator.
func TestV20ScanViewsPartial(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join("..", "..", "testdata", "pylance", "2.0", "many_pages.lance")
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f, err := Open(ctx, path, WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := f.NumRows()
	if n < 100 {
		t.Fatalf("%d rows", n)
	}
	for rec, err := range f.Batches(ctx, ScanOptions{BatchSize: 10}) {
		if err != nil {
			t.Fatal(err)
		}
		rec.Release()
		break
	}
	want, err := f.Take(ctx, []uint64{n/3 + 1, n/3 + 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	var got []arrow.RecordBatch
	for rec, err := range f.Batches(ctx, ScanOptions{From: n/3 + 1, To: n/3 + 3, BatchSize: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rec)
	}
	if len(got) != 2 {
		t.Fatalf("%d batches", len(got))
	}
	for i, rec := range got {
		row := want.NewSlice(int64(i), int64(i+1))
		if g, w := batchJSON(t, rec), batchJSON(t, row); g != w {
			t.Errorf("row %d: scan %.2000s, take %.2000s", n/3+1+uint64(i), g, w)
		}
		row.Release()
		rec.Release()
	}
}
