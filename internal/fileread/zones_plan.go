package fileread

import (
	"sort"
)

// pageRows returns the first row of each page of column col, plus the
// row after the last page.
func (f *File) pageRows(col int) []uint64 {
	pages := f.meta.Columns[col].GetPages()
	starts := make([]uint64, len(pages)+1)
	for i, p := range pages {
		starts[i+1] = starts[i] + p.GetLength()
	}
	return starts
}

// readLeafColumns returns the physical columns of top-level fields cols.
func (f *File) readLeafColumns(cols []int) []int {
	var out []int
	for _, c := range cols {
		for _, l := range f.leaves[c] {
			out = append(out, l.Column)
		}
	}
	return out
}

// segments groups surviving ranges by how they are read. A range for
// which every page it touches (in every leaf column read) is at least half
// needed is read whole-page through a scan cache: few, large requests for
// little waste. Other ranges go through the take path, which fetches only
// the chunks holding their rows; consecutive ones share batches.
func (f *File) segments(ranges []RowRange, cols []int) []scanSeg {
	leaves := f.readLeafColumns(cols)
	starts := make([][]uint64, len(leaves))
	for i, c := range leaves {
		starts[i] = f.pageRows(c)
	}
	var segs []scanSeg
	for _, r := range ranges {
		if mostlyNeeded(r, starts) {
			segs = append(segs, scanSeg{ranges: []RowRange{r}, whole: true})
			continue
		}
		if n := len(segs); n > 0 && !segs[n-1].whole {
			segs[n-1].ranges = append(segs[n-1].ranges, r)
			continue
		}
		segs = append(segs, scanSeg{ranges: []RowRange{r}})
	}
	return segs
}

// mostlyNeeded reports whether r covers at least half of the rows of every
// page it overlaps, in every column (starts as from pageRows).
func mostlyNeeded(r RowRange, starts [][]uint64) bool {
	for _, st := range starts {
		n := len(st) - 1
		i := sort.Search(n, func(i int) bool { return st[i+1] > r.From })
		for ; i < n && st[i] < r.To; i++ {
			if needsLittle(st[i], st[i+1], r) {
				return false
			}
		}
	}
	return true
}

// needsLittle reports whether r overlaps page [lo, hi) in less than half
// of its rows (and in at least one).
func needsLittle(lo, hi uint64, r RowRange) bool {
	from, to := max(lo, r.From), min(hi, r.To)
	return from < to && 2*(to-from) < hi-lo
}

// overlapRows returns how many rows of the sorted, disjoint ranges fall in
// [lo, hi).
func overlapRows(ranges []RowRange, lo, hi uint64) uint64 {
	i := sort.Search(len(ranges), func(i int) bool { return ranges[i].To > lo })
	var n uint64
	for ; i < len(ranges) && ranges[i].From < hi; i++ {
		n += min(ranges[i].To, hi) - max(ranges[i].From, lo)
	}
	return n
}

// countSkipped adds to the file's BytesSkipped an estimate of the page
// bytes pruning saved: for each page of a column read that is not read
// whole, its bytes in proportion to its rows in [from, to) that were
// pruned. Pages with no surviving row are never requested, so for them the
// figure is exact.
func (f *File) countSkipped(p *filterPlan, from, to uint64, surviving []RowRange) {
	var whole []RowRange
	for _, s := range p.segs {
		if s.whole {
			whole = append(whole, s.ranges...)
		}
	}
	var skipped float64
	for _, c := range f.readLeafColumns(p.readCols) {
		st := f.pageRows(c)
		for i, pg := range f.meta.Columns[c].GetPages() {
			lo, hi := max(st[i], from), min(st[i+1], to)
			if lo >= hi || overlapRows(whole, st[i], st[i+1]) > 0 {
				continue
			}
			pruned := (hi - lo) - overlapRows(surviving, lo, hi)
			var size uint64
			for _, b := range pg.GetBufferSizes() {
				size += b
			}
			skipped += float64(size) * float64(pruned) / float64(st[i+1]-st[i])
		}
	}
	f.stats.bytesSkipped.Add(int64(skipped))
}
