package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/fileread"
)

// DatasetScanOptions selects what a dataset scan returns.
type DatasetScanOptions struct {
	ReadOptions
	// Offset skips that many result rows; Limit > 0 stops after that many.
	// With a filter they count filtered rows.
	Offset, Limit uint64
	// BatchSize bounds the rows per batch (DefaultBatchSize if 0). Batches
	// may be smaller: a batch never spans fragments, and deleted or
	// filtered rows are dropped from it.
	BatchSize int
	// Filter, when set, returns only the rows it selects (a filter of
	// package expr: the SQL dialect Lance accepts). It may reference the
	// data columns (a struct field reads its top-level column) and _rowid,
	// _rowaddr and _rowoffset (uint64: see ReadOptions and
	// RowOffsetColumn). Fragments and zones the data files' zone seeds
	// prove empty are not read; the filter's columns are read first, the
	// projection only for the matching rows (filter.go).
	Filter expr.Expr
	// FilterSQL is Filter as text (expr.Parse), parsed when the scan
	// starts; setting both is an error.
	FilterSQL string
	// Filters are more conjuncts of the filter: a row is returned when
	// Filter (or FilterSQL) and each of Filters select it.
	Filters []expr.Expr
	// PartialFilter leaves a top-level conjunct that does not bind (an
	// unknown function, a construct the engine does not evaluate) to the
	// caller instead of failing the scan, which applies the others;
	// Dataset.PlanFilter tells which (see fileread.Conjunct).
	PartialFilter bool
	// NoScalarIndex evaluates the filter by scanning even where scalar
	// indices could answer it (pylance's use_scalar_index=False).
	NoScalarIndex bool
	// OnIndexStats, when set, is called once, as the scan starts, with how
	// it uses scalar indices (filter_index.go).
	OnIndexStats func(IndexScanStats)
}

// fragRange is physical rows [lo, hi) of fragment idx.
type fragRange struct {
	idx    int
	lo, hi uint64
}

// Batches scans the dataset: fragments in manifest order, deleted rows
// skipped. The caller must Release each batch.
func (ds *Dataset) Batches(ctx context.Context, o DatasetScanOptions) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		var ranges []fragRange
		for i, f := range ds.frags {
			ranges = append(ranges, fragRange{i, 0, f.ref.PhysicalRows})
		}
		if o.filterArgs().Empty() && (o.Offset > 0 || o.Limit > 0) {
			var err error
			if ranges, err = ds.liveWindow(ctx, o.Offset, o.Limit); err != nil {
				yield(nil, err)
				return
			}
			o.Offset, o.Limit = 0, 0
		}
		ds.scanRanges(ctx, ranges, o, yield)
	}
}

// Scan is Batches as an array.RecordReader; Release it when done.
func (ds *Dataset) Scan(ctx context.Context, o DatasetScanOptions) (array.RecordReader, error) {
	p, err := ds.project(o.ReadOptions)
	if err != nil {
		return nil, err
	}
	if _, err := ds.bindFilter(o.filterArgs()); err != nil {
		return nil, err
	}
	next, stop := iter.Pull2(ds.Batches(ctx, o))
	return fileread.NewRecordReader(p.schema, next, stop), nil
}

// liveWindow returns the physical ranges holding live rows
// [offset, offset+limit) (limit 0: to the end).
func (ds *Dataset) liveWindow(ctx context.Context, offset, limit uint64) ([]fragRange, error) {
	cum, err := ds.offsets(ctx)
	if err != nil {
		return nil, err
	}
	end := cum[len(cum)-1]
	if limit > 0 && offset+limit >= offset {
		end = min(end, offset+limit)
	}
	var out []fragRange
	for i := range ds.frags {
		lo, hi := max(offset, cum[i]), min(end, cum[i+1])
		if lo >= hi {
			continue
		}
		del, err := ds.deletions(ctx, i)
		if err != nil {
			return nil, err
		}
		out = append(out, fragRange{i, physicalRow(del, lo-cum[i]), physicalRow(del, hi-1-cum[i]) + 1})
	}
	return out, nil
}

