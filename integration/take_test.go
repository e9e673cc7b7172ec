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
