package fileread

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/layouts"
	v20 "github.com/lancego/lancego/layouts/v20"
	"github.com/lancego/lancego/scheduler"
)

// A scan of a 2.0 file whose object lends views (a local file's memory
// map) reads its pages as views, through the scheduler like any request
// (SubmitViewed): nothing is read or copied and the pages are not kept in
// the search cache, whose heap copies of whole pages (8 MB for a million
// int64s) were the scan's largest cost, with their collection. A view
// lives as long as the scan needs its page: the batch that reads a page's
// last row marks it passed, and the scan gives it back once that batch is
// done (scanCache.releaseBefore). Decoding copies the values into the
// batch's Arrow buffers (v20.Page.DecodeInto), so no array refers to a
// view. Files on object stores (and local ones read without a memory map)
// read pages through the search cache as takes do (pageV20).

// v20Scan holds the pages a scan of a 2.0 file is reading as views.
type v20Scan struct {
	f *File
	// ctx is the whole scan's: reads are bound to the scan.
	ctx   context.Context
	mu    sync.Mutex
	pages map[[2]int]*v20ScanPage
	// offsets recycles the offsets buffers of variable-width leaves
	// between batches (the arrays hold copies).
	offsMu  sync.Mutex
	offsets [][]int64
}

// maxSpareOffsets bounds the offsets buffers a scan keeps between batches.
const maxSpareOffsets = 16

// spareOffsets returns an offsets buffer for a variable-width leaf of type
// dt (nil for others, or when none is spare).
func (s *v20Scan) spareOffsets(dt arrow.DataType) []int64 {
	switch dt.ID() {
	case arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY:
	default:
		return nil
	}
	s.offsMu.Lock()
	defer s.offsMu.Unlock()
	n := len(s.offsets)
	if n == 0 {
		return nil
	}
	b := s.offsets[n-1]
	s.offsets[n-1] = nil
	s.offsets = s.offsets[:n-1]
	return b
}

// putOffsets keeps the offsets buffers of leaves whose arrays are built
// (or were not) for the next batches.
func (s *v20Scan) putOffsets(leaves []layouts.LeafData) {
	s.offsMu.Lock()
	defer s.offsMu.Unlock()
	for _, l := range leaves {
		if l.Values != nil && cap(l.Values.Offsets) > 0 && len(s.offsets) < maxSpareOffsets {
			s.offsets = append(s.offsets, l.Values.Offsets)
			l.Values.Offsets = nil
		}
	}
}

// v20ScanPage is one page of a v20Scan: its read, then its decoder.
type v20ScanPage struct {
	once    sync.Once
	pending *scheduler.Pending
	page    *v20.Page
	err     error
	// lastRow is the scan row after which the page is read no more: the
	// end of the batch that read its last row (^0 until then).
	lastRow uint64
}

// newV20Scan returns the view pages of a scan of f, or nil when f is not
// a 2.0 file or its object lends no views.
func newV20Scan(ctx context.Context, f *File) *v20Scan {
	if f.v20 == nil || !f.lendsViews(ctx) {
		return nil
	}
	return &v20Scan{f: f, ctx: ctx, pages: map[[2]int]*v20ScanPage{}}
}

// lendsViews reports whether f's object serves views (an empty one is a
// free probe: local files opened without a memory map refuse it).
func (f *File) lendsViews(ctx context.Context) bool {
	v, ok := f.object().(lanceio.Viewer)
	if !ok {
		return false
	}
	_, release, err := v.View(ctx, 0, 0)
	if err != nil {
		return false
	}
	release()
	return true
}

// v20BatchKey is the context key of a batch's v20Batch.
type v20BatchKey struct{}

// v20Batch is what a 2.0 read learns from its context when it is a batch
// of a scan reading views: the scan's pages and the batch's last row.
type v20Batch struct {
	scan *v20Scan
	end  uint64
}

// withV20Batch returns ctx for reading ranges as a batch of the scan of sc
// (unchanged when the scan reads no views).
func withV20Batch(ctx context.Context, sc *scanCache, ranges []RowRange) context.Context {
	if sc == nil || sc.v20 == nil || len(ranges) == 0 {
		return ctx
	}
	return context.WithValue(ctx, v20BatchKey{}, &v20Batch{scan: sc.v20, end: ranges[len(ranges)-1].To})
}

// v20BatchOf returns the batch ctx reads for, or nil outside a view scan.
func v20BatchOf(ctx context.Context) *v20Batch {
	b, _ := ctx.Value(v20BatchKey{}).(*v20Batch)
	return b
}

// loadPageV20 returns page index of column col: a view page of the batch's
// scan, or else the search cache's.
func (f *File) loadPageV20(ctx context.Context, col, index int, dt arrow.DataType) (*v20.Page, error) {
	if b := v20BatchOf(ctx); b != nil {
		return b.scan.page(ctx, col, index, dt)
	}
	return f.pageV20(ctx, col, index, dt)
}

// passedV20 records that the batch of ctx read page index of column col up
// to its row to: when that is the page's last row, the page is released
// once the batch is done.
func (f *File) passedV20(ctx context.Context, col, index int, to uint64) {
	b := v20BatchOf(ctx)
	if b == nil {
		return
	}
	starts := f.v20.cols[col].starts
	if to < starts[index+1]-starts[index] {
		return
	}
	b.scan.mu.Lock()
	defer b.scan.mu.Unlock()
	if sp, ok := b.scan.pages[[2]int{col, index}]; ok {
		sp.lastRow = b.end
	}
}

