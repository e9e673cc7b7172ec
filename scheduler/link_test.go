package scheduler

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	lanceio "github.com/lancego/lancego/io"
)

// TestLinkMeter checks the samples of busy spells with given times: bytes
// over the spell's length less the latency (the shortest read, 20 ms,
// seen first), the highest of the recent samples, and no sample from
// spells that are small, brief or bound by their requests.
func TestLinkMeter(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	type read struct {
		start, end int // ms
		bytes      int64
	}
	tests := []struct {
		name  string
		reads []read
		want  int64 // bytes/s
	}{
		{"one read", []read{{100, 1120, 100e6}}, 100e6},
		{"reads side by side", []read{{100, 1120, 100e6}, {100, 620, 100e6}}, 200e6},
		{"small spells are no sample", []read{{100, 1120, linkMinBytes - 1}}, 0},
		{"brief spells are no sample", []read{{100, 124, 100e6}}, 0},
		{"request-bound spells are no sample", []read{{100, 200, 5e6}, {100, 200, 5e6}, {100, 200, 5e6}}, 0},
		{"failed reads deliver nothing", []read{{100, 1120, 0}}, 0},
		{"the highest spell counts", []read{{100, 1120, 50e6}, {2000, 3020, 80e6}, {4000, 5020, 60e6}}, 80e6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var m linkMeter
			reads := append([]read{{0, 20, 1000}}, tc.reads...) // sets the latency
			type event struct {
				ms, read int
				start    bool
			}
			var events []event
			for i, r := range reads {
				events = append(events, event{r.start, i, true}, event{r.end, i, false})
			}
			slices.SortStableFunc(events, func(a, b event) int { return a.ms - b.ms })
			inflight := 0
			for _, e := range events {
				r := reads[e.read]
				if e.start {
					inflight++
					m.started(inflight, at(e.ms))
				} else {
					inflight--
					took := time.Duration(r.end-r.start) * time.Millisecond
					m.ended(r.bytes, took, inflight, 1, at(e.ms))
				}
			}
			if got := m.bandwidth(); got != tc.want {
				t.Errorf("bandwidth = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestLinkMeterForgetsOldSamples: the highest of the last linkSamples.
func TestLinkMeterForgetsOldSamples(t *testing.T) {
	var m linkMeter
	now := time.Unix(1000, 0)
	read := func(bytes int64, took time.Duration) {
		m.started(1, now)
		now = now.Add(took)
		m.ended(bytes, took, 0, 1, now)
	}
	read(1000, 10*time.Millisecond) // the latency
	spell := func(bytes int64) { read(bytes, time.Second+10*time.Millisecond) }
	spell(900e6)
	for range linkSamples - 1 {
		spell(100e6)
	}
	if got := m.bandwidth(); got != 900e6 {
		t.Fatalf("bandwidth = %d, want the fast spell's 9e8", got)
	}
	spell(100e6)
	if got := m.bandwidth(); got != 100e6 {
		t.Fatalf("bandwidth = %d after %d later spells, want 1e8", got, linkSamples)
	}
}

// pacedObject is a store behind a link of bps bytes per second shared by
// all its reads, which report progress every lanceio.ProgressStep.
type pacedObject struct {
	size    int64
	bps     float64
	latency time.Duration
	mu      sync.Mutex
	free    time.Time // when the link has sent what it was asked
}

// send books n bytes on the link and returns when they have arrived.
func (o *pacedObject) send(ctx context.Context, n int) error {
	o.mu.Lock()
	now := time.Now()
	if o.free.Before(now) {
		o.free = now
	}
	o.free = o.free.Add(time.Duration(float64(n) / o.bps * float64(time.Second)))
	until := o.free
	o.mu.Unlock()
	select {
	case <-time.After(time.Until(until)):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (o *pacedObject) ReadAt(ctx context.Context, p []byte, off int64) error {
	fill(p, off)
	time.Sleep(o.latency)
	notify := lanceio.ReadProgressOf(ctx)
	for done := 0; done < len(p); {
		step := min(lanceio.ProgressStep, len(p)-done)
		if err := o.send(ctx, step); err != nil {
			return err
		}
		done += step
		if notify != nil {
			notify(done)
		}
	}
	return nil
}
func (o *pacedObject) Size() int64 { return o.size }
func (o *pacedObject) Identity() lanceio.Identity {
	return lanceio.Identity{URL: "paced", Size: o.size}
}
func (o *pacedObject) Close() error { return nil }

// TestSchedulerMeasuresTheLink reads a short range (its time is taken as
// the first-byte latency), then long ranges over a link of 100 MB/s, and
// checks the bandwidth measured, then that ranges 30 KB apart, which
// the default model merges (1 GiB/s), are read apart now that the link is
// known to be slow: their bytes, not their requests, bound the time.
func TestSchedulerMeasuresTheLink(t *testing.T) {
	ctx := context.Background()
	obj := &pacedObject{size: 1 << 30, bps: 100e6, latency: 2 * time.Millisecond}
	s := New(ObjectStoreConfig(nil))
	defer s.Close()
	spread := []Range{{0, 1 << 20}, {1<<20 + 30_000, 1 << 20}, {2<<20 + 60_000, 1 << 20}}
	if g, _ := plan(spread, s.planConfig()); len(g) != 1 {
		t.Fatalf("before measuring: %d groups, want the default model to merge them into 1", len(g))
	}
	if _, err := s.Fetch(ctx, obj, []Range{{0, 1000}}, 0); err != nil { // a first byte's wait
		t.Fatal(err)
	}
	var long []Range
	for i := range 4 {
		long = append(long, Range{Off: int64(i) * 64 << 20, Len: 2 << 20})
	}
	start := time.Now()
	if _, err := s.Fetch(ctx, obj, long, 0); err != nil {
		t.Fatal(err)
	}
	// what the link delivered: the timer-paced link is slower still on a
	// loaded machine (or under the race detector), and the estimate must
	// follow what was delivered, never the nominal rate
	delivered := float64(4*(2<<20)) / (time.Since(start) - obj.latency).Seconds()
	bw := s.Stats().LinkBandwidth
	t.Logf("measured %.1f MB/s; the 100 MB/s link delivered %.1f MB/s", float64(bw)/1e6, delivered/1e6)
	if float64(bw) < delivered/2 || float64(bw) > 2*delivered || bw > 150e6 {
		t.Fatalf("measured %d bytes/s, want within 2x of the %.0f delivered (and under 150e6)", bw, delivered)
	}
	if g, _ := plan(spread, s.planConfig()); len(g) != 3 {
		t.Fatalf("after measuring: %d groups, want the 3 ranges read apart", len(g))
	}
}

// TestLocalSchedulerMeasuresNothing: without a cost model (local files)
// there is nothing to plan with a bandwidth, and none is measured.
func TestLocalSchedulerMeasuresNothing(t *testing.T) {
	ctx := context.Background()
	obj := &pacedObject{size: 1 << 30, bps: 1e9}
	s := New(LocalConfig(nil))
	defer s.Close()
	for _, r := range []Range{{0, 1000}, {1 << 20, 8 << 20}} {
		if _, err := s.Fetch(ctx, obj, []Range{r}, 0); err != nil {
			t.Fatal(err)
		}
	}
	if bw := s.Stats().LinkBandwidth; bw != 0 {
		t.Fatalf("local scheduler measured %d bytes/s, want 0", bw)
	}
}
