package bench

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	lance "github.com/lancego/lancego"
	lanceio "github.com/lancego/lancego/io"
)

// ioCount is the requests, bytes and round trips a run cost, as our
// reader counted them.
type ioCount struct{ requests, bytes, roundTrips int64 }

// openOurs opens url with a fresh stats collector plus opts.
func openOurs(ctx context.Context, url string, ioc lanceio.Config, opts ...lance.Option) (*lance.File, *lanceio.Stats, error) {
	st := lanceio.NewStats()
	ioc.Stats = st
	f, err := lance.Open(ctx, url, append([]lance.Option{lance.WithIOConfig(ioc)}, opts...)...)
	return f, st, err
}

// OursOpen opens url reps times and returns the median latency and the
// requests of one open.
func OursOpen(ctx context.Context, url string, ioc lanceio.Config, reps int) (Measure, error) {
	var times []float64
	var req, byt, rt int64
	for range max(1, reps) {
		t0 := time.Now()
		f, st, err := openOurs(ctx, url, ioc)
		if err != nil {
			return Measure{}, err
		}
		times = append(times, time.Since(t0).Seconds())
		s := st.Snapshot()
		req, byt, rt = s.Requests, s.Bytes, f.Stats().RoundTrips
		f.Close()
	}
	m := fromTimes(times, 0)
	m.Requests, m.BytesRead, m.RoundTrips = float64(req), float64(byt), float64(rt)
	return m, nil
}

// ScanSpec is one full scan of one column.
type ScanSpec struct {
	URL       string
	Column    string
	BatchSize int
	// Reps is the number of timed runs; Repeat, when its Min is set,
	// replaces it.
	Reps   int
	Repeat Repeat
	// Warmups runs the scan this many times, untimed, before the timed
	// repetitions.
	Warmups int
	IO      lanceio.Config
	Options []lance.Option
	// Dictionary scans with ScanOptions.Dictionary (dictionary pages come
	// back as Arrow dictionary arrays, not expanded).
	Dictionary bool
	// Mark, if set, is called right before and after each timed run (the
	// object-store runs reset and read the proxy's counters there).
	Mark func(start bool)
}

func (s ScanSpec) mark(start bool) {
	if s.Mark != nil {
		s.Mark(start)
	}
}

// OursScan scans one column of a file (opened once per repetition, open
// not timed) and returns the fastest run.
func OursScan(ctx context.Context, s ScanSpec) (Measure, error) {
	var last ioCount
	var rows int
	best, err := timeBestOpen(ctx, s, func(f *lance.File) (int, error) {
		return drainScan(ctx, f, s)
	}, &rows, &last)
	if err != nil {
		return Measure{}, err
	}
	return Measure{Seconds: best, Rows: rows, Requests: float64(last.requests), BytesRead: float64(last.bytes),
		RoundTrips: float64(last.roundTrips)}, nil
}

// timeBestOpen opens the file for each repetition and times run alone,
// after s.Warmups untimed runs.
func timeBestOpen(ctx context.Context, s ScanSpec, run func(*lance.File) (int, error), rows *int, last *ioCount) (float64, error) {
	rep := s.Repeat
	if rep.Min == 0 {
		rep = Repeat{Min: s.Reps}
	}
	best, spent := math.Inf(1), 0.0
	for i := -s.Warmups; i < 0 || rep.more(i, spent); i++ {
		dt, err := timeOneOpen(ctx, s, run, rows, last)
		if err != nil {
			return 0, err
		}
		if i >= 0 {
			best, spent = min(best, dt), spent+dt
		}
	}
	return best, nil
}

// timeOneOpen opens the file and times one run on it.
func timeOneOpen(ctx context.Context, s ScanSpec, run func(*lance.File) (int, error), rows *int, last *ioCount) (float64, error) {
	f, st, err := openOurs(ctx, s.URL, s.IO, s.Options...)
	if err != nil {
		return 0, err
	}
	before, rt0 := st.Snapshot(), f.Stats().RoundTrips
	runtime.GC() // as testing.B does: no earlier run's garbage collected inside this one
	s.mark(true)
	t0 := time.Now()
	n, err := run(f)
	dt := time.Since(t0).Seconds()
	s.mark(false)
	after, rt1 := st.Snapshot(), f.Stats().RoundTrips
	f.Close()
	if err != nil {
		return 0, err
	}
	*rows = n
	*last = ioCount{after.Requests - before.Requests, after.Bytes - before.Bytes, rt1 - rt0}
	return dt, nil
}

func drainScan(ctx context.Context, f *lance.File, s ScanSpec) (int, error) {
	rows := 0
	for rec, err := range f.Batches(ctx, lance.ScanOptions{Columns: []string{s.Column}, BatchSize: s.BatchSize, Dictionary: s.Dictionary}) {
		if err != nil {
			return rows, err
		}
		rows += int(rec.NumRows())
		rec.Release()
	}
	if uint64(rows) != f.NumRows() {
		return rows, fmt.Errorf("scan of %s returned %d rows, want %d", s.Column, rows, f.NumRows())
	}
	return rows, nil
}

// OursTake opens s.URL once, takes warmup rows of s.Column (all columns
// if empty), then times each index set.
func OursTake(ctx context.Context, s ScanSpec, warmup []uint64, sets [][]uint64) (Measure, error) {
	f, st, err := openOurs(ctx, s.URL, s.IO, s.Options...)
	if err != nil {
		return Measure{}, err
	}
	defer f.Close()
	var columns []string
	if s.Column != "" {
		columns = []string{s.Column}
	}
	if err := takeOnce(ctx, f, warmup, columns); err != nil {
		return Measure{}, err
	}
	runtime.GC() // no earlier workload's garbage collected (or scavenged) while timing
	s.mark(true)
	defer s.mark(false)
	before, rt0 := st.Snapshot(), f.Stats().RoundTrips
	var times []float64
	for _, idx := range sets {
		t0 := time.Now()
		if err := takeOnce(ctx, f, idx, columns); err != nil {
			return Measure{}, err
		}
		times = append(times, time.Since(t0).Seconds())
	}
	after, rt1 := st.Snapshot(), f.Stats().RoundTrips
	m := fromTimes(times, len(sets[0]))
	m.RoundTrips = float64(rt1-rt0) / float64(len(sets))
	m.Requests = float64(after.Requests-before.Requests) / float64(len(sets))
	m.BytesRead = float64(after.Bytes-before.Bytes) / float64(len(sets))
	return m, nil
}

// OursColdTake opens s.URL and takes idx right away, before any page
// metadata is cached, and returns the round trips of the take alone.
func OursColdTake(ctx context.Context, s ScanSpec, idx []uint64) (int64, error) {
	f, _, err := openOurs(ctx, s.URL, s.IO, s.Options...)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var columns []string
	if s.Column != "" {
		columns = []string{s.Column}
	}
	rt0 := f.Stats().RoundTrips
	if err := takeOnce(ctx, f, idx, columns); err != nil {
		return 0, err
	}
	return f.Stats().RoundTrips - rt0, nil
}

func takeOnce(ctx context.Context, f *lance.File, idx []uint64, columns []string) error {
	rec, err := f.Take(ctx, idx, columns)
	if err != nil {
		return err
	}
	defer rec.Release()
	if int(rec.NumRows()) != len(idx) {
		return fmt.Errorf("take returned %d rows, want %d", rec.NumRows(), len(idx))
	}
	return nil
}

// OursWrite writes d's rows with our writer to d.GoLancePath and returns
// the time (Create to Close) and the file size.
func OursWrite(ctx context.Context, d *Dataset, version string) (Measure, error) {
	recs, err := LoadRecords(d)
	if err != nil {
		return Measure{}, err
	}
	defer ReleaseAll(recs)
	return oursWriteRecords(ctx, d, recs, d.GoLancePath(), version)
}

// oursWriteRecords times one write of recs (already in memory) to path,
// with the default Close (fsync).
func oursWriteRecords(ctx context.Context, d *Dataset, recs []arrow.RecordBatch, path, version string) (Measure, error) {
	m, err := oursWriteBatches(ctx, recs, Schema(d.Name), path, version, true)
	m.Rows = d.Rows
	return m, err
}

// oursWriteBatches times one write of recs to path (Create to Close).
func oursWriteBatches(ctx context.Context, recs []arrow.RecordBatch, schema *arrow.Schema, path, version string, sync bool) (Measure, error) {
	os.Remove(path)
	t0 := time.Now()
	w, err := lance.Create(ctx, path, schema, lance.WithFileVersion(version), lance.WithSync(sync))
	if err != nil {
		return Measure{}, err
	}
	for _, rec := range recs {
		if err := w.Write(ctx, rec); err != nil {
			w.Abort()
			return Measure{}, err
		}
	}
	if err := w.Close(ctx); err != nil {
		return Measure{}, err
	}
	dt := time.Since(t0).Seconds()
	fi, err := os.Stat(path)
	if err != nil {
		return Measure{}, err
	}
	return Measure{Seconds: dt, FileBytes: fi.Size()}, nil
}

// heapSampler records the peak live heap while it runs.
type heapSampler struct {
	base, peak atomic.Int64
	stop       chan struct{}
	wg         sync.WaitGroup
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func liveHeap() int64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// startHeapSampler starts sampling every millisecond after a GC.
func startHeapSampler() *heapSampler {
	runtime.GC()
	h := &heapSampler{stop: make(chan struct{})}
	h.base.Store(liveHeap())
	h.wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				if v := liveHeap(); v > h.peak.Load() {
					h.peak.Store(v)
				}
			}
		}
	})
	return h
}

// Stop ends sampling and returns the peak heap above the start.
func (h *heapSampler) Stop() int64 {
	close(h.stop)
	h.wg.Wait()
	return max(0, h.peak.Load()-h.base.Load())
}
