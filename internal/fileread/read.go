package fileread

import (
	"context"
	"fmt"
	"runtime/debug"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/format"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/layouts"
)

// RowRange is a half-open range of file rows.
type RowRange struct{ From, To uint64 }

// piece is the part of a row range that falls in one page.
type piece struct {
	page     *pageState
	from, to uint64 // page-relative rows
	span     layouts.ChunkSpan
	data     format.Range // bytes of the page's data buffer to fetch
	hasData  bool
	local    []byte // those bytes, when the page's data is resident
	pageData []byte // the page's whole data buffer, during a scan
	// stream, for a page decoded while it arrives, is awaited for the
	// bytes of pageData before localEnd before local is decoded.
	stream   *scanPage
	localEnd uint64
	// vlo, vhi are the value reader's rows a sparse planar piece needs
	// (terminal slots or materialized values); hasData says any are.
	vlo, vhi uint64
	// runs are the items an indexed sparse piece reads when they are not
	// consecutive: data holds the first run's bytes, more (and, once
	// fetched, moreData) the others'.
	runs     []layouts.ItemRun
	more     []format.Range
	moreData [][]byte
	// wantAt is the index of data's bytes among the leaf's fetched ranges
	// (-1: none fetched for this piece).
	wantAt int
	// rows, when not nil, are the page rows a take gathers from chunk
	// span.First, in the order asked (take_gather.go); from and to then
	// only bound them.
	rows []uint64
}

// pieces splits row ranges (in the order given) along page boundaries.
// With gather (a take's), short ranges on pages that allow it go into
// one piece per chunk gathering their rows, kept in gathered.
func (f *File) pieces(ctx context.Context, leaf *layouts.Field, ranges []RowRange, sc *scanCache, gathered *[]uint64) ([]piece, error) {
	pages := f.meta.Columns[leaf.Column].GetPages()
	starts := f.pageStarts(leaf.Column)
	if sc == nil {
		if err := f.warmPages(ctx, leaf, ranges, starts); err != nil {
			return nil, err
		}
	}
	out := f.pieceBuf(len(ranges)) // one per range unless one crosses pages
	seen := pageLookups{}
	cur, curPick := -1, pagePick{} // the last page used: a take's next row is mostly on it
	curGather := false
	for k := 0; k < len(ranges); k++ {
		r := ranges[k]
		for row := r.From; row < r.To; {
			i := cur
			if i < 0 || row < starts[i] || row >= starts[i+1] {
				i = sort.Search(len(pages), func(i int) bool { return starts[i+1] > row }) // page holding row
			}
			if i == len(pages) {
				return nil, fmt.Errorf("%w: row %d beyond column %d", ErrInvalidArgument, row, leaf.Column)
			}
			pp := curPick
			if i != cur {
				var err error
				if pp, err = seen.get(ctx, f, sc, leaf, i); err != nil {
					return nil, err
				}
				cur, curPick = i, pp
				curGather = gathered != nil && gatherPage(pp.st)
			}
			end := min(r.To, starts[i+1])
			if curGather && row == r.From {
				var n int
				if out, n = addGathers(out, gathered, pp, ranges[k:], starts[i], starts[i+1]); n > 0 {
					k += n - 1 // the ranges gathered; the loop moves past the last
					break
				}
			}
			items := pp.st.itemsPerRow() // page entries are items below a dense fixed-size list of structs
			out = append(out, piece{page: pp.st, from: (row - starts[i]) * items, to: (end - starts[i]) * items, pageData: pp.data, stream: pp.stream})
			row = end
		}
	}
	return out, nil
}

// pieceBuf returns an empty piece list with room for n, reused from an
// earlier read when one is kept.
func (f *File) pieceBuf(n int) []piece {
	if p, ok := f.pieceBufs.Get().(*[]piece); ok && cap(*p) >= n {
		return (*p)[:0]
	}
	return make([]piece, 0, n)
}

