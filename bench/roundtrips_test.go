package bench

import (
	"context"
	"strings"
	"testing"

	lanceio "github.com/lancego/lancego/io"
)

// TestOursRoundTrips checks that our open, scan and take figures carry
// the reader's round trips, and that the progress line and S3 table show
// them.
func TestOursRoundTrips(t *testing.T) {
	ctx := context.Background()
	d, err := EnsureDataset(t.TempDir(), TableDataset, 5000, 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OursWrite(ctx, d, "2.1"); err != nil {
		t.Fatal(err)
	}
	open, err := OursOpen(ctx, d.GoLancePath(), lanceio.Config{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	spec := ScanSpec{URL: d.GoLancePath(), Column: d.Columns[0], Reps: 1}
	scan, err := OursScan(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	take, err := OursTake(ctx, spec, []uint64{1, 2000}, [][]uint64{{10, 3000, 4000}, {7, 8}})
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]Measure{"open": open, "scan": scan} {
		if m.RoundTrips < 1 || m.RoundTrips > m.Requests {
			t.Errorf("%s: %.1f round trips for %.1f requests", name, m.RoundTrips, m.Requests)
		}
	}
	if take.RoundTrips > 1 {
		t.Errorf("warm take: %.1f round trips per take, want at most 1", take.RoundTrips)
	}
	r := newResults(Config{})
	r.S3 = &S3Info{LatencyMs: 20}
	r.put("s3/scan/table/x", EngineLanceGo, Measure{Seconds: 1, Requests: 3, BytesRead: 1e6, RoundTrips: 2})
	if line := r.line("s3/scan/table/x"); !strings.Contains(line, "2.0 round trips") {
		t.Errorf("progress line without round trips: %s", line)
	}
	var b strings.Builder
	r.s3Table(&b)
	if !strings.Contains(b.String(), "3.0 · 1.000 · 2.0") {
		t.Errorf("S3 table without round trips:\n%s", b.String())
	}
}
