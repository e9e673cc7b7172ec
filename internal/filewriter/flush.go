package filewriter

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"golang.org/x/sync/errgroup"
)

// topJob is the encoding of the buffered rows of one top-level field:
// one page per leaf column, written in leaf order.
type topJob struct {
	top   int
	arrs  []arrow.Array // buffered input (released after the pages are written)
	col   arrow.Array   // the input as one array (concatenated when several)
	owned []arrow.Array // arrays made here (normalized input, col), released with the job
	pages []*encodedPage
	sc    []*leafScratch // the pages' pooled temporaries
	err   error
	done  chan struct{}
}

// errFlushSkipped marks jobs not run because an earlier one failed.
var errFlushSkipped = errors.New("lance: flush skipped")

// encode concatenates the input and encodes every leaf column.
func (j *topJob) encode(ctx context.Context, w *Writer) {
	if j.err = j.prepare(w); j.err != nil {
		return
	}
	for _, leaf := range w.tops[j.top] {
		if err := ctx.Err(); err != nil {
			j.err = err
			return
		}
		sc := w.pools.newLeafScratch()
		j.sc = append(j.sc, sc)
		page, err := encodeLeaf(j.col, leaf, &w.cfg, sc)
		if err != nil {
			j.err = fmt.Errorf("lance: column %d (%s): %w", leaf.column, leaf.path[len(leaf.path)-1].Name, err)
			return
		}
		j.pages = append(j.pages, page)
	}
}

// prepare sets j.col: the input with the null values of its dictionaries
// moved into their keys (normalizeDictNulls; per array, before they are
// concatenated, which unifies differing dictionaries), as one array.
func (j *topJob) prepare(w *Writer) error {
	arrs := j.arrs
	if hasDictionary(w.schema.Field(j.top).Type) {
		arrs = make([]arrow.Array, len(j.arrs))
		for i, a := range j.arrs {
			n, changed, err := normalizeDictNulls(a, w.pools.allocator())
			if err != nil {
				return err
			}
			if changed {
				j.owned = append(j.owned, n)
			}
			arrs[i] = n
		}
	}
	j.col = arrs[0]
	if len(arrs) > 1 {
		if c, ok := concatFixed(arrs); ok {
			j.col = c
			j.owned = append(j.owned, c)
			return nil
		}
		c, err := array.Concatenate(arrs, w.pools.allocator())
		if err != nil {
			return err
		}
		j.col = c
		j.owned = append(j.owned, c)
	}
	return nil
}

// release drops the job's input and the arrays made from it.
func (j *topJob) release() {
	for _, a := range j.owned {
		a.Release()
	}
	for _, a := range j.arrs {
		a.Release()
	}
	j.arrs, j.col, j.pages, j.owned = nil, nil, nil, nil
}

// flushTops encodes and writes the buffered rows of the top-level fields
// tops (in increasing order). Fields are encoded concurrently by up to
// GOMAXPROCS goroutines, all finished when it returns; pages are written
// in the order of the sequential writer (field by field, leaf by leaf), so
// the file's bytes do not depend on the concurrency. Pages may reference
// the input arrays, which are released only once written.
func (w *Writer) flushTops(ctx context.Context, tops []int) error {
	var jobs []*topJob
	for _, i := range tops {
		if len(w.pending[i]) == 0 {
			continue
		}
		jobs = append(jobs, &topJob{top: i, arrs: w.pending[i], done: make(chan struct{})})
		w.pending[i], w.pendLen[i] = nil, 0
	}
	defer func() {
		for _, j := range jobs {
			j.release()
		}
	}()
	workers := min(len(jobs), runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for _, j := range jobs {
			j.encode(ctx, w)
			if err := w.writeJob(j); err != nil {
				return err
			}
		}
		return nil
	}
	// Jobs start in order, at most window of them encoded but not yet
	// written; the errgroup runs at most workers at once and joins them.
	// Encoding errors stay with their job so that the first error in job
	// order is reported, whatever the timing.
	window := 2 * workers
	var g errgroup.Group
	g.SetLimit(workers)
	var stop atomic.Bool
	started := 0
	start := func() {
		j := jobs[started]
		started++
		g.Go(func() error {
			if stop.Load() {
				j.err = errFlushSkipped
			} else {
				j.encode(ctx, w)
			}
			close(j.done)
			return nil
		})
	}
	for started < len(jobs) && started < window {
		start()
	}
	var err error
	for _, j := range jobs {
		<-j.done
		if err == nil {
			if err = w.writeJob(j); err != nil {
				stop.Store(true)
			}
		}
		j.release()
		if started < len(jobs) {
			start()
		}
	}
	_ = g.Wait() // the goroutines report through their jobs
	return err
}

// writeJob writes the pages of an encoded job.
func (w *Writer) writeJob(j *topJob) error {
	if j.err != nil {
		return j.err
	}
	for k, leaf := range w.tops[j.top] {
		page, err := w.placeExternal(j.pages[k])
		if err != nil {
			return fmt.Errorf("lance: column %d (%s): %w", leaf.column, leaf.path[len(leaf.path)-1].Name, err)
		}
		if err := w.writePage(leaf.column, page, w.written[j.top]); err != nil {
			return err
		}
		// written: the page's pooled buffers can be reused
		for _, b := range page.Scratch {
			w.pools.putBytes(b)
		}
		if page != j.pages[k] {
			for _, b := range j.pages[k].Scratch {
				w.pools.putBytes(b)
			}
		}
		page.Scratch, j.pages[k].Scratch = nil, nil
	}
	for _, sc := range j.sc {
		sc.release()
	}
	j.sc = nil
	w.written[j.top] += uint64(j.col.Len())
	return nil
}