// putPieceBuf keeps ps for a later read, cleared so that it holds on to
// no page or bytes; lists of fewer than 256 pieces are not worth keeping.
// Only ps's length is cleared: a list's pieces past it are zero (fresh
// from make, or cleared when last put back), and clearing the whole
// capacity of a list sized for 10,000 pieces cost as much as a take
// gathering a thousand chunks.
func (f *File) putPieceBuf(ps []piece) {
	if cap(ps) < 256 {
		return
	}
	clear(ps)
	ps = ps[:0]
	f.pieceBufs.Put(&ps)
}

// planPiece computes the data bytes a piece needs.
func planPiece(p *piece) error {
	st := p.page
	resident := st.resident
	if p.pageData != nil {
		resident = p.pageData
	}
	if st.blob != nil {
		st = st.blob.inner
	}
	if st.sparse != nil {
		return planSparse(p, st, resident)
	}
	switch {
	case st.mini != nil:
		span := p.span // a gathering piece's chunk
		if p.rows == nil {
			var err error
			if span, err = st.mini.ChunksForRows(p.from, p.to); err != nil {
				return err
			}
		}
		first, last := st.mini.Chunks[span.First], st.mini.Chunks[span.Last]
		p.span = span
		p.data = format.Range{Offset: st.bufs[1].Offset + first.Offset, Length: last.Offset + last.Size - first.Offset}
		p.hasData = true
		if resident != nil {
			p.local = resident[first.Offset : last.Offset+last.Size]
			p.localEnd = last.Offset + last.Size
		}
	case st.full != nil:
		lo, hi, err := st.full.RowBytes(p.from, p.to)
		if err != nil {
			return err
		}
		p.data = format.Range{Offset: st.bufs[0].Offset + lo, Length: hi - lo}
		p.hasData = true
		if resident != nil {
			p.local = resident[lo:hi]
			p.localEnd = hi
		}
	}
	return nil
}

// planSparse plans a piece of a sparse planar page: only the chunks or
// bytes of the values its rows materialize (none for null-only rows).
func planSparse(p *piece, st *pageState, resident []byte) error {
	sp := st.sparse
	lo, hi, ok, err := sp.ValueRows(p.from, p.to)
	if err != nil || !ok {
		return err
	}
	p.vlo, p.vhi, p.hasData = lo, hi, true
	data := st.bufs[sp.Layout.DataBuffer]
	var blo, bhi uint64
	if sp.Mini != nil {
		span, err := sp.Mini.ChunksForRows(lo, hi)
		if err != nil {
			return err
		}
		first, last := sp.Mini.Chunks[span.First], sp.Mini.Chunks[span.Last]
		p.span = span
		blo, bhi = first.Offset, last.Offset+last.Size
	} else if blo, bhi, err = sp.Full.RowBytes(lo, hi); err != nil {
		return err
	}
	if resident == nil && sp.Full != nil {
		if runs := sp.ItemRuns(p.from, p.to); len(runs) > 1 {
			return planItemRuns(p, sp, data, runs)
		}
	}
	p.data = format.Range{Offset: data.Offset + blo, Length: bhi - blo}
	if resident != nil {
		p.local = resident[blo:bhi]
		p.localEnd = bhi
	}
	return nil
}

// planItemRuns plans an indexed piece whose rows use items apart: the
// bytes of each run of consecutive items (the scheduler coalesces near
// ones), not the span from the least to the greatest.
func planItemRuns(p *piece, sp *layouts.SparsePage, data format.Range, runs []layouts.ItemRun) error {
	p.runs = runs
	for i, r := range runs {
		lo, hi, err := sp.Full.RowBytes(r.Lo, r.Hi)
		if err != nil {
			return err
		}
		rg := format.Range{Offset: data.Offset + lo, Length: hi - lo}
		if i == 0 {
			p.data = rg
		} else {
			p.more = append(p.more, rg)
		}
	}
	return nil
}

