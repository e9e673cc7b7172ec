package fileread

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/layouts"
	"github.com/lancego/lancego/scheduler"
	"github.com/lancego/lancego/searchcache"
)

// scanCache holds the pages a scan is reading. A scan needs all of a page,
// so each page is fetched whole, metadata and data in one request (split
// only above the scheduler's maximum request size), and the next page of
// each column is requested while the current one decodes. Pages are
// dropped once the scan has passed them. It belongs to one scan.
type scanCache struct {
	f   *File
	end uint64 // the scan's last row (exclusive)
	// wholeMax is the largest page fetched whole, and aheadMax the bytes
	// read ahead per column: both a quarter of the scheduler's bytes in
	// flight (at most scanReadaheadBytes ahead), so a scan holds what the
	// caller's budget allows. Larger pages are read batch by batch.
	wholeMax, aheadMax uint64
	// waveMax, when not 0 (a scheduler with a cost model reading an
	// object that lends no views: an object store), makes the pages requested together one request of up to
	// this many bytes, which the scheduler coalesces (scanwave.go).
	waveMax uint64
	// scanCtx is the context of the whole scan: page reads outlive the
	// batch that started them (prefetch), so they are bound to the scan,
	// whose close cancels what is still running.
	scanCtx context.Context
	mu      sync.Mutex
	pages   map[[2]int]*scanPage
	// arenas recycles chunk decode buffers between the scan's batches
	// (a free list rather than a sync.Pool, which every GC empties: a
	// scan allocating briskly then regrew its buffers every few batches).
	arenaMu sync.Mutex
	arenas  []*layouts.ChunkArena
	// v20 holds the pages of a 2.0 file read as views (v20scan.go).
	v20 *v20Scan
}

// maxScanArenas bounds the arenas a scan keeps between batches (one per
// leaf a worker reads at once is enough).
const maxScanArenas = 16

// arena returns a chunk arena for one leaf read: from the scan's pool,
// or a new one for reads outside a scan (c == nil).
func (c *scanCache) arena() *layouts.ChunkArena {
	if c != nil {
		c.arenaMu.Lock()
		defer c.arenaMu.Unlock()
		if n := len(c.arenas); n > 0 {
			a := c.arenas[n-1]
			c.arenas[n-1] = nil
			c.arenas = c.arenas[:n-1]
			return a
		}
	}
	return &layouts.ChunkArena{}
}

// putArena gives an arena back for the scan's next batches.
func (c *scanCache) putArena(a *layouts.ChunkArena) {
	if c == nil || a == nil {
		return
	}
	c.arenaMu.Lock()
	defer c.arenaMu.Unlock()
	if len(c.arenas) < maxScanArenas {
		c.arenas = append(c.arenas, a)
	}
}

// scanPage is one page of a scan: its fetch, then its state and data.
type scanPage struct {
	once    sync.Once
	pending *scheduler.Pending
	span    format.Range
	bytes   []byte
	err     error
	lastRow uint64 // file row after the page
	// reusable marks a mini-block page: its decoded values never alias its
	// bytes (layouts.MiniBlockPage.DecodeRows) and its cached state holds
	// copies (retainedCopies), so it is read into a pooled buffer, which
	// goes back to the pool (Recycle) once the scan has passed the page, or,
	// when viewedPage says so, served by a view of a local file's memory
	// map (no read, no copy). Other pages' values may alias their bytes,
	// which are read into memory the collector owns.
	reusable bool
	// wave, when set, is the request the page was fetched in with other
	// pages (scanwave.go), and waveIndex its range there; pending is then nil.
	wave      *scanWave
	waveIndex int
	// streamed marks a page decoded while it arrives (scanstream.go): its
	// wait ends once its first dataAt bytes (every buffer but the data
	// buffer, which is last) are in, and each piece awaits its chunks.
	streamed bool
	dataAt   uint64
	// cache, col and index say where the page is, for the read-ahead its
	// arrival triggers (farAhead); far records that it did.
	cache      *scanCache
	col, index int
	far        atomic.Bool
}

