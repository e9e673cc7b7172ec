package fileread

import "github.com/lancego/lancego/layouts"

// maxGatherRun is the longest run of consecutive rows a take gathers one
// by one from a chunk; longer runs are read as a range of rows.
const maxGatherRun = 16

// gatherRowsCap counts the rows of ranges short enough to be gathered
// (the room a take's gathered rows need at most).
func gatherRowsCap(ranges []RowRange) int {
	n := 0
	for _, r := range ranges {
		if r.To-r.From <= maxGatherRun {
			n += int(r.To - r.From)
		}
	}
	return n
}

// gatherPage reports whether a take reads rows of the page by gathering
// them per chunk (layouts.MiniBlockPage.GatherChunkRows): plain mini-block
// pages of fixed-width values without lists or dictionary, one entry a
// row (not the items of a dense fixed-size list of structs).
func gatherPage(st *pageState) bool {
	return st.blob == nil && st.sparse == nil && st.mini != nil && st.itemsPerRow() == 1 && st.mini.CanGather()
}

// addGathers adds the leading ranges of ranges that lie on page pp (page
// rows [lo, hi) of the column) and are short (maxGatherRun) to a take's
// pieces as rows gathered from their chunk: onto the last piece while it
// gathers from the same chunk, else as a new piece whose span is the
// chunk. It returns how many ranges it took (0: the first range is not
// gatherable there). rows holds every gathered row of the read; a
// piece's rows are a part of it, and the last piece's its tail.
func addGathers(out []piece, rows *[]uint64, pp pagePick, ranges []RowRange, lo, hi uint64) ([]piece, int) {
	m := pp.st.mini
	buf := *rows
	g := gathering{at: -1}
	if n := len(out); n > 0 && out[n-1].rows != nil && out[n-1].page == pp.st && sameTail(buf, out[n-1].rows, len(buf)) {
		g = gathering{at: n - 1, start: len(buf) - len(out[n-1].rows), chunk: out[n-1].span.First,
			from: out[n-1].from, to: out[n-1].to}
		g.lo, g.hi = m.Chunks[g.chunk].FirstRow, m.Chunks[g.chunk].FirstRow+m.Chunks[g.chunk].NumValues
	}
	n := 0
	for ; n < len(ranges); n++ {
		r := ranges[n]
		if r.From < lo || r.To > hi || r.To-r.From > maxGatherRun {
			break
		}
		from, to := r.From-lo, r.To-lo
		if from < g.lo || to > g.hi {
			c, ok := m.ChunkOfRow(from, g.chunk)
			if !ok || to-m.Chunks[c].FirstRow > m.Chunks[c].NumValues {
				break
			}
			g.finish(out, buf)
			out = append(out, piece{})
			p := &out[len(out)-1] // set in place: the piece is large
			p.page, p.pageData, p.span = pp.st, pp.data, layouts.ChunkSpan{First: c, Last: c}
			ch := &m.Chunks[c]
			g = gathering{at: len(out) - 1, start: len(buf), chunk: c, lo: ch.FirstRow, hi: ch.FirstRow + ch.NumValues, from: from, to: to}
		}
		for x := from; x < to; x++ {
			buf = append(buf, x)
		}
		g.from, g.to = min(g.from, from), max(g.to, to)
	}
	g.finish(out, buf)
	*rows = buf
	return out, n
}

// gathering is the piece addGathers is adding rows to: out[at], whose
// rows start at buf[start], gathering from chunk chunk (page rows [lo,
// hi)); from and to bound its rows so far.
type gathering struct {
	at, start, chunk int
	lo, hi, from, to uint64
}

// finish sets the piece's rows and bounds (none when at < 0).
func (g *gathering) finish(out []piece, buf []uint64) {
	if g.at < 0 {
		return
	}
	p := &out[g.at]
	p.rows, p.from, p.to = buf[g.start:len(buf):len(buf)], g.from, g.to
}

// sameTail reports whether prev ends at index start of rows (the rows
// appended since are contiguous with it in the same backing array).
func sameTail(rows, prev []uint64, start int) bool {
	return len(prev) > 0 && start >= len(prev) && &rows[start-len(prev)] == &prev[0]
}

// gatherBuf returns an empty row list with room for n, reused from an
// earlier take when one is kept.
func (f *File) gatherBuf(n int) *[]uint64 {
	if p, ok := f.gatherRows.Get().(*[]uint64); ok && cap(*p) >= n {
		*p = (*p)[:0]
		return p
	}
	b := make([]uint64, 0, n)
	return &b
}

// putGatherBuf keeps a take's row list for a later one; lists of fewer
// than 256 rows are not worth keeping.
func (f *File) putGatherBuf(p *[]uint64) {
	if p == nil || cap(*p) < 256 {
		return
	}
	f.gatherRows.Put(p)
}
