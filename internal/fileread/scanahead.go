package fileread

import "sort"

// Decoding ahead on object stores. A scan decodes a window of jobs at once
// (scanWindow: one per core), in row order, and each job waits for the
// bytes of its pages. On an object store the pages of one wave arrive
// together, sharing the link: a column of three 6.5 MB pages behind 20 ms
// got its three pages at a third of the bandwidth each, the first one
// decoded while it arrived and the other two only after the transfer,
// when the scan reached them (18% above the link's bound). Jobs past the
// window whose pages are already requested are therefore started too,
// up to scanAheadJobs and the same bytes bound as the window: their
// workers wait for their bytes and decode as they come, so every page of
// a wave decodes while it arrives, and the scan yields their batches in
// row order as before. The read-ahead still decides which pages are read;
// decoding ahead only follows it.

// scanAheadJobs bounds the jobs an object-store scan decodes ahead of its
// window; most of them wait for bytes, not for a core.
const scanAheadJobs = 128

// aheadJobs returns how many jobs of jobRows rows and about jobBytes
// stored bytes past the window of window jobs an object-store scan of
// rows [from, to) may start: those fit, with the window, in a quarter of
// the bytes in flight (as the window alone does, see scanWindow), and the
// scan has that many (a dataset scans many small files at once, each
// with its workers). 0 for local files, and for 2.0 and legacy files,
// whose pages are read elsewhere.
func (f *File) aheadJobs(sc *scanCache, from, to, jobRows, jobBytes uint64, window int) int {
	if sc.waveMax == 0 || f.v20 != nil || f.legacy != nil || f.NumRows() == 0 || to <= from || jobRows == 0 {
		return 0
	}
	fit := min(uint64(f.inFlightBudget())/(4*max(1, jobBytes)), (to-from+jobRows-1)/jobRows)
	if fit <= uint64(window) {
		return 0
	}
	return int(min(fit-uint64(window), uint64(scanAheadJobs)))
}

// requestedThrough returns the row up to which every page of the leaf
// columns cols (file column indices), from row from on, has been
// requested: a job ending there only waits for bytes on their way.
func (c *scanCache) requestedThrough(cols []int, from uint64) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	through := c.end
	for _, col := range cols {
		starts := c.f.pageStarts(col)
		i := pageAt(starts, from)
		for i < len(starts)-1 {
			if _, ok := c.pages[[2]int{col, i}]; !ok {
				break
			}
			i++
		}
		if i < len(starts)-1 {
			through = min(through, max(from, starts[i]))
		}
	}
	return through
}

// leafColumns lists the file columns of the leaves of the fields cols.
func (f *File) leafColumns(cols []int) []int {
	var out []int
	for _, c := range cols {
		for _, leaf := range f.leaves[c] {
			out = append(out, leaf.Column)
		}
	}
	return out
}

// mayStart reports whether a scan with n jobs running, a window of window
// and ahead jobs past it, may start the job of rows [lo, hi).
func (c *scanCache) mayStart(n, window, ahead int, leaves []int, lo, hi uint64) bool {
	switch {
	case n < window:
		return true
	case n >= window+ahead:
		return false
	}
	return c.requestedThrough(leaves, lo) >= hi
}

// pageAt returns the page of starts (page first rows, then the end) that
// holds row, or the page count when row is past the end.
func pageAt(starts []uint64, row uint64) int {
	return sort.Search(len(starts)-1, func(i int) bool { return starts[i+1] > row })
}
