package scheduler

import (
	"context"
	"sync"
	"sync/atomic"
)

// Round trips.
//
// An operation's round trips are the length of the longest chain of its
// requests each of which was issued only after another's answer arrived:
// with a first-byte latency L, the operation waits at least L times that
// many, however many requests each wave holds.
//
// The chain is followed through the context. Track puts a strand in it: a
// line of sequential work, with the deepest answer it has waited for (its
// depth, 0 at the start). A request submitted with a strand of depth d is
// at depth d+1 and raises the operation's maximum; waiting for its answer
// (Pending.Wait, Fetch) raises the strand's depth to d+1, so what the code
// does next, and every request it issues, follows that answer. Work that
// runs concurrently takes its own strand (Fork), forked at the parent's
// depth and joined back (the deepest child) when it ends: concurrent
// requests then stay in one wave. Requests issued with an untracked
// context are not counted.

// strand is one sequential line of work of a tracked operation.
type strand struct {
	op    *op
	depth atomic.Int64
}

// op is one tracked operation: the deepest request it issued and the
// schedulers that served it.
type op struct {
	max    atomic.Int64
	mu     sync.Mutex
	scheds []*Scheduler
}

type strandKey struct{}

func strandOf(ctx context.Context) *strand {
	s, _ := ctx.Value(strandKey{}).(*strand)
	return s
}

// Track starts counting the round trips of an operation (a public entry
// point: an open, a take, a scan). It returns the context to issue the
// operation's requests with, and end, to call once when the operation
// returns: end adds the operation's round trips to Stats.RoundTrips (and
// one to Stats.Operations) of every scheduler that served one of its
// requests (see also Attach). Called with a context that is already
// tracked, the operation is part of the outer one: Track then forks, and
// end joins the fork back.
func Track(ctx context.Context) (context.Context, func()) {
	if strandOf(ctx) != nil {
		return Fork(ctx)
	}
	o := &op{}
	return context.WithValue(ctx, strandKey{}, &strand{op: o}), o.end
}

// Fork returns a context for work that runs concurrently with the rest of
// ctx's strand (one goroutine of a fan-out), at the strand's current
// depth, and join, to call once that work has ended (after the goroutines
// are joined): it raises ctx's strand to the deepest answer the fork
// waited for. With an untracked ctx it returns ctx and a no-op.
func Fork(ctx context.Context) (context.Context, func()) {
	parent := strandOf(ctx)
	if parent == nil {
		return ctx, func() {}
	}
	child := &strand{op: parent.op}
	child.depth.Store(parent.depth.Load())
	return context.WithValue(ctx, strandKey{}, child), func() { storeMax(&parent.depth, child.depth.Load()) }
}

// WithStrand returns ctx (its deadline, cancellation and other values)
// carrying the strand of from instead of its own: for requests that must
// live as long as ctx but follow from's chain (a scan's read-ahead).
func WithStrand(ctx, from context.Context) context.Context {
	s := strandOf(from)
	if s == nil || s == strandOf(ctx) {
		return ctx
	}
	return context.WithValue(ctx, strandKey{}, s)
}

// Issue counts a request issued outside any scheduler (an object's open
// and tail read) with ctx, and returns its depth, to pass to Reached once
// its answer is in (0 if ctx is untracked).
func Issue(ctx context.Context) int64 {
	s := strandOf(ctx)
	if s == nil {
		return 0
	}
	d := s.depth.Load() + 1
	storeMax(&s.op.max, d)
	return d
}

// Reached records that ctx's strand has the answer of a request at depth
// d: what it issues next follows it. Pending.Wait calls it; call it when
// the answer was waited for by another strand (a shared read).
func Reached(ctx context.Context, d int64) {
	if s := strandOf(ctx); s != nil && d > 0 {
		storeMax(&s.depth, d)
	}
}

// Depth returns the depth of ctx's strand (0 if untracked).
func Depth(ctx context.Context) int64 {
	if s := strandOf(ctx); s != nil {
		return s.depth.Load()
	}
	return 0
}

// Attach makes the operation ctx belongs to report its round trips to s
// too: for an operation whose requests s may not have served (an open
// answered by its tail read alone).
func Attach(ctx context.Context, s *Scheduler) {
	if st := strandOf(ctx); st != nil && s != nil {
		st.op.attach(s)
	}
}

// issue counts a request s serves, submitted with ctx, and returns its depth.
func (s *Scheduler) issue(ctx context.Context) int64 {
	st := strandOf(ctx)
	if st == nil {
		return 0
	}
	st.op.attach(s)
	d := st.depth.Load() + 1
	storeMax(&st.op.max, d)
	return d
}

func (o *op) attach(s *Scheduler) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, x := range o.scheds {
		if x == s {
			return
		}
	}
	o.scheds = append(o.scheds, s)
}

// end adds the operation's round trips to its schedulers' counters.
func (o *op) end() {
	o.mu.Lock()
	scheds := o.scheds
	o.scheds = nil
	o.mu.Unlock()
	for _, s := range scheds {
		s.stats.roundTrips.Add(o.max.Load())
		s.stats.operations.Add(1)
	}
}