// readLeaf decodes the rows of ranges (in order) of one leaf column.
//
// A scan passes its scanCache, which reads whole pages; a take passes nil
// and reads only the chunks or rows it needs.
//
// A scan's page bytes, and a take's of mini-block and copying full-zip
// pages (fetchTake), may be views of a memory-mapped local file, which
// fault if the file shrinks while open: the read turns such a fault into
// an error (lanceio.ErrShortRead) rather than crashing.
func (f *File) readLeaf(ctx context.Context, leaf *layouts.Field, ranges []RowRange, sc *scanCache) (ld layouts.LeafData, err error) {
	return f.readLeafWith(ctx, leaf, ranges, sc, nil)
}

// readLeafWith is readLeaf; with dict, the leaf's dictionary pages are
// decoded to their indices (a dictionary scan), recorded in dict.
func (f *File) readLeafWith(ctx context.Context, leaf *layouts.Field, ranges []RowRange, sc *scanCache, dict *dictRead) (ld layouts.LeafData, err error) {
	// Page bytes may be views of a memory map (a scan's, or a take's, see
	// fetchTake).
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer f.recoverFault(leaf, &err)
	var gathered *[]uint64
	if sc == nil && dict == nil && !leaf.BlobV2 {
		gathered = f.gatherBuf(gatherRowsCap(ranges))
	}
	ps, err := f.pieces(ctx, leaf, ranges, sc, gathered)
	defer func() { f.putPieceBuf(ps); f.putGatherBuf(gathered) }()
	if err != nil {
		return layouts.LeafData{}, err
	}
	want := make([]format.Range, 0, len(ps)) // one per piece at most, bar item runs
	last := -1                               // the piece whose data was appended last
	for i := range ps {
		ps[i].wantAt = -1
		if err := planPiece(&ps[i]); err != nil {
			return layouts.LeafData{}, f.pageErr(ps[i].page, err)
		}
		if !ps[i].hasData || ps[i].local != nil {
			continue
		}
		// Rows taken one by one from one chunk need its bytes once (a
		// piece reading item runs never shares its ranges).
		if last >= 0 && len(ps[i].more) == 0 && len(ps[last].more) == 0 && ps[last].data == ps[i].data {
			ps[i].wantAt = ps[last].wantAt
			continue
		}
		ps[i].wantAt, last = len(want), i
		want = append(want, ps[i].data)
		want = append(want, ps[i].more...)
	}
	var got [][]byte
	if sc == nil {
		var release func()
		got, release, err = f.fetchTake(ctx, ps, want, ranges[0].From)
		if err != nil {
			return layouts.LeafData{}, err
		}
		defer release() // after the memos and levels below are dropped
	} else if got, err = f.fetch(ctx, want, ranges[0].From); err != nil {
		return layouts.LeafData{}, err
	}
	out := layouts.LeafData{Values: &layouts.Values{}}
	out.Values.SetAllocator(f.cfg.Mem)
	ok := false
	defer func() {
		if !ok {
			out.Values.Free()
		}
	}()
	arena := sc.arena()
	defer sc.putArena(arena)
	if !ascending(ranges) {
		arena = nil // out of order: keep every chunk decoded
	}
	run := levelRun{memos: newChunkMemos(arena), dict: dict}
	defer run.memos.release()
	for i := range ps {
		data := ps[i].local
		if data != nil {
			if err := ps[i].stream.await(ctx, ps[i].localEnd); err != nil {
				return layouts.LeafData{}, f.pageErr(ps[i].page, err)
			}
		}
		if ps[i].hasData && data == nil {
			at := ps[i].wantAt
			data = got[at]
			ps[i].moreData = got[at+1 : at+1+len(ps[i].more)]
		}
		if err := f.decodeInto(ctx, leaf, &ps[i], data, &run, &out); err != nil {
			return layouts.LeafData{}, f.pageErr(ps[i].page, err)
		}
		if i == 0 && len(ps) > 1 && !ps[0].page.set().HasLists() {
			// One value a row: room for the other pieces' values at once
			// (a take of 10,000 vectors otherwise regrew its data ~14 times).
			out.Values.Reserve(rowsOf(ps[1:]))
		}
	}
	if err := run.flush(&out); err != nil {
		return layouts.LeafData{}, f.pageErr(run.page, err)
	}
	if leafLen := out.Node.Leaf().Len; leafLen != out.Values.N {
		return layouts.LeafData{}, fmt.Errorf("lance: %s: column %d: %w: levels expect %d values, pages hold %d",
			f.url, leaf.Column, layouts.ErrCorrupt, leafLen, out.Values.N)
	}
	ok = true
	return out, nil
}

