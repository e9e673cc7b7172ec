package fileread

import (
	"context"
	"fmt"
	"iter"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/lancego/lancego/layouts"
	"github.com/lancego/lancego/scheduler"
	"golang.org/x/sync/errgroup"

	"github.com/lancego/lancego/expr"
)

// ScanOptions selects what a scan returns.
type ScanOptions struct {
	// Columns are top-level column names; empty means all.
	Columns []string
	// From and To bound the rows [From, To); To == 0 means NumRows.
	From, To uint64
	// BatchSize is the number of rows per batch (DefaultBatchSize if 0).
	BatchSize int
	// Filter, when set, returns only the rows it selects (a filter of
	// package expr: the SQL dialect Lance accepts), in file order. Zones
	// that the file's zone seeds prove empty are not read; the columns it
	// references are read for evaluation even when not in Columns.
	// Batches may then hold fewer than BatchSize rows. See zones_scan.go.
	Filter expr.Expr
	// FilterSQL is Filter as text (expr.Parse), parsed when the scan
	// starts; setting both is an error.
	FilterSQL string
	// Filters are more conjuncts of the filter: a row is returned when
	// Filter (or FilterSQL) and each of Filters select it.
	Filters []expr.Expr
	// PartialFilter leaves a top-level conjunct that does not bind (an
	// unknown function, a construct the engine does not evaluate) to the
	// caller instead of failing the scan: the scan applies the others.
	// PlanFilter tells which conjuncts a scan applies (filter_bind.go).
	PartialFilter bool
	// StrictZoneSeeds makes an invalid zone seed of a column the Filter
	// references an error; by default such a seed is ignored (never used
	// to prune) and File.ZoneSeeds reports why.
	StrictZoneSeeds bool
	// Dictionary returns each projected string or binary column whose
	// every page is a dictionary page (Lance writes low-cardinality strings
	// so from 2.1 on) as Arrow dictionary<int32, T> arrays instead of
	// expanding the strings: the indices are unpacked straight into the
	// batch's index buffer, the dictionary is the page's, decoded once per
	// page and handed to Arrow without a copy (a batch spanning pages gets
	// their dictionaries concatenated). The schema of the scan reports
	// those columns' dictionary types; other columns are read as usual.
	// Not combined with Filter (ErrInvalidArgument); 2.0 and legacy files
	// are read as usual.
	Dictionary bool
}

// projection resolves column names to top-level field indices.
func (f *File) projection(names []string) ([]int, *arrow.Schema, error) {
	if len(names) == 0 {
		idx := make([]int, len(f.fields))
		for i := range idx {
			idx[i] = i
		}
		return idx, f.schema, nil
	}
	var idx []int
	var fields []arrow.Field
	for _, n := range names {
		i := f.schema.FieldIndices(n)
		if len(i) == 0 {
			return nil, nil, fmt.Errorf("%w: no column %q in %s", ErrInvalidArgument, n, f.url)
		}
		idx = append(idx, i[0])
		fields = append(fields, f.schema.Field(i[0]))
	}
	md := f.schema.Metadata()
	return idx, arrow.NewSchema(fields, &md), nil
}

// readBatch reads the rows of ranges (in order) for the projected fields.
func (f *File) readBatch(ctx context.Context, cols []int, schema *arrow.Schema, ranges []RowRange, sc *scanCache) (arrow.RecordBatch, error) {
	var nrows uint64
	for _, r := range ranges {
		nrows += r.To - r.From
	}
	arrays := make([]arrow.Array, len(cols))
	defer func() {
		for _, a := range arrays {
			if a != nil {
				a.Release()
			}
		}
	}()
	if err := f.readFieldsAs(ctx, cols, schema, ranges, nrows, sc, arrays); err != nil {
		return nil, err
	}
	return array.NewRecordBatch(schema, arrays, int64(nrows)), nil
}

// maxFieldReaders bounds the fields of one batch read at once. It is
// larger than the core count on purpose: on an object store each field's
// fetch is a round trip, and overlapping all of them (not GOMAXPROCS at a
// time) is what makes a take of many columns cost one latency, not many.
const maxFieldReaders = 64

// readFields reads the projected fields concurrently (at most
// maxFieldReaders at a time): their fetches overlap and their decoding
// uses every core. It returns after every goroutine it started has finished.
func (f *File) readFields(ctx context.Context, cols []int, ranges []RowRange, nrows uint64, sc *scanCache, out []arrow.Array) error {
	return f.readFieldsAs(ctx, cols, nil, ranges, nrows, sc, out)
}

