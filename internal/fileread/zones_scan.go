package fileread

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/zonestats"
)

// A filtered scan (ScanOptions.Filter, FilterSQL, Filters) runs in three
// steps:
//
//  1. plan: bind the filter to the file schema (filter_bind.go), ask the
//     zone seeds of the referenced columns which zones may hold a
//     matching row (expr.Predicate.MayMatch), and turn the surviving
//     zones into row ranges.
//     Pruned zones are never read: no byte range is planned for them.
//  2. read: ranges whose pages are mostly needed are read through a scan
//     cache limited to the range (whole pages, prefetched); the others
//     through the take path, which fetches only the mini-block chunks or
//     full-zip rows of the surviving rows.
//  3. filter: every batch is filtered exactly with expr.Predicate.Evaluate, so
//     the result equals an unpruned scan filtered afterwards. Batches may
//     hold fewer than BatchSize rows; batches without a selected row are
//     not yielded.

// filterPlan is what a filtered scan reads and returns.
type filterPlan struct {
	pred       *expr.Predicate
	readCols   []int // top-level fields read: the projection, then filter-only columns
	readSchema *arrow.Schema
	outSchema  *arrow.Schema
	outIdx     []int // for each output column, its index in readCols
	segs       []scanSeg
	size       uint64
	keep       []bool // the last batch's selection, reused
}

// scanSeg is a run of surviving row ranges read the same way.
type scanSeg struct {
	ranges []RowRange
	whole  bool // read whole pages through a scan cache
}

// filteredBatches is Batches for a scan with a filter bound as pred.
func (f *File) filteredBatches(ctx context.Context, opts ScanOptions, pred *expr.Predicate, yield func(arrow.RecordBatch, error) bool) {
	p, err := f.planFilter(ctx, opts, pred)
	if err != nil {
		yield(nil, err)
		return
	}
	for _, seg := range p.segs {
		if !f.runSegment(ctx, p, seg, yield) {
			return
		}
	}
}

// planFilter resolves columns, prunes zones and plans the reads.
func (f *File) planFilter(ctx context.Context, opts ScanOptions, pred *expr.Predicate) (*filterPlan, error) {
	outCols, outSchema, err := f.projection(opts.Columns)
	if err != nil {
		return nil, err
	}
	from, to, size, err := f.scanBounds(opts)
	if err != nil {
		return nil, err
	}
	p := &filterPlan{pred: pred, outSchema: outSchema, size: size}
	p.setColumns(f, outCols)
	ranges, err := f.survivingRows(ctx, pred, from, to, opts.StrictZoneSeeds)
	if err != nil {
		return nil, err
	}
	p.segs = f.segments(ranges, p.readCols)
	f.countSkipped(p, from, to, ranges)
	return p, nil
}

// setColumns lists the fields to read: each projected field once, then
// the fields only the filter references.
func (p *filterPlan) setColumns(f *File, outCols []int) {
	pos := map[int]int{}
	add := func(c int) int {
		if i, ok := pos[c]; ok {
			return i
		}
		pos[c] = len(p.readCols)
		p.readCols = append(p.readCols, c)
		return pos[c]
	}
	for _, c := range outCols {
		p.outIdx = append(p.outIdx, add(c))
	}
	for _, name := range p.pred.Columns() {
		add(f.schema.FieldIndices(name)[0]) // Bind checked it is unique
	}
	fields := make([]arrow.Field, len(p.readCols))
	for i, c := range p.readCols {
		fields[i] = f.schema.Field(c)
	}
	md := f.schema.Metadata()
	p.readSchema = arrow.NewSchema(fields, &md)
}

// zoneMask returns the may-match mask of the predicate over zones of
// rowsPerZone rows, from the valid seeds of the columns it references;
// nil when no referenced column has a valid seed. With strict, an invalid
// seed of a referenced column is an error.
func (f *File) zoneMask(ctx context.Context, pred *expr.Predicate, strict bool) ([]bool, uint64, error) {
	seeds, problems, err := f.ZoneSeeds(ctx)
	if err != nil {
		return nil, 0, err
	}
	use := map[string]*zonestats.Seed{}
	var rpz uint64
	for _, c := range pred.Columns() {
		if p := problems[c]; p != nil && strict {
			return nil, 0, fmt.Errorf("lance: %s: zone seed of column %q: %w", f.url, c, p)
		}
		if s := seeds[c]; s != nil {
			use[c] = s
			if rpz == 0 || s.RowsPerZone < rpz {
				rpz = s.RowsPerZone
			}
		}
	}
	if len(use) == 0 {
		return nil, 0, nil
	}
	mask, err := pred.MayMatch(use, rpz, f.NumRows())
	if err != nil {
		return nil, 0, fmt.Errorf("lance: %s: zone pruning: %w", f.url, err)
	}
	return mask, rpz, nil
}

