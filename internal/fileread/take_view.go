package fileread

import (
	"context"

	"github.com/lancego/lancego/format"
)

// fetchTake fetches a take's data ranges of one leaf. When every piece is
// on a mini-block page or a copying full-zip page (whose decoders copy
// values and levels out of the bytes, never alias them) and the ranges lie in the file's object below
// the tail read at open, they are requested as views of a local file's
// memory map (scheduler SubmitViewed; elsewhere the scheduler reads them
// as usual): a take of 10,000 rows touches most chunks of a column, and
// copying them out of the page cache was a large share of its time. The
// returned release ends the request once nothing decoded refers to it.
func (f *File) fetchTake(ctx context.Context, ps []piece, want []format.Range, priority uint64) ([][]byte, func(), error) {
	if len(want) == 0 || !viewableTake(ps) {
		got, err := f.fetch(ctx, want, priority)
		return got, func() {}, err
	}
	os := f.objectSource()
	if ts, ok := f.src.(*tailSource); os == nil || ok && !belowTail(want, ts.start) {
		got, err := f.fetch(ctx, want, priority)
		return got, func() {}, err
	}
	rs, err := toSchedRanges(want)
	if err != nil {
		return nil, nil, err
	}
	p, err := os.sched.SubmitViewed(ctx, os.obj, rs, priority)
	if err != nil {
		return nil, nil, err
	}
	got, err := p.Wait(ctx)
	if err != nil {
		p.Release()
		return nil, nil, err
	}
	return got, p.Release, nil
}

// viewableTake reports whether every piece is on a plain mini-block page
// or a full-zip page whose decoder copies what it keeps
// (layouts.FullZipPage.CopiesValues).
func viewableTake(ps []piece) bool {
	for i := range ps {
		st := ps[i].page
		if st.blob != nil || st.sparse != nil {
			return false
		}
		if st.mini == nil && (st.full == nil || !st.full.CopiesValues()) {
			return false
		}
	}
	return true
}

// belowTail reports whether every range ends at or before start.
func belowTail(rs []format.Range, start uint64) bool {
	for _, r := range rs {
		if end, ok := r.End(); !ok || end > start {
			return false
		}
	}
	return true
}