// recoverFault, deferred by readLeaf, turns a memory fault in the map of
// a file that shrank while mapped into an error naming the file and column.
// Other panics, and faults the file is not to blame for, go on.
func (f *File) recoverFault(leaf *layouts.Field, err *error) {
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
	*err = fmt.Errorf("lance: %s: column %d (field %q): %w", f.url, leaf.Column, f.columnName(leaf.Column), fault)
}

// rowsOf returns the rows the pieces cover.
func rowsOf(ps []piece) uint64 {
	var n uint64
	for i := range ps {
		if ps[i].rows != nil {
			n += uint64(len(ps[i].rows))
			continue
		}
		n += ps[i].to - ps[i].from
	}
	return n
}

// ascending reports whether ranges start in non-decreasing row order.
func ascending(ranges []RowRange) bool {
	for i := 1; i < len(ranges); i++ {
		if ranges[i].From < ranges[i-1].From {
			return false
		}
	}
	return true
}

func (f *File) pageErr(st *pageState, err error) error {
	return fmt.Errorf("lance: %s: column %d (field %q) page %d: %w", f.url, st.col, f.columnName(st.col), st.index, err)
}

// columnName names the field a column stores.
func (f *File) columnName(col int) string {
	if fl := f.meta.Schema.ColumnField(col); fl != nil {
		return fl.Name
	}
	return "?"
}

// levelRun gathers the levels of consecutive pieces of one page, so that
// a take of many rows unravels each page once rather than once per row.
type levelRun struct {
	page  *pageState
	lv    layouts.Levels
	memos *chunkMemos
	// direct says the page's pieces append their structure to the
	// output's node themselves (sparse pages built as trees): no levels.
	direct bool
	dict   *dictRead // a dictionary scan's: decode indices, not values
}

// flush unravels the gathered levels into out's structure.
func (r *levelRun) flush(out *layouts.LeafData) error {
	if r.page == nil || r.direct {
		return nil
	}
	node, err := layouts.UnravelAppend(out.Node, r.page.set(), r.lv)
	r.lv = layouts.Levels{}
	if r.memos != nil {
		r.memos.arena.ReclaimLevels() // the unraveled node copied what it keeps
	}
	if err != nil {
		return err
	}
	out.Node = node
	return nil
}

// decodeInto decodes one piece into out's values and the run's levels,
// starting a new run when the piece is on another page.
func (f *File) decodeInto(ctx context.Context, leaf *layouts.Field, p *piece, data []byte, run *levelRun, out *layouts.LeafData) error {
	st := p.page
	if st != run.page {
		if err := run.flush(out); err != nil {
			return err
		}
		if err := layouts.CheckLayers(st.set(), f.paths[leaf]); err != nil {
			return err
		}
		run.page = st
		run.direct = st.blob == nil && !leaf.BlobV2 && st.sparse != nil && st.sparse.Direct()
	}
	vals := out.Values
	if run.direct {
		return decodeSparseDirect(st, p, data, out, leafType(leaf), run.memos)
	}
	switch {
	case run.dict != nil:
		return decodeIndices(st, p, data, &run.lv, vals, run.memos, run.dict)
	case st.blob != nil:
		lv, err := f.decodeBlobPiece(ctx, leaf, p, data, vals, run.memos)
		layouts.AppendLevels(&run.lv, lv)
		return err
	case leaf.BlobV2:
		lv, err := f.decodeBlobV2Piece(ctx, p, data, vals, run.memos)
		layouts.AppendLevels(&run.lv, lv)
		return err
	}
	return decodeRows(st, p, data, &run.lv, vals, leafType(leaf), run.memos)
}