func newScanCache(ctx context.Context, f *File, end uint64) *scanCache {
	quarter := uint64(f.inFlightBudget() / 4)
	c := &scanCache{f: f, end: end, scanCtx: ctx, pages: map[[2]int]*scanPage{},
		wholeMax: quarter, aheadMax: min(quarter, scanReadaheadBytes), v20: newV20Scan(ctx, f)}
	if os := f.objectSource(); os != nil && os.sched != nil && os.sched.Config().CostModel() {
		if !f.lendsViews(ctx) { // a mapped file keeps its views
			c.waveMax = uint64(os.sched.Config().MaxRequestSize)
		}
	}
	return c
}

// inFlightBudget returns the bytes-in-flight bound of the file's scheduler.
func (f *File) inFlightBudget() int64 {
	src := f.src
	if ts, ok := src.(*tailSource); ok {
		src = ts.source
	}
	if os, ok := src.(*objectSource); ok && os.sched != nil {
		if n := os.sched.Config().MaxInFlightBytes; n > 0 {
			return n
		}
	}
	return scheduler.DefaultMaxInFlightBytes
}

// big reports whether page index of column col is read batch by batch.
func (c *scanCache) big(col, index int) bool {
	return pageBytes(c.f.meta.Columns[col].GetPages()[index]) > c.wholeMax
}

// request starts fetching page index of column col unless already started.
func (c *scanCache) request(ctx context.Context, col, index int) *scanPage {
	c.mu.Lock()
	defer c.mu.Unlock()
	sp, req := c.reserve(col, index)
	if req != nil {
		c.submitPages(ctx, []*pageReq{req})
	}
	return sp
}

// reserve returns the entry of page index of column col, and when it is
// new the request that fetches it (nil for a page already started, or one
// whose buffers are invalid: its entry then holds the error). c.mu must
// be held, until the request is submitted (submitPages), so that no
// reader finds the entry before its fetch exists.
func (c *scanCache) reserve(col, index int) (*scanPage, *pageReq) {
	key := [2]int{col, index}
	if sp, ok := c.pages[key]; ok {
		return sp, nil
	}
	sp := &scanPage{cache: c, col: col, index: index}
	c.pages[key] = sp
	pg := c.f.meta.Columns[col].GetPages()[index]
	sp.lastRow = pg.GetPriority() + pg.GetLength()
	bufs, err := c.f.meta.PageRanges(col, index)
	span, ok := pageSpan(bufs)
	if err != nil || !ok {
		sp.err = err
		return sp, nil
	}
	sp.span = span
	sp.streamed, sp.dataAt = c.streamable(pg, bufs, span)
	mode := readPlain
	if layout := pageLayoutOf(pg); layout.GetMiniBlockLayout() != nil {
		sp.reusable, mode = true, readPooled
		if viewedPage(layout.GetMiniBlockLayout()) {
			mode = readViewed
		}
	}
	return sp, &pageReq{sp: sp, prio: pg.GetPriority(), mode: mode}
}

// viewedPage reports whether a scan reads a mini-block page through a view
// of a local file's memory map: when its values are fixed-width words,
// flat or inline bit-packed without further compression. Those decode
// about as fast as memory copies, so the read's copy into a buffer was up
// to half of their scan (f64, fresh File: ~1.5 -> ~1.0 ms). Other values
// (FSST, general compression, variable width) decode at their own pace and
// were no faster, and FSST strings slower (str_short ~10% more CPU), from
// mapped memory than from a buffer just read, so they are read.
func viewedPage(l *encodings21pb.MiniBlockLayout) bool {
	c := l.GetValueCompression()
	switch {
	case c.GetFlat() != nil:
		return c.GetFlat().GetData() == nil
	case c.GetInlineBitpacking() != nil:
		return c.GetInlineBitpacking().GetValues() == nil
	}
	return false
}

