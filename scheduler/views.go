package scheduler

import (
	"context"

	lanceio "github.com/lancego/lancego/io"
)

// submitViews serves a SubmitPooled request from views of obj (a local
// file's memory map, see lanceio.Viewer): each merged group is one view,
// nothing is read or copied and no bytes budget is taken (the bytes are the
// OS page cache, not the process heap). It returns nil when obj lends no
// views, or not for these ranges; the caller then reads them.
func (s *Scheduler) submitViews(ctx context.Context, obj lanceio.Object, ranges []Range, groups []group, priority uint64) *Pending {
	v, ok := obj.(lanceio.Viewer)
	if !ok || len(groups) == 0 {
		return nil
	}
	p := newPending(ctx, s, obj, ranges, groups, priority)
	p.remaining = 0
	for gi, g := range groups {
		b, release, err := v.View(p.ctx, g.Off, int(g.Len))
		if err != nil { // unsupported, or an error the read reports again
			p.releaseViews()
			p.cancel()
			return nil
		}
		p.bufs[gi] = b
		p.views = append(p.views, release)
	}
	close(p.done)
	p.cancel()
	s.stats.record(ranges, groups)
	for _, g := range groups {
		s.stats.viewed(g.Len)
	}
	return p
}

// releaseViews ends the request's views (once).
func (p *Pending) releaseViews() {
	for _, release := range p.views {
		release()
	}
	p.views = nil
}
