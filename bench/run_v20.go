package bench

import (
	"context"
	"fmt"
	"path/filepath"
)

// v20Path is the table data set written by pylance as a Lance 2.0 file.
func v20Path(d *Dataset) string { return filepath.Join(d.Dir, d.Name+".pylance20.lance") }

// v20 scans every column of, and takes 1 and 100 random rows (all
// columns) from, the table data set written by pylance as a 2.0 file, with
// our reader and pylance: the 2.0 read path (layouts/v20) against real
// Lance on the same file. The file is written untimed.
func (r *runner) v20(ctx context.Context) error {
	if r.py == nil {
		return ErrNoPython
	}
	d := r.data[TableDataset]
	path := v20Path(d)
	op := PyOp{"op": "write", "ipc": d.IPCPath(), "out": path, "version": "2.0"}
	if err := r.py.RunOne(ctx, nil, op, &pyWrite{}); err != nil {
		return fmt.Errorf("pylance 2.0 write: %w", err)
	}
	if err := warmFiles(path); err != nil {
		return err
	}
	sop := r.cfg.scanRepeat().op(PyOp{"op": "scan", "path": path, "columns": d.Columns, "batch_size": ScanBatchSize, "warmups": ScanWarmups})
	var pl pyScan
	if err := r.py.RunOne(ctx, nil, sop, &pl); err != nil {
		return fmt.Errorf("pylance 2.0 scan: %w", err)
	}
	for _, c := range d.Columns {
		wl := "v20/scan/" + TableDataset + "/" + c
		m, err := OursScan(ctx, ScanSpec{URL: path, Column: c, BatchSize: ScanBatchSize, Repeat: r.cfg.scanRepeat(), Warmups: ScanWarmups, IO: r.ioConfig(), Options: r.ours()})
		if err != nil {
			return fmt.Errorf("%s: %w", wl, err)
		}
		dec := d.ArrowBytes[c]
		r.res.put(wl, EngineLanceGo, m.fill(dec))
		if v, ok := pl[c]; ok {
			r.res.put(wl, EnginePylance, Measure{Seconds: v.Seconds, Rows: v.Rows}.fill(dec))
		}
		r.logf("%s: %s", wl, r.res.line(wl))
	}
	for _, k := range []int{1, 100} {
		wl := fmt.Sprintf("v20/take/%s/%d", TableDataset, k)
		sets := IndexSets(d.Rows, k, r.cfg.takeSets(k), r.cfg.Seed+uint64(k))
		warm := IndexSets(d.Rows, k, 1, r.cfg.Seed+1000+uint64(k))[0]
		m, err := OursTake(ctx, ScanSpec{URL: path, IO: r.ioConfig(), Options: r.ours()}, warm, sets)
		if err != nil {
			return fmt.Errorf("%s: %w", wl, err)
		}
		r.res.put(wl, EngineLanceGo, m)
		var lt pyTimes
		if err := r.py.RunOne(ctx, nil, PyOp{"op": "take", "path": path, "warmup": warm, "index_sets": sets}, &lt); err != nil {
			return fmt.Errorf("%s pylance: %w", wl, err)
		}
		r.res.put(wl, EnginePylance, fromTimes(lt.Seconds, k))
		r.logf("%s: %s", wl, r.res.line(wl))
	}
	return nil
}
