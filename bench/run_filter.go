package bench

import (
	"context"

	"fmt"
	"github.com/apache/arrow-go/v18/arrow"
	"os"
	"path/filepath"
	"time"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/expr"
	lanceio "github.com/lancego/lancego/io"
)

// Engine names of the filtered-scan workload: the same file read with zone
// pruning, and scanned whole then filtered (what a reader without zone
// statistics does).
const (
	EngineLanceGoPruned   = "lancego"
	EngineLanceGoUnpruned = "lancego-unpruned"
)

// filterSelectivity is the share of rows the filtered scan keeps.
const filterSelectivity = 0.01

// filter measures a selective filter on the sorted column of the table
// data set, with and without zone pruning, on a file our writer wrote with
// zone seeds (8,192 rows a zone).
func (r *runner) filter(ctx context.Context) error {
	d := r.data[TableDataset]
	path := filepath.Join(d.Dir, d.Name+".zones.lance")
	if err := writeWithSeeds(ctx, d, path); err != nil {
		r.res.NotAvailable["scan_filtered"] = "writing the seeded file failed: " + err.Error()
		return nil
	}
	lo := int64(float64(d.Rows) * 0.5)
	hi := lo + int64(float64(d.Rows)*filterSelectivity)
	expr := fmt.Sprintf("i64_sorted >= %d AND i64_sorted < %d", lo, hi)
	wl := "scan_filtered/" + TableDataset
	for _, e := range []struct {
		engine string
		prune  bool
	}{{EngineLanceGoPruned, true}, {EngineLanceGoUnpruned, false}} {
		m, err := filteredScan(ctx, path, expr, e.prune, r.cfg.reps())
		if err != nil {
			return fmt.Errorf("%s %s: %w", wl, e.engine, err)
		}
		r.res.put(wl, e.engine, m)
	}
	r.logf("%s (%s): %s", wl, expr, r.res.line(wl))
	return nil
}

func writeWithSeeds(ctx context.Context, d *Dataset, path string) error {
	if _, err := os.Stat(path); err == nil {
		return nil // cached from an earlier run
	}
	recs, err := LoadRecords(d)
	if err != nil {
		return err
	}
	defer ReleaseAll(recs)
	w, err := lance.Create(ctx, path, Schema(d.Name), lance.WithZoneSeeds(0))
	if err != nil {
		return err
	}
	for _, rec := range recs {
		if err := w.Write(ctx, rec); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close(ctx)
}

// filteredScan reads every column of the rows matching expr: with zone
// pruning, or by scanning everything and filtering with the same predicate.
func filteredScan(ctx context.Context, path, filter string, prune bool, reps int) (Measure, error) {
	best := Measure{Seconds: -1}
	for range reps {
		m, err := filteredScanOnce(ctx, path, filter, prune)
		if err != nil {
			return m, err
		}
		if best.Seconds < 0 || m.Seconds < best.Seconds {
			best = m
		}
	}
	return best, nil
}

func filteredScanOnce(ctx context.Context, path, filter string, prune bool) (Measure, error) {
	e, err := expr.Parse(filter)
	if err != nil {
		return Measure{}, err
	}
	t0 := time.Now()
	f, err := lance.Open(ctx, path, lance.WithIOConfig(lanceio.Config{Stats: lanceio.NewStats()}))
	if err != nil {
		return Measure{}, err
	}
	defer f.Close()
	opts := lance.ScanOptions{Filter: e}
	var pred *expr.Predicate
	if !prune {
		opts.Filter = nil
		if pred, err = expr.Bind(e, f.Schema()); err != nil {
			return Measure{}, err
		}
	}
	rows := 0
	for rec, err := range f.Batches(ctx, opts) {
		if err != nil {
			return Measure{}, err
		}
		rows += countSelected(pred, rec)
		rec.Release()
	}
	s := f.Stats()
	return Measure{Seconds: time.Since(t0).Seconds(), Rows: rows, Requests: float64(s.Requests), BytesRead: float64(s.BytesRead)}.fill(0), nil
}

// countSelected counts the rows of rec the predicate keeps (all rows when
// pred is nil: the scan already filtered).
func countSelected(pred *expr.Predicate, rec arrow.RecordBatch) int {
	if pred == nil {
		return int(rec.NumRows())
	}
	sel, err := pred.Evaluate(rec)
	if err != nil {
		return 0
	}
	n := 0
	for _, s := range sel {
		if s {
			n++
		}
	}
	return n
}
