package fileread

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// Scans of part of a file. A scan reads whole pages, which pays when it
// needs most of each: few, large requests. A scan of rows [from, to) that
// needs a small part of a page (the first rows of a file of vectors,
// whose full-zip pages hold 65,536 rows in 201 MB) would read the whole
// page for a few rows. Its batches that overlap such a page are read like
// a take instead, only the mini-block chunks or full-zip rows they hold;
// the batches between them are scanned whole-page as usual. Batches are
// cut where a scan of the whole range cuts them.

// rangeRuns splits the batches of a scan of [from, to) (size rows each)
// into runs read the same way: whole pages (scanSeg.whole), or like a
// take. A batch is read like a take when it overlaps a page, of any leaf
// column read, that the range needs less than half of. One whole run when
// no page is needed that little, or for 2.0 and legacy files (whose pages
// take reads do not split).
func (f *File) rangeRuns(cols []int, from, to, size uint64) []scanSeg {
	whole := []scanSeg{{ranges: []RowRange{{from, to}}, whole: true}}
	if f.v20 != nil || f.legacy != nil || to <= from || size == 0 {
		return whole
	}
	var sparse []RowRange // pages the range needs less than half of, clipped to it
	for _, c := range f.readLeafColumns(cols) {
		st := f.pageRows(c)
		for i := 0; i+1 < len(st); i++ {
			if needsLittle(st[i], st[i+1], RowRange{from, to}) {
				sparse = append(sparse, RowRange{max(st[i], from), min(st[i+1], to)})
			}
		}
	}
	if len(sparse) == 0 {
		return whole
	}
	var runs []scanSeg
	for lo := from; lo < to; lo += min(size, to-lo) {
		hi := lo + min(size, to-lo)
		take := overlapsAny(sparse, lo, hi)
		if n := len(runs); n > 0 && runs[n-1].whole == !take {
			runs[n-1].ranges[0].To = hi
			continue
		}
		runs = append(runs, scanSeg{ranges: []RowRange{{lo, hi}}, whole: !take})
	}
	return runs
}

// overlapsAny reports whether any of rs overlaps [lo, hi).
func overlapsAny(rs []RowRange, lo, hi uint64) bool {
	for _, r := range rs {
		if r.From < hi && lo < r.To {
			return true
		}
	}
	return false
}

// rangeScan is the scan of [from, to) by rangeRuns: whole-page runs
// through the pipelined scan, the others a batch at a time like a take.
func (f *File) rangeScan(ctx context.Context, cols []int, schema *arrow.Schema, from, to, size uint64, yield func(arrow.RecordBatch, error) bool) {
	runs := f.rangeRuns(cols, from, to, size)
	if len(runs) == 1 && runs[0].whole {
		f.pipelinedScan(ctx, cols, schema, from, to, size, yield)
		return
	}
	stopped := false
	keep := func(rec arrow.RecordBatch, err error) bool {
		if stopped = !yield(rec, err) || err != nil; stopped {
			return false
		}
		return true
	}
	for _, run := range runs {
		r := run.ranges[0]
		if run.whole {
			f.pipelinedScan(ctx, cols, schema, r.From, r.To, size, keep)
		} else {
			f.takeBatches(ctx, cols, schema, r.From, r.To, size, keep)
		}
		if stopped {
			return
		}
	}
}

// takeBatches reads [from, to) in batches of size rows, each like a take.
func (f *File) takeBatches(ctx context.Context, cols []int, schema *arrow.Schema, from, to, size uint64, yield func(arrow.RecordBatch, error) bool) {
	for lo := from; lo < to; lo += min(size, to-lo) {
		if err := ctx.Err(); err != nil {
			yield(nil, err)
			return
		}
		rec, err := f.readBatch(ctx, cols, schema, []RowRange{{lo, lo + min(size, to-lo)}}, nil)
		if !yield(rec, err) || err != nil {
			return
		}
	}
}
