package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// The dict and takecol steps (issue #19 items 4–6).
//
// dict: the DictDataset columns (8 and 2,000 distinct values, short and
// 300–700-byte strings), written by pylance at 2.1 and 2.2 (pylance picks
// dictionary pages for them; `lance inspect` shows them), scanned and
// taken (100 and 10,000 random rows, one column at a time) by our reader
// and pylance on the same files, plus our scan returning Arrow dictionary
// arrays (ScanOptions.Dictionary) under dict/VERSION/scandict/COLUMN.
//
// takecol: a 10,000-row random take of each column of the table data set
// alone, ours and pylance's, under takecol/table/COLUMN.

// dictVersions are the file versions the dict step has pylance write.
var dictVersions = []string{"2.1", "2.2"}

// dictTakeSizes are the take sizes of the dict step.
var dictTakeSizes = []int{100, 10000}

// dictPath is the DictDataset file pylance writes at version.
func dictPath(d *Dataset, version string) string {
	return filepath.Join(d.Dir, fmt.Sprintf("%s.pylance%s.lance", d.Name, version))
}

// dict runs the dict step.
func (r *runner) dict(ctx context.Context) error {
	if r.py == nil {
		return ErrNoPython
	}
	d, err := EnsureDataset(r.cfg.DataDir, DictDataset, r.cfg.Rows, r.cfg.Seed)
	if err != nil {
		return err
	}
	r.res.Datasets[DictDataset] = d
	for _, v := range dictVersions {
		path := dictPath(d, v)
		if _, err := os.Stat(path); err != nil {
			op := PyOp{"op": "write", "ipc": d.IPCPath(), "out": path, "version": v}
			if err := r.py.RunOne(ctx, nil, op, &pyWrite{}); err != nil {
				return fmt.Errorf("pylance %s write: %w", v, err)
			}
		}
		if err := r.dictReads(ctx, "dict/v"+v, path, d); err != nil {
			return err
		}
	}
	return nil
}

// dictReads scans and takes each column of the file at path.
func (r *runner) dictReads(ctx context.Context, tag, path string, d *Dataset) error {
	if err := warmFiles(path); err != nil {
		return err
	}
	sop := r.cfg.scanRepeat().op(PyOp{"op": "scan", "path": path, "columns": d.Columns, "batch_size": ScanBatchSize, "warmups": ScanWarmups})
	var pl pyScan
	if err := r.py.RunOne(ctx, nil, sop, &pl); err != nil {
		return fmt.Errorf("%s pylance scan: %w", tag, err)
	}
	for _, c := range d.Columns {
		for _, asDict := range []bool{false, true} {
			wl := tag + "/scan/" + c
			if asDict {
				wl = tag + "/scandict/" + c
			}
			m, err := OursScan(ctx, ScanSpec{URL: path, Column: c, BatchSize: ScanBatchSize, Repeat: r.cfg.scanRepeat(), Warmups: ScanWarmups,
				IO: r.ioConfig(), Options: r.ours(), Dictionary: asDict})
			if err != nil {
				return fmt.Errorf("%s: %w", wl, err)
			}
			r.res.put(wl, EngineLanceGo, m.fill(d.ArrowBytes[c]))
			if v, ok := pl[c]; ok {
				r.res.put(wl, EnginePylance, Measure{Seconds: v.Seconds, Rows: v.Rows}.fill(d.ArrowBytes[c]))
			}
			r.logf("%s: %s", wl, r.res.line(wl))
		}
		for _, k := range dictTakeSizes {
			if err := r.columnTake(ctx, fmt.Sprintf("%s/take/%s/%d", tag, c, k), path, c, d.Rows, k); err != nil {
				return err
			}
		}
	}
	return nil
}

// columnTake times random takes of k rows of column c alone, ours and
// pylance's, on the file at path (locked in memory meanwhile).
func (r *runner) columnTake(ctx context.Context, wl, path, c string, rows, k int) error {
	if k > rows {
		return nil
	}
	unpin, pinned, err := pinFiles(path)
	if err != nil {
		return err
	}
	defer unpin()
	sets := IndexSets(rows, k, r.cfg.takeSets(k), r.cfg.Seed+uint64(k))
	warm := IndexSets(rows, k, 1, r.cfg.Seed+1000+uint64(k))[0]
	m, err := OursTake(ctx, ScanSpec{URL: path, Column: c, IO: r.ioConfig(), Options: r.ours()}, warm, sets)
	if err != nil {
		return fmt.Errorf("%s: %w", wl, err)
	}
	r.res.put(wl, EngineLanceGo, m)
	if r.py != nil {
		if !pinned {
			if err := warmFiles(path); err != nil {
				return err
			}
		}
		var lt pyTimes
		op := PyOp{"op": "take", "path": path, "columns": []string{c}, "warmup": warm, "index_sets": sets}
		if err := r.py.RunOne(ctx, nil, op, &lt); err != nil {
			return fmt.Errorf("%s pylance: %w", wl, err)
		}
		r.res.put(wl, EnginePylance, fromTimes(lt.Seconds, k))
	}
	r.logf("%s: %s", wl, r.res.line(wl))
	return nil
}

// takecols runs the takecol step: a 10,000-row take of each table column.
func (r *runner) takecols(ctx context.Context) error {
	d := r.data[TableDataset]
	for _, c := range d.Columns {
		if err := r.columnTake(ctx, "takecol/table/"+c, d.LancePath(), c, d.Rows, 10000); err != nil {
			return err
		}
	}
	return nil
}
