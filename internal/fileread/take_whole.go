package fileread

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/searchcache"
)

// A cold take on an object store would cost two round trips: the
// metadata of the pages it touches (mini-block chunk tables, dictionaries,
// repetition indices), then the chunks it needs. When the bytes of those
// pages beyond their metadata cost less to transfer than one more round
// trip by the scheduler's cost model (first-byte latency × bandwidth),
// the take reads the touched pages whole instead, all in one fetch (the
// scheduler coalesces adjacent pages, so a one-row take of a file whose
// columns hold one page each is one request), initializes them from those
// bytes (their metadata is cached as usual, their data is not) and
// decodes its rows from the same bytes: one round trip. The budget is
// per take operation (WithTakeBudget), shared by the files a dataset's
// take reads. Local files (no cost model) and reads that are not takes
// (a dataset's filtered scans) keep reading metadata, then chunks.

// takeBudget is the whole-page budget of one take operation, shared by
// the files it reads (a dataset's take reads many at once): set on first
// use to the first file's wholeBudget (a dataset's files share one
// scheduler), then drawn from by each file's planWhole.
type takeBudget struct {
	once sync.Once
	left atomic.Int64
}

type takeBudgetKey struct{}

// WithTakeBudget returns ctx for one take operation: the takes of data
// files under it (TakeFields; File.Take sets its own) may read the pages
// they touch whole, all of them within one cost-model budget. Without it
// (filtered scans reading like takes) pages are initialized as before.
func WithTakeBudget(ctx context.Context) context.Context {
	return context.WithValue(ctx, takeBudgetKey{}, &takeBudget{})
}

// reserve takes n bytes from the budget (of total, if not yet set), or
// reports that they do not fit.
func (b *takeBudget) reserve(total, n uint64) bool {
	b.once.Do(func() { b.left.Store(int64(min(total, 1<<62))) })
	for {
		cur := b.left.Load()
		if n > uint64(max(cur, 0)) {
			return false
		}
		if b.left.CompareAndSwap(cur, cur-int64(n)) {
			return true
		}
	}
}

// takePages holds the data buffers of the pages one take of one file read
// whole (wholeRead); pageLookups.get hands them to the take's pieces.
type takePages struct {
	f    *File
	data map[[2]int][]byte // (column, page) -> the page's data buffer
}

type takePagesKey struct{}

// withTakePages returns ctx carrying the pages a take read whole.
func withTakePages(ctx context.Context, tp *takePages) context.Context {
	return context.WithValue(ctx, takePagesKey{}, tp)
}

// takeData returns the data buffer of page index of col if the take of f
// running in ctx read it whole, else nil.
func takeData(ctx context.Context, f *File, col, index int) []byte {
	tp, _ := ctx.Value(takePagesKey{}).(*takePages)
	if tp == nil || tp.f != f {
		return nil
	}
	return tp.data[[2]int{col, index}]
}

// wholeBudget is the bytes a take may read beyond the metadata of the
// pages it touches to save a round trip: what the store transfers during
// one first-byte latency by the scheduler's cost model (capped by a
// quarter of its bytes in flight, like a scan's whole pages). Zero when
// there is no cost model (local files).
func (f *File) wholeBudget() uint64 {
	os := f.objectSource()
	if os == nil || os.sched == nil {
		return 0
	}
	c := os.sched.Config()
	if c.FirstByteLatency <= 0 || c.Bandwidth <= 0 {
		return 0
	}
	b := c.FirstByteLatency.Seconds() * float64(c.Bandwidth)
	return uint64(min(b, float64(f.inFlightBudget()/4)))
}

// mayReadWhole reports whether a take of f under ctx may read pages whole:
// it runs under a take budget and f's store has a cost model.
func (f *File) mayReadWhole(ctx context.Context) bool {
	tb, _ := ctx.Value(takeBudgetKey{}).(*takeBudget)
	return tb != nil && f.wholeBudget() > 0
}

// wholeJob is a page of a take's warm-up with its state (not yet
// initialized) and the bytes to fetch for it.
type wholeJob struct {
	pageJob
	st    *pageState
	span  format.Range
	whole bool // read whole (a page the take touches), else its init buffers
}

// planWhole decides whether the take reads its touched uncached pages
// whole: it returns their jobs when the bytes beyond their metadata fit
// what is left of the take's budget (WithTakeBudget, of wholeBudget
// bytes) and no touched page needs a data request anyway (cachedData: a
// cached page whose data is not resident), else nil.
func (f *File) planWhole(ctx context.Context, touched []pageJob, cachedData bool) ([]wholeJob, error) {
	tb, _ := ctx.Value(takeBudgetKey{}).(*takeBudget)
	budget := f.wholeBudget()
	if tb == nil || budget == 0 || cachedData || len(touched) == 0 {
		return nil, nil
	}
	jobs := make([]wholeJob, 0, len(touched))
	var extra uint64
	for _, j := range touched {
		st, span, err := f.jobState(j)
		if err != nil {
			return nil, err
		}
		var init uint64
		for _, i := range st.initBuffers() {
			if i < len(st.bufs) {
				init += st.bufs[i].Length
			}
		}
		if span.Length > f.cfg.SmallPage {
			extra += span.Length - min(init, span.Length)
		}
		if extra > budget {
			return nil, nil
		}
		jobs = append(jobs, wholeJob{pageJob: j, st: st, span: span, whole: true})
	}
	if !tb.reserve(budget, extra) {
		return nil, nil
	}
	return jobs, nil
}

