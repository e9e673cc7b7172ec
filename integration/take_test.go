package integration

import (
	"context"
	"testing"

	lance "github.com/lancego/lancego"
)

// TestS3TakeRequests checks the request counts the issue sets for takes of
// a fixed-width column in a multi-megabyte page.
func TestS3TakeRequests(t *testing.T) {
	base := s3Base(t)
	path := writeBigFile(t, "2.2")
	url := upload(t, base, "take", []string{path})[0]
	ctx := context.Background()
	f, err := lance.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.Stats().Requests; got != 1 {
		t.Fatalf("cold open: %d requests, want 1", got)
	}
	// Cold: tail + chunk table + chunk.
	take(t, f, []uint64{1000, 1001, 1002}, "i64")
	if got := f.Stats().Requests; got > 3 {
		t.Errorf("cold open + take of 3 adjacent rows: %d requests, want at most 3", got)
	}
	// Warm: k rows inside one mini-block cost one request and no metadata.
	before := f.Stats()
	take(t, f, []uint64{50_000, 50_003, 50_001, 50_010}, "i64")
	after := f.Stats()
	if got := after.Requests - before.Requests; got != 1 {
		t.Errorf("warm take of 4 rows in one mini-block: %d requests, want 1", got)
	}
	if after.CacheMisses != before.CacheMisses || after.CacheHits <= before.CacheHits {
		t.Errorf("warm take read metadata: misses %d→%d hits %d→%d",
			before.CacheMisses, after.CacheMisses, before.CacheHits, after.CacheHits)
	}
}

// TestS3TakeAdjacentChunksMerge checks that rows in neighbouring chunks
// are fetched with one merged request.
func TestS3TakeAdjacentChunksMerge(t *testing.T) {
	base := s3Base(t)
	path := writeBigFile(t, "2.1")
	url := upload(t, base, "merge", []string{path})[0]
	ctx := context.Background()
	f, err := lance.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	take(t, f, []uint64{0}, "f64") // warm the page metadata
	before := f.Stats().Requests
	take(t, f, []uint64{600, 1200, 1800, 2400}, "f64") // a few adjacent 512-value chunks
	if got := f.Stats().Requests - before; got != 1 {
		t.Errorf("take across adjacent chunks: %d requests, want 1", got)
	}
}

func take(t *testing.T, f *lance.File, rows []uint64, col string) {
	t.Helper()
	rec, err := f.Take(context.Background(), rows, []string{col})
	if err != nil {
		t.Fatal(err)
	}
	if rec.NumRows() != int64(len(rows)) {
		t.Fatalf("took %d rows, want %d", rec.NumRows(), len(rows))
	}
	rec.Release()
}

// TestS3TakeRoundTrips checks the round trips on S3 of a pylance file:
// the open is one, a cold take of every column right after it at most
// two, and a warm take one, for one row or thousands.
func TestS3TakeRoundTrips(t *testing.T) {
	base := s3Base(t)
	path := writeBigFile(t, "2.1")
	url := upload(t, base, "trips", []string{path})[0]
	ctx := context.Background()
	f, err := lance.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if s := f.Stats(); s.RoundTrips != 1 || s.Operations != 1 {
		t.Fatalf("open: %d round trips in %d operations, want 1 in 1", s.RoundTrips, s.Operations)
	}
	takeAll := func(rows []uint64) int64 {
		t.Helper()
		before := f.Stats().RoundTrips
		rec, err := f.Take(ctx, rows, nil)
		if err != nil {
			t.Fatal(err)
		}
		rec.Release()
		return f.Stats().RoundTrips - before
	}
	rt := takeAll([]uint64{150_000})
	t.Logf("cold take of every column after open: %d round trips, %d requests", rt, f.Stats().Requests)
	if rt < 1 || rt > 2 {
		t.Errorf("cold take after open: %d round trips, want 1 or 2", rt)
	}
	for _, n := range []int{1, 100, 5000} {
		rows := make([]uint64, n)
		for i := range rows {
			rows[i] = uint64(i*7919) % 150_000 // pages the first take initialized (cheap columns: all)
		}
		if rt := takeAll(rows); rt != 1 {
			t.Errorf("warm take of %d rows: %d round trips, want 1", n, rt)
		}
	}
}

// TestS3ScanRoundTrips checks that a scan of a pylance file on S3 whose
// columns fit in the read-ahead requests every page in its first wave:
// one round trip for one column or all four.
func TestS3ScanRoundTrips(t *testing.T) {
	base := s3Base(t)
	path := writeBigFile(t, "2.1")
	url := upload(t, base, "scantrips", []string{path})[0]
	ctx := context.Background()
	f, err := lance.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, cols := range [][]string{{"i64"}, {"l"}, nil} {
		before := f.Stats()
		rows := 0
		for rec, err := range f.Batches(ctx, lance.ScanOptions{Columns: cols}) {
			if err != nil {
				t.Fatal(err)
			}
			rows += int(rec.NumRows())
			rec.Release()
		}
		after := f.Stats()
		if rt := after.RoundTrips - before.RoundTrips; rt != 1 || rows != int(f.NumRows()) {
			t.Errorf("scan of %v: %d round trips, %d rows; want 1, %d", cols, rt, rows, f.NumRows())
		}
	}
}