// scanRanges yields the batches of physical ranges of fragments.
func (ds *Dataset) scanRanges(ctx context.Context, ranges []fragRange, o DatasetScanOptions, yield func(arrow.RecordBatch, error) bool) {
	p, err := ds.project(o.ReadOptions)
	if err != nil {
		yield(nil, err)
		return
	}
	filter, err := ds.bindFilter(o.filterArgs())
	if err != nil {
		yield(nil, err)
		return
	}
	ds.scanProjected(ctx, ranges, p, filter, o, yield)
}

// scanProjected is scanRanges reading projection p with filter (nil:
// none); o gives the batch size, offset and limit.
func (ds *Dataset) scanProjected(ctx context.Context, ranges []fragRange, p *dsProjection, filter *dsFilter, o DatasetScanOptions,
	yield func(arrow.RecordBatch, error) bool) {
	size := uint64(fileread.DefaultBatchSize)
	if o.BatchSize > 0 {
		size = uint64(o.BatchSize)
	}
	w := &window{skip: o.Offset, left: o.Limit, limited: o.Limit > 0}
	emit := func(rec arrow.RecordBatch) bool {
		rec = w.cut(rec)
		if rec == nil {
			return !w.done()
		}
		return yield(rec, nil) && !w.done()
	}
	var ix *indexScan // scalar indices answering the filter (filter_index.go)
	if filter != nil && !o.NoScalarIndex {
		var err error
		if ix, err = ds.planIndexScan(ctx, filter); err != nil {
			yield(nil, err)
			return
		}
	}
	if o.OnIndexStats != nil {
		st := IndexScanStats{ScannedFragments: len(ranges)}
		if ix != nil {
			st = ix.stats
		}
		o.OnIndexStats(st)
	}
	warmFields, warmDeletions := p.fields, true
	if filter != nil {
		// zone seeds may prune upcoming fragments: warm only what they need
		warmFields, warmDeletions = filter.fields, false
	}
	warm := ds.warmer(ctx, warmFields, warmDeletions)
	warm.filter = filter
	defer warm.stop()
	ahead := ds.scanAhead()
	if filter != nil && w.limited { // a filtered scan with a limit may end anywhere: read no further ahead than needed
		ahead.max = 0
	}
	warmFrom := func(next int) { // the fragments after those being read
		for _, r := range ranges[next:min(len(ranges), next+scanLookahead)] {
			if ix.covers(r.idx) {
				continue // the indices answer: no filter column to warm
			}
			warm.start(r)
		}
	}
	scan := func(ctx context.Context, r fragRange, emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) bool {
		if ix.covers(r.idx) {
			return ds.scanIndexed(ctx, ix, r, p, filter, size, emit, yield)
		}
		if filter != nil {
			return ds.scanFiltered(ctx, r, p, filter, size, emit, yield)
		}
		return ds.scanFragment(ctx, r, p, size, emit, yield)
	}
	if ahead.max > 0 {
		scanRangesAhead(ctx, ranges, ahead, scan, warmFrom, emit, yield)
		return
	}
	for k, r := range ranges {
		if err := ctx.Err(); err != nil {
			yield(nil, err)
			return
		}
		warmFrom(k + 1)
		if !scan(ctx, r, emit, yield) {
			return
		}
	}
}

// window applies offset and limit to a stream of batches.
type window struct {
	skip, left uint64
	limited    bool
}

func (w *window) done() bool { return w.limited && w.left == 0 }

// cut returns the part of rec inside the window (nil if none), taking
// over rec's reference.
func (w *window) cut(rec arrow.RecordBatch) arrow.RecordBatch {
	n := uint64(rec.NumRows())
	lo := min(w.skip, n)
	w.skip -= lo
	hi := n
	if w.limited {
		hi = min(n, lo+w.left)
		w.left -= hi - lo
	}
	if lo == 0 && hi == n && n > 0 {
		return rec
	}
	defer rec.Release()
	if lo >= hi {
		return nil
	}
	return rec.NewSlice(int64(lo), int64(hi))
}

