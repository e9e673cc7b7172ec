package bench

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSpreadMeasure checks the write step's median and spread.
func TestSpreadMeasure(t *testing.T) {
	for _, c := range []struct {
		times         []float64
		med, min, max float64
	}{
		{[]float64{3, 1, 2}, 2, 1, 3},
		{[]float64{4, 1, 2, 3}, 2.5, 1, 4},
		{[]float64{5}, 5, 5, 5},
	} {
		m := spreadMeasure(c.times, Measure{Rows: 7})
		if m.Seconds != c.med || m.MinSeconds != c.min || m.MaxSeconds != c.max || m.Runs != len(c.times) || m.Rows != 7 {
			t.Errorf("%v: got %+v", c.times, m)
		}
	}
	if m := spreadMeasure(nil, Measure{Seconds: 9}); m.Seconds != 9 || m.Runs != 0 {
		t.Errorf("no runs: %+v", m)
	}
}

// TestWriteTable checks the steady-state write table's cells, fsync cost
// among them.
func TestWriteTable(t *testing.T) {
	r := &Results{Figures: map[string]map[string]Measure{"write/table": {
		EngineLanceGo: {Seconds: 1, MinSeconds: 0.9, MaxSeconds: 1.2, Runs: 5, TmpfsSeconds: 0.75},
		EnginePylance: {Seconds: 2, MinSeconds: 1.8, MaxSeconds: 2.5, Runs: 5, TmpfsSeconds: 1.5},
	}}}
	var b strings.Builder
	r.writeTable(&b)
	for _, want := range []string{"| `write/table` | 1 s (0.9–1.2, 5) | 2 s (1.8–2.5, 5) | 2.00x | 0.75 / 1.5 s, 2.00x | 0.25 s (25%) |"} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("missing %q in\n%s", want, b.String())
		}
	}
}

// TestWriteColumnsSmall runs the writecols step on a 3,000-row columns
// data set: every column written alone by both engines at every version
// (the blob column not at 2.3), our files readable with both writers'
// sizes recorded, and the synced time beside the unsynced one.
func TestWriteColumnsSmall(t *testing.T) {
	py := pythonOrSkip(t)
	cfg := Config{Quick: true, Rows: 3000, Seed: 5, DataDir: t.TempDir()}
	cfg.defaults()
	r := &runner{cfg: cfg, res: newResults(cfg), py: py, start: time.Now(), data: map[string]*Dataset{}}
	if err := r.writeColumns(context.Background()); err != nil {
		t.Fatal(err)
	}
	d := r.res.Datasets[ColumnsDataset]
	for _, v := range writeColumnVersions {
		for _, c := range d.Columns {
			wl := "write/columns@" + v + "/" + c
			f, ok := r.res.Figures[wl]
			if v >= "2.3" && c == "blob" {
				if ok {
					t.Errorf("%s: timed, but LanceFileWriter does not write blob v1 at 2.3", wl)
				}
				continue
			}
			o, p := f[EngineLanceGo], f[EnginePylance]
			if o.Runs != 2 || p.Runs != 2 || o.FileBytes == 0 || p.FileBytes == 0 || o.SyncedSeconds == 0 {
				t.Errorf("%s: ours %+v, pylance %+v (notes %v)", wl, o, p, r.res.NotAvailable)
			}
			if o.FileBytes > p.FileBytes*21/20+1024 {
				t.Errorf("%s: our file is %d bytes, pylance's %d", wl, o.FileBytes, p.FileBytes)
			}
		}
	}
	var b strings.Builder
	r.res.writeTable(&b)
	if !strings.Contains(b.String(), "`write/columns@2.2/struct_i16_f64`") || !strings.Contains(b.String(), "(synced ") {
		t.Fatalf("write table lacks the column rows:\n%s", b.String())
	}
}