// readFieldsAs is readFields into the types of schema (nil: the file's):
// a column schema gives a dictionary type its file type is not is read by
// a dictionary scan (readDictField).
func (f *File) readFieldsAs(ctx context.Context, cols []int, schema *arrow.Schema, ranges []RowRange, nrows uint64, sc *scanCache, out []arrow.Array) error {
	read := func(ctx context.Context, i int) (arrow.Array, error) {
		if schema != nil {
			if dt, ok := schema.Field(i).Type.(*arrow.DictionaryType); ok && f.fields[cols[i]].Type.ID() != arrow.DICTIONARY {
				return f.readDictField(ctx, cols[i], dt, ranges, nrows, sc)
			}
		}
		return f.readField(ctx, cols[i], ranges, nrows, sc)
	}
	if len(cols) == 1 {
		a, err := read(ctx, 0)
		out[0] = a
		return err
	}
	return FanOut(ctx, len(cols), func(ctx context.Context, i int) error {
		var err error
		out[i], err = read(ctx, i)
		return err
	})
}

// FanOut runs fn(ctx, i) for i in [0, n) on at most maxFieldReaders
// goroutines (an errgroup), cancels the others' context at the first error
// and returns it once every goroutine has finished.
//
// Each goroutine runs on its own round-trip strand (scheduler.Fork), so
// the reads of all of them count as one wave, and the caller's strand
// continues from the deepest. Called outside a tracked operation (the
// dataset's takes), the fan-out is one (scheduler.Track).
func FanOut(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	ctx, end := scheduler.Track(ctx)
	defer end()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(maxFieldReaders)
	joins := make([]func(), n)
	for i := range n {
		fctx, join := scheduler.Fork(gctx)
		joins[i] = join
		g.Go(func() error { return fn(fctx, i) })
	}
	err := g.Wait()
	for _, join := range joins {
		join()
	}
	return err
}

func (f *File) readField(ctx context.Context, c int, ranges []RowRange, nrows uint64, sc *scanCache) (arrow.Array, error) {
	top := f.fields[c]
	if nrows == 0 {
		return array.MakeArrayOfNull(f.cfg.Mem, top.Type, 0), nil
	}
	if f.v20 != nil {
		return f.readFieldV20(withV20Batch(ctx, sc, ranges), c, ranges, nrows, sc == nil)
	}
	if f.legacy != nil {
		return f.readFieldLegacy(ctx, c, ranges, nrows)
	}
	leaves := f.leaves[c]
	data := make([]layoutsLeafData, len(leaves))
	defer func() { // give back what no array took over
		for _, d := range data {
			d.Values.Free()
		}
	}()
	if err := f.readLeaves(ctx, leaves, ranges, sc, data); err != nil {
		return nil, err
	}
	a, err := buildArray(f.cfg.Mem, top, data)
	if err != nil {
		return nil, fmt.Errorf("lance: %s: field %q: %w", f.url, top.Name, err)
	}
	return f.checkFieldRows(top, a, nrows)
}

// readLeaves reads the leaves of one top-level field into data (in leaf
// order): concurrently when there are several (a struct's children), so
// that their fetches are one wave, not one round trip per leaf. What was
// read stays in data on error, for the caller to free.
func (f *File) readLeaves(ctx context.Context, leaves []*layouts.Field, ranges []RowRange, sc *scanCache, data []layoutsLeafData) error {
	if len(leaves) == 1 {
		var err error
		data[0], err = f.readLeaf(ctx, leaves[0], ranges, sc)
		return err
	}
	return FanOut(ctx, len(leaves), func(ctx context.Context, i int) error {
		var err error
		data[i], err = f.readLeaf(ctx, leaves[i], ranges, sc)
		return err
	})
}

// Batches scans the file and yields record batches in row order. The
// caller must Release each batch.
func (f *File) Batches(ctx context.Context, opts ScanOptions) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		ctx, end := f.track(ctx)
		defer end()
		if opts.hasFilter() {
			if opts.Dictionary {
				yield(nil, errDictFilter())
				return
			}
			pred, _, err := f.bindFilter(opts)
			if err != nil {
				yield(nil, err)
				return
			}
			if pred != nil {
				f.filteredBatches(ctx, opts, pred, yield)
				return
			}
		}
		cols, schema, err := f.scanProjection(opts)
		if err != nil {
			yield(nil, err)
			return
		}
		from, to, size, err := f.scanBounds(opts)
		if err != nil {
			yield(nil, err)
			return
		}
		if opts.Dictionary {
			f.pipelinedScan(ctx, cols, schema, from, to, size, yield)
			return
		}
		f.rangeScan(ctx, cols, schema, from, to, size, yield)
	}
}

