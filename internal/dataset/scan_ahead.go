package dataset

import (
	"context"
	"github.com/lancego/lancego/internal/fileread"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// A scan of a dataset on an object store reads fragments ahead of the one
// being yielded, as many as their data files fit in scanAheadBytes (by
// the sizes the manifest records; always one), at most scanAheadRemote.
// Each fragment's scan opens its data files and reads its deletion file
// at once when it starts, then requests its first pages, so the round
// trips of the next fragments overlap the current one's transfer and
// decode instead of following it. A bound in bytes, not fragments, and
// one that covers a link's bandwidth-delay product (64 MiB: 100 ms at
// 670 MB/s), so that a scan keeps the link busy whatever the first-byte
// latency. Fragments read ahead share the link, so the first one's pages
// arrive only with the others'; since pages are decoded as they arrive
// (fileread's streamed pages) that costs little. Measured behind the
// proxy at 200 MB/s, best of 5, the 25 fragments of 1 MB of dataset B:
// at 20 ms 157-160 ms with 8 MiB ahead, 160-161 ms with 64 MiB; at 100 ms
// 402-403 ms with 8 MiB (two waves: 0.71-0.75x pylance), 240 ms with
// 64 MiB (1.24-1.25x). Before pages streamed, 8 MiB was best at 20 ms
// (164-180 ms against 189-214 ms with all 25 ahead).
//
// Each fragment read ahead holds its file scan's read-ahead (within its
// data files) and its decoded batches: its window (a few batches, see
// fileread's scanWindow, and aheadQueue) and, since its pages are on an
// object store, those of its pages already requested, decoded as they
// arrive (fileread's scanahead.go), so what a scan holds stays within
// about scanAheadBytes of stored bytes, also decoded, plus a few batches
// per fragment; scanAheadRemote bounds the fragments (and their
// goroutines) when they are tiny. A file of unrecorded size counts as
// scanAheadUnsized.
const (
	scanAheadRemote  = 64
	scanAheadBytes   = 64 << 20
	scanAheadUnsized = 16 << 20
)

// scanAheadLocal is the depth on a local disk, where a fragment's first
// read costs no round trip: one ahead only overlaps fragment starts.
const scanAheadLocal = 1

// aheadPolicy is how far a scan reads ahead: at most max fragments, and
// beyond the first, while their cost (nil: none) stays within budget.
type aheadPolicy struct {
	max    int
	budget uint64
	cost   func(fragRange) uint64
}

// scanAhead returns the read-ahead of scans of ds.
func (ds *Dataset) scanAhead() aheadPolicy {
	if fileread.IsLocalURL(ds.url) {
		return aheadPolicy{max: scanAheadLocal}
	}
	return aheadPolicy{max: scanAheadRemote, budget: scanAheadBytes, cost: ds.fragmentBytes}
}

// fragmentBytes is what the manifest says the data files of a fragment
// range weigh, prorated to its rows.
func (ds *Dataset) fragmentBytes(r fragRange) uint64 {
	m, err := ds.fragment(r.idx)
	if err != nil || m.PhysicalRows == 0 {
		return scanAheadUnsized
	}
	var total uint64
	for _, df := range m.Files {
		if df.Size == 0 {
			total += scanAheadUnsized
		} else {
			total += df.Size
		}
	}
	return total / m.PhysicalRows * (r.hi - r.lo)
}

// allows reports whether another fragment of cost c may start with
// running already read ahead, costing held.
func (a aheadPolicy) allows(running int, held, c uint64) bool {
	if running >= a.max {
		return false
	}
	return running == 0 || a.cost == nil || held+c <= a.budget
}

// aheadQueue is how many batches a fragment read ahead may hold decoded
// before its scan waits for the consumer.
const aheadQueue = 1

// fragScanFunc scans one fragment range, passing batches to emit (false:
// stop) and an error to yield; it returns false when the scan must stop.
type fragScanFunc func(ctx context.Context, r fragRange, emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) bool

// aheadItem is one batch, or the error, of a fragment read ahead.
type aheadItem struct {
	rec arrow.RecordBatch
	err error
}

// aheadScan is the scan of one fragment range running ahead of the
// consumer: its batches in order, then a closed channel.
type aheadScan struct {
	items chan aheadItem
}

// scanRangesAhead scans ranges in order with the following ones ahead
// allows running concurrently, calling emit for each batch in
// order and yield for the first error; warm(next) runs as each range
// becomes the current one, next being the first range not started. Every goroutine it starts has
// ended, and every batch not handed on has been released, when it
// returns.
func scanRangesAhead(ctx context.Context, ranges []fragRange, ahead aheadPolicy, scan fragScanFunc, warm func(next int),
	emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	started := make([]*aheadScan, 0, len(ranges))
	defer func() {
		cancel()
		for _, s := range started { // drop what the consumer did not take
			for it := range s.items {
				if it.rec != nil {
					it.rec.Release()
				}
			}
		}
		wg.Wait()
	}()
	start := func(r fragRange) {
		s := &aheadScan{items: make(chan aheadItem, aheadQueue)}
		started = append(started, s)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(s.items)
			send := func(it aheadItem) bool {
				select {
				case s.items <- it:
					return true
				case <-ctx.Done():
					if it.rec != nil {
						it.rec.Release()
					}
					return false
				}
			}
			scan(ctx, r, func(rec arrow.RecordBatch) bool { return send(aheadItem{rec: rec}) },
				func(_ arrow.RecordBatch, err error) bool { return send(aheadItem{err: err}) })
		}()
	}
	costs := make([]uint64, len(ranges))
	var held uint64 // cost of the fragments started after k
	for k := range ranges {
		if len(started) <= k {
			start(ranges[k])
		} else {
			held -= costs[k]
		}
		for len(started) < len(ranges) {
			next := len(started)
			if ahead.cost != nil {
				costs[next] = ahead.cost(ranges[next])
			}
			if !ahead.allows(next-k-1, held, costs[next]) {
				break
			}
			held += costs[next]
			start(ranges[next])
		}
		warm(len(started))
		for it := range started[k].items {
			if it.err != nil {
				yield(nil, it.err)
				return
			}
			if !emit(it.rec) {
				return
			}
		}
		if err := ctx.Err(); err != nil {
			yield(nil, err)
			return
		}
	}
}