// scanFragment scans physical rows [r.lo, r.hi) of a fragment: each data
// file's pipelined scan (aligned batches), deleted rows dropped. It
// returns false when the scan must stop.
func (ds *Dataset) scanFragment(ctx context.Context, r fragRange, p *dsProjection, size uint64,
	emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) bool {
	if err := ds.prepareFragments(ctx, p.fields, true, []int{r.idx}); err != nil { // deletion file and data files at once
		yield(nil, err)
		return false
	}
	del, err := ds.deletions(ctx, r.idx)
	if err != nil {
		yield(nil, err)
		return false
	}
	return ds.scanSelected(ctx, r, p, size, func(lo, hi uint64) []fileread.RowRange {
		var out []fileread.RowRange
		for _, l := range LiveRanges(nil, del, lo, hi) {
			out = append(out, fileread.RowRange{From: l[0], To: l[1]})
		}
		return out
	}, emit, yield)
}

// scanSelected scans physical rows [r.lo, r.hi) of a fragment batch by
// batch, keeping of each batch [lo, hi) the rows of sel(lo, hi) (sorted,
// disjoint ranges within it).
func (ds *Dataset) scanSelected(ctx context.Context, r fragRange, p *dsProjection, size uint64, sel func(lo, hi uint64) []fileread.RowRange,
	emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) bool {
	m, err := ds.fragment(r.idx)
	var stop bool
	if err == nil {
		err = ds.eachBatch(ctx, r, p.fields, size, func(lo, hi uint64, cols []arrow.Array) error {
			keep := sel(lo, hi)
			if len(keep) == 0 {
				return nil
			}
			rec, err := ds.keepLive(ctx, r.idx, m, p, cols, keep, lo, hi)
			if err == nil && !emit(rec) {
				stop = true
				return errStopScan
			}
			return err
		})
	}
	if err != nil && !stop {
		yield(nil, err)
	}
	return err == nil
}

// errStopScan ends eachBatch when the consumer stopped.
var errStopScan = errors.New("lance: scan stopped")

// eachBatch reads physical rows [r.lo, r.hi) of fields of a fragment
// through each data file's pipelined scan, calling fn with each batch's
// columns (in the order of fields; nil for a field in no data file). fn
// must retain what it keeps; its error ends the scan and is returned.
func (ds *Dataset) eachBatch(ctx context.Context, r fragRange, fields []int, size uint64, fn func(lo, hi uint64, cols []arrow.Array) error) error {
	m, err := ds.fragment(r.idx)
	if err == nil && r.hi > m.PhysicalRows {
		err = fmt.Errorf("%w: rows [%d, %d) of fragment %d of %d rows", ErrInvalidArgument, r.lo, r.hi, m.ID, m.PhysicalRows)
	}
	var files []*fileColumns
	if err == nil {
		files, err = ds.columnsOf(ctx, m, fields)
	}
	if err != nil {
		return err
	}
	pulls := make([]func() (arrow.RecordBatch, error, bool), len(files))
	for k, fc := range files {
		next, stop := iter.Pull2(fc.file.Batches(ctx, fileread.ScanOptions{Columns: fc.names, From: r.lo, To: r.hi, BatchSize: int(size)}))
		defer stop()
		pulls[k] = next
	}
	cols := make([]arrow.Array, len(fields))
	for lo := r.lo; lo < r.hi; lo += size {
		hi := min(lo+size, r.hi)
		err := ds.pullBatch(pulls, files, cols, hi-lo)
		if err == nil {
			err = fn(lo, hi, cols)
		}
		releaseAll(cols)
		if err != nil {
			return err
		}
	}
	return nil
}