// batchResult is one decoded batch of a pipelined scan.
type batchResult struct {
	rec arrow.RecordBatch
	err error
	end uint64
}

// pipelinedScan decodes up to scanWindow jobs at once on that many worker
// goroutines and yields their batches in row order; the pages a batch
// needs are shared through one scan cache. A job is a run of consecutive
// batches (scanJobBatches): handing work to a worker and its result back
// wakes a parked goroutine each way, ~5 µs on this VM, which for narrow
// columns (8,192 rows of int64 = 64 KiB, a 6 µs copy) was half the scan.
// The workers live as long as the scan (a goroutine per job would regrow
// its stack every time), and every one of them has finished when it
// returns.
func (f *File) pipelinedScan(ctx context.Context, cols []int, schema *arrow.Schema, from, to, size uint64,
	yield func(arrow.RecordBatch, error) bool) {
	ctx, cancel := context.WithCancel(ctx)
	sc := newScanCache(ctx, f, to)
	sc.start(ctx, cols, from) // every column's first wave, before any batch waits
	window, perJob, jobBytes := f.scanWindow(cols, size)
	ahead, leaves := f.aheadJobs(sc, from, to, size*perJob, jobBytes, window), f.leafColumns(cols)
	jobs := make(chan batchJob, window+ahead)
	var workers sync.WaitGroup
	joins := make([]func(), window+ahead)
	for w := range window + ahead {
		wctx, join := scheduler.Fork(ctx) // each worker is a strand of the scan
		joins[w] = join
		workers.Add(1)
		go func() {
			defer workers.Done()
			for j := range jobs {
				j.out <- f.decodeJob(wctx, cols, schema, j, sc)
			}
		}()
	}
	var inflight []chan []batchResult
	defer func() {
		cancel()
		close(jobs)
		for _, ch := range inflight { // join and drop batches not yielded
			releaseResults(<-ch)
		}
		workers.Wait()
		for _, join := range joins {
			join()
		}
		sc.close()
	}()
	next := from
	for next < to || len(inflight) > 0 {
		for next < to {
			j := batchJob{lo: next, hi: min(next+size*perJob, to), size: size}
			if !sc.mayStart(len(inflight), window, ahead, leaves, j.lo, j.hi) {
				break
			}
			j.out = make(chan []batchResult, 1)
			jobs <- j
			inflight = append(inflight, j.out)
			next = j.hi
		}
		rs := <-inflight[0]
		inflight = inflight[1:]
		for i, r := range rs {
			if r.err == nil {
				sc.releaseBefore(r.end) // every earlier batch is done
			}
			if !yield(r.rec, r.err) || r.err != nil {
				releaseResults(rs[i+1:])
				return
			}
		}
	}
}

// batchJob is one job of a pipelined scan: rows [lo, hi) in batches of
// size rows, and where their results go.
type batchJob struct {
	lo, hi, size uint64
	out          chan []batchResult
}

// decodeJob decodes the batches of j in order, stopping at the first error
// (the last result then).
func (f *File) decodeJob(ctx context.Context, cols []int, schema *arrow.Schema, j batchJob, sc *scanCache) []batchResult {
	out := make([]batchResult, 0, (j.hi-j.lo+j.size-1)/j.size)
	for lo := j.lo; lo < j.hi; lo += j.size {
		r := f.decodeBatch(ctx, cols, schema, lo, min(lo+j.size, j.hi), sc)
		out = append(out, r)
		if r.err != nil {
			break
		}
	}
	return out
}

// releaseResults releases the batches of results not yielded.
func releaseResults(rs []batchResult) {
	for _, r := range rs {
		if r.rec != nil {
			r.rec.Release()
		}
	}
}

// Scan job sizing: a job holds as many batches as fit in scanJobBytes of
// estimated stored bytes, at most scanJobBatches.
const (
	scanJobBytes   = 256 << 10
	scanJobBatches = 8
)

// scanWindow returns how many jobs a scan decodes at once and how many
// batches a job holds. The window is GOMAXPROCS, but fewer when batches
// are large against the scheduler's bytes-in-flight budget (each batch of
// the window's jobs, and the one the caller holds, is alive at once): at
// most budget / (4 * estimated job bytes), at least 1. The estimate is the
// projected columns' stored bytes per row; jobBytes is a job's (0 when
// unknown).
func (f *File) scanWindow(cols []int, size uint64) (window int, perJob, jobBytes uint64) {
	window = max(1, runtime.GOMAXPROCS(0))
	rows := f.NumRows()
	if rows == 0 {
		return window, 1, 0
	}
	est := f.storedBytes(cols) / rows * size
	if est == 0 {
		return window, scanJobBatches, 0
	}
	perJob = max(1, min(scanJobBatches, scanJobBytes/est))
	return max(1, min(window, int(uint64(f.inFlightBudget())/(4*est*perJob)))), perJob, est * perJob
}

