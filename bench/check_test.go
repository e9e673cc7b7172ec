package bench

import (
	"context"
	"os"
	"strings"
	"testing"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/format"
)

// TestCheckGates checks each gate of Results.Check on its own: a figure
// just within passes, just beyond (or missing) fails with a line naming
// the workload.
func TestCheckGates(t *testing.T) {
	bound := BoundFig{Bound: Bound{Requests: 100, Bytes: 1000, CoalescedRequests: 10, CoalescedBytes: 4000}}
	take := Measure{Requests: 10, BytesRead: 4250, RoundTrips: 1, ColdRoundTrips: 2}
	scan := Measure{Requests: 1, BytesRead: 1000, RoundTrips: 1}
	with := func(m Measure, f func(*Measure)) Measure { f(&m); return m }
	cases := []struct {
		name  string
		wl    string
		m     Measure
		bound bool
		want  string // "" = passes
	}{
		{"take within every gate", "s3/take/table/100", take, true, ""},
		{"scan at the bound", "s3/scan/table/f64", scan, true, ""},
		{"warm take in two waves", "s3/take/table/100", with(take, func(m *Measure) { m.RoundTrips = 1.5 }), true, "warm take 1.50 round trips"},
		{"warm round trips not counted", "s3/take/table/100", with(take, func(m *Measure) { m.RoundTrips = 0 }), true, "warm take"},
		{"cold take in three waves", "s3/take/table/100", with(take, func(m *Measure) { m.ColdRoundTrips = 3 }), true, "cold take 3 round trips"},
		{"cold take not measured", "s3/take/table/100", with(take, func(m *Measure) { m.ColdRoundTrips = 0 }), true, "cold take"},
		{"one byte beyond the slack", "s3/take/table/100", with(take, func(m *Measure) { m.BytesRead = 4251 }), true, "4251 bytes read, want at most 4250"},
		{"no bytes counted", "s3/scan/table/f64", with(scan, func(m *Measure) { m.BytesRead = 0 }), true, "0 bytes read"},
		{"no lower bound", "s3/scan/table/f64", scan, false, "no lower bound"},
		{"scan in two waves within its window", "s3/scan/table/f64", with(scan, func(m *Measure) { m.RoundTrips = 2 }), true, ""},
		{"scan waiting page by page", "s3/scan/table/f64", with(scan, func(m *Measure) { m.RoundTrips = 3 }), true, "scan 3.00 round trips, want 1 to 2"},
		{"scan round trips not counted", "s3/scan/table/f64", with(scan, func(m *Measure) { m.RoundTrips = 0 }), true, "scan 0.00 round trips"},
		{"open reads its 64 KiB suffix unchecked", "s3/open/table", Measure{Requests: 1, BytesRead: 65536, RoundTrips: 1}, false, "no object-store figures"},
		{"local figures are not gated", "take/table/100", with(take, func(m *Measure) { m.RoundTrips = 5 }), false, "no object-store figures"},
		{"dataset cold take at its bound", S3DatasetPrefix + "cold_take", Measure{Requests: 3}, false, ""},
		{"dataset cold take one request over", S3DatasetPrefix + "cold_take", Measure{Requests: 4}, false, "4 requests at the proxy, want 1 to 3"},
		{"dataset cold take not counted", S3DatasetPrefix + "cold_take", Measure{Requests: -1}, false, "-1 requests"},
		{"dataset open in three requests", S3DatasetPrefix + "open", Measure{Requests: 3}, false, "want 1 to 2"},
		{"dataset scan requests not gated", S3DatasetPrefix + "scan", Measure{Requests: 75}, false, ""},
		{"local dataset figures are not gated", DatasetPrefix + "cold_take", Measure{Requests: 9}, false, "no object-store figures"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newResults(Config{})
			r.put(c.wl, EngineLanceGo, c.m)
			if c.bound {
				r.Bounds[c.wl] = bound
			}
			bad := r.Check()
			switch {
			case c.want == "" && len(bad) > 0:
				t.Errorf("want no failure, got %q", bad)
			case c.want != "" && (len(bad) != 1 || !strings.Contains(bad[0], c.want)):
				t.Errorf("want one failure with %q, got %q", c.want, bad)
			}
		})
	}
}