// matchBatchesAhead is the most batches of a filtered scan's sparse
// matches (read like a take) read at once: each is a round trip on an
// object store, which one after the other were most of a selective
// filtered scan there.
const matchBatchesAhead = 4

// readMatchBatches reads the sparse matches of fragment idx batch by
// batch (at most size rows each) like a take, up to matchBatchesAhead
// batches at once (no more than the dataset's fragments ahead), emitting
// them in order. It returns false when the scan must stop.
func (ds *Dataset) readMatchBatches(ctx context.Context, idx int, p *dsProjection, matches []fileread.RowRange, size uint64,
	emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) bool {
	var batches [][]fileread.RowRange
	for len(matches) > 0 {
		var b []fileread.RowRange
		b, matches = fileread.NextBatch(matches, size)
		batches = append(batches, b)
	}
	items := make([]fragRange, len(batches))
	for k := range items {
		items[k] = fragRange{idx: k}
	}
	read := func(ctx context.Context, r fragRange, emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) bool {
		rec, err := ds.readFragment(ctx, idx, p, batches[r.idx])
		if err != nil {
			yield(nil, err)
			return false
		}
		return emit(rec)
	}
	ok := true
	scanRangesAhead(ctx, items, aheadPolicy{max: min(matchBatchesAhead, ds.scanAhead().max)}, read, func(int) {},
		func(rec arrow.RecordBatch) bool { ok = emit(rec); return ok },
		func(rec arrow.RecordBatch, err error) bool { ok = false; return yield(rec, err) })
	return ok
}

// mayMatch reports whether the zone seeds of the data file holding every
// filter column leave rows of r to read (true without such a file or
// seeds, or on an error, which the scan meets again). It is seedZones
// without the zone counts of Stats, which the scan itself adds.
func (ds *Dataset) mayMatch(ctx context.Context, r fragRange, f *dsFilter) bool {
	if r.lo >= r.hi {
		return false
	}
	m, err := ds.fragment(r.idx)
	if err != nil {
		return true
	}
	files, err := ds.columnsOf(ctx, m, f.fields)
	if err != nil || len(files) != 1 || len(files[0].pos) != len(f.fields) {
		return true
	}
	fp := f.forFile(files[0].file)
	if fp == nil {
		return true
	}
	mask, rpz, err := fileread.ZoneMask(ctx, files[0].file, fp, false)
	if err != nil || mask == nil || rpz == 0 {
		return true
	}
	for k := r.lo / rpz; k*rpz < r.hi; k++ {
		if k >= uint64(len(mask)) || mask[k] { // rows no seed covers may match
			return true
		}
	}
	return false
}
