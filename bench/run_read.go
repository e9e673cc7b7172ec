package bench

import (
	"context"
	"fmt"
	"runtime/debug"

	lance "github.com/lancego/lancego"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/scheduler"
	"github.com/lancego/lancego/searchcache"
)

// ioConfig is the object-access configuration of our reader in every run.
func (r *runner) ioConfig() lanceio.Config {
	return lanceio.Config{NoMmap: r.cfg.NoMmap, NoSignedReads: r.cfg.NoSignedReads}
}

// scans runs the full scan of every column with every engine.
func (r *runner) scans(ctx context.Context) error {
	for _, name := range []string{TableDataset, VectorDataset} {
		d := r.data[name]
		pl, pa, err := r.peerScans(ctx, d)
		if err != nil {
			return err
		}
		for _, c := range d.Columns {
			wl := fmt.Sprintf("scan/%s/%s", name, c)
			dec := d.ArrowBytes[c]
			m, err := OursScan(ctx, ScanSpec{URL: d.LancePath(), Column: c, BatchSize: ScanBatchSize, Repeat: r.cfg.scanRepeat(), Warmups: ScanWarmups, IO: r.ioConfig(), Options: r.ours()})
			if err != nil {
				return fmt.Errorf("%s: %w", wl, err)
			}
			r.res.put(wl, EngineLanceGo, m.fill(dec))
			if v, ok := pl[c]; ok {
				r.res.put(wl, EnginePylance, Measure{Seconds: v.Seconds, Rows: v.Rows}.fill(dec))
			}
			if v, ok := pa[c]; ok {
				r.res.put(wl, EnginePyarrow, Measure{Seconds: v.Seconds, Rows: v.Rows}.fill(dec))
			}
			pq, err := PqarrowScan(ctx, d.ParquetPath(), c, ScanBatchSize, ScanWarmups, r.cfg.scanRepeat())
			if err != nil {
				return fmt.Errorf("%s parquet: %w", wl, err)
			}
			r.res.put(wl, EnginePqarrow, pq.fill(dec))
			r.logf("%s: %s", wl, r.res.line(wl))
		}
	}
	return nil
}

// peerScans runs pylance's and pyarrow's scans of every column of d.
func (r *runner) peerScans(ctx context.Context, d *Dataset) (pyScan, pyScan, error) {
	if r.py == nil {
		return nil, nil, nil
	}
	base := r.cfg.scanRepeat().op(PyOp{"columns": d.Columns, "batch_size": ScanBatchSize, "warmups": ScanWarmups})
	lop, pop := clone(base), clone(base)
	lop["op"], lop["path"] = "scan", d.LancePath()
	pop["op"], pop["path"] = "pq_scan", d.ParquetPath()
	res, err := r.py.Run(ctx, nil, lop, pop)
	if err != nil {
		return nil, nil, err
	}
	var pl, pa pyScan
	if err := unmarshal(res[0], &pl); err != nil {
		return nil, nil, err
	}
	return pl, pa, unmarshal(res[1], &pa)
}

func clone(op PyOp) PyOp {
	out := PyOp{}
	for k, v := range op {
		out[k] = v
	}
	return out
}

// warmFiles warms the page cache for each path (see warmPageCache).
func warmFiles(paths ...string) error {
	for _, p := range paths {
		if err := warmPageCache(p); err != nil {
			return err
		}
	}
	return nil
}

// takes runs random takes of 1, 100 and 10,000 rows (all columns).
func (r *runner) takes(ctx context.Context) error {
	for _, name := range []string{TableDataset, VectorDataset} {
		d := r.data[name]
		for _, k := range takeSizes {
			if k > d.Rows {
				continue
			}
			wl := fmt.Sprintf("take/%s/%d", name, k)
			sets := IndexSets(d.Rows, k, r.cfg.takeSets(k), r.cfg.Seed+uint64(k))
			warm := IndexSets(d.Rows, k, 1, r.cfg.Seed+1000+uint64(k))[0]
			if err := r.takeAll(ctx, wl, d, warm, sets); err != nil {
				return err
			}
			r.logf("%s: %s", wl, r.res.line(wl))
		}
	}
	return nil
}

