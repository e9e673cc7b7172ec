package scheduler

import (
	"bytes"
	"context"
	"runtime"
	"sync"
	"testing"
)

// countingBuffers is a BufferAllocator that records what it hands out and
// what comes back.
type countingBuffers struct {
	mu     sync.Mutex
	allocs int
	freed  [][]byte
}

func (c *countingBuffers) AllocateUninit(size int) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.allocs++
	return make([]byte, size, size+64) // spare capacity, as a pool's classes have
}

func (c *countingBuffers) Free(b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.freed = append(c.freed, b)
}

func TestSplitRangeIsOneBuffer(t *testing.T) {
	f := &fakeObject{size: 64 << 20}
	s := New(Config{MaxRequestSize: 1 << 20})
	defer s.Close()
	whole := Range{10, 3<<20 + 7}  // read in 4 parts
	inner := Range{1<<20 - 5, 100} // straddles the first split
	bufs := fetch(t, s, f, []Range{whole, inner})
	if n := f.reads.Load(); n != 4 {
		t.Fatalf("requests = %d, want 4", n)
	}
	if &bufs[1][0] != &bufs[0][inner.Off-whole.Off] {
		t.Fatal("a range straddling a split was copied, not sliced from its group's buffer")
	}
}

func TestRecycleGivesBuffersBack(t *testing.T) {
	ctx := context.Background()
	f := &fakeObject{size: 64 << 20}
	bufs := &countingBuffers{}
	s := New(Config{MaxRequestSize: 1 << 20, CoalesceGap: -1, Buffers: bufs})
	defer s.Close()
	ranges := []Range{{0, 2 << 20}, {4 << 20, 100}} // two groups, the first in two parts
	p, err := s.SubmitPooled(ctx, f, ranges, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, ranges)
	if bufs.allocs != 2 {
		t.Fatalf("allocations = %d, want one per merged range (2)", bufs.allocs)
	}
	p.Recycle()
	p.Recycle() // idempotent
	if len(bufs.freed) != 2 || len(bufs.freed[0]) != 2<<20 || len(bufs.freed[1]) != 100 {
		t.Fatalf("freed %d buffers, want the 2 group buffers", len(bufs.freed))
	}
	if s.Stats().MaxInFlightBytes == 0 || s.bytesAvail != s.cfg.MaxInFlightBytes {
		t.Fatalf("Recycle did not return the byte budget: %d of %d", s.bytesAvail, s.cfg.MaxInFlightBytes)
	}
}

// readOne reads one range on a scheduler whose Buffers count what they
// lend and take back, pooled or not, and returns the ended request.
func readOne(t *testing.T, pooled bool) (*Pending, *countingBuffers) {
	t.Helper()
	ctx := context.Background()
	bufs := &countingBuffers{}
	s := New(Config{Buffers: bufs})
	t.Cleanup(func() { s.Close() })
	submit := s.Submit
	if pooled {
		submit = s.SubmitPooled
	}
	p, err := submit(ctx, &fakeObject{size: 1 << 20}, []Range{{0, 1000}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	return p, bufs
}

func TestReleaseKeepsBuffers(t *testing.T) {
	p, bufs := readOne(t, true)
	p.Release()
	p.Recycle() // already released: the caller may still hold the bytes
	if len(bufs.freed) != 0 {
		t.Fatal("Recycle after Release freed buffers")
	}
}

func TestSubmitDoesNotPool(t *testing.T) {
	p, bufs := readOne(t, false)
	p.Recycle()
	if bufs.allocs != 0 || len(bufs.freed) != 0 {
		t.Fatalf("a plain Submit took %d buffers from the pool and gave back %d", bufs.allocs, len(bufs.freed))
	}
}

// goroutineObject records which goroutine did each read.
type goroutineObject struct {
	fakeObject
	mu  sync.Mutex
	ids map[string]int
}

func (g *goroutineObject) ReadAt(ctx context.Context, p []byte, off int64) error {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id := string(bytes.Fields(buf)[1]) // "goroutine N [running]:"
	g.mu.Lock()
	g.ids[id]++
	g.mu.Unlock()
	return g.fakeObject.ReadAt(ctx, p, off)
}

func TestRequestPartsShareAGoroutine(t *testing.T) {
	f := &goroutineObject{fakeObject: fakeObject{size: 64 << 20}, ids: map[string]int{}}
	s := New(Config{MaxRequestSize: 1 << 20, MaxInFlightRequests: 1})
	defer s.Close()
	got, err := s.Fetch(context.Background(), f, []Range{{0, 10 << 20}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, []Range{{0, 10 << 20}})
	if len(f.ids) != 1 {
		t.Fatalf("10 reads of one request ran on %d goroutines, want 1 (each read after the first continues on the same one)", len(f.ids))
	}
}
