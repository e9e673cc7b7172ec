package fileread

import (
	"cmp"
	"context"
	"slices"
	"sync/atomic"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/scheduler"
)

// On an object store each request costs a first-byte wait, and a
// scheduler coalesces only the ranges of one request. A scan's pages
// requested at once (the first pages of every projected column, and each
// column's read-ahead) therefore go to the scheduler as waves: requests
// of several pages, in file order, of at most the scheduler's maximum
// request size, whose adjacent (or close, under the cost model) pages
// are read as one. A file's columns of one page each are then one
// request, not one per column. Locally (no cost model) each page stays
// its own pread-sized request.

// pageReq is a page of a scan to fetch: its entry, priority and where
// its bytes go.
type pageReq struct {
	sp   *scanPage
	prio uint64
	mode readMode
}

// scanWave is one request holding several pages of a scan. Its bytes are
// released (recycled when every page is reusable) once the scan has
// passed all its pages, so a wave holds at most waveMax bytes beyond a
// page-by-page fetch.
type scanWave struct {
	pending  *scheduler.Pending
	used     atomic.Bool // a page waited for its bytes
	reusable bool
	refs     int // pages not closed; guarded by the scan cache's mu
}

// drop closes one page of the wave, ending the wave with its last: its
// reads canceled if no page waited for them.
func (w *scanWave) drop() {
	if w.refs--; w.refs > 0 {
		return
	}
	endFetch(w.pending, !w.used.Load(), w.reusable)
}

// wait waits for the page's bytes (its first dataAt when streamed, see
// scanstream.go) and keeps them or the error. A page of a wave is decoded
// as soon as its own bytes are in, not once the whole wave is.
func (sp *scanPage) wait(ctx context.Context) {
	p, i := sp.fetch(), sp.rangeIndex()
	if sp.err != nil || p == nil {
		return
	}
	if sp.wave != nil {
		sp.wave.used.Store(true)
	}
	sp.bytes, sp.err = p.WaitPrefix(ctx, i, sp.waitLen())
}

// waitLen is how many of the page's bytes its first batch waits for: all
// of them, or a streamed page's bytes before its data.
func (sp *scanPage) waitLen() int64 {
	if sp.streamed {
		return int64(sp.dataAt)
	}
	return int64(sp.span.Length)
}

// arrive waits, under the waiter's ctx, until the bytes wait needs are in
// or the fetch failed, and records nothing: a page is shared by every
// batch that needs it, so one waiter's cancellation (its batch's other
// column failed) must not become the page's error for the others. It
// returns the waiter's own cancellation, nil otherwise (the page's own
// outcome is then wait's).
func (sp *scanPage) arrive(ctx context.Context) error {
	p := sp.fetch()
	if p == nil { // not sp.err: wait may be writing it
		return nil
	}
	if _, err := p.WaitPrefix(ctx, sp.rangeIndex(), sp.waitLen()); err != nil && ctx.Err() != nil {
		return err
	}
	return nil
}

// rangeIndex is the page's range in its request.
func (sp *scanPage) rangeIndex() int {
	if sp.wave != nil {
		return sp.waveIndex
	}
	return 0
}

// fetch returns the request the page is read in (nil when it was read at
// once or failed to start).
func (sp *scanPage) fetch() *scheduler.Pending {
	if sp.wave != nil {
		return sp.wave.pending
	}
	return sp.pending
}

// submitPages starts the fetches of reqs: in waves (see above) when the
// scan has a waveMax, else one request per page. c.mu must be held. The
// reads live as long as the scan but follow the chain of the strand that
// asked for them (their round-trip depth).
func (c *scanCache) submitPages(ctx context.Context, reqs []*pageReq) {
	if len(reqs) == 0 {
		return
	}
	ctx = scheduler.WithStrand(c.scanCtx, ctx)
	var grouped []*pageReq
	for _, r := range reqs {
		if c.waveMax > 0 && !c.f.readsAtOnce(r.sp.span) {
			grouped = append(grouped, r)
			continue
		}
		c.submitPage(ctx, r)
	}
	for _, w := range cutWaves(grouped, c.waveMax) {
		if len(w) == 1 {
			c.submitPage(ctx, w[0])
			continue
		}
		c.submitWave(ctx, w)
	}
}

// submitPage starts the fetch of one page as its own request.
func (c *scanCache) submitPage(ctx context.Context, r *pageReq) {
	sp := r.sp
	sp.pending, sp.bytes, sp.err = c.f.submit(ctx, sp.span, r.prio, r.mode)
}

// submitWave starts the fetch of several pages as one request, at the
// first priority among them. Its buffers are pooled when every page is
// reusable, else plain memory (a view is no concern: waves are for
// object stores).
func (c *scanCache) submitWave(ctx context.Context, reqs []*pageReq) {
	w := &scanWave{refs: len(reqs), reusable: true}
	ranges := make([]format.Range, len(reqs))
	prio := reqs[0].prio
	for k, r := range reqs {
		ranges[k] = r.sp.span
		prio = min(prio, r.prio)
		w.reusable = w.reusable && r.sp.reusable
	}
	mode := readPlain
	if w.reusable {
		mode = readPooled
	}
	p, err := c.f.submitRanges(ctx, ranges, prio, mode)
	for k, r := range reqs {
		if err != nil {
			r.sp.err = err
			continue
		}
		r.sp.wave, r.sp.waveIndex = w, k
	}
	w.pending = p
}

// cutWaves orders reqs by file offset and cuts them into waves of at most
// limit bytes each (a larger page is a wave of its own).
func cutWaves(reqs []*pageReq, limit uint64) [][]*pageReq {
	slices.SortStableFunc(reqs, func(a, b *pageReq) int { return cmp.Compare(a.sp.span.Offset, b.sp.span.Offset) })
	var out [][]*pageReq
	var bytes uint64
	for _, r := range reqs {
		n := r.sp.span.Length
		if len(out) == 0 || bytes+n > limit {
			out = append(out, nil)
			bytes = 0
		}
		out[len(out)-1] = append(out[len(out)-1], r)
		bytes += n
	}
	return out
}