func (r *runner) takeAll(ctx context.Context, wl string, d *Dataset, warm []uint64, sets [][]uint64) error {
	unpin, pinned, err := pinFiles(d.LancePath(), d.ParquetPath())
	if err != nil {
		return err
	}
	defer unpin()
	r.res.PinnedTakes = pinned
	m, err := OursTake(ctx, ScanSpec{URL: d.LancePath(), IO: r.ioConfig(), Options: r.ours()}, warm, sets)
	if err != nil {
		return fmt.Errorf("%s: %w", wl, err)
	}
	r.res.put(wl, EngineLanceGo, m)
	pqSets := sets[:min(len(sets), 3)] // Parquet reads whole row groups: a few sets suffice
	pq, err := PqarrowTake(ctx, d.ParquetPath(), pqSets)
	if err != nil {
		return fmt.Errorf("%s parquet: %w", wl, err)
	}
	r.res.put(wl, EnginePqarrow, pq)
	if r.py == nil {
		return nil
	}
	if !pinned {
		if err := warmFiles(d.LancePath(), d.ParquetPath()); err != nil {
			return err
		}
	}
	lop := PyOp{"op": "take", "path": d.LancePath(), "warmup": warm, "index_sets": sets}
	pop := PyOp{"op": "pq_take", "path": d.ParquetPath(), "index_sets": pqSets}
	res, err := r.py.Run(ctx, nil, lop, pop)
	if err != nil {
		return err
	}
	var lt, pt pyTimes
	if err := unmarshal(res[0], &lt); err != nil {
		return err
	}
	if err := unmarshal(res[1], &pt); err != nil {
		return err
	}
	r.res.put(wl, EnginePylance, fromTimes(lt.Seconds, len(sets[0])))
	r.res.put(wl, EnginePyarrow, fromTimes(pt.Seconds, len(pqSets[0])))
	return nil
}

// Memory check configuration: bytes in flight and search-cache bound.
const (
	memInFlight = 64 << 20
	memCache    = 16 << 20
)

// memory scans the largest columns with a bounded scheduler and cache and
// records the peak heap against in-flight + two batches + cache. The
// garbage collector runs at GOGC=10 meanwhile (this benchmark process only),
// so the sampled heap is what the scan holds plus at most ~10% not yet
// collected, rather than the default pacer's up-to-2x slack.
func (r *runner) memory(ctx context.Context) error {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	for _, wl := range [][2]string{{TableDataset, "str_long"}, {VectorDataset, "emb"}} {
		d := r.data[wl[0]]
		sc := scheduler.LocalConfig(nil)
		sc.MaxInFlightBytes = memInFlight
		opts := []lance.Option{lance.WithSchedulerConfig(sc), lance.WithCache(searchcache.New(searchcache.Config{MaxBytes: memCache}))}
		h := startHeapSampler()
		m, err := OursScan(ctx, ScanSpec{URL: d.LancePath(), Column: wl[1], BatchSize: ScanBatchSize, Reps: 1, IO: r.ioConfig(), Options: opts})
		peak := h.Stop()
		if err != nil {
			return err
		}
		m.PeakHeapBytes = peak
		name := "memory/" + wl[0] + "/" + wl[1]
		r.res.put(name, EngineLanceGo, m.fill(d.ArrowBytes[wl[1]]))
		batch := d.ArrowBytes[wl[1]] * ScanBatchSize / int64(d.Rows)
		r.res.MemoryBounds[name] = memInFlight + memCache + 2*batch
		r.logf("%s: peak heap %.1f MiB, bound %.1f MiB", name, mib(peak), mib(r.res.MemoryBounds[name]))
	}
	return nil
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }
