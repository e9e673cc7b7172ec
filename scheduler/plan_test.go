package scheduler

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestPlanCostModel checks which gaps the coalescing cost model reads.
func TestPlanCostModel(t *testing.T) {
	// break-even 1 ms × 1 MB/s / 1 request = 1000 bytes
	model := Config{CoalesceGap: 100, MaxRequestSize: 1 << 30, MaxInFlightRequests: 1, FirstByteLatency: time.Millisecond, Bandwidth: 1e6}
	legacy := Config{CoalesceGap: 100, MaxRequestSize: 1 << 30, MaxInFlightRequests: 1}
	tests := []struct {
		name   string
		cfg    Config
		ranges []Range
		want   []Range
	}{
		{"no model merges up to the gap", legacy, []Range{{0, 10}, {110, 10}, {300, 10}}, []Range{{0, 120}, {300, 10}}},
		{"no model leaves larger gaps", legacy, []Range{{0, 5000}, {5900, 5000}}, []Range{{0, 5000}, {5900, 5000}}},
		{"touching and overlapping always merge", model, []Range{{0, 10}, {10, 10}, {15, 10}}, []Range{{0, 25}}},
		{"gap beyond break-even stays", model, []Range{{0, 5000}, {6001, 5000}}, []Range{{0, 5000}, {6001, 5000}}},
		{"gap within break-even and amplification merges", model, []Range{{0, 5000}, {5900, 5000}}, []Range{{0, 10900}}},
		{"amplification bound takes the smallest gaps", model,
			// gaps 900, 100 (CoalesceGap), 800; budget 0.25 × 4000 − 100 = 900
			[]Range{{0, 1000}, {1900, 1000}, {3000, 1000}, {4800, 1000}},
			[]Range{{0, 1000}, {1900, 3900}}},
		{"small reads merge up to CoalesceGap", model, []Range{{0, 10}, {90, 10}}, []Range{{0, 100}}},
		{"small reads beyond it stay", model, []Range{{0, 10}, {500, 10}}, []Range{{0, 10}, {500, 10}}},
		{"budget spent by small gaps", model, []Range{{0, 10}, {100, 10}, {700, 10}}, []Range{{0, 110}, {700, 10}}},
		{"concurrency shrinks the break-even", Config{CoalesceGap: 100, MaxRequestSize: 1 << 30, MaxInFlightRequests: 10,
			FirstByteLatency: time.Millisecond, Bandwidth: 1e6}, []Range{{0, 5000}, {5900, 5000}}, []Range{{0, 5000}, {5900, 5000}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			groups, err := plan(tc.ranges, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got []Range
			for _, g := range groups {
				got = append(got, g.Range)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("plan = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPlanScatteredRows checks the object-store defaults on takes of
// scattered rows: 10,000 of 100,000 3 KiB rows (768 f32 vectors), and
// 2,000 of 20,000 48 KiB rows (long strings). The cost model merges gaps
// beyond the 64 KiB CoalesceGap only within 1.25x the bytes needed, so it
// never sends more requests than CoalesceGap alone, and fewer when rows
// are far enough apart.
func TestPlanScatteredRows(t *testing.T) {
	for _, tc := range []struct {
		rowBytes, rows, take int
		fewer                bool
	}{
		{3072, 100_000, 10_000, false}, // gaps of ~9 rows: CoalesceGap merges them all
		{48 << 10, 20_000, 2_000, true},
	} {
		r := rand.New(rand.NewPCG(3, 4))
		var ranges []Range
		for _, i := range r.Perm(tc.rows)[:tc.take] {
			ranges = append(ranges, Range{Off: int64(i * tc.rowBytes), Len: int64(tc.rowBytes)})
		}
		needed := int64(tc.take * tc.rowBytes)
		measure := func(c Config) (requests int, bytes int64) {
			groups, err := plan(ranges, c.withDefaults())
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range groups {
				requests += len(g.parts)
				bytes += g.Len
			}
			return requests, bytes
		}
		reqs, bytes := measure(ObjectStoreConfig(nil))
		gapOnly := ObjectStoreConfig(nil)
		gapOnly.FirstByteLatency = 0
		greqs, gbytes := measure(gapOnly)
		t.Logf("%d of %d rows of %d B: cost model %d requests, %.2fx bytes; CoalesceGap alone %d requests, %.2fx bytes",
			tc.take, tc.rows, tc.rowBytes, reqs, float64(bytes)/float64(needed), greqs, float64(gbytes)/float64(needed))
		if extra := bytes - gbytes; extra > needed/4 {
			t.Errorf("cost model read %d bytes more than CoalesceGap alone, want at most a quarter of %d", extra, needed)
		}
		if reqs > greqs || tc.fewer && reqs >= greqs {
			t.Errorf("cost model sent %d requests, CoalesceGap alone %d (fewer wanted: %v)", reqs, greqs, tc.fewer)
		}
	}
}

// TestPlanBalancesRequestsAndBytes checks the cost model on a link whose
// bandwidth is measured at 200 MB/s (20 ms first byte, 64 reads
// overlapping: a request costs 0.31 ms of waiting, a 30 KB gap 0.15 ms of
// the link). Gaps the link carries within requestOverhead (20 KB) are
// always read; larger ones only while requests, not bytes, bound the time.
func TestPlanBalancesRequestsAndBytes(t *testing.T) {
	c := ObjectStoreConfig(nil)
	c.Bandwidth = 200e6
	c.MaxInFlightRequests = 64
	spaced := func(n int, size, gap int64) []Range {
		var rs []Range
		for i := range int64(n) {
			rs = append(rs, Range{Off: i * (size + gap), Len: size})
		}
		return rs
	}
	count := func(rs []Range) (int64, int64) {
		groups, err := plan(rs, c)
		if err != nil {
			t.Fatal(err)
		}
		var reqs, bytes int64
		for _, g := range groups {
			reqs += int64(len(g.parts))
			bytes += g.Len
		}
		return reqs, bytes
	}
	// Link-bound: 8 MB in 4 requests; a 30 KB gap only adds bytes.
	if reqs, _ := count(spaced(4, 2e6, 30e3)); reqs != 4 {
		t.Errorf("link-bound: %d requests, want 4", reqs)
	}
	// Alignment gaps are always read.
	if reqs, _ := count(spaced(4, 2e6, 64)); reqs != 1 {
		t.Errorf("64-byte gaps: %d requests, want 1", reqs)
	}
	// Request-bound: 1,000 requests of 1 KB (313 ms of waits, 5 ms of
	// bytes) merge until the two balance: after k merges the waits are
	// (1000-k) × 0.3125 ms and the bytes (1 MB + k × 30 KB) / 200 MB/s,
	// equal at k ≈ 660.
	reqs, bytes := count(spaced(1000, 1e3, 30e3))
	if reqs < 300 || reqs > 380 {
		t.Errorf("request-bound: %d requests, want about 340", reqs)
	}
	n := int64(1000)
	if got, all, none := readTime(reqs, bytes, c), readTime(1, 1e6+999*30e3, c), readTime(n, 1e6, c); got >= all || got >= none {
		t.Errorf("modelled %.1f ms, want below merging all (%.1f) or none (%.1f)", got*1e3, all*1e3, none*1e3)
	}
}
