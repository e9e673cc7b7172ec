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
	// bufs holds one buffer per merged group, allocated when its first
	// part starts; parts read into slices of it, so a range never needs
	// copying out of several parts.
	bufs [][]byte
	// pooled says the buffers come from the scheduler's Config.Buffers
	// (SubmitPooled), so Recycle gives them back.
	pooled bool
	// views end the views bufs are, when the request was served from a
	// memory map (submitViews); Release and Recycle call them.
	views []func()
	// depth is the request's round-trip depth (see Track): waiting for it
	// raises the waiter's strand to it.
	depth int64

	wg   sync.WaitGroup
	done chan struct{}

	// stream holds what WaitPrefix needs of reads still running.
	stream streamState

	// guarded by s.mu
	remaining int
	held      int64 // bytes taken from the budget, not yet released
	released  bool
	err       error
}

func newPending(ctx context.Context, s *Scheduler, obj lanceio.Object, ranges []Range, groups []group, prio uint64) *Pending {
	ctx, cancel := context.WithCancel(ctx)
	p := &Pending{s: s, obj: obj, ctx: ctx, cancel: cancel, ranges: ranges, groups: groups,
		done: make(chan struct{}), bufs: make([][]byte, len(groups))}
	for _, g := range groups {
		p.remaining += len(g.parts)
	}
	p.stream.init(groups)
	return p
}

// partBuffer returns where t's read goes when t is one part of several:
// a slice of its group's buffer, allocated when the group's first part
// starts. s.mu must be held. A group read in one part gets its buffer in
// the reading goroutine instead (groupBuffer), outside the lock.
func (p *Pending) partBuffer(t *task) []byte {
	g := p.groups[t.group]
	b := p.bufs[t.group]
	if b == nil {
		b = p.groupBuffer(g.Len)
		p.bufs[t.group] = b
	}
	lo := t.rng.Off - g.Off
	return b[lo : lo+t.rng.Len : lo+t.rng.Len]
}

// groupBuffer allocates the buffer of a group of n bytes.
func (p *Pending) groupBuffer(n int64) []byte {
	if p.pooled {
		return p.s.cfg.Buffers.AllocateUninit(int(n))[:n]
	}
	return uninit.Bytes(int(n)) // the reads fill it or fail
}

// partDone records one finished part, or one dropped unread (err is then
// the request's context error); s.mu must be held.
func (p *Pending) partDone(t *task, err error) {
	if err != nil && p.err == nil {
		p.err = err
		p.cancel() // stop the other parts
	}
	if err == nil {
		p.s.stats.delivered(t.rng.Len)
		if len(p.groups[t.group].parts) == 1 {
			p.bufs[t.group] = t.buf
		}
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
	Reached(ctx, p.depth)
	return p.assemble(), nil
}

// Depth returns the request's round-trip depth (0 if it was submitted with
// an untracked context, or needed no read): see Track and Reached.
func (p *Pending) Depth() int64 { return p.depth }

// Cancel stops the request: queued reads are dropped, running ones see a
// canceled context. It waits for the request's goroutines and releases
// its bytes.
func (p *Pending) Cancel() { p.Close(false) }

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
		p.partDone(t, p.ctx.Err())
	}
}

// Release returns the request's bytes to the scheduler's budget; call it
// when done with the buffers (it is idempotent).
func (p *Pending) Release() { p.end(false) }

// Recycle is Release, and gives the read buffers of a SubmitPooled request
// back to the scheduler's Config.Buffers for reuse. Call it instead of
// Release only when no slice of the delivered buffers is used any more
// (nothing decoded from them aliases them): their memory is then handed
// to later reads. It does nothing before the request has ended.
func (p *Pending) Recycle() { p.end(true) }

// end releases the request's bytes once it has ended, and with recycle
// gives a pooled request's buffers back (only the first call counts).
func (p *Pending) end(recycle bool) {
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	if p.released || p.remaining > 0 {
		return // before completion a no-op; Cancel/Wait handle it
	}
	p.released = true
	p.s.releaseBytes(p.held)
	p.releaseViews()
	if !recycle || !p.pooled {
		return
	}
	for i, b := range p.bufs {
		if b != nil {
			p.s.cfg.Buffers.Free(b)
			p.bufs[i] = nil
		}
	}
}

// assemble slices the submitted ranges out of the group buffers (no copy).
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
	lo := r.Off - p.groups[gi].Off
	return p.bufs[gi][lo : lo+r.Len : lo+r.Len]
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
