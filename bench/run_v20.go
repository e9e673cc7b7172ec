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
	return r.versionReads(ctx, "v20", path, d.Columns, d.ArrowBytes, d.Rows)
}
