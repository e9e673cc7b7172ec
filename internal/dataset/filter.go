package dataset

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/fileread"
)

// A filtered dataset scan reads each fragment with late materialization,
// as Lance does:
//
//  1. the zone seeds of the data file holding every filter column prune
//     zones; a fragment without a surviving zone costs nothing more (no
//     data request, no deletion file);
//  2. the filter's columns are read for the surviving live rows and the
//     filter is evaluated batch by batch, giving the physical ranges of
//     the matching rows;
//  3. the projection is read for those ranges only: through the
//     pipelined scan when they are dense in the fragment, else like a
//     take (only the chunks holding them).
//
// When every projected column is a filter column, steps 2 and 3 are one.

// dsFilter is a filter bound to the dataset schema and the row id
// columns (withRowColumns), with the dataset fields and row id columns it
// reads.
type dsFilter struct {
	pred                      *expr.Predicate
	fields                    []int
	rowID, rowAddr, rowOffset bool
	types                     map[string]arrow.DataType // of the data columns it reads
	opts                      expr.Options              // one now() for every binding

	mu     sync.Mutex
	byFile map[*arrow.Schema]*expr.Predicate // bound to data file schemas, for zone pruning (nil: cannot prune)
}

// rowColumns are the row id columns a dataset filter may reference.
var rowColumns = [...]string{RowIDColumn, RowAddressColumn, RowOffsetColumn}

// withRowColumns returns schema with the row id columns (uint64) it does
// not already hold appended.
func withRowColumns(schema *arrow.Schema) *arrow.Schema {
	fields := schema.Fields()
	for _, name := range rowColumns {
		if len(schema.FieldIndices(name)) == 0 {
			fields = append(fields, arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Uint64, Nullable: true})
		}
	}
	md := schema.Metadata()
	return arrow.NewSchema(fields, &md)
}

// filterArgs returns the filter fields of o.
func (o DatasetScanOptions) filterArgs() fileread.FilterArgs {
	return fileread.FilterArgs{Filter: o.Filter, FilterSQL: o.FilterSQL, Filters: o.Filters, Partial: o.PartialFilter}
}

// PlanFilter binds the filter of o to the dataset schema (with _rowid,
// _rowaddr and _rowoffset) and returns its top-level conjuncts, each with
// whether a scan with o applies it (see fileread.Conjunct and
// DatasetScanOptions.PartialFilter); nil without a filter. It reads
// nothing.
func (ds *Dataset) PlanFilter(o DatasetScanOptions) ([]fileread.Conjunct, error) {
	_, conj, err := ds.bindFilterConj(o.filterArgs())
	return conj, err
}

// bindFilter binds a scan's filter to the dataset schema; nil when the
// scan applies no filter.
func (ds *Dataset) bindFilter(a fileread.FilterArgs) (*dsFilter, error) {
	f, _, err := ds.bindFilterConj(a)
	return f, err
}

// bindFilterConj is bindFilter also returning the conjuncts.
func (ds *Dataset) bindFilterConj(a fileread.FilterArgs) (*dsFilter, []fileread.Conjunct, error) {
	opts := expr.Options{Now: time.Now()} // Go memory: bound constants live as long as the predicate
	schema := withRowColumns(ds.arrow)
	pred, conj, err := fileread.BindFilter(a, schema, opts)
	if err != nil || pred == nil {
		return nil, conj, err
	}
	f := &dsFilter{pred: pred, opts: opts, types: map[string]arrow.DataType{}, byFile: map[*arrow.Schema]*expr.Predicate{}}
	for _, name := range pred.Columns() {
		switch i := ds.arrow.FieldIndices(name); {
		case len(i) > 0:
			f.fields = append(f.fields, i[0]) // Bind checked it is unique
			f.types[name] = ds.arrow.Field(i[0]).Type
		case name == RowIDColumn:
			f.rowID = true
		case name == RowAddressColumn:
			f.rowAddr = true
		case name == RowOffsetColumn:
			f.rowOffset = true
		}
	}
	return f, conj, nil
}