// page returns the decoder of page index of column col, viewing its
// buffers on first use (concurrent callers share the read).
func (s *v20Scan) page(ctx context.Context, col, index int, dt arrow.DataType) (*v20.Page, error) {
	key := [2]int{col, index}
	s.mu.Lock()
	sp, ok := s.pages[key]
	if !ok {
		sp = &v20ScanPage{lastRow: ^uint64(0)}
		s.pages[key] = sp
	}
	s.mu.Unlock()
	sp.once.Do(func() { sp.err = s.load(ctx, sp, col, index, dt) })
	f := s.f
	if sp.err != nil {
		return nil, fmt.Errorf("lance: %s: column %d (field %q) page %d: %w", f.url, col, f.columnName(col), index, sp.err)
	}
	if sp.pending != nil { // another strand may have read it
		scheduler.Reached(ctx, sp.pending.Depth())
	}
	return sp.page, nil
}

// load views the page's buffers (and its column's) in one request and
// makes its decoder, which reads them at once for what it prepares
// (dictionaries, decompressed buffers): a fault of the mapped file there
// is an error, as in a batch (readFieldV20).
func (s *v20Scan) load(ctx context.Context, sp *v20ScanPage, col, index int, dt arrow.DataType) (err error) {
	f := s.f
	pr, err := f.meta.PageRanges(col, index)
	if err != nil {
		return err
	}
	cr, err := f.meta.ColumnBufferRanges(col)
	if err != nil {
		return err
	}
	got, err := s.view(ctx, sp, append(append([]format.Range(nil), pr...), cr...), f.v20.cols[col].starts[index])
	if err != nil {
		return err
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer f.recoverViewFault(f.columnName(col), col, &err)
	enc := f.v20.cols[col].encs[index]
	rows := f.meta.Columns[col].GetPages()[index].GetLength()
	sp.page, err = v20.NewViewedPage(enc, dt, rows, v20.Buffers{Page: got[:len(pr)], Column: got[len(pr):]})
	return err
}

// view returns the bytes of ranges: those in the file's tail from memory,
// the rest as views of one request whose Pending sp keeps until released.
func (s *v20Scan) view(ctx context.Context, sp *v20ScanPage, ranges []format.Range, priority uint64) ([][]byte, error) {
	f := s.f
	out := make([][]byte, len(ranges))
	var rest []format.Range
	var restIdx []int
	ts, _ := f.src.(*tailSource)
	for i, r := range ranges {
		end, ok := r.End()
		if ts != nil && ok && r.Offset >= ts.start && end <= ts.start+uint64(len(ts.tail)) {
			out[i] = ts.tail[r.Offset-ts.start : end-ts.start : end-ts.start]
			continue
		}
		rest, restIdx = append(rest, r), append(restIdx, i)
	}
	if len(rest) == 0 {
		return out, ctx.Err()
	}
	rs, err := toSchedRanges(rest)
	if err != nil {
		return nil, err
	}
	os := f.objectSource()
	p, err := os.sched.SubmitViewed(scheduler.WithStrand(s.ctx, ctx), os.obj, rs, priority)
	if err != nil {
		return nil, err
	}
	sp.pending = p
	got, err := p.Wait(ctx)
	if err != nil {
		return nil, err
	}
	for k, i := range restIdx {
		out[i] = got[k]
	}
	return out, nil
}

// releaseBefore gives back the pages whose last row a batch ending at or
// before row has read (nil-safe).
func (s *v20Scan) releaseBefore(row uint64) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, sp := range s.pages {
		if sp.lastRow <= row {
			sp.close()
			delete(s.pages, key)
		}
	}
}

// close gives back the page's views (or pooled buffers: nothing decoded
// refers to them). Only pages no batch is reading are closed.
func (sp *v20ScanPage) close() {
	unused := false
	sp.once.Do(func() { unused = true })
	if sp.pending == nil || unused {
		return
	}
	sp.page = nil
	sp.pending.Recycle()
}

// recoverViewFault, deferred by a read of views, turns a memory fault in
// the map of a file that shrank while mapped into an error naming the file
// and the field (and column, unless col < 0) read. Other panics, and
// faults the file is not to blame for, go on.
func (f *File) recoverViewFault(field string, col int, err *error) {
	r := recover()
	if r == nil {
		return
	}
	v, ok := f.object().(lanceio.Viewer)
	if !ok {
		panic(r)
	}
	fault := v.ViewFault(r)
	if fault == nil {
		panic(r)
	}
	if col < 0 {
		*err = fmt.Errorf("lance: %s: field %q: %w", f.url, field, fault)
		return
	}
	*err = fmt.Errorf("lance: %s: column %d (field %q): %w", f.url, col, field, fault)
}

// rangeRows returns the rows ranges cover.
func rangeRows(ranges []RowRange) uint64 {
	var n uint64
	for _, r := range ranges {
		n += r.To - r.From
	}
	return n
}

// freeLeafData gives back the allocator memory of leaves no array took.
func freeLeafData(leaves []layouts.LeafData) {
	for _, l := range leaves {
		l.Values.Free()
	}
}