// pullBatch takes the next batch of every file's scan into cols.
func (ds *Dataset) pullBatch(pulls []func() (arrow.RecordBatch, error, bool), files []*fileColumns, cols []arrow.Array, n uint64) error {
	for k, next := range pulls {
		rec, err, ok := next()
		if !ok && err == nil {
			err = fmt.Errorf("%w: data file %s ended early", ErrInvalidArgument, files[k].file.URL())
		}
		if err != nil {
			return err
		}
		if uint64(rec.NumRows()) != n {
			rec.Release()
			return fmt.Errorf("lance: %s: batch of %d rows, want %d", files[k].file.URL(), rec.NumRows(), n)
		}
		for j, pos := range files[k].pos {
			a, err := ds.conformed(files[k], j, rec.Column(j))
			if err != nil {
				rec.Release()
				return err
			}
			cols[pos] = a
		}
		rec.Release()
	}
	return nil
}

// keepLive builds the batch of physical rows [lo, hi) from the columns
// read (cols: the projected fields; missing ones are filled) and keeps
// the rows of live (absolute, sorted, non-empty).
func (ds *Dataset) keepLive(ctx context.Context, i int, m *Fragment, p *dsProjection, cols []arrow.Array,
	live []fileread.RowRange, lo, hi uint64) (arrow.RecordBatch, error) {
	all := make([]arrow.Array, len(p.schema.Fields()))
	defer releaseAll(all)
	for j, a := range cols[:p.dataFieldsCount] {
		if a != nil {
			a.Retain()
			all[j] = a
		}
	}
	if err := ds.fillRest(ctx, i, m, p, all, []fileread.RowRange{{From: lo, To: hi}}, hi-lo); err != nil {
		return nil, err
	}
	rec := ds.newBatch(p, all, hi-lo)
	if len(live) == 1 && live[0] == (fileread.RowRange{From: lo, To: hi}) {
		return rec, nil
	}
	defer rec.Release()
	runs := make([]fileread.RowRange, len(live))
	for k, l := range live {
		runs[k] = fileread.RowRange{From: l.From - lo, To: l.To - lo}
	}
	return ds.selectRuns(rec, runs, p)
}

// selectRuns returns the rows of rec in runs, column by column.
func (ds *Dataset) selectRuns(rec arrow.RecordBatch, runs []fileread.RowRange, p *dsProjection) (arrow.RecordBatch, error) {
	var n uint64
	for _, r := range runs {
		n += r.To - r.From
	}
	out := make([]arrow.Array, rec.NumCols())
	defer releaseAll(out)
	for j := range out {
		a, err := fileread.TakeRuns(ds.allocator(), rec.Column(j), runs)
		if err != nil {
			return nil, err
		}
		out[j] = a
	}
	return ds.newBatch(p, out, n), nil
}

// Split is a part of a dataset version that can be read on its own, on
// any machine: a list of fragments with physical row ranges. It
// serializes to JSON (see Dataset.Splits).
type Split struct {
	// URL and Version name the dataset version the split belongs to.
	URL     string `json:"url"`
	Version uint64 `json:"version"`
	// Fragments are read in this order.
	Fragments []SplitFragment `json:"fragments"`
	// Rows is the number of physical rows in the split (deleted included).
	Rows uint64 `json:"rows"`
}

// SplitFragment is physical rows [From, To) of fragment ID.
type SplitFragment struct {
	ID   uint64 `json:"id"`
	From uint64 `json:"from"`
	To   uint64 `json:"to"`
}

