package scheduler

import (
	"container/heap"
	"context"
	"sync"
	"time"

	lanceio "github.com/lancego/lancego/io"
)

// Scheduler issues reads for one scan (or one file reader); it is safe for
// concurrent use. Every goroutine it starts belongs to a Pending and is
// joined by Pending.Wait, Pending.Cancel or Scheduler.Close.
type Scheduler struct {
	cfg     Config
	stats   counters
	link    linkMeter
	measure bool // cfg has a cost model: measure the link for it

	mu         sync.Mutex
	queue      taskHeap
	seq        uint64
	iopsAvail  int
	bytesAvail int64
	inflight   map[uint64]int // priority -> running tasks
	pendings   map[*Pending]struct{}
	closed     bool
}

// New returns a scheduler; cfg zero fields take the object-store defaults.
func New(cfg Config) *Scheduler {
	cfg = cfg.withDefaults()
	return &Scheduler{
		cfg:        cfg,
		iopsAvail:  cfg.MaxInFlightRequests,
		bytesAvail: cfg.MaxInFlightBytes,
		inflight:   make(map[uint64]int),
		pendings:   make(map[*Pending]struct{}),
		measure:    breakEvenGap(cfg) > 0,
	}
}

// Config returns the effective configuration.
func (s *Scheduler) Config() Config { return s.cfg }

// Fetch reads ranges of obj and returns one buffer per range, in order.
// Buffers may alias each other (identical or overlapping ranges share
// memory): treat them as read-only. Fetch releases the bytes budget when it
// returns; use Submit to hold it while decoding.
func (s *Scheduler) Fetch(ctx context.Context, obj lanceio.Object, ranges []Range, priority uint64) ([][]byte, error) {
	p, err := s.Submit(ctx, obj, ranges, priority)
	if err != nil {
		return nil, err
	}
	defer p.Release()
	return p.Wait(ctx)
}

// Submit queues the reads for ranges at priority (lower is served first,
// e.g. the first row number the data belongs to; 0 for metadata) and
// returns at once. ctx bounds the reads. The caller must end the Pending
// with Wait or Cancel, and call Release once done with the buffers.
func (s *Scheduler) Submit(ctx context.Context, obj lanceio.Object, ranges []Range, priority uint64) (*Pending, error) {
	return s.submit(ctx, obj, ranges, priority, readPlain)
}

// SubmitPooled is Submit for bytes that are decoded and dropped: nothing
// made from them may refer to them once the Pending is ended with Recycle
// (or Release). It reads into buffers from Config.Buffers, which Recycle
// gives back for later reads (Release leaves them to the garbage
// collector).
func (s *Scheduler) SubmitPooled(ctx context.Context, obj lanceio.Object, ranges []Range, priority uint64) (*Pending, error) {
	return s.submit(ctx, obj, ranges, priority, readPooled)
}

// SubmitViewed is SubmitPooled served, when obj lends views
// (lanceio.Viewer: a local file's memory map), by one view per merged
// range: no read and no copy. Recycle or Release ends the views, and their
// bytes must then be touched no more. It pays where decoding is as fast as
// copying (fixed-width values), so that the read's copy was a large share
// of the work.
func (s *Scheduler) SubmitViewed(ctx context.Context, obj lanceio.Object, ranges []Range, priority uint64) (*Pending, error) {
	return s.submit(ctx, obj, ranges, priority, readViewed)
}

// readMode says where a request's bytes go.
type readMode int

const (
	readPlain  readMode = iota // fresh memory the caller may keep (Submit)
	readPooled                 // Config.Buffers, given back by Recycle (SubmitPooled)
	readViewed                 // views of obj when it lends them, else as readPooled
)

// submit queues a request whose bytes go where mode says.
func (s *Scheduler) submit(ctx context.Context, obj lanceio.Object, ranges []Range, priority uint64, mode readMode) (*Pending, error) {
	groups, err := plan(ranges, s.planConfig())
	if err != nil {
		return nil, err
	}
	var depth int64
	if len(groups) > 0 {
		depth = s.issue(ctx)
	}
	if mode == readViewed && !s.isClosed() {
		if p := s.submitViews(ctx, obj, ranges, groups, priority); p != nil {
			p.depth = depth
			return p, nil
		}
	}
	p := newPending(ctx, s, obj, ranges, groups, priority)
	p.depth = depth
	p.pooled = mode != readPlain && s.cfg.Buffers != nil
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		p.cancel()
		return nil, ErrClosed
	}
	s.stats.record(ranges, groups)
	if p.remaining == 0 {
		close(p.done)
		p.cancel()
		return p, nil
	}
	s.pendings[p] = struct{}{}
	for gi, g := range groups {
		for pi, part := range g.parts {
			s.seq++
			heap.Push(&s.queue, &task{p: p, group: gi, part: pi, rng: part, prio: priority, seq: s.seq})
		}
	}
	s.pump()
	return p, nil
}

// planConfig is the configuration requests are planned with: the
// scheduler's, with the bandwidth its reads measured (link.go) in
// place of Config.Bandwidth once there is one, when it has a cost model.
func (s *Scheduler) planConfig() Config {
	c := s.cfg
	if s.measure {
		if bw := s.link.bandwidth(); bw > 0 {
			c.Bandwidth = bw
		}
	}
	return c
}

