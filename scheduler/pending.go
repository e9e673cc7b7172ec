package scheduler

import (
	"context"
	"fmt"
	"github.com/lancego/lancego/internal/uninit"
	"sync"

	lanceio "github.com/lancego/lancego/io"
)

// Pending is a submitted request. Wait for its buffers, then Release them;
// or Cancel it. Its reads run in goroutines joined by Wait and Cancel.
type Pending struct {
	s      *Scheduler
	obj    lanceio.Object
	ctx    context.Context
	cancel context.CancelFunc
	ranges []Range
	groups []group
	bufs   [][][]byte // [group][part]

	wg   sync.WaitGroup
	done chan struct{}

	// guarded by s.mu
	remaining int
	held      int64 // bytes taken from the budget, not yet released
	released  bool
	err       error
}

func newPending(ctx context.Context, s *Scheduler, obj lanceio.Object, ranges []Range, groups []group, prio uint64) *Pending {
	ctx, cancel := context.WithCancel(ctx)
	p := &Pending{s: s, obj: obj, ctx: ctx, cancel: cancel, ranges: ranges, groups: groups,
		done: make(chan struct{}), bufs: make([][][]byte, len(groups))}
	for i, g := range groups {
		p.bufs[i] = make([][]byte, len(g.parts))
		p.remaining += len(g.parts)
	}
	return p
}

// partDone records one finished (or skipped) part; s.mu must be held.
func (p *Pending) partDone(t *task, buf []byte, err error) {
	if err == nil && p.ctx.Err() != nil && buf == nil {
		err = p.ctx.Err()
	}
	if err != nil && p.err == nil {
		p.err = err
		p.cancel() // stop the other parts
	}
	if err == nil {
		p.bufs[t.group][t.part] = buf
		p.s.stats.delivered(t.rng.Len)
	}
	if p.remaining--; p.remaining == 0 {
		delete(p.s.pendings, p)
		close(p.done)
	}
}

// Wait blocks until every read finished and returns one buffer per
// submitted range, or the first error. If ctx ends first, the request is
// canceled. Wait joins all goroutines of the request before returning.
func (p *Pending) Wait(ctx context.Context) ([][]byte, error) {
	select {
	case <-p.done:
	case <-ctx.Done():
		p.Cancel()
	}
	<-p.done
	p.wg.Wait()
	p.s.mu.Lock()
	err := p.err
	p.s.mu.Unlock()
	if err != nil {
		p.Release()
		if p.ctx.Err() != nil && ctx.Err() != nil {
			return nil, fmt.Errorf("%w: %w", ErrCanceled, ctx.Err())
		}
		return nil, err
	}
	return p.assemble(), nil
}

// Cancel stops the request: queued reads are dropped, running ones see a
// canceled context. It waits for the request's goroutines and releases
// its bytes.
func (p *Pending) Cancel() {
	p.cancel()
	p.s.mu.Lock()
	p.dropQueued()
	p.s.mu.Unlock()
	<-p.done
	p.wg.Wait()
	p.Release()
}

// dropQueued removes this request's queued tasks; s.mu must be held.
func (p *Pending) dropQueued() {
	q := p.s.queue[:0]
	var dropped []*task
	for _, t := range p.s.queue {
		if t.p == p {
			dropped = append(dropped, t)
		} else {
			q = append(q, t)
		}
	}
	p.s.queue = q
	rebuild(&p.s.queue)
	for _, t := range dropped {
		p.partDone(t, nil, nil)
	}
}

// Release returns the request's bytes to the scheduler's budget; call it
// when done with the buffers (it is idempotent).
func (p *Pending) Release() {
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	if p.released || p.remaining > 0 {
		return // Release before completion is a no-op; Cancel/Wait handle it
	}
	p.released = true
	p.s.releaseBytes(p.held)
}

// assemble slices the submitted ranges out of the part buffers: zero-copy
// when a range lies in one part, copied when it straddles a split.
func (p *Pending) assemble() [][]byte {
	out := make([][]byte, len(p.ranges))
	for i, r := range p.ranges {
		if r.Len == 0 {
			out[i] = []byte{}
			continue
		}
		out[i] = p.slice(r)
	}
	p.s.stats.used(p.ranges)
	return out
}

func (p *Pending) slice(r Range) []byte {
	gi := p.groupOf(r)
	g := p.groups[gi]
	for pi, part := range g.parts {
		if r.Off >= part.Off && r.End() <= part.End() {
			return p.bufs[gi][pi][r.Off-part.Off : r.End()-part.Off : r.End()-part.Off]
		}
	}
	buf := uninit.Bytes(int(r.Len))[:0]
	for pi, part := range g.parts {
		lo, hi := max(r.Off, part.Off), min(r.End(), part.End())
		if lo < hi {
			buf = append(buf, p.bufs[gi][pi][lo-part.Off:hi-part.Off]...)
		}
	}
	return buf
}

// groupOf finds the merged group containing r (groups are sorted).
func (p *Pending) groupOf(r Range) int {
	lo, hi := 0, len(p.groups)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if p.groups[mid].Off <= r.Off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
