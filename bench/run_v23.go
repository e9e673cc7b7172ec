package bench

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
)

// The v23 step (issue "Lance 2.3: read and write the planar layout"):
// scans and takes of 2.3 planar files written by pylance 14.0.2, with our
// reader and pylance on the same files: the table data set (dense pages),
// and bench/planar/gen.py's 1M-row file of sparse int64 at 50% and 99.9%
// nulls, dense int64 at 50% and sparse dictionary strings; and a
// 10,000-row take of each column of both files alone.

// planarBenchColumns are the columns of bench/planar/gen.py's file.
var planarBenchColumns = []string{"i64_dense50", "i64_sparse50", "i64_sparse999", "str_sparse50"}

// v23 runs the v23 step.
func (r *runner) v23(ctx context.Context) error {
	if r.py == nil {
		return ErrNoPython
	}
	d := r.data[TableDataset]
	table := filepath.Join(d.Dir, d.Name+".pylance23.lance")
	op := PyOp{"op": "write", "ipc": d.IPCPath(), "out": table, "version": "2.3"}
	if err := r.py.RunOne(ctx, nil, op, &pyWrite{}); err != nil {
		return fmt.Errorf("pylance 2.3 write: %w", err)
	}
	if err := r.versionReads(ctx, "v23", table, d.Columns, d.ArrowBytes, d.Rows); err != nil {
		return err
	}
	if err := r.v23ColumnTakes(ctx, "v23", table, d.Columns, d.Rows); err != nil {
		return err
	}
	sparse := filepath.Join(d.Dir, "planar_sparse.pylance23.lance")
	gen := filepath.Join(r.cfg.RepoDir, "bench", "planar", "gen.py")
	if out, err := exec.CommandContext(ctx, r.py.Exe, gen, sparse).CombinedOutput(); err != nil {
		return fmt.Errorf("bench/planar/gen.py: %w: %s", err, out)
	}
	if err := r.versionReads(ctx, "v23sparse", sparse, planarBenchColumns, nil, 1_000_000); err != nil {
		return err
	}
	return r.v23ColumnTakes(ctx, "v23sparse", sparse, planarBenchColumns, 1_000_000)
}

// v23ColumnTakes takes 10,000 random rows of each column alone, ours and
// pylance's, under tag/takecol/COLUMN (the take goal, 2x pylance,
// per column; the takecol step does the same on the 2.1 file).
func (r *runner) v23ColumnTakes(ctx context.Context, tag, path string, cols []string, rows int) error {
	for _, c := range cols {
		if err := r.columnTake(ctx, tag+"/takecol/"+c, path, c, rows, 10000); err != nil {
			return err
		}
	}
	return nil
}

// versionReads scans each column of the file at path and takes 1 and 100
// random rows (all columns) with our reader and pylance, under workload
// names tag/scan/COLUMN and tag/take/K. decoded gives each column's Arrow
// size for GB/s (nil: not reported).
func (r *runner) versionReads(ctx context.Context, tag, path string, cols []string, decoded map[string]int64, rows int) error {
	if err := warmFiles(path); err != nil {
		return err
	}
	sop := r.cfg.scanRepeat().op(PyOp{"op": "scan", "path": path, "columns": cols, "batch_size": ScanBatchSize, "warmups": ScanWarmups})
	var pl pyScan
	if err := r.py.RunOne(ctx, nil, sop, &pl); err != nil {
		return fmt.Errorf("%s pylance scan: %w", tag, err)
	}
	for _, c := range cols {
		wl := tag + "/scan/" + c
		m, err := OursScan(ctx, ScanSpec{URL: path, Column: c, BatchSize: ScanBatchSize, Repeat: r.cfg.scanRepeat(), Warmups: ScanWarmups, IO: r.ioConfig(), Options: r.ours()})
		if err != nil {
			return fmt.Errorf("%s: %w", wl, err)
		}
		r.res.put(wl, EngineLanceGo, m.fill(decoded[c]))
		if v, ok := pl[c]; ok {
			r.res.put(wl, EnginePylance, Measure{Seconds: v.Seconds, Rows: v.Rows}.fill(decoded[c]))
		}
		r.logf("%s: %s", wl, r.res.line(wl))
	}
	for _, k := range []int{1, 100} {
		wl := fmt.Sprintf("%s/take/%d", tag, k)
		sets := IndexSets(rows, k, r.cfg.takeSets(k), r.cfg.Seed+uint64(k))
		warm := IndexSets(rows, k, 1, r.cfg.Seed+1000+uint64(k))[0]
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
