package lance

import (
	"context"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/layouts"
	"github.com/lancego/lancego/scheduler"
)

// scanCache holds the data buffers of the pages a scan is reading: each
// page's data is fetched whole (one coalesced request, split only above the
// scheduler's maximum request size), and the next page of each column is
// requested while the current one is decoded. Pages are dropped once the
// scan has passed them. It belongs to one scan and is closed by it.
type scanCache struct {
	f     *File
	end   uint64 // the scan's last row (exclusive)
	mu    sync.Mutex
	pages map[*pageState]*pageFetch
}

type pageFetch struct {
	once    sync.Once
	pending *scheduler.Pending
	data    []byte
	err     error
	lastRow uint64 // file row after the page
}

func newScanCache(f *File, end uint64) *scanCache {
	return &scanCache{f: f, end: end, pages: map[*pageState]*pageFetch{}}
}

// dataRange is the byte range of a page's data buffer.
func dataRange(st *pageState) (format.Range, bool) {
	i := dataBuffer(st.layout)
	if i >= len(st.bufs) {
		return format.Range{}, false
	}
	return st.bufs[i], true
}

// submit starts fetching a page's data buffer unless already started.
func (c *scanCache) submit(ctx context.Context, st *pageState) *pageFetch {
	c.mu.Lock()
	defer c.mu.Unlock()
	if pf, ok := c.pages[st]; ok {
		return pf
	}
	pf := &pageFetch{lastRow: st.firstRow + st.numRows}
	c.pages[st] = pf
	r, ok := dataRange(st)
	if !ok || st.resident != nil {
		pf.data = st.resident
		return pf
	}
	os, ok := c.f.src.(*objectSource)
	if ts, isTail := c.f.src.(*tailSource); isTail {
		os, ok = ts.source.(*objectSource)
		if ok && r.Offset >= ts.start {
			ok = false // inside the tail: served from memory
		}
	}
	if !ok {
		got, err := c.f.src.Fetch(ctx, []format.Range{r}, st.firstRow)
		pf.data, pf.err = first(got), err
		return pf
	}
	rs, err := toSchedRanges([]format.Range{r})
	if err == nil {
		pf.pending, err = os.sched.Submit(ctx, os.obj, rs, st.firstRow)
	}
	pf.err = err
	return pf
}

func first(b [][]byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b[0]
}

// data returns a page's data buffer, waiting for its fetch.
func (c *scanCache) data(ctx context.Context, st *pageState) ([]byte, error) {
	pf := c.submit(ctx, st)
	pf.once.Do(func() {
		if pf.pending != nil && pf.err == nil {
			got, err := pf.pending.Wait(ctx)
			pf.data, pf.err = first(got), err
		}
	})
	return pf.data, pf.err
}

// prefetch starts fetching the page after st of the same column, if the
// scan will reach it.
func (c *scanCache) prefetch(ctx context.Context, st *pageState, leaf arrow.DataType) {
	next := st.index + 1
	if next >= len(c.f.meta.Columns[st.col].GetPages()) || st.firstRow+st.numRows >= c.end {
		return
	}
	if ns, err := c.f.page(ctx, st.col, next, leaf); err == nil {
		c.submit(ctx, ns)
	}
}

// releaseBefore drops the pages that end at or before row.
func (c *scanCache) releaseBefore(row uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for st, pf := range c.pages {
		if pf.lastRow <= row {
			pf.close()
			delete(c.pages, st)
		}
	}
}

// close releases every page and cancels fetches still running.
func (c *scanCache) close() { c.releaseBefore(^uint64(0)) }

func (pf *pageFetch) close() {
	if pf.pending == nil {
		return
	}
	done := false
	pf.once.Do(func() { done = true })
	if done { // never waited for: cancel the reads
		pf.pending.Cancel()
		return
	}
	pf.pending.Release()
}

// scanPieceData gives a piece the bytes it needs from its page's whole
// data buffer, fetched (and the next page prefetched) through the cache.
func (c *scanCache) scanPieceData(ctx context.Context, p *piece, leaf *layouts.Field) error {
	if !p.hasData || p.local != nil {
		return nil
	}
	st := p.page
	buf, err := c.data(ctx, st)
	if err != nil {
		return err
	}
	c.prefetch(ctx, st, leafType(leaf))
	r, _ := dataRange(st)
	lo := p.data.Offset - r.Offset
	if p.data.Length > uint64(len(buf)) || lo > uint64(len(buf))-p.data.Length {
		return format.ErrCorrupt
	}
	p.local = buf[lo : lo+p.data.Length]
	return nil
}
