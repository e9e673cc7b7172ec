package scheduler

import (
	"context"
	"fmt"
	"sync"

	lanceio "github.com/lancego/lancego/io"
)

// Reading a range's first bytes before the rest (WaitPrefix). A part of a
// request of at least streamMinPart bytes is read with a progress function
// (lanceio.WithReadProgress), so that objects reading over a network say
// how much of it has arrived; WaitPrefix returns as soon as the bytes
// asked for are in. A scan then decodes a page's first chunks while its
// last ones are still on the wire, and a page of a multi-page request as
// soon as it is in, rather than when the whole request is.

// streamMinPart is the smallest part read with progress reports: shorter
// reads arrive in about a round trip whatever their size.
const streamMinPart = 2 * lanceio.ProgressStep

// streamState is a request's progress: for each group, its buffer once a
// read into it has started and how much of each part is filled.
type streamState struct {
	mu     sync.Mutex
	bufs   [][]byte  // per group, nil until its first read starts
	filled [][]int64 // per group and part
	used   []bool    // per submitted range: counted in the stats
	tick   chan struct{}
}

func (st *streamState) init(groups []group) {
	st.bufs = make([][]byte, len(groups))
	st.filled = make([][]int64, len(groups))
	for i, g := range groups {
		st.filled[i] = make([]int64, len(g.parts))
	}
}

// readContext returns the context t's read runs with: the request's, with
// a progress function for long parts. It publishes t's group buffer.
func (p *Pending) readContext(t *task) context.Context {
	if t.rng.Len < streamMinPart {
		return p.ctx
	}
	st := &p.stream
	st.mu.Lock()
	if st.bufs[t.group] == nil {
		st.bufs[t.group] = t.groupBuf
	}
	st.mu.Unlock()
	return lanceio.WithReadProgress(p.ctx, func(n int) { st.advance(t.group, t.part, int64(n)) })
}

// advance records that part of group g has n bytes and wakes waiters.
func (st *streamState) advance(g, part int, n int64) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.filled[g][part] = n
	if st.tick != nil {
		close(st.tick)
		st.tick = nil
	}
}

// prefix returns range r's bytes if its first n are in (r in group g).
// st.mu must be held.
func (st *streamState) prefix(g group, gi int, r Range, n int64) ([]byte, bool) {
	buf := st.bufs[gi]
	if buf == nil {
		return nil, false
	}
	end := r.Off + n
	for k, part := range g.parts {
		if part.Off >= end {
			break
		}
		if part.Off+part.Len <= r.Off {
			continue
		}
		if st.filled[gi][k] < min(end, part.Off+part.Len)-part.Off {
			return nil, false
		}
	}
	lo := r.Off - g.Off
	return buf[lo : lo+r.Len : lo+r.Len], true
}

// WaitPrefix blocks until the first n bytes of submitted range i are read
// (all of the request, for reads that report no progress) and returns the
// range's buffer, of which only those n bytes may be read until a later
// WaitPrefix (or the request's end) says more are in. Reads go on after it
// returns: end the request with Close (or Cancel) rather than Release,
// which does nothing while reads run. On an error of the request it
// returns that error; the caller still ends the request. ctx ending
// returns its error without canceling the request.
func (p *Pending) WaitPrefix(ctx context.Context, i int, n int64) ([]byte, error) {
	if i < 0 || i >= len(p.ranges) {
		return nil, fmt.Errorf("scheduler: WaitPrefix of range %d of %d", i, len(p.ranges))
	}
	r := p.ranges[i]
	n = max(0, min(n, r.Len))
	if r.Len == 0 {
		return []byte{}, nil
	}
	gi := p.groupOf(r)
	for {
		b, tick := p.prefixOrTick(i, gi, n)
		if b != nil {
			Reached(ctx, p.depth)
			return b, nil
		}
		select {
		case <-tick:
		case <-p.done:
			return p.finished(ctx, r)
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %w", ErrCanceled, ctx.Err())
		}
	}
}

// prefixOrTick returns range i's bytes (in group gi) if n of them are in,
// else a channel closed at the next progress. The first call for a range
// counts its bytes as used (delivered to the caller).
func (p *Pending) prefixOrTick(i, gi int, n int64) ([]byte, <-chan struct{}) {
	st := &p.stream
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.used == nil {
		st.used = make([]bool, len(p.ranges))
	}
	if !st.used[i] {
		st.used[i] = true
		p.s.stats.used(p.ranges[i : i+1])
	}
	if b, ok := st.prefix(p.groups[gi], gi, p.ranges[i], n); ok {
		return b, nil
	}
	if st.tick == nil {
		st.tick = make(chan struct{})
	}
	return nil, st.tick
}

// finished returns range r once the request has ended, or its error.
func (p *Pending) finished(ctx context.Context, r Range) ([]byte, error) {
	p.s.mu.Lock()
	err := p.err
	p.s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	Reached(ctx, p.depth)
	return p.slice(r), nil
}

// Close ends the request in any state: reads still running are canceled
// (the caller has what it needed of them), its goroutines joined and its
// bytes released; with recycle, a SubmitPooled request's buffers go back
// to the pool (as Recycle: nothing may refer to them any more).
func (p *Pending) Close(recycle bool) {
	p.cancel()
	p.s.mu.Lock()
	p.dropQueued()
	p.s.mu.Unlock()
	<-p.done
	p.wg.Wait()
	p.end(recycle)
}