// RoundTripBytes is what the link carries during one first-byte wait by
// the cost model: FirstByteLatency × the bandwidth planned with (measured,
// else Config.Bandwidth); 0 without a cost model. Reading fewer extra
// bytes than this to save a dependent round trip pays.
func (s *Scheduler) RoundTripBytes() int64 {
	if !s.measure {
		return 0
	}
	c := s.planConfig()
	return int64(min(c.FirstByteLatency.Seconds()*float64(c.Bandwidth), 1<<62))
}

func (s *Scheduler) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Close cancels every unfinished Pending and waits for their reads to stop.
// Buffers already delivered stay valid.
func (s *Scheduler) Close() error {
	s.mu.Lock()
	s.closed = true
	ps := make([]*Pending, 0, len(s.pendings))
	for p := range s.pendings {
		ps = append(ps, p)
	}
	s.mu.Unlock()
	for _, p := range ps {
		p.Cancel()
	}
	return nil
}

// pump starts queued tasks while the limits allow; s.mu must be held.
func (s *Scheduler) pump() {
	for {
		t := s.admitNext(nil)
		if t == nil {
			return
		}
		go s.run(t)
	}
}

// admitNext pops the next task the limits allow (only if it belongs to
// p, when p is not nil) and accounts for it as started, or returns nil.
// Tasks of canceled requests are dropped on the way. s.mu must be held.
func (s *Scheduler) admitNext(p *Pending) *task {
	for s.queue.Len() > 0 && s.iopsAvail > 0 {
		t := s.queue[0]
		if t.p.ctx.Err() != nil {
			heap.Pop(&s.queue)
			t.p.partDone(t, t.p.ctx.Err()) // the Pending reports its context error
			continue
		}
		if p != nil && t.p != p {
			return nil
		}
		if len(s.inflight) > 0 && t.prio > s.minInflight() && t.rng.Len > s.bytesAvail {
			s.stats.backpressure.Add(1)
			return nil
		}
		heap.Pop(&s.queue)
		s.admit(t)
		return t
	}
	return nil
}

func (s *Scheduler) minInflight() uint64 {
	first, m := true, uint64(0)
	for p := range s.inflight {
		if first || p < m {
			first, m = false, p
		}
	}
	return m
}

// admit takes t's request and bytes from the budgets; s.mu must be held.
func (s *Scheduler) admit(t *task) {
	s.iopsAvail--
	s.bytesAvail -= t.rng.Len
	s.inflight[t.prio]++
	t.p.held += t.rng.Len
	if len(t.p.groups[t.group].parts) > 1 {
		t.buf = t.p.partBuffer(t)
		t.groupBuf = t.p.bufs[t.group]
	}
	s.stats.started(s.cfg.MaxInFlightRequests-s.iopsAvail, s.cfg.MaxInFlightBytes-s.bytesAvail, t.rng.Len)
	if s.measure {
		t.began = time.Now()
		s.link.started(s.cfg.MaxInFlightRequests-s.iopsAvail, t.began)
	}
	t.p.wg.Add(1)
}

// run performs admitted reads and hands each result to its Pending. When
// the next read in line belongs to the same request, the goroutine does it
// too rather than starting another: an object-store client's call stack is
// deep, and a fresh goroutine grows (copies) its stack several times per
// request, which was a tenth of a take's CPU on S3.
func (s *Scheduler) run(t *task) {
	for t != nil {
		t = s.runOne(t)
	}
}

// runOne performs t and returns the read to do next in this goroutine, if
// any.
func (s *Scheduler) runOne(t *task) *task {
	defer t.p.wg.Done()
	if t.buf == nil { // a group read in one part
		t.buf = t.p.groupBuffer(t.rng.Len)
		t.groupBuf = t.buf
	}
	err := s.cfg.Limiter.acquire(t.p.ctx)
	if err == nil {
		err = t.p.obj.ReadAt(t.p.readContext(t), t.buf, t.rng.Off)
		s.cfg.Limiter.release()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.iopsAvail++
	if s.measure {
		s.measured(t, err)
	}
	if s.inflight[t.prio]--; s.inflight[t.prio] == 0 {
		delete(s.inflight, t.prio)
	}
	t.p.partDone(t, err)
	next := s.admitNext(t.p)
	s.pump()
	return next
}

// measured hands t's read, just ended, to the link meter; s.mu must be
// held.
func (s *Scheduler) measured(t *task, err error) {
	delivered := int64(0)
	if err == nil {
		delivered = t.rng.Len
	}
	now := time.Now()
	s.link.ended(delivered, now.Sub(t.began), s.cfg.MaxInFlightRequests-s.iopsAvail, costOverlap(s.cfg), now)
}

// releaseBytes returns n bytes to the budget; s.mu must be held.
func (s *Scheduler) releaseBytes(n int64) {
	s.bytesAvail += n
	s.pump()
}

// task is one request (one part of one merged group).
type task struct {
	p           *Pending
	group, part int
	rng         Range
	prio, seq   uint64
	buf         []byte // where the read goes: a slice of its group's buffer
	groupBuf    []byte // the whole buffer of its group
	began       time.Time
}

// taskHeap orders tasks by priority, then submission order.
type taskHeap []*task

func (h taskHeap) Len() int { return len(h) }
func (h taskHeap) Less(i, j int) bool {
	if h[i].prio != h[j].prio {
		return h[i].prio < h[j].prio
	}
	return h[i].seq < h[j].seq
}
func (h taskHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *taskHeap) Push(x any)   { *h = append(*h, x.(*task)) }
func (h *taskHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	return t
}