// survivingRows returns the rows of [from, to) in zones the seeds do not
// prove empty, as sorted, merged ranges, and counts the zones.
func (f *File) survivingRows(ctx context.Context, pred *expr.Predicate, from, to uint64, strict bool) ([]RowRange, error) {
	if from >= to {
		return nil, nil
	}
	mask, rpz, err := f.zoneMask(ctx, pred, strict)
	if err != nil || mask == nil {
		return []RowRange{{from, to}}, err
	}
	var out []RowRange
	var total, pruned int64
	for k := from / rpz; k*rpz < to; k++ {
		lo, hi := max(k*rpz, from), min((k+1)*rpz, to)
		total++
		if !mask[k] {
			pruned++
			continue
		}
		if n := len(out); n > 0 && out[n-1].To == lo {
			out[n-1].To = hi
		} else {
			out = append(out, RowRange{lo, hi})
		}
	}
	f.stats.zonesTotal.Add(total)
	f.stats.zonesPruned.Add(pruned)
	return out, nil
}

// runSegment reads, filters and yields the batches of one segment. It
// returns false when the scan must stop.
func (f *File) runSegment(ctx context.Context, p *filterPlan, seg scanSeg, yield func(arrow.RecordBatch, error) bool) bool {
	var sc *scanCache
	if seg.whole {
		sc = newScanCache(ctx, f, seg.ranges[len(seg.ranges)-1].To)
		defer sc.close()
	}
	rest := seg.ranges
	for len(rest) > 0 {
		if err := ctx.Err(); err != nil {
			yield(nil, err)
			return false
		}
		var batch []RowRange
		batch, rest = NextBatch(rest, p.size)
		rec, err := f.readFiltered(ctx, p, batch, sc)
		if sc != nil {
			sc.releaseBefore(batch[len(batch)-1].To)
		}
		if err != nil {
			yield(nil, err)
			return false
		}
		if rec != nil && !yield(rec, nil) {
			return false
		}
	}
	return true
}

// NextBatch cuts the first size rows off ranges. It may shorten
// ranges[0] in place.
func NextBatch(ranges []RowRange, size uint64) (batch, rest []RowRange) {
	var n uint64
	for len(ranges) > 0 && n < size {
		r := ranges[0]
		if r.To-r.From <= size-n {
			batch, ranges, n = append(batch, r), ranges[1:], n+r.To-r.From
			continue
		}
		cut := r.From + (size - n)
		batch = append(batch, RowRange{r.From, cut})
		ranges[0].From, n = cut, size
	}
	return batch, ranges
}

// readFiltered reads the rows of batch and keeps those the predicate
// selects; nil when none is selected.
func (f *File) readFiltered(ctx context.Context, p *filterPlan, batch []RowRange, sc *scanCache) (arrow.RecordBatch, error) {
	rec, err := f.readBatch(ctx, p.readCols, p.readSchema, batch, sc)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	keep, err := p.pred.EvaluateInto(p.keep, rec)
	if err != nil {
		return nil, fmt.Errorf("lance: %s: filter %s: %w", f.url, p.pred, err)
	}
	p.keep = keep
	return selectRows(f.cfg.Mem, rec, keep, p.outIdx, p.outSchema)
}

// selectRows builds a batch of the rows of rec where keep is true, with
// the columns outIdx of rec; nil when no row is kept.
func selectRows(mem memory.Allocator, rec arrow.RecordBatch, keep []bool, outIdx []int, schema *arrow.Schema) (arrow.RecordBatch, error) {
	runs := KeptRuns(keep)
	if len(runs) == 0 {
		return nil, nil
	}
	var n int64
	for _, r := range runs {
		n += int64(r.To - r.From)
	}
	arrays := make([]arrow.Array, 0, len(outIdx))
	defer func() {
		for _, a := range arrays {
			a.Release()
		}
	}()
	for _, j := range outIdx {
		a, err := TakeRuns(mem, rec.Column(j), runs)
		if err != nil {
			return nil, err
		}
		arrays = append(arrays, a)
	}
	return array.NewRecordBatch(schema, arrays, n), nil
}

// KeptRuns returns the runs of consecutive true values of keep.
func KeptRuns(keep []bool) []RowRange {
	var out []RowRange
	for i, k := range keep {
		if !k {
			continue
		}
		if n := len(out); n > 0 && out[n-1].To == uint64(i) {
			out[n-1].To++
		} else {
			out = append(out, RowRange{uint64(i), uint64(i) + 1})
		}
	}
	return out
}

// TakeRuns returns the rows of a in runs, as a new reference.
func TakeRuns(mem memory.Allocator, a arrow.Array, runs []RowRange) (arrow.Array, error) {
	if len(runs) == 1 {
		if runs[0].From == 0 && runs[0].To == uint64(a.Len()) {
			a.Retain()
			return a, nil
		}
		return array.NewSlice(a, int64(runs[0].From), int64(runs[0].To)), nil
	}
	n := 0
	for _, r := range runs {
		n += int(r.To - r.From)
	}
	if out, ok := gatherRuns(mem, a, runs, n); ok {
		return out, nil
	}
	parts := make([]arrow.Array, len(runs))
	for i, r := range runs {
		parts[i] = array.NewSlice(a, int64(r.From), int64(r.To))
	}
	defer func() {
		for _, s := range parts {
			s.Release()
		}
	}()
	return array.Concatenate(parts, mem)
}
