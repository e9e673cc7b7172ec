package fileread

import (
	"context"
	"github.com/lancego/lancego/internal/filewriter"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/format"
)

// recordingSource is an in-memory source that records every request.
type recordingSource struct {
	bytesSource
	mu       sync.Mutex
	requests [][]format.Range
}

func (s *recordingSource) Fetch(ctx context.Context, ranges []format.Range, p uint64) ([][]byte, error) {
	s.mu.Lock()
	s.requests = append(s.requests, append([]format.Range(nil), ranges...))
	s.mu.Unlock()
	return s.bytesSource.Fetch(ctx, ranges, p)
}

// TestFilterScanRequests reads a clustered file through a recording
// source, as from an object store: a filter that leaves one zone of 25
// must request no byte of a page without a surviving row.
func TestFilterScanRequests(t *testing.T) {
	ctx := context.Background()
	path := writeZoneFile(t, rand.New(rand.NewPCG(9, 9)), 200_000, true, 0, filewriter.WithZoneSeeds(0), filewriter.WithPageBudget(64<<10))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src := &recordingSource{bytesSource: bytesSource{data}}
	cfg := DefaultConfig()
	cfg.Mem = zoneMem(t)
	f, err := newFile(ctx, path, src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opened := len(src.requests)
	if _, _, err := f.ZoneSeeds(ctx); err != nil {
		t.Fatal(err)
	}
	seedReqs := len(src.requests) - opened
	i := expr.Col("i")
	o := ScanOptions{Columns: []string{"i", "u", "s"}, Filter: expr.And(expr.Ge(i, expr.Lit(3*100_000)), expr.Lt(i, expr.Lit(3*100_100)))}
	got, _ := scanJSON(t, f, o)
	scanReqs := src.requests[opened+seedReqs:]
	bytes := checkRequests(t, f, scanReqs, 98_304, 106_496) // zone 12 of 8192 rows
	t.Logf("file %d bytes; open %d request(s), seeds %d request(s); scan %d requests for %d bytes (%.1f%% of the file); zones pruned %d/%d",
		len(data), opened, seedReqs, len(scanReqs), bytes, 100*float64(bytes)/float64(len(data)), f.Stats().ZonesPruned, f.Stats().ZonesTotal)
	if want := referenceJSON(t, f, o); string(got) != string(want) {
		t.Fatal("filtered scan differs from reference")
	}
	if f.Stats().ZonesPruned != 24 || bytes*10 > uint64(len(data)) {
		t.Fatalf("pruned %d zones, read %d of %d bytes", f.Stats().ZonesPruned, bytes, len(data))
	}
}

// checkRequests checks every request with checkSurviving and returns the
// bytes requested.
func checkRequests(t *testing.T, f *File, reqs [][]format.Range, lo, hi uint64) uint64 {
	var n uint64
	for _, req := range reqs {
		for _, r := range req {
			n += r.Length
			checkSurviving(t, f, r, lo, hi)
		}
	}
	return n
}

// checkSurviving fails if r overlaps a page holding none of rows [lo, hi).
func checkSurviving(t *testing.T, f *File, r format.Range, lo, hi uint64) {
	t.Helper()
	for c, col := range f.meta.Columns {
		st := f.pageRows(c)
		for i, pg := range col.GetPages() {
			if st[i] < hi && st[i+1] > lo {
				continue
			}
			for k, off := range pg.GetBufferOffsets() {
				if end := off + pg.GetBufferSizes()[k]; r.Offset < end && off < r.Offset+r.Length {
					t.Errorf("request %v reads column %d page %d (rows %d-%d), which holds no surviving row", r, c, i, st[i], st[i+1])
				}
			}
		}
	}
}