// storedBytes sums the page buffers of the projected columns' leaves.
func (f *File) storedBytes(cols []int) uint64 {
	var stored uint64
	for _, c := range cols {
		for _, leaf := range f.leaves[c] {
			for _, pg := range f.meta.Columns[leaf.Column].GetPages() {
				stored += pageBytes(pg)
			}
		}
	}
	return stored
}

// decodeBatch reads rows [lo, hi) of a scan.
func (f *File) decodeBatch(ctx context.Context, cols []int, schema *arrow.Schema, lo, hi uint64, sc *scanCache) batchResult {
	if err := ctx.Err(); err != nil {
		return batchResult{err: err}
	}
	rec, err := f.readBatch(ctx, cols, schema, []RowRange{{lo, hi}}, sc)
	return batchResult{rec: rec, err: err, end: hi}
}

func (f *File) scanBounds(opts ScanOptions) (from, to, size uint64, err error) {
	from, to = opts.From, opts.To
	if to == 0 {
		to = f.NumRows()
	}
	if from > to || to > f.NumRows() {
		return 0, 0, 0, fmt.Errorf("%w: rows [%d,%d) of a file of %d", ErrInvalidArgument, from, to, f.NumRows())
	}
	size = uint64(DefaultBatchSize)
	if opts.BatchSize > 0 {
		size = uint64(opts.BatchSize)
	}
	return from, to, size, nil
}

// Scan returns a RecordReader over the file's rows for opts. The reader
// uses ctx for all its reads; Release it when done.
func (f *File) Scan(ctx context.Context, opts ScanOptions) (array.RecordReader, error) {
	_, schema, err := f.scanProjection(opts)
	if err != nil {
		return nil, err
	}
	if opts.Dictionary && opts.hasFilter() {
		return nil, errDictFilter()
	}
	if _, _, _, err := f.scanBounds(opts); err != nil {
		return nil, err
	}
	if _, _, err := f.bindFilter(opts); err != nil {
		return nil, err
	}
	next, stop := iter.Pull2(f.Batches(ctx, opts))
	return NewRecordReader(schema, next, stop), nil
}

// NewRecordReader returns an array.RecordReader of schema over the batches
// of a pulled iterator (iter.Pull2): next gives them, stop ends the
// iteration once the reader is released.
func NewRecordReader(schema *arrow.Schema, next func() (arrow.RecordBatch, error, bool), stop func()) array.RecordReader {
	r := &scanReader{schema: schema, next: next, stop: stop}
	r.refs.Store(1)
	return r
}

type scanReader struct {
	refs   atomic.Int64
	schema *arrow.Schema
	next   func() (arrow.RecordBatch, error, bool)
	stop   func()
	cur    arrow.RecordBatch
	err    error
}

func (r *scanReader) Retain()               { r.refs.Add(1) }
func (r *scanReader) Schema() *arrow.Schema { return r.schema }
func (r *scanReader) Err() error            { return r.err }

// RecordBatch returns the current batch, valid until the next call to Next.
func (r *scanReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record returns the current batch (deprecated name kept for the interface).
func (r *scanReader) Record() arrow.RecordBatch { return r.cur }

func (r *scanReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.err != nil {
		return false
	}
	rec, err, ok := r.next()
	if !ok {
		return false
	}
	if err != nil {
		r.err = err
		return false
	}
	r.cur = rec
	return true
}

func (r *scanReader) Release() {
	if r.refs.Add(-1) == 0 {
		if r.cur != nil {
			r.cur.Release()
			r.cur = nil
		}
		r.stop()
	}
}

// checkFieldRows returns a, the decoded array of top-level field top, if
// it holds nrows rows, else releases it and reports the file corrupt.
func (f *File) checkFieldRows(top *layouts.Field, a arrow.Array, nrows uint64) (arrow.Array, error) {
	if n := a.Len(); uint64(n) != nrows {
		a.Release()
		return nil, fmt.Errorf("lance: %s: field %q: %w: decoded %d rows, want %d", f.url, top.Name, layouts.ErrCorrupt, n, nrows)
	}
	return a, nil
}