// TestCheckOfQuickRunWithoutS3 checks that a run without the object-store
// step fails the gate instead of passing on no figures.
func TestCheckOfQuickRunWithoutS3(t *testing.T) {
	r := newResults(Config{})
	r.NotAvailable["s3"] = "no S3 server"
	bad := r.Check()
	if len(bad) != 1 || !strings.Contains(bad[0], "no S3 server") {
		t.Errorf("got %q", bad)
	}
}

// TestMaxScanRoundTrips checks the read-ahead windows of the scan gate
// against the full-size run's scans (str_long: 133 MB in 5 round trips).
func TestMaxScanRoundTrips(t *testing.T) {
	cases := []struct {
		bytes int64
		want  float64
	}{{1, 2}, {ScanReadaheadBytes, 2}, {ScanReadaheadBytes + 1, 3}, {133_307_000, 5}, {614_400_000, 20}}
	for _, c := range cases {
		if got := MaxScanRoundTrips(Bound{Bytes: c.bytes}); got != c.want {
			t.Errorf("%d bytes: %v, want %v", c.bytes, got, c.want)
		}
	}
}

// TestMergeBoundCoalesced checks the exact and the coalesced bound of a
// few ranges against hand counts.
func TestMergeBoundCoalesced(t *testing.T) {
	const g = CoalesceGap
	cases := []struct {
		name string
		rs   []format.Range
		want Bound
	}{
		{"empty", nil, Bound{}},
		{"touching ranges are one run", []format.Range{{Offset: 0, Length: 10}, {Offset: 10, Length: 5}},
			Bound{Requests: 1, Bytes: 15, CoalescedRequests: 1, CoalescedBytes: 15}},
		{"a gap of CoalesceGap is read", []format.Range{{Offset: 0, Length: 10}, {Offset: 10 + g, Length: 5}},
			Bound{Requests: 2, Bytes: 15, CoalescedRequests: 1, CoalescedBytes: 15 + g}},
		{"a byte more is not", []format.Range{{Offset: 10 + g + 1, Length: 5}, {Offset: 0, Length: 10}},
			Bound{Requests: 2, Bytes: 15, CoalescedRequests: 2, CoalescedBytes: 15}},
		{"overlaps count once", []format.Range{{Offset: 0, Length: 100}, {Offset: 50, Length: 100}, {Offset: 70, Length: 0}},
			Bound{Requests: 1, Bytes: 150, CoalescedRequests: 1, CoalescedBytes: 150}},
	}
	for _, c := range cases {
		if got := mergeBound(c.rs); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestS3FileWithoutPython checks that without pylance the object-store
// step reads our own file (written once), so the gate still has figures,
// and says so; with the pylance file present it reads that.
func TestS3FileWithoutPython(t *testing.T) {
	ctx := context.Background()
	d, err := EnsureDataset(t.TempDir(), TableDataset, 3000, 5)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{res: newResults(Config{})}
	got, err := r.s3File(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if got != d.GoLancePath() || len(r.res.NotAvailable) != 1 {
		t.Fatalf("got %s, not available %v; want our file %s, reported", got, r.res.NotAvailable, d.GoLancePath())
	}
	if _, err := lance.Open(ctx, got); err != nil {
		t.Fatalf("our file does not open: %v", err)
	}
	if err := os.Rename(got, d.LancePath()); err != nil {
		t.Fatal(err)
	}
	if got, err := r.s3File(ctx, d); err != nil || got != d.LancePath() {
		t.Errorf("with a pylance file: got %s, %v; want %s", got, err, d.LancePath())
	}
}
