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
// pages of fixed-width values without lists or dictionary.
func gatherPage(st *pageState) bool {
	return st.blob == nil && st.sparse == nil && st.mini != nil && st.mini.CanGather()
}

// addGather adds page rows [from, to) of page pp to a take's pieces as
// rows gathered from their chunk: onto the last piece when it gathers
// from the same chunk, else as a new piece whose span is that chunk. It
// returns false, adding nothing, when the rows are not all in one chunk.
// rows holds every gathered row of the read; a piece's rows are its tail.
func addGather(out []piece, rows *[]uint64, pp pagePick, from, to uint64) ([]piece, bool) {
	m := pp.st.mini
	hint := -1
	var last *piece
	if n := len(out); n > 0 && out[n-1].rows != nil && out[n-1].page == pp.st {
		last = &out[n-1]
		hint = last.span.First
	}
	c, ok := m.ChunkOfRow(from, hint)
	if !ok {
		return out, false
	}
	if ch := &m.Chunks[c]; to-ch.FirstRow > ch.NumValues {
		return out, false
	}
	start := len(*rows)
	for r := from; r < to; r++ {
		*rows = append(*rows, r)
	}
	if last != nil && c == last.span.First && sameTail(*rows, last.rows, start) {
		last.rows = (*rows)[start-len(last.rows):]
		last.from, last.to = min(last.from, from), max(last.to, to)
		return out, true
	}
	out = append(out, piece{})
	p := &out[len(out)-1] // set in place: the piece is large
	p.page, p.from, p.to, p.pageData = pp.st, from, to, pp.data
	p.span, p.rows = layouts.ChunkSpan{First: c, Last: c}, (*rows)[start:]
	return out, true
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