// forFile returns the filter bound to a data file's schema, for pruning
// with its zone seeds; nil when it does not bind (other types: no
// pruning).
func (f *dsFilter) forFile(file *fileread.File) *expr.Predicate {
	schema := file.Schema()
	if f.sameTypes(schema) {
		return f.pred // the usual case: the file types the filter's columns as the dataset does
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.byFile[schema]
	if !ok {
		var err error
		if p, err = expr.BindWith(f.pred.Expr(), withRowColumns(schema), f.opts); err != nil {
			p = nil
		}
		f.byFile[schema] = p
	}
	return p
}

// sameTypes reports whether schema holds each data column the filter
// reads, once, with the type it was bound to.
func (f *dsFilter) sameTypes(schema *arrow.Schema) bool {
	for _, name := range f.pred.Columns() {
		if slices.Contains(rowColumns[:], name) {
			continue
		}
		want, ok := f.types[name]
		idx := schema.FieldIndices(name)
		if !ok || len(idx) != 1 || !arrow.TypeEqual(schema.Field(idx[0]).Type, want) {
			return false
		}
	}
	return true
}

// projection returns the read of the filter's columns.
func (f *dsFilter) projection(ds *Dataset) *dsProjection {
	return ds.newProjection(f.fields, f.rowID, f.rowAddr, f.rowOffset)
}

// with returns the read of the filter's columns and p's data fields.
func (f *dsFilter) with(ds *Dataset, p *dsProjection) *dsProjection {
	fields := slices.Clone(f.fields)
	for _, i := range p.fields[:p.dataFieldsCount] {
		if !slices.Contains(fields, i) {
			fields = append(fields, i)
		}
	}
	return ds.newProjection(fields, f.rowID, f.rowAddr, f.rowOffset)
}

// readEarly reports whether a filtered scan of a fragment reads the
// projection together with the filter's columns (one round trip) rather
// than for the matching rows after them (two): on an object store, when
// the surviving zones' share of the fragment's data files, an upper bound
// on the projection's bytes for them, is less than the link carries in a
// round trip (scheduler.RoundTripBytes). Files of unknown size never are.
func (ds *Dataset) readEarly(frag *Fragment, zones []fileread.RowRange, p *dsProjection, f *dsFilter) bool {
	budget := ds.sched.RoundTripBytes()
	if budget <= 0 || frag.PhysicalRows == 0 || p.dataFieldsCount == 0 {
		return false
	}
	var size uint64
	for _, df := range frag.Files {
		if df.Size == 0 {
			return false
		}
		size += df.Size
	}
	var rows uint64
	for _, z := range zones {
		rows += z.To - z.From
	}
	return float64(size)*float64(rows)/float64(frag.PhysicalRows) < float64(budget)
}

// covers reports whether every field of p is a filter column.
func (f *dsFilter) covers(p *dsProjection) bool {
	for _, i := range p.fields {
		if !slices.Contains(f.fields, i) {
			return false
		}
	}
	return true
}

// scanFiltered scans physical rows [r.lo, r.hi) of a fragment with a
// filter. It returns false when the scan must stop.
func (ds *Dataset) scanFiltered(ctx context.Context, r fragRange, p *dsProjection, f *dsFilter, size uint64,
	emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) bool {
	fail := func(err error) bool { yield(nil, err); return false }
	zones, pruned, err := ds.seedZones(ctx, r, f)
	if err != nil {
		return fail(err)
	}
	if len(zones) == 0 {
		return true
	}
	del, err := ds.deletions(ctx, r.idx)
	if err != nil {
		return fail(err)
	}
	frag, err := ds.fragment(r.idx)
	if err != nil {
		return fail(err)
	}
	m := &matcher{ds: ds, r: r, frag: frag, f: f, fp: f.projection(ds), del: del, size: size}
	switch {
	case f.covers(p):
		m.out, m.emit = p, emit
	case pruned && ds.readEarly(frag, zones, p, f):
		m.fp, m.out, m.emit = f.with(ds, p), p, emit
	}
	stopped, err := m.run(ctx, zones, pruned)
	switch {
	case err != nil:
		return fail(err)
	case stopped:
		return false
	case m.out != nil || len(m.matches) == 0:
		return true
	}
	return ds.readMatches(ctx, r, p, m.matches, size, emit, yield)
}

// seedZones returns the rows of r in zones the zone seeds of the data
// file holding every filter column do not prove empty (all of r when no
// such file or seed), and whether the seeds pruned any row.
func (ds *Dataset) seedZones(ctx context.Context, r fragRange, f *dsFilter) ([]fileread.RowRange, bool, error) {
	all := []fileread.RowRange{{From: r.lo, To: r.hi}}
	if r.lo >= r.hi {
		return nil, false, nil
	}
	m, err := ds.fragment(r.idx)
	if err != nil {
		return nil, false, err
	}
	files, err := ds.columnsOf(ctx, m, f.fields)
	if err != nil || len(files) != 1 || len(files[0].pos) != len(f.fields) {
		return all, false, err
	}
	file := files[0].file
	fp := f.forFile(file)
	if fp == nil {
		return all, false, nil // the file's types differ: no pruning
	}
	zones, err := fileread.SurvivingRows(ctx, file, fp, r.lo, r.hi, false)
	if err != nil {
		return nil, false, err
	}
	return zones, len(zones) != 1 || zones[0] != all[0], nil
}

// matcher runs steps 2 (and 3 when out is set) over one fragment.
type matcher struct {
	ds      *Dataset
	r       fragRange
	frag    *Fragment
	f       *dsFilter
	fp      *dsProjection // the filter columns
	del     *Deletions
	size    uint64
	out     *dsProjection // set when the filter columns are the output
	emit    func(arrow.RecordBatch) bool
	matches []fileread.RowRange // physical ranges of matching live rows
	keep    []bool              // the last batch's selection, reused
}

// run evaluates the filter over the live rows of zones: through the
// pipelined scan when nothing was pruned, else through takes of the
// surviving ranges. stopped reports that emit asked to stop.
func (m *matcher) run(ctx context.Context, zones []fileread.RowRange, pruned bool) (stopped bool, err error) {
	if !pruned {
		err = m.ds.eachBatch(ctx, m.r, m.fp.fields, m.size, func(lo, hi uint64, cols []arrow.Array) error {
			live := liveRuns(m.del, lo, hi)
			if len(live) == 0 {
				return nil
			}
			rec, err := m.ds.keepLive(ctx, m.r.idx, m.frag, m.fp, cols, []fileread.RowRange{{From: lo, To: hi}}, lo, hi)
			if err != nil {
				return err
			}
			defer rec.Release()
			return m.batch(ctx, rec, []fileread.RowRange{{From: lo, To: hi}}, live)
		})
		if err == errStopScan {
			return true, nil
		}
		return false, err
	}
	var live []fileread.RowRange
	for _, z := range zones {
		live = append(live, liveRuns(m.del, z.From, z.To)...)
	}
	for len(live) > 0 {
		var batch []fileread.RowRange
		batch, live = fileread.NextBatch(live, m.size)
		rec, err := m.ds.readFragment(ctx, m.r.idx, m.fp, batch)
		if err != nil {
			return false, err
		}
		err = m.batch(ctx, rec, batch, batch)
		rec.Release()
		if err == errStopScan {
			return true, nil
		} else if err != nil {
			return false, err
		}
	}
	return false, nil
}

// batch evaluates the filter over rec, the rows of ranges (physical,
// sorted), of which those in live count, and records or emits the
// matches.
func (m *matcher) batch(ctx context.Context, rec arrow.RecordBatch, ranges, live []fileread.RowRange) error {
	keep, err := m.f.pred.EvaluateInto(m.keep, rec)
	if err != nil {
		return fmt.Errorf("lance: dataset %s fragment %d: filter %s: %w", m.ds.url, m.r.idx, m.f.pred, err)
	}
	m.keep = keep
	if len(ranges) == 1 {
		dropDeleted(keep, ranges[0].From, live)
	}
	rel := fileread.KeptRuns(keep)
	if len(rel) == 0 {
		return nil
	}
	phys := physicalRuns(rel, ranges)
	if m.out == nil {
		m.matches = appendRuns(m.matches, phys)
		return nil
	}
	out, err := m.output(ctx, rec, rel, phys)
	if err != nil {
		return err
	}
	if !m.emit(out) {
		return errStopScan
	}
	return nil
}

// output builds the result batch of the kept rows rel of rec (the filter
// columns; phys their physical ranges) when they are the output.
func (m *matcher) output(ctx context.Context, rec arrow.RecordBatch, rel, phys []fileread.RowRange) (arrow.RecordBatch, error) {
	var n uint64
	for _, r := range rel {
		n += r.To - r.From
	}
	cols := make([]arrow.Array, len(m.out.schema.Fields()))
	defer releaseAll(cols)
	for j, fi := range m.out.fields {
		a, err := fileread.TakeRuns(m.ds.allocator(), rec.Column(slices.Index(m.fp.fields, fi)), rel)
		if err != nil {
			return nil, err
		}
		cols[j] = a
	}
	if err := m.ds.fillRest(ctx, m.r.idx, m.frag, m.out, cols, phys, n); err != nil {
		return nil, err
	}
	return m.ds.newBatch(m.out, cols, n), nil
}

// readMatches reads the projection for the matching rows of fragment
// range r (step 3) and emits it in batches of at most size rows. When
// they are at least half of r, whole pages are read through the pipelined
// scan (little waste, few requests); else only the chunks holding them.
func (ds *Dataset) readMatches(ctx context.Context, r fragRange, p *dsProjection, matches []fileread.RowRange, size uint64,
	emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) bool {
	idx, lo, hi := r.idx, matches[0].From, matches[len(matches)-1].To
	var n uint64
	for _, m := range matches {
		n += m.To - m.From
	}
	if 2*n >= r.hi-r.lo {
		at := 0
		sel := func(lo, hi uint64) []fileread.RowRange {
			var out []fileread.RowRange
			for ; at < len(matches) && matches[at].From < hi; at++ {
				out = append(out, fileread.RowRange{From: max(lo, matches[at].From), To: min(hi, matches[at].To)})
				if matches[at].To > hi {
					break
				}
			}
			return out
		}
		return ds.scanSelected(ctx, fragRange{idx, lo, hi}, p, size, sel, emit, yield)
	}
	return ds.readMatchBatches(ctx, idx, p, matches, size, emit, yield)
}

// liveRuns returns the rows of [lo, hi) not deleted, as ranges.
func liveRuns(del *Deletions, lo, hi uint64) []fileread.RowRange {
	var out []fileread.RowRange
	for _, l := range LiveRanges(nil, del, lo, hi) {
		out = append(out, fileread.RowRange{From: l[0], To: l[1]})
	}
	return out
}

// dropDeleted clears keep (rows from base on) outside live.
func dropDeleted(keep []bool, base uint64, live []fileread.RowRange) {
	at := base
	for _, l := range live {
		clear(keep[at-base : l.From-base])
		at = l.To
	}
	clear(keep[at-base:])
}

// physicalRuns maps runs of row indices of a batch holding the rows of
// ranges (concatenated) to physical ranges.
func physicalRuns(rel, ranges []fileread.RowRange) []fileread.RowRange {
	var out []fileread.RowRange
	k, base := 0, uint64(0) // ranges[k] holds batch rows [base, base+len)
	for _, r := range rel {
		for from := r.From; from < r.To; {
			for from >= base+ranges[k].To-ranges[k].From {
				base += ranges[k].To - ranges[k].From
				k++
			}
			to := min(r.To, base+ranges[k].To-ranges[k].From)
			out = appendRuns(out, []fileread.RowRange{{From: ranges[k].From + from - base, To: ranges[k].From + to - base}})
			from = to
		}
	}
	return out
}

// appendRuns appends sorted ranges to dst, merging touching ones.
func appendRuns(dst, runs []fileread.RowRange) []fileread.RowRange {
	for _, r := range runs {
		if n := len(dst); n > 0 && dst[n-1].To == r.From {
			dst[n-1].To = r.To
			continue
		}
		dst = append(dst, r)
	}
	return dst
}
