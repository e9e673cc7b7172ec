package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The writecols step (issue #40 item 1): each column of ColumnsDataset
// written alone to a file of its own, at every file version, by our writer
// (lance.Create + Write + Close) and pylance's LanceFileWriter, in steady
// state. Every round runs pylance in a process of its own that writes each
// column writeWarmups times untimed and once timed, then our writer once
// per column without Close's fsync (WithSync(false), what LanceFileWriter
// does: the like-for-like time) and once with it (the default: the synced
// time, whose difference is what durability costs). Rounds alternate the
// engines; figures are medians with the spread, under
// write/columns@VERSION/COLUMN.

// writeColumnVersions are the file versions the writecols step writes.
var writeColumnVersions = []string{"2.1", "2.2", "2.3"}

// writeColumnRounds is how many alternating rounds writecols runs.
func (c *Config) writeColumnRounds() int { return map[bool]int{true: 2, false: 4}[c.Quick] }

// pyColumnWrites is the result of the write_columns op.
type pyColumnWrites map[string]struct {
	Runs  []float64 `json:"runs"`
	Bytes int64     `json:"bytes"`
}

// writeColumns runs the writecols step.
func (r *runner) writeColumns(ctx context.Context) error {
	if r.py == nil {
		return ErrNoPython
	}
	d, err := EnsureDataset(r.cfg.DataDir, ColumnsDataset, r.cfg.Rows, r.cfg.Seed)
	if err != nil {
		return err
	}
	r.res.Datasets[ColumnsDataset] = d
	recs, err := LoadRecords(d)
	if err != nil {
		return err
	}
	defer ReleaseAll(recs)
	for _, v := range writeColumnVersions {
		if err := r.timeColumnWrites(ctx, d, recs, v); err != nil {
			return err
		}
	}
	return nil
}

// columnTimes gathers one engine's runs of every column.
type columnTimes struct {
	runs, synced map[string][]float64
	bytes        map[string]int64
}

func newColumnTimes() *columnTimes {
	return &columnTimes{runs: map[string][]float64{}, synced: map[string][]float64{}, bytes: map[string]int64{}}
}

// writeColumnsAt returns the columns of d written at version: Lance 2.3
// files hold blobs only as Blob v2 descriptors, which LanceFileWriter
// does not make from a blob column, so the blob column is left out there.
func writeColumnsAt(d *Dataset, version string) []string {
	if version < "2.3" {
		return d.Columns
	}
	return slices.DeleteFunc(slices.Clone(d.Columns), func(c string) bool { return c == "blob" })
}

// timeColumnWrites times every column's write at one file version.
func (r *runner) timeColumnWrites(ctx context.Context, d *Dataset, recs []arrow.RecordBatch, version string) error {
	pyOut := filepath.Join(d.Dir, "column.pylance.lance")
	goOut := filepath.Join(d.Dir, "column.go.lance")
	defer os.Remove(goOut)
	py, ours := newColumnTimes(), newColumnTimes()
	cols := writeColumnsAt(d, version)
	for round := 0; round < r.cfg.writeColumnRounds(); round++ {
		var pw pyColumnWrites
		op := PyOp{"op": "write_columns", "ipc": d.IPCPath(), "out": pyOut, "version": version,
			"columns": cols, "warmups": r.cfg.writeWarmups(), "reps": 1}
		if err := r.py.RunOne(ctx, nil, op, &pw); err != nil {
			return fmt.Errorf("pylance %s column writes: %w", version, err)
		}
		for c, w := range pw {
			py.runs[c] = append(py.runs[c], w.Runs...)
			py.bytes[c] = w.Bytes
		}
		for _, c := range cols {
			ci := slices.Index(d.Columns, c)
			warm := 0
			if round == 0 {
				warm = r.cfg.writeWarmups()
			}
			if err := oursWriteColumn(ctx, recs, ci, goOut, version, warm, ours, c); err != nil {
				r.res.NotAvailable["write/columns@"+version+"/"+c+"/"+EngineLanceGo] = err.Error()
			}
		}
	}
	for _, c := range cols {
		wl := "write/columns@" + version + "/" + c
		rows := Measure{Rows: d.Rows}
		if len(py.runs[c]) > 0 {
			pm := spreadMeasure(py.runs[c], rows)
			pm.FileBytes = py.bytes[c]
			r.res.put(wl, EnginePylance, pm.fill(d.ArrowBytes[c]))
		}
		if len(ours.runs[c]) > 0 {
			om := spreadMeasure(ours.runs[c], rows)
			om.FileBytes, om.SyncedSeconds = ours.bytes[c], medianOf(ours.synced[c])
			r.res.put(wl, EngineLanceGo, om.fill(d.ArrowBytes[c]))
		}
		r.logf("%s: %s", wl, r.res.line(wl))
	}
	return nil
}

// oursWriteColumn writes column ci of recs alone to path: warm untimed
// writes, then one timed without Close's fsync and one with it.
func oursWriteColumn(ctx context.Context, recs []arrow.RecordBatch, ci int, path, version string, warm int, ct *columnTimes, name string) error {
	cols := make([]arrow.RecordBatch, len(recs))
	for i, rec := range recs {
		cols[i] = array.NewRecordBatch(arrow.NewSchema([]arrow.Field{rec.Schema().Field(ci)}, nil), []arrow.Array{rec.Column(ci)}, rec.NumRows())
	}
	defer ReleaseAll(cols)
	schema := cols[0].Schema()
	for i := 0; i < warm+2; i++ {
		sync := i == warm+1
		m, err := oursWriteBatches(ctx, cols, schema, path, version, sync)
		if err != nil {
			return err
		}
		switch {
		case i < warm:
		case sync:
			ct.synced[name] = append(ct.synced[name], m.Seconds)
		default:
			ct.runs[name] = append(ct.runs[name], m.Seconds)
			ct.bytes[name] = m.FileBytes
		}
	}
	return nil
}
