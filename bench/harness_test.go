package bench

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/lancego/lancego/format"
)

func TestCurveOf(t *testing.T) {
	c := curveOf([]format.Range{{Offset: 100, Length: 10}, {Offset: 0, Length: 10}, {Offset: 105, Length: 10}, {Offset: 40, Length: 0}, {Offset: 30, Length: 5}})
	// runs [0,10) [30,35) [100,115): 30 bytes, gaps 20 and 65
	if c.Bytes != 30 || c.Requests() != 3 || len(c.Gaps) != 2 || c.Gaps[0] != 20 || c.Gaps[1] != 65 {
		t.Fatalf("curve %+v", c)
	}
	if got := boundOf(RequestCurve{Bytes: 30, Gaps: []int64{20, CoalesceGap, CoalesceGap + 1}}).CoalescedBytes; got != 50+CoalesceGap {
		t.Fatalf("coalesced bytes %d", got)
	}
	if (RequestCurve{}).Requests() != 0 {
		t.Fatal("empty curve has requests")
	}
}

func TestHarnessSeconds(t *testing.T) {
	const ms = time.Millisecond
	// 100 ranges of 1 kB, 99 gaps of 10 kB, 1e6 B/s link.
	var rs []format.Range
	for i := range 100 {
		rs = append(rs, format.Range{Offset: uint64(i) * 11_000, Length: 1000})
	}
	many := curveOf(rs)
	cases := []struct {
		name     string
		c        RequestCurve
		cost     HarnessCost
		maxBytes float64
		want     float64
	}{
		{"no CPU: latency plus needed bytes", many, HarnessCost{Cores: 2}, 0, 0.020 + 100_000/1e6},
		// Server 10 ms a request on 2 cores, after the latency: each gap
		// read costs 10 ms of link and saves 5 ms of server time. With k
		// gaps read: max(0.12 + 0.01k, 0.02 + 0.005(100-k)): equal at k =
		// 26.67, so k = 27 gives max(0.39, 0.385) and k = 26 max(0.38, 0.39).
		{"server bound: gaps read until the link binds", many, HarnessCost{Server: 10 * ms, Cores: 2}, 0, 0.39},
		// The proxy's share counts without the latency: 100 requests of
		// 5+35 ms on 2 cores are 2 s unless gaps are read: max(0.12 +
		// 0.01k, 0.02(100-k)) is least at k = 63 (0.75 vs 0.74).
		{"proxy and server bound", many, HarnessCost{Server: 5 * ms, Proxy: 35 * ms, Cores: 2}, 0, 0.75},
		// At most 300 kB read: 20 gaps, 80 requests of 40 ms on 2 cores.
		{"bytes limited", many, HarnessCost{Server: 5 * ms, Proxy: 35 * ms, Cores: 2}, 300_000, 1.6},
		{"one request", curveOf(rs[:1]), HarnessCost{Server: 10 * ms, Cores: 2}, 0, 0.025},
		{"empty", RequestCurve{}, HarnessCost{Server: 10 * ms, Cores: 2}, 0, 0.020},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.c.Seconds(20*ms, 1e6, tc.cost, tc.maxBytes)
			if math.Abs(got-tc.want) > 1e-9 {
				t.Fatalf("Seconds = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCeilingAndReachableTarget(t *testing.T) {
	r := &Results{Figures: map[string]map[string]Measure{}, Bounds: map[string]BoundFig{}, RatiosVsLance: map[string]float64{}}
	put := func(wl string, ours, theirs, harness float64) {
		r.Figures[wl] = map[string]Measure{EngineLanceGo: {Seconds: ours}, EnginePylance: {Seconds: theirs}}
		r.Bounds[wl] = BoundFig{HarnessSeconds: harness}
		r.RatiosVsLance[wl] = theirs / ours
	}
	put("s3/take/a/1", 0.021, 0.022, 0.020)  // ceiling 1.1: left out
	put("s3/take/a/100", 0.100, 0.300, 0.05) // ceiling 6, ratio 3
	put("s3/take/b/100", 0.100, 0.250, 0.05) // ceiling 5, ratio 2.5
	if c := r.Ceiling("s3/take/a/1"); math.Abs(c-1.1) > 1e-9 {
		t.Fatalf("ceiling %v", c)
	}
	var got []Target
	add := func(name, want string, v float64, met bool, note string) {
		got = append(got, Target{Name: name, Want: want, Value: v, Met: met, Note: note})
	}
	r.reachableTarget("s3/take/", "take_s3", 2, add)
	if len(got) != 1 || math.Abs(got[0].Value-2.5) > 1e-9 || !got[0].Met || got[0].Note != "2 workloads; ceiling below 2.0x (left out): a/1 1.10x" {
		t.Fatalf("target %+v", got)
	}
	put("s3/take/b/100", 0.100, 0.150, 0.05) // ratio 1.5 where 3x is possible: missed
	got = nil
	r.reachableTarget("s3/take/", "take_s3", 2, add)
	if got[0].Met || math.Abs(got[0].Value-1.5) > 1e-9 {
		t.Fatalf("target %+v", got)
	}
}

func TestDatasetScanBound(t *testing.T) {
	ctx := context.Background()
	d, err := EnsureDataset(t.TempDir(), TableDataset, 3000, 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OursWrite(ctx, d, "2.1"); err != nil {
		t.Fatal(err)
	}
	lb, err := NewLowerBounds(ctx, d.GoLancePath())
	if err != nil {
		t.Fatal(err)
	}
	one := lb.Scan(nil)
	// The same file twice: twice the requests and bytes, never merged.
	b, c, err := DatasetScanBound(ctx, []string{d.GoLancePath(), d.GoLancePath()})
	if err != nil {
		t.Fatal(err)
	}
	if b.Requests != 2*one.Requests || b.Bytes != 2*one.Bytes || b.CoalescedRequests != 2*one.CoalescedRequests {
		t.Fatalf("bound %+v, one file %+v", b, one)
	}
	if c.Requests() != b.Requests || c.Bytes != b.Bytes || c.Gaps[len(c.Gaps)-1] < fileApart/2 {
		t.Fatalf("curve %d requests %d bytes, largest gap %d", c.Requests(), c.Bytes, c.Gaps[len(c.Gaps)-1])
	}
	// No CPU: the link alone, however many files.
	if s := c.Seconds(20*time.Millisecond, 1e6, HarnessCost{Cores: 2}, 0); math.Abs(s-(0.020+float64(b.Bytes)/1e6)) > 1e-9 {
		t.Fatalf("seconds %v", s)
	}
	if _, _, err := DatasetScanBound(ctx, []string{filepath.Join(t.TempDir(), "missing.lance")}); err == nil {
		t.Fatal("no error for a missing file")
	}
}