// decodeRows decodes a piece of a mini-block, full-zip or constant page.
func decodeRows(st *pageState, p *piece, data []byte, lv *layouts.Levels, vals *layouts.Values, leaf arrow.DataType, memos *chunkMemos) error {
	switch {
	case st.mini != nil && p.rows != nil:
		return st.mini.GatherChunkRows(p.span.First, data, p.rows, lv, vals)
	case st.mini != nil:
		chunks := make([][]byte, 0, p.span.Last-p.span.First+1)
		base := st.mini.Chunks[p.span.First].Offset
		for c := p.span.First; c <= p.span.Last; c++ {
			ch := st.mini.Chunks[c]
			chunks = append(chunks, data[ch.Offset-base:ch.Offset-base+ch.Size])
		}
		return st.mini.DecodeRows(p.span, chunks, p.from, p.to, lv, vals, memos.of(st))
	case st.full != nil:
		return st.full.DecodeRows(data, lv, vals)
	case st.cnst != nil:
		return st.cnst.DecodeRows(p.from, p.to, lv, vals, leaf)
	case st.sparse != nil:
		return decodeSparse(st, p, data, lv, vals, leaf, memos)
	}
	return fmt.Errorf("%w: page without decoder", ErrUnsupported)
}

// decodeSparse decodes a piece of a sparse planar page into levels and
// values (pages read by levels, and blob descriptors).
func decodeSparse(st *pageState, p *piece, data []byte, lv *layouts.Levels, vals *layouts.Values, leaf arrow.DataType, memos *chunkMemos) error {
	sp := st.sparse
	if !p.hasData {
		return sp.AppendRows(p.from, p.to, 0, nil, lv, vals, leaf)
	}
	if p.runs != nil {
		return fmt.Errorf("%w: indexed item runs read through levels", ErrUnsupported)
	}
	var discard layouts.Levels
	if sp.ChunkedDirect() {
		if err := sp.AppendLevels(p.from, p.to, lv); err != nil {
			return err
		}
		return sp.Mini.DecodeRows(p.span, sparseChunks(sp.Mini, p, data), p.vlo, p.vhi, &discard, vals, memos.of(st))
	}
	inner, err := decodeSparseInner(sp, p, data)
	if err != nil {
		return err
	}
	return sp.AppendRows(p.from, p.to, p.vlo, inner, lv, vals, leaf)
}

// decodeSparseDirect decodes a piece of a sparse page built as a tree: its
// structure straight onto out's node, its values into out's values
// (chunked values decode straight into them).
func decodeSparseDirect(st *pageState, p *piece, data []byte, out *layouts.LeafData, leaf arrow.DataType, memos *chunkMemos) error {
	sp := st.sparse
	node, err := sp.AppendStructure(out.Node, p.from, p.to)
	if err != nil {
		return err
	}
	out.Node = node
	if !p.hasData {
		return sp.AppendValues(p.from, p.to, 0, nil, out.Values, leaf)
	}
	if sp.Mini != nil {
		return sp.DecodeChunked(p.span, sparseChunks(sp.Mini, p, data), p.vlo, p.vhi, out.Values, memos.of(st))
	}
	if p.runs != nil {
		return decodeItemRuns(sp, p, data, out.Values, leaf)
	}
	inner, err := decodeSparseInner(sp, p, data)
	if err != nil {
		return err
	}
	return sp.AppendValues(p.from, p.to, p.vlo, inner, out.Values, leaf)
}