// Splits cuts the opened version into splits of about targetRows
// physical rows each (whole fragments when targetRows is 0), in manifest
// order. It plans from the manifest alone and reads nothing; ctx lets a
// caller give up on a plan over a very large fragment list, and a
// cancelled ctx is the only error. An engine plans with it on one
// machine, ships each split (JSON) to a worker, and the worker reads it
// with OpenSplit and ScanSplit without listing the dataset.
func (ds *Dataset) Splits(ctx context.Context, targetRows uint64) ([]Split, error) {
	var out []Split
	cur := Split{URL: ds.url, Version: ds.man.Version}
	flush := func() {
		if len(cur.Fragments) > 0 {
			out = append(out, cur)
		}
		cur = Split{URL: ds.url, Version: ds.man.Version}
	}
	for k, f := range ds.frags {
		if k%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("planning splits of dataset %s version %d: %w", ds.url, ds.man.Version, err)
			}
		}
		for lo := uint64(0); lo < f.ref.PhysicalRows; {
			hi := f.ref.PhysicalRows
			if targetRows > 0 {
				hi = min(hi, lo+targetRows-cur.Rows)
			}
			cur.Fragments = append(cur.Fragments, SplitFragment{f.ref.ID, lo, hi})
			cur.Rows += hi - lo
			lo = hi
			if targetRows == 0 || cur.Rows >= targetRows {
				flush()
			}
		}
	}
	flush()
	return out, nil
}

// String returns the split as JSON.
func (s Split) String() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// OpenSplit opens the dataset version a split belongs to, reading only
// its manifest (no listing).
func OpenSplit(ctx context.Context, s Split, opts ...fileread.Option) (*Dataset, error) {
	return OpenDataset(ctx, s.URL, append(opts, WithVersion(s.Version))...)
}

// ScanSplit scans the rows of a split of this version. Offset and Limit
// of o apply within the split.
func (ds *Dataset) ScanSplit(ctx context.Context, s Split, o DatasetScanOptions) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		if s.Version != ds.man.Version {
			yield(nil, fmt.Errorf("%w: split of version %d, dataset %s is at version %d", ErrInvalidArgument, s.Version, ds.url, ds.man.Version))
			return
		}
		ranges := make([]fragRange, len(s.Fragments))
		for k, f := range s.Fragments {
			i, ok := ds.byID[f.ID]
			if !ok || f.From > f.To || f.To > ds.frags[i].ref.PhysicalRows {
				yield(nil, fmt.Errorf("%w: split fragment %+v is not in dataset %s version %d", ErrInvalidArgument, f, ds.url, ds.man.Version))
				return
			}
			ranges[k] = fragRange{i, f.From, f.To}
		}
		ds.scanRanges(ctx, ranges, o, yield)
	}
}

// scanLookahead is how many fragments ahead a scan opens data files and
// reads deletion files, so that on an object store their round trips
// overlap the current fragment's scan instead of following it.
const scanLookahead = 4

// fragWarmer opens the data files holding fields of upcoming fragments
// in the background and, at the same time, reads their deletion files;
// in a filtered scan it reads a deletion file only once the fragment's
// zone seeds (if any) leave rows to read. Errors are left for the scan
// to meet again; every goroutine has ended when stop returns.
type fragWarmer struct {
	ds     *Dataset
	fields []int
	dels   bool
	// filter, when set, is the scan's filter: a fragment's deletion file
	// is read once its zone seeds (if any) leave rows to read.
	filter *dsFilter
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	sem    chan struct{}
	seen   map[int]bool
}

func (ds *Dataset) warmer(ctx context.Context, fields []int, deletions bool) *fragWarmer {
	ctx, cancel := context.WithCancel(ctx)
	return &fragWarmer{ds: ds, fields: fields, dels: deletions, ctx: ctx, cancel: cancel, sem: make(chan struct{}, scanLookahead), seen: map[int]bool{}}
}

func (w *fragWarmer) start(r fragRange) {
	idx := r.idx
	if w.seen[idx] {
		return
	}
	w.seen[idx] = true
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		select {
		case w.sem <- struct{}{}:
		case <-w.ctx.Done():
			return
		}
		defer func() { <-w.sem }()
		if err := w.ds.prepareFragments(w.ctx, w.fields, w.dels, []int{idx}); err != nil || w.filter == nil {
			return
		}
		if w.ds.mayMatch(w.ctx, r, w.filter) {
			_, _ = w.ds.deletions(w.ctx, idx)
		}
	}()
}

func (w *fragWarmer) stop() {
	w.cancel()
	w.wg.Wait()
}
