package dataset

import (
	"context"
	"github.com/lancego/lancego/internal/fileread"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestDatasetTakeRoundTrips checks Dataset.Stats' round trips: a take
// spread over every fragment is one wave across all files once their
// pages' metadata is cached, and at most two before.
func TestDatasetTakeRoundTrips(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, _ := rowsReader(t, memory.DefaultAllocator, 0, 90_000, 5000)
	// Files larger than the dataset reads whole at open, and no page
	// fetched whole: every take needs data requests.
	ds, err := CreateDataset(ctx, dir, rdr, WithMaxRowsPerFile(30_000), WithOpenOptions(fileread.WithSmallPageSize(0)))
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	if ds.NumFragments() != 3 {
		t.Fatalf("%d fragments, want 3", ds.NumFragments())
	}
	take := func(offsets []uint64) (int64, int64) {
		t.Helper()
		before := ds.Stats()
		rec, err := ds.Take(ctx, offsets, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if rec.NumRows() != int64(len(offsets)) {
			t.Fatalf("took %d rows, want %d", rec.NumRows(), len(offsets))
		}
		rec.Release()
		after := ds.Stats()
		return after.RoundTrips - before.RoundTrips, after.Operations - before.Operations
	}
	if rt, ops := take([]uint64{10, 40_000, 70_000}); rt < 1 || rt > 2 || ops != 1 {
		t.Errorf("cold take over 3 fragments: %d round trips in %d operations, want 1 or 2 in 1", rt, ops)
	}
	var rows []uint64
	for i := uint64(0); i < 90_000; i += 97 {
		rows = append(rows, i%25_000, i%25_000+30_000, i%25_000+60_000) // away from each file's tail
	}
	if rt, ops := take(rows); rt != 1 || ops != 1 {
		t.Errorf("warm take of %d rows over 3 fragments: %d round trips in %d operations, want 1 in 1", len(rows), rt, ops)
	}
}