// decodeItemRuns decodes the items of an indexed piece's runs, one run
// after another, and appends the rows' values.
func decodeItemRuns(sp *layouts.SparsePage, p *piece, data []byte, vals *layouts.Values, leaf arrow.DataType) error {
	inner := &layouts.Values{}
	var discard layouts.Levels
	for i := range p.runs {
		b := data
		if i > 0 {
			b = p.moreData[i-1]
		}
		if err := sp.Full.DecodeRows(b, &discard, inner); err != nil {
			return fmt.Errorf("indexed items: %w", err)
		}
	}
	return sp.AppendItemRuns(p.from, p.to, p.runs, inner, vals, leaf)
}

// decodeSparseInner decodes the value reader's rows a sparse piece needs
// into a scratch accumulator.
func decodeSparseInner(sp *layouts.SparsePage, p *piece, data []byte) (*layouts.Values, error) {
	inner := &layouts.Values{}
	var discard layouts.Levels
	var err error
	if sp.Mini != nil {
		err = sp.Mini.DecodeRows(p.span, sparseChunks(sp.Mini, p, data), p.vlo, p.vhi, &discard, inner, nil)
	} else {
		err = sp.Full.DecodeRows(data, &discard, inner)
	}
	if err != nil {
		return nil, fmt.Errorf("sparse values: %w", err)
	}
	return inner, nil
}

// sparseChunks cuts a sparse piece's data into its value chunks.
func sparseChunks(m *layouts.MiniBlockPage, p *piece, data []byte) [][]byte {
	chunks := make([][]byte, 0, p.span.Last-p.span.First+1)
	base := m.Chunks[p.span.First].Offset
	for c := p.span.First; c <= p.span.Last; c++ {
		ch := m.Chunks[c]
		chunks = append(chunks, data[ch.Offset-base:ch.Offset-base+ch.Size])
	}
	return chunks
}

// chunkMemos keeps decoded mini-block chunks per page during one read.
// With an arena (rows read in ascending order), only the current page's
// chunks are kept: moving to another page returns the previous one's
// buffers to the arena.
type chunkMemos struct {
	arena *layouts.ChunkArena
	pages map[*pageState]*layouts.ChunkMemo
	last  *pageState
}

func newChunkMemos(arena *layouts.ChunkArena) *chunkMemos {
	return &chunkMemos{arena: arena, pages: map[*pageState]*layouts.ChunkMemo{}}
}

func (m *chunkMemos) of(st *pageState) *layouts.ChunkMemo {
	if m == nil {
		return nil
	}
	if m.arena != nil && m.last != nil && m.last != st {
		m.pages[m.last].Release()
		delete(m.pages, m.last)
	}
	m.last = st
	c, ok := m.pages[st]
	if !ok {
		c = layouts.NewChunkMemo(m.arena)
		m.pages[st] = c
	}
	return c
}

// release returns every buffer the memos hold to the arena.
func (m *chunkMemos) release() {
	for _, c := range m.pages {
		c.Release()
	}
	clear(m.pages)
}

// pagePick is a page's state and, during a scan or a take that read the
// page whole, its data buffer.
type pagePick struct {
	st     *pageState
	data   []byte
	stream *scanPage // a scan's page decoded while it arrives (scanstream.go)
}

// pageLookups remembers the pages one read has looked up, so a take of
// many rows on one page consults the search cache once, not once per row.
type pageLookups map[int]pagePick

func (m pageLookups) get(ctx context.Context, f *File, sc *scanCache, leaf *layouts.Field, i int) (pagePick, error) {
	if pp, ok := m[i]; ok {
		return pp, nil
	}
	var pp pagePick
	var err error
	if sc != nil {
		pp.st, pp.data, pp.stream, err = sc.get(ctx, leaf.Column, i, leafType(leaf))
		sc.prefetch(ctx, leaf.Column, i)
	} else {
		pp.st, err = f.page(ctx, leaf.Column, i, leafType(leaf))
		pp.data = takeData(ctx, f, leaf.Column, i) // a page a take read whole
	}
	if err == nil {
		m[i] = pp
	}
	return pp, err
}