// jobState decodes a page's layout and the span of its buffers (no I/O).
func (f *File) jobState(j pageJob) (*pageState, format.Range, error) {
	st, err := f.newPageState(j.leaf.Column, j.index)
	if err != nil {
		return nil, format.Range{}, f.pageInitErr(j, err)
	}
	span, ok := pageSpan(st.bufs)
	if !ok {
		return nil, format.Range{}, f.pageInitErr(j, fmt.Errorf("%w: page buffers overflow", format.ErrCorrupt))
	}
	return st, span, nil
}

// pageInitErr names the file, column and page of an initialization error.
func (f *File) pageInitErr(j pageJob, err error) error {
	col := j.leaf.Column
	return fmt.Errorf("lance: %s: column %d (field %q) page %d: %w", f.url, col, f.columnName(col), j.index, err)
}

// wholeRead fetches, in one call, the touched pages whole and the init
// buffers of the others (rest: the eager pages of warmForTake), builds
// and caches their states, and returns ctx carrying the touched pages'
// data buffers for the take's reads.
func (f *File) wholeRead(ctx context.Context, whole []wholeJob, rest []pageJob) (context.Context, error) {
	jobs := whole
	for _, j := range rest {
		st, span, err := f.jobState(j)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, wholeJob{pageJob: j, st: st, span: span})
	}
	var ranges []format.Range
	var prio uint64 = ^uint64(0)
	for _, j := range jobs {
		prio = min(prio, j.st.firstRow)
		if j.whole || j.span.Length <= f.cfg.SmallPage {
			ranges = append(ranges, j.span)
			continue
		}
		for _, i := range j.st.initBuffers() {
			if i >= len(j.st.bufs) {
				return nil, f.pageInitErr(j.pageJob, fmt.Errorf("%w: page needs buffer %d, has %d", format.ErrCorrupt, i, len(j.st.bufs)))
			}
			ranges = append(ranges, j.st.bufs[i])
		}
	}
	got, err := f.fetch(ctx, ranges, prio)
	if err != nil {
		return nil, err
	}
	tp := &takePages{f: f, data: map[[2]int][]byte{}}
	next := 0
	for _, j := range jobs {
		bufs := make(pageBuffers, len(j.st.bufs))
		read := j.whole || j.span.Length <= f.cfg.SmallPage
		if read {
			bufs = splitSpan(j.st.bufs, j.span, got[next])
			next++
		} else {
			for _, i := range j.st.initBuffers() {
				bufs[i] = got[next]
				next++
			}
		}
		st, err := f.cachePage(ctx, j, bufs, j.span.Length <= f.cfg.SmallPage)
		if err != nil {
			return nil, err
		}
		if j.whole && st.resident == nil {
			if d := st.dataBuffer(); d >= 0 && d < len(bufs) {
				tp.data[[2]int{j.leaf.Column, j.index}] = bufs[d]
			}
		}
	}
	return withTakePages(ctx, tp), nil
}

// cachePage builds a page's state from its fetched buffers and caches it
// (or returns the state another read cached meanwhile). The cached state
// keeps copies of its init buffers, not views of the take's read, and of
// its data buffer only when the page is small (resident).
func (f *File) cachePage(ctx context.Context, j wholeJob, bufs pageBuffers, resident bool) (*pageState, error) {
	col := j.leaf.Column
	key := searchcache.Key{File: f.src.Key(), Column: col, Page: j.index, Kind: "page"}
	st, err := searchcache.GetOrLoad(ctx, f.cache, key, func(context.Context) (*pageState, int64, error) {
		f.stats.cacheMisses.Add(1)
		st := j.st
		keep := make(pageBuffers, len(bufs))
		if resident {
			for i, b := range bufs {
				keep[i] = bytes.Clone(b)
			}
		} else {
			for _, i := range st.initBuffers() {
				if i >= len(bufs) {
					return nil, 0, fmt.Errorf("%w: page needs buffer %d, has %d", format.ErrCorrupt, i, len(bufs))
				}
				keep[i] = bytes.Clone(bufs[i])
			}
		}
		err := finishPage(st, keep, resident, leafType(j.leaf))
		return st, st.size + 1024, err
	})
	if err != nil {
		return nil, f.pageInitErr(j.pageJob, err)
	}
	return st, nil
}
