package bench

import (
	"context"
	"os"
	"path/filepath"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
)

// The write step (issue #19 item 7): steady-state writer throughput. Each
// engine writes a data set a few times untimed first (pylance's first one
// or two writes in a process are 2-3x slower than its later ones), then
// the engines alternate for writeRounds timed rounds; the figure is the
// median with the spread beside it. One more round writes to a tmpfs
// folder, where fsync is free: our writer fsyncs the file and its folder
// before Close returns, pylance does not, and the difference between the
// two folders is what that durability costs.

// writeRounds is how many alternating timed rounds the write step runs.
func (c *Config) writeRounds() int { return map[bool]int{true: 2, false: 5}[c.Quick] }

// writeWarmups is how many untimed writes each engine makes first (per
// pylance process: every round is a process of its own).
func (c *Config) writeWarmups() int { return map[bool]int{true: 1, false: 2}[c.Quick] }

// tmpfsDir is where the fsync-free round writes ("" when there is none).
const tmpfsDir = "/dev/shm"

// writes writes each data set with pylance (the files every reader then
// reads), our writer and pqarrow.
func (r *runner) writes(ctx context.Context) error {
	if r.py == nil {
		return ErrNoPython
	}
	for _, name := range []string{TableDataset, VectorDataset} {
		if err := r.writeDataset(ctx, r.data[name]); err != nil {
			return err
		}
	}
	return nil
}

// writeDataset times the writes of one data set at 2.1 (pylance's file
// is the one every reader then reads) and, for the table, at 2.2 too (the
// version pipelines write today).
func (r *runner) writeDataset(ctx context.Context, d *Dataset) error {
	recs, err := LoadRecords(d)
	if err != nil {
		return err
	}
	defer ReleaseAll(recs)
	wl := "write/" + d.Name
	if err := r.timeWrites(ctx, d, recs, wl, "2.1", d.LancePath(), d.GoLancePath()); err != nil {
		return err
	}
	m, err := WriteParquet(d)
	if err != nil {
		return err
	}
	r.res.put(wl, EnginePqarrow, m.fill(r.arrowTotal(d)))
	r.logf("%s: %s", wl, r.res.line(wl))
	if d.Name != TableDataset {
		return nil
	}
	wl22 := wl + "@2.2"
	py22, go22 := filepath.Join(d.Dir, d.Name+".pylance-2.2.lance"), filepath.Join(d.Dir, d.Name+".go-2.2.lance")
	defer os.Remove(py22)
	defer os.Remove(go22)
	if err := r.timeWrites(ctx, d, recs, wl22, "2.2", py22, go22); err != nil {
		return err
	}
	r.logf("%s: %s", wl22, r.res.line(wl22))
	return nil
}

// timeWrites runs the alternating rounds and the tmpfs round of one
// version and records both engines' figures under wl.
func (r *runner) timeWrites(ctx context.Context, d *Dataset, recs []arrow.RecordBatch, wl, version, pyOut, goOut string) error {
	var ours, theirs []float64
	var last Measure
	var pw pyWrite
	var err error
	for round := 0; round < r.cfg.writeRounds(); round++ {
		if pw, err = r.pyWrites(ctx, d, pyOut, version, 1); err != nil {
			return err
		}
		theirs = append(theirs, pw.Runs...)
		warm := 0
		if round == 0 {
			warm = r.cfg.writeWarmups()
		}
		if last, ours, err = r.oursWrites(ctx, d, recs, goOut, version, warm, ours); err != nil {
			r.res.NotAvailable[wl+"/"+EngineLanceGo] = err.Error()
			break
		}
	}
	pm := spreadMeasure(theirs, Measure{Rows: pw.Rows, FileBytes: pw.Bytes})
	om := spreadMeasure(ours, last)
	r.tmpfsRound(ctx, d, recs, version, &pm, &om)
	r.res.put(wl, EnginePylance, pm.fill(r.arrowTotal(d)))
	if len(ours) > 0 {
		r.res.put(wl, EngineLanceGo, om.fill(r.arrowTotal(d)))
	}
	return nil
}

// pyWrites runs pylance's warm-ups and reps timed writes of d to out in
// one process.
func (r *runner) pyWrites(ctx context.Context, d *Dataset, out, version string, reps int) (pyWrite, error) {
	var pw pyWrite
	op := PyOp{"op": "write", "ipc": d.IPCPath(), "out": out, "version": version,
		"warmups": r.cfg.writeWarmups(), "reps": reps}
	err := r.py.RunOne(ctx, nil, op, &pw)
	return pw, err
}

// oursWrites makes warm untimed writes then one timed write of recs to
// path and appends its time to times.
func (r *runner) oursWrites(ctx context.Context, d *Dataset, recs []arrow.RecordBatch, path, version string, warm int, times []float64) (Measure, []float64, error) {
	for i := 0; i < warm; i++ {
		if _, err := oursWriteRecords(ctx, d, recs, path, version); err != nil {
			return Measure{}, times, err
		}
	}
	m, err := oursWriteRecords(ctx, d, recs, path, version)
	if err != nil {
		return Measure{}, times, err
	}
	return m, append(times, m.Seconds), nil
}

// tmpfsRound writes d once more with each engine into tmpfs (after their
// warm-ups) and records the times; it skips without a tmpfs folder with
// room for both files.
func (r *runner) tmpfsRound(ctx context.Context, d *Dataset, recs []arrow.RecordBatch, version string, pm, om *Measure) {
	if !tmpfsHasRoom(3 * (pm.FileBytes + om.FileBytes)) {
		r.res.NotAvailable["write/"+d.Name+"/tmpfs"] = "no tmpfs folder with room at " + tmpfsDir
		return
	}
	dir, err := os.MkdirTemp(tmpfsDir, "lancego-bench-")
	if err != nil {
		return
	}
	defer os.RemoveAll(dir)
	if pw, err := r.pyWrites(ctx, d, filepath.Join(dir, "pylance.lance"), version, 3); err == nil {
		pm.TmpfsSeconds = medianOf(pw.Runs)
	}
	_, times, err := r.oursWrites(ctx, d, recs, filepath.Join(dir, "go.lance"), version, 1, nil)
	for i := 0; err == nil && i < 2; i++ {
		_, times, err = r.oursWrites(ctx, d, recs, filepath.Join(dir, "go.lance"), version, 0, times)
	}
	if err == nil {
		om.TmpfsSeconds = medianOf(times)
	}
}

// spreadMeasure is m with the median of times as Seconds and their spread.
func spreadMeasure(times []float64, m Measure) Measure {
	if len(times) == 0 {
		return m
	}
	s := append([]float64(nil), times...)
	sort.Float64s(s)
	m.Seconds, m.MinSeconds, m.MaxSeconds, m.Runs = median(s), s[0], s[len(s)-1], len(s)
	return m
}

// medianOf is the median of xs in any order (0 for none).
func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return median(s)
}
