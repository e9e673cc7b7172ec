package fileread

import (
	"context"
	"github.com/lancego/lancego/internal/filewriter"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// writeManyPages writes n rows of an int64 and a list<int32> column with a
// small page budget, so each column has many pages.
func writeManyPages(t *testing.T, n int) string {
	t.Helper()
	ctx := context.Background()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	path := filepath.Join(t.TempDir(), "pages.lance")
	w, err := filewriter.Create(ctx, path, schema, filewriter.WithFileVersion("2.1"), filewriter.WithPageBudget(16<<10))
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	ib, lb := b.Field(0).(*array.Int64Builder), b.Field(1).(*array.ListBuilder)
	vb := lb.ValueBuilder().(*array.Int32Builder)
	for i := 0; i < n; i++ {
		ib.Append(int64(i * 7))
		lb.Append(true)
		for j := 0; j < i%5; j++ {
			vb.Append(int32(i + j))
		}
		if (i+1)%2000 == 0 || i == n-1 { // pages are cut between writes
			rec := b.NewRecordBatch()
			err := w.Write(ctx, rec)
			rec.Release()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTakeInitializesColumnPagesOnce checks that the first take initializes
// every page of a cheap column, so a take elsewhere needs only the data
// requests (one per column here), and that taken values stay right.
func TestTakeInitializesColumnPagesOnce(t *testing.T) {
	ctx := context.Background()
	const n = 60000
	path := writeManyPages(t, n)
	f, err := Open(ctx, path, WithSmallPageSize(0))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if pages := len(f.meta.Columns[0].GetPages()); pages < 4 {
		t.Fatalf("want a multi-page column, got %d pages", pages)
	}
	check := func(row uint64) int64 {
		before := f.Stats()
		rec, err := f.Take(ctx, []uint64{row}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Release()
		if got := rec.Column(0).(*array.Int64).Value(0); got != int64(row*7) {
			t.Fatalf("row %d: i = %d", row, got)
		}
		l := rec.Column(1).(*array.List)
		if s, e := l.ValueOffsets(0); e-s != int64(row%5) {
			t.Fatalf("row %d: list of %d items, want %d", row, e-s, row%5)
		}
		return f.Stats().Requests - before.Requests
	}
	first := check(5)
	// Rows far from the first one and from the file's end (whose bytes
	// the open's tail read already holds).
	if later := check(n / 3); later != 2 {
		t.Fatalf("a take after the first needs %d requests, want 2 (data only); first take %d", later, first)
	}
	if later := check(n / 2); later != 2 {
		t.Fatalf("a third take needs %d requests, want 2", later)
	}
}
