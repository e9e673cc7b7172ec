package scheduler

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	lanceio "github.com/lancego/lancego/io"
)

// fakeObject serves deterministic bytes, counts reads and measures the
// peak number of concurrent reads.
type fakeObject struct {
	size     int64
	delay    time.Duration
	gate     chan struct{} // if non-nil, each read waits for a token
	reads    atomic.Int64
	cur, max atomic.Int64
	mu       sync.Mutex
	offs     []int64
	failAt   int64 // read at this offset fails (if > 0)
}

var errBoom = errors.New("boom")

// pattern holds byteAt for one period plus slack so fills are copies.
var pattern = func() []byte {
	b := make([]byte, 251*4096)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}()

func fill(p []byte, off int64) {
	for len(p) > 0 {
		n := copy(p, pattern[off%251:])
		p, off = p[n:], off+int64(n)
	}
}

func (f *fakeObject) ReadAt(ctx context.Context, p []byte, off int64) error {
	f.reads.Add(1)
	storeMax(&f.max, f.cur.Add(1))
	defer f.cur.Add(-1)
	f.mu.Lock()
	f.offs = append(f.offs, off)
	f.mu.Unlock()
	if f.gate != nil {
		select {
		case <-f.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if f.failAt > 0 && off == f.failAt {
		return errBoom
	}
	fill(p, off)
	return nil
}
func (f *fakeObject) Size() int64                { return f.size }
func (f *fakeObject) Identity() lanceio.Identity { return lanceio.Identity{URL: "fake", Size: f.size} }
func (f *fakeObject) Close() error               { return nil }

func check(t *testing.T, bufs [][]byte, ranges []Range) {
	t.Helper()
	for i, r := range ranges {
		want := make([]byte, r.Len)
		fill(want, r.Off)
		if !bytes.Equal(bufs[i], want) {
			t.Fatalf("range %d %+v: wrong bytes", i, r)
		}
	}
}

func fetch(t *testing.T, s *Scheduler, f *fakeObject, ranges []Range) [][]byte {
	t.Helper()
	bufs, err := s.Fetch(context.Background(), f, ranges, 0)
	if err != nil {
		t.Fatal(err)
	}
	check(t, bufs, ranges)
	return bufs
}

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestCoalesceLocal(t *testing.T) {
	f := &fakeObject{size: 1 << 20}
	s := New(LocalConfig(nil))
	defer s.Close()
	fetch(t, s, f, []Range{{0, 1000}, {2024, 1000}}) // 1 KiB apart
	if n := f.reads.Load(); n != 1 {
		t.Fatalf("requests = %d, want 1", n)
	}
}

func TestCoalesceObjectStore(t *testing.T) {
	f := &fakeObject{size: 1 << 20}
	s := New(ObjectStoreConfig(nil))
	defer s.Close()
	fetch(t, s, f, []Range{{0, 1000}, {1000 + 100<<10, 1000}}) // 100 KiB apart
	if n := f.reads.Load(); n != 2 {
		t.Fatalf("requests = %d, want 2", n)
	}
	fetch(t, s, f, []Range{{0, 1000}, {1000 + 60<<10, 1000}}) // 60 KiB apart
	if n := f.reads.Load(); n != 3 {
		t.Fatalf("requests = %d, want 3", n)
	}
}

func TestSplitLarge(t *testing.T) {
	f := &fakeObject{size: 64 << 20, delay: 20 * time.Millisecond}
	s := New(Config{})
	defer s.Close()
	ranges := []Range{{100, 40 << 20}, {5 << 20, 10}, {16<<20 - 5, 10}} // last straddles a split
	fetch(t, s, f, ranges)
	if n, m := f.reads.Load(), f.max.Load(); n != 3 || m != 3 {
		t.Fatalf("requests = %d (want 3), max concurrent = %d (want 3)", n, m)
	}
	st := s.Stats()
	if st.Coalesced != 2 || st.BytesRequested != 40<<20 || st.BytesUsed != 40<<20+20 {
		t.Fatalf("stats = %+v", st)
	}
}

func TestDedupeAndEmpty(t *testing.T) {
	f := &fakeObject{size: 1 << 20}
	s := New(Config{})
	defer s.Close()
	ranges := []Range{{500, 100}, {500, 100}, {0, 0}, {550, 200}, {520, 10}}
	bufs := fetch(t, s, f, ranges)
	if f.reads.Load() != 1 || len(bufs[2]) != 0 {
		t.Fatalf("reads = %d", f.reads.Load())
	}
	if _, err := s.Fetch(context.Background(), f, []Range{{-1, 5}}, 0); !errors.Is(err, ErrInvalidRange) {
		t.Fatalf("err = %v", err)
	}
}

func TestInFlightLimits(t *testing.T) {
	f := &fakeObject{size: 1 << 30, delay: 2 * time.Millisecond}
	lim := NewLimiter(5)
	s1 := New(Config{MaxInFlightRequests: 4, CoalesceGap: -1, Limiter: lim})
	s2 := New(Config{MaxInFlightRequests: 4, CoalesceGap: -1, Limiter: lim})
	defer s1.Close()
	defer s2.Close()
	var ranges []Range
	for i := range 40 {
		ranges = append(ranges, Range{int64(i) * 10_000, 100})
	}
	var wg sync.WaitGroup
	for _, s := range []*Scheduler{s1, s2} {
		wg.Go(func() {
			if _, err := s.Fetch(context.Background(), f, ranges, 0); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if m := f.max.Load(); m > 5 || m < 2 {
		t.Fatalf("max concurrent reads = %d, want 2..5 (process cap 5)", m)
	}
	if m := s1.Stats().MaxInFlight; m > 4 {
		t.Fatalf("per-scheduler max = %d, want <= 4", m)
	}
}

func TestBackpressure(t *testing.T) {
	f := &fakeObject{size: 1 << 20}
	s := New(Config{MaxInFlightBytes: 1000, CoalesceGap: -1})
	defer s.Close()
	ctx := context.Background()
	p1, _ := s.Submit(ctx, f, []Range{{0, 800}}, 0)
	if _, err := p1.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	// p1 holds 800 bytes; a 500-byte request at a later priority may start
	// only because nothing else is in flight; a second one must wait.
	g := make(chan struct{})
	f.gate = g
	p2, _ := s.Submit(ctx, f, []Range{{10_000, 500}}, 5)
	p3, _ := s.Submit(ctx, f, []Range{{20_000, 500}}, 6)
	if n := s.Stats().Requests; n != 2 {
		t.Fatalf("requests = %d, want 2 (p3 held back)", n)
	}
	p1.Release()
	if n := s.Stats().Requests; n != 3 {
		t.Fatalf("reads after release = %d, want 3", n)
	}
	close(g)
	for _, p := range []*Pending{p2, p3} {
		if _, err := p.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		p.Release()
	}
	if s.Stats().Backpressure == 0 {
		t.Fatal("no backpressure recorded")
	}
}

func TestPriorityOrder(t *testing.T) {
	f := &fakeObject{size: 1 << 30, gate: make(chan struct{})}
	s := New(Config{MaxInFlightRequests: 1, CoalesceGap: -1})
	defer s.Close()
	ctx := context.Background()
	first, _ := s.Submit(ctx, f, []Range{{0, 10}}, 0) // occupies the only slot
	var ps []*Pending
	for _, prio := range []uint64{50, 10, 40, 20, 30} {
		p, _ := s.Submit(ctx, f, []Range{{int64(prio) * 1000, 10}}, prio)
		ps = append(ps, p)
	}
	close(f.gate)
	for _, p := range append(ps, first) {
		if _, err := p.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		p.Release()
	}
	want := []int64{0, 10_000, 20_000, 30_000, 40_000, 50_000}
	for i, off := range f.offs {
		if off != want[i] {
			t.Fatalf("read order = %v, want %v", f.offs, want)
		}
	}
}

func TestCancelStopsPromptly(t *testing.T) {
	f := &fakeObject{size: 1 << 30, delay: 10 * time.Second}
	s := New(Config{MaxInFlightRequests: 2, CoalesceGap: -1})
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var ranges []Range
	for i := range 10 {
		ranges = append(ranges, Range{int64(i) * 1 << 20, 100})
	}
	time.AfterFunc(20*time.Millisecond, cancel)
	t0 := time.Now()
	_, err := s.Fetch(ctx, f, ranges, 0)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrCanceled) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Fatalf("cancel took %v", d)
	}
	if n := s.Stats().Requests; n != 2 {
		t.Fatalf("requests started = %d, want 2 (queued ones dropped)", n)
	}
}

func TestErrorPropagatesAndCloseJoins(t *testing.T) {
	f := &fakeObject{size: 1 << 30, failAt: 3 << 20}
	s := New(Config{CoalesceGap: -1})
	_, err := s.Fetch(context.Background(), f, []Range{{0, 10}, {3 << 20, 10}, {6 << 20, 10}}, 0)
	if !errors.Is(err, errBoom) {
		t.Fatalf("err = %v", err)
	}
	f2 := &fakeObject{size: 1 << 30, delay: 10 * time.Second}
	p, _ := s.Submit(context.Background(), f2, []Range{{0, 10}}, 0)
	_ = s.Close()
	if _, err := p.Wait(context.Background()); err == nil {
		t.Fatal("Wait after Close succeeded")
	}
	if _, err := s.Submit(context.Background(), f2, []Range{{0, 10}}, 0); !errors.Is(err, ErrClosed) {
		t.Fatalf("Submit after Close = %v", err)
	}
}

func BenchmarkFetchScattered(b *testing.B) {
	f := &fakeObject{size: 1 << 30}
	s := New(Config{})
	defer s.Close()
	var ranges []Range
	for i := range 256 {
		ranges = append(ranges, Range{int64(i) * 40_000, 4096})
	}
	for b.Loop() {
		if _, err := s.Fetch(context.Background(), f, ranges, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(s.Stats().Requests)/float64(b.N), "requests/op")
	b.ReportMetric(float64(s.Stats().BytesRequested)/float64(b.N), "bytes/op")
}
