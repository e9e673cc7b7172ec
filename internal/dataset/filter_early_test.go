package dataset

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/fileread"
	"github.com/lancego/lancego/internal/filewriter"
	"github.com/lancego/lancego/scheduler"
)

// TestFilteredScanReadsEarly: with an object store's cost model, a
// filtered scan whose surviving zones are a small share of the fragment
// reads the projection with the filter's columns, in fewer round trips
// than reading it for the matches afterwards, as local files (no cost
// model) and a cost model whose round trip carries too few bytes do (here
// 2 against 4, the fragments' opens included); the rows are the same
// either way.
func TestFilteredScanReadsEarly(t *testing.T) {
	dir := writeSeededDataset(t)
	dear := scheduler.ObjectStoreConfig(nil)
	dear.Bandwidth = 1 << 10 // 20 KB a round trip: less than a zone's share
	tests := []struct {
		name string
		opts []fileread.Option
		less bool // fewer round trips than local
	}{
		{"local", nil, false},
		{"object store", []fileread.Option{fileread.WithSchedulerConfig(scheduler.ObjectStoreConfig(nil))}, true},
		{"dear bytes", []fileread.Option{fileread.WithSchedulerConfig(dear)}, false},
	}
	var local int64
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			trips, n := filteredTrips(t, dir, "a >= 60000 AND a < 61000", tc.opts...)
			t.Logf("%d round trips, %d rows", trips, n)
			if n != 1000 {
				t.Fatalf("%d rows, want 1000", n)
			}
			switch {
			case tc.name == "local":
				local = trips
			case tc.less && trips >= local, !tc.less && trips != local:
				t.Fatalf("%d round trips, local %d; want fewer: %v", trips, local, tc.less)
			}
		})
	}
	// Deleted rows among those read early stay out.
	deleteWhere(t, dir, "a >= 60000 AND a < 60100")
	for _, tc := range tests {
		if _, n := filteredTrips(t, dir, "a >= 60000 AND a < 61000", tc.opts...); n != 900 {
			t.Fatalf("%s, after deleting 100 of them: %d rows, want 900", tc.name, n)
		}
	}
}

// writeSeededDataset writes 200,000 rows (rowsReader) in 4 fragments of
// 50,000 with zone seeds of 4,096 rows on column a, and returns its folder.
func writeSeededDataset(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, _ := rowsReader(t, memory.DefaultAllocator, 0, 200_000, 10_000)
	ds, err := CreateDataset(context.Background(), dir, rdr, WithMaxRowsPerFile(50_000), WithFileOptions(filewriter.WithZoneSeeds(4096, "a")))
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	ds.Close()
	return dir
}

// deleteWhere deletes the rows matching pred from the dataset at dir.
func deleteWhere(t *testing.T, dir, pred string) {
	t.Helper()
	ctx := context.Background()
	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	deleted, err := ds.Delete(ctx, pred)
	ds.Close()
	if err != nil {
		t.Fatal(err)
	}
	deleted.Close()
}

// filteredTrips opens the dataset at dir with opts and scans it with
// filter (columns a and s, and _rowaddr), checking each row; it returns
// the round trips of the open and the scan, and the rows.
func filteredTrips(t *testing.T, dir, filter string, opts ...fileread.Option) (int64, int) {
	t.Helper()
	ctx := context.Background()
	ds, err := OpenDataset(ctx, dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	f, err := expr.Parse(filter)
	if err != nil {
		t.Fatal(err)
	}
	before := ds.Stats().RoundTrips
	n := 0
	o := DatasetScanOptions{Filter: f, ReadOptions: ReadOptions{WithRowAddress: true}}
	for rec, err := range ds.Batches(ctx, o) {
		if err != nil {
			t.Fatal(err)
		}
		a, s := rec.Column(0).(*array.Int64), rec.Column(1).(*array.String)
		addr := rec.Column(int(rec.NumCols()) - 1).(*array.Uint64)
		for i := range a.Len() {
			v, ad := a.Value(i), addr.Value(i)
			if v < 60000 || v >= 61000 || s.Value(i) != fmt.Sprintf("s%d", v) || int64(ad>>32*50_000+ad&(1<<32-1)) != v {
				t.Fatalf("row %d %q at address %d", v, s.Value(i), ad)
			}
		}
		n += a.Len()
		rec.Release()
	}
	return ds.Stats().RoundTrips - before, n
}
