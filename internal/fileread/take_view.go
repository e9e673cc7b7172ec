package fileread

import (
	"context"

	"github.com/lancego/lancego/format"
)

// fetchTake fetches a take's data ranges of one leaf. When every piece is
// on a mini-block page or a copying full-zip page (whose decoders copy
// values and levels out of the bytes, never alias them), the ranges that
// lie in the file's object below the tail read at open are requested as
// views of a local file's memory map (scheduler SubmitViewed; elsewhere
// the scheduler reads them as usual): a take of 10,000 rows touches most
// chunks of a column, and copying them out of the page cache was a large
// share of its time. Ranges in or across the tail are fetched as usual.
// The returned release ends the request once nothing decoded refers to it.
func (f *File) fetchTake(ctx context.Context, ps []piece, want []format.Range, priority uint64) ([][]byte, func(), error) {
	if len(want) == 0 || !viewableTake(ps) {
		got, err := f.fetch(ctx, want, priority)
		return got, func() {}, err
	}
	os := f.objectSource()
	if os == nil {
		got, err := f.fetch(ctx, want, priority)
		return got, func() {}, err
	}
	// Ranges below the tail read at open are viewed; the others (in the
	// tail, which serves them uncopied, or across its start) are fetched
	// as usual: the last columns' pages often straddle the tail's start.
	viewed, rest := want, []format.Range(nil)
	var restIdx []int
	if ts, ok := f.src.(*tailSource); ok && !belowTail(want, ts.start) {
		viewed = make([]format.Range, 0, len(want))
		for i, r := range want {
			if belowTail(want[i:i+1], ts.start) {
				viewed = append(viewed, r)
			} else {
				rest, restIdx = append(rest, r), append(restIdx, i)
			}
		}
	}
	if len(viewed) == 0 {
		got, err := f.fetch(ctx, want, priority)
		return got, func() {}, err
	}
	rs, err := toSchedRanges(viewed)
	if err != nil {
		return nil, nil, err
	}
	p, err := os.sched.SubmitViewed(ctx, os.obj, rs, priority)
	if err != nil {
		return nil, nil, err
	}
	// The other ranges go out before the views are awaited: both are one
	// wave (one round trip), not a chain.
	var fetched [][]byte
	if len(rest) > 0 {
		if fetched, err = f.fetch(ctx, rest, priority); err != nil {
			p.Release()
			return nil, nil, err
		}
	}
	views, err := p.Wait(ctx)
	if err != nil {
		p.Release()
		return nil, nil, err
	}
	if len(rest) == 0 {
		return views, p.Release, nil
	}
	return mergeFetched(views, fetched, restIdx), p.Release, nil
}

// mergeFetched puts the fetched buffers back at their positions restIdx
// (ascending) among the viewed ones, in the order of the ranges asked.
func mergeFetched(views, fetched [][]byte, restIdx []int) [][]byte {
	out := make([][]byte, 0, len(views)+len(fetched))
	v, k := 0, 0
	for i := range len(views) + len(fetched) {
		if k < len(restIdx) && restIdx[k] == i {
			out = append(out, fetched[k])
			k++
			continue
		}
		out = append(out, views[v])
		v++
	}
	return out
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