// get returns a page's state (from the search cache or built from the
// scan's bytes), its data buffer and, for a streamed page (scanstream.go),
// its entry, whose await says when the buffer's bytes are in.
func (c *scanCache) get(ctx context.Context, col, index int, leaf arrow.DataType) (*pageState, []byte, *scanPage, error) {
	if c.big(col, index) { // initialized like a take's page; batches fetch their rows
		st, err := c.f.page(ctx, col, index, leaf)
		return st, nil, nil, err
	}
	sp := c.request(ctx, col, index)
	sp.halfIn(ctx) // outside once: it may take c.mu, which close holds around once
	if err := sp.arrive(ctx); err != nil {
		return nil, nil, nil, err
	}
	// The bytes are in (or failed): the shared wait runs under the scan's
	// context, so its outcome is the page's, not this waiter's.
	sp.once.Do(func() { sp.wait(scheduler.WithStrand(c.scanCtx, ctx)) })
	if sp.err != nil {
		return nil, nil, nil, sp.err
	}
	if p := sp.fetch(); p != nil { // another strand may have waited for it
		scheduler.Reached(ctx, p.Depth())
	}
	key := searchcache.Key{File: c.f.src.Key(), Column: col, Page: index, Kind: "page"}
	st, err := searchcache.GetOrLoad(ctx, c.f.cache, key, func(context.Context) (*pageState, int64, error) {
		c.f.stats.cacheMisses.Add(1)
		st, err := c.f.newPageState(col, index)
		if err != nil {
			return nil, 0, err
		}
		whole := sp.span.Length <= c.f.cfg.SmallPage
		got := retainedCopies(splitSpan(st.bufs, sp.span, sp.bytes), st.dataBuffer(), whole)
		err = finishPage(st, got, whole, leaf)
		return st, st.size + 1024, err
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("lance: %s: column %d (field %q) page %d: %w", c.f.url, col, c.f.columnName(col), index, err)
	}
	var stream *scanPage
	if sp.streamed {
		stream = sp
	}
	return st, c.dataOf(st, sp), stream, nil
}

// retainedCopies copies the buffers a page's cached state may keep (its
// metadata buffers, and its data buffer when the page stays resident), so
// that the state outlives the scan's read buffer, which is reused once the
// scan has passed the page. They are small: chunk tables, dictionaries,
// repetition indexes, and resident pages of at most the small-page size.
func retainedCopies(got pageBuffers, data int, whole bool) pageBuffers {
	for i, b := range got {
		if i != data || whole {
			got[i] = bytes.Clone(b)
		}
	}
	return got
}

// dataOf slices a page's data buffer out of the scan's bytes of the page.
func (c *scanCache) dataOf(st *pageState, sp *scanPage) []byte {
	i := st.dataBuffer()
	if i < 0 || i >= len(st.bufs) {
		return nil
	}
	r := st.bufs[i]
	return sp.bytes[r.Offset-sp.span.Offset : r.Offset-sp.span.Offset+r.Length]
}

// Scan read-ahead per leaf column: pages after the one being decoded are
// requested while at most scanReadaheadBytes (and the leaf's share of a
// quarter of the scheduler's bytes in flight, see start) are ahead: a
// bound in bytes, not pages, so that a column of small pages (list columns
// hold ~16k rows a page) is requested in as few waves as one of large
// pages. The scheduler's bytes-in-flight bound still caps what is held;
// scanReadaheadMaxPages only bounds the scan's bookkeeping.
const (
	scanReadaheadBytes    = 32 << 20
	scanReadaheadMaxPages = 1024
)

// start issues, before any batch waits, the first pages of every leaf of
// the projected columns cols from row from on, as far as the read-ahead
// allows (each leaf's share of it): the scan's first wave of requests is
// every column's, so a scan whose pages fit in the read-ahead costs one
// round trip. It must run before the scan's workers start.
func (c *scanCache) start(ctx context.Context, cols []int, from uint64) {
	if c.f.v20 != nil || c.f.legacy != nil {
		return // read through their own paths
	}
	var leaves []*layouts.Field
	for _, col := range cols {
		leaves = append(leaves, c.f.leaves[col]...)
	}
	if len(leaves) > 0 {
		c.aheadMax = min(c.aheadMax, uint64(c.f.inFlightBudget()/4)/uint64(len(leaves)))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var reqs []*pageReq
	for _, leaf := range leaves {
		starts := c.f.pageStarts(leaf.Column)
		i := sort.Search(len(starts)-1, func(i int) bool { return starts[i+1] > from })
		if i >= len(starts)-1 || starts[i] >= c.end || c.big(leaf.Column, i) {
			continue
		}
		if _, req := c.reserve(leaf.Column, i); req != nil {
			reqs = append(reqs, req)
		}
		reqs = c.reserveAhead(leaf.Column, i, reqs)
	}
	c.submitPages(ctx, reqs) // on an object store, adjacent pages of all columns in one request
}

// prefetch requests the pages after index of column col that the scan will
// reach, up to the read-ahead bounds (always the next page).
func (c *scanCache) prefetch(ctx context.Context, col, index int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.submitPages(ctx, c.reserveAhead(col, index, nil))
}

// reserveAhead appends to reqs the requests of the pages after index of
// column col not yet started, up to the read-ahead bounds (always the
// next page). c.mu must be held.
func (c *scanCache) reserveAhead(col, index int, reqs []*pageReq) []*pageReq {
	return c.reserveWithin(col, index, reqs, c.aheadMax)
}

// reserveWithin is reserveAhead with a bound of limit bytes.
func (c *scanCache) reserveWithin(col, index int, reqs []*pageReq, limit uint64) []*pageReq {
	pages := c.f.meta.Columns[col].GetPages()
	var ahead uint64
	for next := index + 1; next < len(pages) && next-index <= scanReadaheadMaxPages && pages[next].GetPriority() < c.end; next++ {
		if c.big(col, next) {
			break
		}
		if ahead += pageBytes(pages[next]); ahead > limit && next > index+1 {
			break // always one page ahead, more while within the bound
		}
		if _, req := c.reserve(col, next); req != nil {
			reqs = append(reqs, req)
		}
	}
	return reqs
}

// pageBytes is the summed size of a page's buffers.
func pageBytes(pg interface{ GetBufferSizes() []uint64 }) uint64 {
	var n uint64
	for _, s := range pg.GetBufferSizes() {
		n += s
	}
	return n
}

// releaseBefore drops the pages that end at or before row.
func (c *scanCache) releaseBefore(row uint64) {
	c.v20.releaseBefore(row)
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, sp := range c.pages {
		if sp.lastRow <= row {
			sp.close()
			delete(c.pages, key)
		}
	}
}

// close releases every page and cancels fetches still running.
func (c *scanCache) close() { c.releaseBefore(^uint64(0)) }

// close ends the page's fetch: its own, or its share of a wave's (the
// wave ends with its last page). c.mu must be held.
func (sp *scanPage) close() {
	unused := false
	sp.once.Do(func() { unused = true })
	if sp.wave != nil {
		sp.wave.drop()
		return
	}
	if sp.pending == nil {
		return
	}
	endFetch(sp.pending, unused, sp.reusable)
}

// endFetch ends a scan's request: canceled when never waited for (unused),
// else its bytes released, and its buffers recycled when reusable. A
// request waited for in part (a streamed page's, or a wave's) may still
// be reading what no page will use: Close stops it.
func endFetch(p *scheduler.Pending, unused, reusable bool) {
	if unused {
		p.Cancel()
		return
	}
	p.Close(reusable)
}

func first(b [][]byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b[0]
}

// readMode says where a scan page's bytes go (see scheduler's Submit,
// SubmitPooled and SubmitViewed).
type readMode int

const (
	readPlain  readMode = iota // memory the decoded values may alias
	readPooled                 // a pooled buffer, recycled once the scan passed the page
	readViewed                 // a view of a local file's memory map, else as readPooled
)

// submit starts an asynchronous read of r through the scheduler, whose
// bytes go where mode says, or reads it at once when the source has no
// scheduler (or r is in the tail).
func (f *File) submit(ctx context.Context, r format.Range, priority uint64, mode readMode) (*scheduler.Pending, []byte, error) {
	if f.readsAtOnce(r) {
		got, err := f.src.Fetch(ctx, []format.Range{r}, priority)
		return nil, first(got), err
	}
	p, err := f.submitRanges(ctx, []format.Range{r}, priority, mode)
	return p, nil, err
}

// readsAtOnce reports whether r is read without the scheduler: the source
// has none, or r is in the tail read at open.
func (f *File) readsAtOnce(r format.Range) bool {
	ts, ok := f.src.(*tailSource)
	return f.objectSource() == nil || ok && r.Offset >= ts.start
}

// submitRanges submits rs as one request to the file's scheduler (which
// must exist, see readsAtOnce), its bytes going where mode says.
func (f *File) submitRanges(ctx context.Context, rs []format.Range, priority uint64, mode readMode) (*scheduler.Pending, error) {
	os := f.objectSource()
	srs, err := toSchedRanges(rs)
	if err != nil {
		return nil, err
	}
	submit := os.sched.Submit
	switch mode {
	case readPooled:
		submit = os.sched.SubmitPooled
	case readViewed:
		submit = os.sched.SubmitViewed
	}
	return submit(ctx, os.obj, srs, priority)
}
