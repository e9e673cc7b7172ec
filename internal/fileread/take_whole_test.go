package fileread

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/filewriter"
	"github.com/lancego/lancego/scheduler"
)

// writeWideFile writes n rows like the dataset benchmark's fragments: id
// int64, name a dictionary string ("name-" + id % 1000), score f64 = id /
// 2, one page a column, a file larger than the 256 KiB an open reads whole.
func writeWideFile(t *testing.T, n int) string {
	t.Helper()
	ctx := context.Background()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	path := filepath.Join(t.TempDir(), "wide.lance")
	w, err := filewriter.Create(ctx, path, schema, filewriter.WithFileVersion("2.1"))
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("name-%d", i%1000))
		b.Field(2).(*array.Float64Builder).Append(float64(i) / 2)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	if err := w.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	return path
}

// oneRowTake takes one row and returns what it cost: requests, round trips
// and bytes read; it checks the row's values.
func oneRowTake(t *testing.T, f *File, row uint64) (reqs, trips, bytes int64) {
	t.Helper()
	before := f.Stats()
	rec, err := f.Take(context.Background(), []uint64{row}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	id := rec.Column(0).(*array.Int64).Value(0)
	name := rec.Column(1).(*array.String).Value(0)
	score := rec.Column(2).(*array.Float64).Value(0)
	if id != int64(row) || name != fmt.Sprintf("name-%d", row%1000) || score != float64(row)/2 {
		t.Fatalf("row %d: %d %q %v", row, id, name, score)
	}
	after := f.Stats()
	return after.Requests - before.Requests, after.RoundTrips - before.RoundTrips, after.BytesRead - before.BytesRead
}

// TestColdTakeReadsSmallPagesWhole checks a cold one-row take of a >256
// KiB three-column file with one page a column (the dataset benchmark's
// fragments): with the object-store cost model it reads the three pages
// whole in one request (one round trip, not metadata then chunks), a warm
// take reads only chunks in one round trip, and without a cost model
// (local files) or with a cost model that makes the pages dear the take
// keeps reading metadata, then chunks.
func TestColdTakeReadsSmallPagesWhole(t *testing.T) {
	const n = 80_000
	path := writeWideFile(t, n)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() <= 256<<10 {
		t.Fatalf("file of %d bytes: want more than the 256 KiB an open reads whole", fi.Size())
	}
	open := func(opts ...Option) *File {
		f, err := Open(context.Background(), path, opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		if f.Stats().Requests != 1 {
			t.Fatalf("open: %d requests, want 1", f.Stats().Requests)
		}
		return f
	}
	t.Run("object store", func(t *testing.T) {
		f := open(WithSchedulerConfig(scheduler.ObjectStoreConfig(nil)))
		reqs, trips, bytes := oneRowTake(t, f, 12_345)
		if reqs != 1 || trips != 1 {
			t.Errorf("cold take: %d requests, %d round trips; want 1, 1", reqs, trips)
		}
		if bytes >= fi.Size() {
			t.Errorf("cold take read %d bytes of a %d-byte file (its tail was read by the open)", bytes, fi.Size())
		}
		reqs, trips, bytes = oneRowTake(t, f, 70_001)
		if reqs > 3 || trips != 1 || bytes > 64<<10 {
			t.Errorf("warm take: %d requests, %d round trips, %d bytes; want <= 3, 1, chunks only", reqs, trips, bytes)
		}
	})
	t.Run("local", func(t *testing.T) {
		f := open()
		if _, trips, bytes := oneRowTake(t, f, 12_345); trips != 2 || bytes > 64<<10 {
			t.Errorf("cold take: %d round trips, %d bytes; want 2 (metadata, then chunks), no whole pages", trips, bytes)
		}
	})
	t.Run("dear pages", func(t *testing.T) {
		sc := scheduler.ObjectStoreConfig(nil)
		sc.FirstByteLatency, sc.Bandwidth = time.Millisecond, 1<<20 // 1 KiB a round trip
		f := open(WithSchedulerConfig(sc))
		if _, trips, bytes := oneRowTake(t, f, 12_345); trips != 2 || bytes > 64<<10 {
			t.Errorf("cold take: %d round trips, %d bytes; want 2, no whole pages", trips, bytes)
		}
	})
}

// TestTakeBudgetIsShared checks that the files of one take operation draw
// on one whole-page budget (WithTakeBudget): a second file whose pages no
// longer fit reads metadata, then chunks; and that a read without a take
// budget (a dataset's filtered scan) never reads pages whole.
func TestTakeBudgetIsShared(t *testing.T) {
	ctx := context.Background()
	path := writeWideFile(t, 80_000)
	open := func() *File {
		f, err := Open(ctx, path, WithSchedulerConfig(scheduler.ObjectStoreConfig(nil)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	take := func(ctx context.Context, f *File) (trips, bytes int64) {
		before := f.Stats()
		ctx, end := scheduler.Track(ctx) // one operation, as a dataset's take fan-out is
		out := make([]arrow.Array, 3)
		err := TakeFields(ctx, f, []int{0, 1, 2}, []RowRange{{7, 8}}, 1, out)
		end()
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range out {
			a.Release()
		}
		after := f.Stats()
		return after.RoundTrips - before.RoundTrips, after.BytesRead - before.BytesRead
	}
	b := &takeBudget{}
	f1, f2 := open(), open()
	if !b.reserve(f1.wholeBudget(), f1.wholeBudget()-(100<<10)) { // leave 100 KB: less than one file's pages
		t.Fatal("reserve of less than the budget failed")
	}
	tctx := context.WithValue(ctx, takeBudgetKey{}, b)
	if trips, bytes := take(tctx, f1); trips != 2 || bytes > 64<<10 {
		t.Errorf("take beyond the shared budget: %d round trips, %d bytes; want 2, no whole pages", trips, bytes)
	}
	if trips, bytes := take(ctx, f2); trips != 2 || bytes > 64<<10 {
		t.Errorf("read without a take budget: %d round trips, %d bytes; want 2, no whole pages", trips, bytes)
	}
	f3 := open()
	if trips, _ := take(WithTakeBudget(ctx), f3); trips != 1 {
		t.Errorf("take with a fresh budget: %d round trips, want 1", trips)
	}
}
