package fileread

import (
	"context"
	"github.com/lancego/lancego/internal/filewriter"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/scheduler"
)

// roundTripSchema has flat, string, list and struct (multi-leaf) columns.
var roundTripSchema = arrow.NewSchema([]arrow.Field{
	{Name: "i", Type: arrow.PrimitiveTypes.Int64},
	{Name: "f", Type: arrow.PrimitiveTypes.Float64},
	{Name: "s", Type: arrow.BinaryTypes.String},
	{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	{Name: "st", Type: arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int16},
		arrow.Field{Name: "b", Type: arrow.PrimitiveTypes.Float64},
		arrow.Field{Name: "c", Type: arrow.BinaryTypes.String},
	), Nullable: true},
}, nil)

// writeRoundTripFile writes n rows of roundTripSchema in writes of per
// rows with the given page budget (so columns have many pages), and
// returns its path.
func writeRoundTripFile(t *testing.T, n, per int, budget int64) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trips.lance")
	w, err := filewriter.Create(ctx, path, roundTripSchema, filewriter.WithFileVersion("2.1"), filewriter.WithPageBudget(budget))
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, roundTripSchema)
	defer b.Release()
	lb, sb := b.Field(3).(*array.ListBuilder), b.Field(4).(*array.StructBuilder)
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i) * 3)
		b.Field(1).(*array.Float64Builder).Append(float64(i) / 4)
		b.Field(2).(*array.StringBuilder).Append("row-" + string(rune('a'+i%26)))
		lb.Append(true)
		for j := range i % 4 {
			lb.ValueBuilder().(*array.Int32Builder).Append(int32(i + j))
		}
		sb.Append(true)
		sb.FieldBuilder(0).(*array.Int16Builder).Append(int16(i))
		sb.FieldBuilder(1).(*array.Float64Builder).Append(float64(i))
		sb.FieldBuilder(2).(*array.StringBuilder).Append("s")
		if (i+1)%per == 0 || i == n-1 {
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

// trips returns the round trips and operations f's stats gained while fn ran.
func trips(f *File, fn func()) (roundTrips, ops int64) {
	before := f.Stats()
	fn()
	after := f.Stats()
	return after.RoundTrips - before.RoundTrips, after.Operations - before.Operations
}

// TestRoundTripsTake checks the round trips of takes: an open costs one
// (the tail read), a cold take right after it at most two (every column's
// page metadata in one wave, then the data), and a warm take exactly one
// for any number of rows and columns, a struct's leaves included.
func TestRoundTripsTake(t *testing.T) {
	ctx := context.Background()
	const n = 40000
	path := writeRoundTripFile(t, n, 2000, 16<<10)
	var f *File
	rt, ops := func() (int64, int64) {
		var err error
		// Small pages are not fetched whole at initialization, so a
		// take's data is always a request of its own.
		if f, err = Open(ctx, path, WithSmallPageSize(0)); err != nil {
			t.Fatal(err)
		}
		s := f.Stats()
		return s.RoundTrips, s.Operations
	}()
	defer f.Close()
	if rt != 1 || ops != 1 {
		t.Fatalf("open: %d round trips in %d operations, want 1 in 1", rt, ops)
	}
	if pages := len(f.meta.Columns[0].GetPages()); pages < 4 {
		t.Fatalf("want multi-page columns, got %d pages", pages)
	}
	take := func(rows []uint64, cols []string) {
		t.Helper()
		rec, err := f.Take(ctx, rows, cols)
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Release()
		if got := rec.NumRows(); got != int64(len(rows)) {
			t.Fatalf("took %d rows, want %d", got, len(rows))
		}
		if rec.Schema().Field(0).Name == "i" {
			if v := rec.Column(0).(*array.Int64).Value(0); v != int64(rows[0])*3 {
				t.Fatalf("row %d: i = %d", rows[0], v)
			}
		}
	}
	rt, _ = trips(f, func() { take([]uint64{n / 3}, nil) })
	t.Logf("cold take after open: %d round trips", rt)
	if rt < 1 || rt > 2 {
		t.Errorf("cold take after open: %d round trips, want 1 or 2", rt)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		rows int
		cols []string
	}{
		{1, nil}, {100, nil}, {5000, nil}, {1, []string{"st"}}, {300, []string{"st", "l"}}, {20, []string{"i"}},
	} {
		rows := make([]uint64, tc.rows)
		for k := range rows {
			rows[k] = r.Uint64N(n - 4000) // away from the tail the open read
		}
		rt, ops := trips(f, func() { take(rows, tc.cols) })
		if rt != 1 || ops != 1 {
			t.Errorf("warm take of %d rows of %v: %d round trips in %d operations, want 1 in 1", tc.rows, tc.cols, rt, ops)
		}
	}
}

// scanTrips scans cols of f (all rows) and returns its round trips.
func scanTrips(t *testing.T, f *File, cols []string, batch int) int64 {
	t.Helper()
	rt, ops := trips(f, func() {
		rows := 0
		for rec, err := range f.Batches(context.Background(), ScanOptions{Columns: cols, BatchSize: batch}) {
			if err != nil {
				t.Fatal(err)
			}
			rows += int(rec.NumRows())
			rec.Release()
		}
		if uint64(rows) != f.NumRows() {
			t.Fatalf("scan of %v: %d rows, want %d", cols, rows, f.NumRows())
		}
	})
	if ops != 1 {
		t.Errorf("scan of %v: %d operations, want 1", cols, ops)
	}
	return rt
}

// TestRoundTripsScan checks that a scan whose pages fit in the read-ahead
// budget issues every page of every projected leaf at its start: one
// round trip, whatever the number of pages, columns and leaves.
func TestRoundTripsScan(t *testing.T) {
	ctx := context.Background()
	path := writeRoundTripFile(t, 40000, 1000, 8<<10)
	f, err := Open(ctx, path, WithSchedulerConfig(scheduler.ObjectStoreConfig(nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if pages := len(f.meta.Columns[0].GetPages()); pages < 20 {
		t.Fatalf("want columns of more pages than the old 16-page read-ahead, got %d", pages)
	}
	for _, cols := range [][]string{{"i"}, {"l"}, {"st"}, nil} {
		if rt := scanTrips(t, f, cols, 1024); rt != 1 {
			t.Errorf("scan of %v: %d round trips, want 1", cols, rt)
		}
	}
}

// TestRoundTripsScanReadahead checks a scan larger than its read-ahead:
// the first wave holds the read-ahead's bytes, and each later wave about
// as much, so the round trips are about 1 + column bytes / read-ahead.
func TestRoundTripsScanReadahead(t *testing.T) {
	ctx := context.Background()
	path := writeRoundTripFile(t, 40000, 1000, 8<<10)
	probe, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var colBytes uint64
	for _, pg := range probe.meta.Columns[0].GetPages() {
		colBytes += pageBytes(pg)
	}
	probe.Close()
	cfg := scheduler.ObjectStoreConfig(nil)
	cfg.MaxInFlightBytes = int64(colBytes) // a quarter of it ahead
	f, err := Open(ctx, path, WithSchedulerConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rt := scanTrips(t, f, []string{"i"}, 1024)
	t.Logf("scan of %d bytes, %d ahead: %d round trips", colBytes, colBytes/4, rt)
	if maxTrips := int64(2 + 4); rt < 2 || rt > maxTrips {
		t.Errorf("scan of %d bytes with %d ahead: %d round trips, want 2..%d", colBytes, colBytes/4, rt, maxTrips)
	}
}
