package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// WriteJSON prints the results as one JSON object.
func (r *Results) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteDir writes results.json, results.md and ratios.png into dir.
func (r *Results) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "results.json"))
	if err != nil {
		return err
	}
	if err := r.WriteJSON(f); err != nil {
		f.Close()
		return err
	}
	f.Close()
	var md strings.Builder
	r.WriteMarkdown(&md)
	if err := os.WriteFile(filepath.Join(dir, "results.md"), []byte(md.String()), 0o644); err != nil {
		return err
	}
	return r.WriteChart(filepath.Join(dir, "ratios.png"))
}

// WriteMarkdown writes the tables of a run.
func (r *Results) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "# lancego benchmark results\n\n")
	fmt.Fprintf(w, "%d CPUs, GOMAXPROCS %d, %s; single-goroutine memcpy %.2f GB/s; quick=%v; no-mmap=%v; no-signed-reads=%v; take files locked in memory=%v; %.0f s.\n\n",
		r.Machine.CPUs, r.Machine.GOMAXPROCS, r.Machine.GoVersion, r.Machine.MemcpyGBps, r.Quick, r.NoMmap, r.NoSigned, r.PinnedTakes, r.ElapsedSeconds)
	for _, name := range []string{TableDataset, VectorDataset} {
		if d, ok := r.Datasets[name]; ok {
			fmt.Fprintf(w, "* `%s`: %d rows, columns %s\n", name, d.Rows, strings.Join(d.Columns, ", "))
		}
	}
	fmt.Fprintf(w, "\nTime is best of runs (scan) or median (write, after warm-up writes; take, open). Ratio = lancego speed / peer speed"+
		" (>1: lancego faster). Files: pylance 14.0.2 wrote the Lance files all readers read (v2.1); pqarrow wrote the Parquet file.\n\n")
	r.localTable(w)
	r.writeTable(w)
	r.s3Table(w)
	r.s3CPUTable(w)
	r.datasetTable(w)
	r.targetTable(w)
	if len(r.NotAvailable) > 0 || len(r.Errors) > 0 {
		fmt.Fprintf(w, "\n## Not measured\n\n")
		keys := sortedKeys(r.NotAvailable)
		for _, k := range keys {
			fmt.Fprintf(w, "* `%s`: %s\n", k, r.NotAvailable[k])
		}
		for _, e := range r.Errors {
			fmt.Fprintf(w, "* error: %s\n", e)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func cell(m Measure, ok bool) string {
	switch {
	case !ok:
		return "–"
	case m.RowsPerSec > 0 && m.GBPerSec > 0:
		return fmt.Sprintf("%.3g ms · %.3gM rows/s · %.2f GB/s", m.Seconds*1e3, m.RowsPerSec/1e6, m.GBPerSec)
	case m.RowsPerSec > 0:
		return fmt.Sprintf("%.3g ms · %.3gM rows/s", m.Seconds*1e3, m.RowsPerSec/1e6)
	case m.FileBytes > 0:
		return fmt.Sprintf("%.3g ms · %.1f MB", m.Seconds*1e3, float64(m.FileBytes)/1e6)
	}
	return fmt.Sprintf("%.3g ms", m.Seconds*1e3)
}

func ratioCell(v float64, ok bool) string {
	if !ok || v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2fx", v)
}

func (r *Results) localTable(w io.Writer) {
	fmt.Fprintf(w, "## Local files (warm OS page cache)\n\n")
	fmt.Fprintf(w, "| workload | lancego | pylance | pqarrow | pyarrow | vs pylance | vs pqarrow | vs pyarrow |\n|---|---|---|---|---|---|---|---|\n")
	for _, wl := range r.workloads() {
		if strings.HasPrefix(wl, "s3/") || strings.HasPrefix(wl, "memory/") || isDatasetWorkload(wl) {
			continue
		}
		f := r.Figures[wl]
		row := []string{"`" + wl + "`"}
		for _, e := range []string{EngineLanceGo, EnginePylance, EnginePqarrow, EnginePyarrow} {
			m, ok := f[e]
			row = append(row, cell(m, ok))
		}
		for _, rs := range []map[string]float64{r.RatiosVsLance, r.RatiosVsPqarrow, r.RatiosVsPyarrow} {
			v, ok := rs[wl]
			row = append(row, ratioCell(v, ok))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
}

func (r *Results) s3Table(w io.Writer) {
	if r.S3 == nil {
		return
	}
	fmt.Fprintf(w, "\n## S3-compatible server (versitygw) behind the proxy: %.0f ms first-byte latency, %.0f MB/s shared link\n\n",
		r.S3.LatencyMs, r.S3.BandwidthMBps)
	fmt.Fprintf(w, "Requests and bytes per run counted at the proxy for both readers, and our round trips (the longest "+
		"chain of requests that waited for another's answer, from File.Stats). Lower bound: bytes needed "+
		"(takes: mini-block chunks / full-zip rows touched, warm metadata; scans: every page buffer of the column; open: the "+
		"metadata region) in one request per contiguous run, time = latency + bytes / bandwidth. Harness bound: the least "+
		"time on this machine over every choice of gaps to read, with the server's CPU per request after the latency "+
		"(harness.go; %s); ceiling = pylance's time / the harness bound, the most any reader can gain over pylance here.\n\n",
		r.harnessNote())
	fmt.Fprintf(w, "| workload | lancego | pylance | vs pylance | lancego req · MB · round trips | pylance req · MB | bound req · MB · ms | lancego / bound time | harness bound ms | ceiling |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, wl := range r.workloads() {
		if !strings.HasPrefix(wl, "s3/") || isDatasetWorkload(wl) {
			continue
		}
		f, b := r.Figures[wl], r.Bounds[wl]
		ours, ok1 := f[EngineLanceGo]
		theirs, ok2 := f[EnginePylance]
		v, okr := r.RatiosVsLance[wl]
		c := r.Ceiling(wl)
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s | %d · %.3f · %.1f | %s | %s | %s |\n", wl, cell(ours, ok1), cell(theirs, ok2),
			ratioCell(v, okr), ioCell(ours, ok1), ioCell(theirs, ok2), b.Requests, float64(b.Bytes)/1e6, b.Seconds*1e3,
			ratioCell(ratio(ours.Seconds, b.Seconds), ok1), harnessCell(b), ratioCell(c, c > 0))
	}
}

// datasetTable lists the dataset workloads (issue #20), locally and
// behind the proxy, with the requests of one run of each reader.
func (r *Results) datasetTable(w io.Writer) {
	var rows []string
	for _, wl := range r.workloads() {
		if !isDatasetWorkload(wl) {
			continue
		}
		ours, ok1 := r.Figures[wl][EngineLanceGo]
		theirs, ok2 := r.Figures[wl][EnginePylance]
		v, okr := r.RatiosVsLance[wl]
		c := r.Ceiling(wl)
		rows = append(rows, fmt.Sprintf("| `%s` | %s | %s | %s | %s / %s | %s | %s |", wl, cell(ours, ok1), cell(theirs, ok2),
			ratioCell(v, okr), reqCell(ours, ok1), reqCell(theirs, ok2), harnessCell(r.Bounds[wl]), ratioCell(c, c > 0)))
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Datasets (pylance-written, fragments with deletion files; `s3/` behind the same proxy)\n\n"+
		"Ratio = pylance time / ours. Requests of one run: our Stats locally, the proxy's count on S3 (both readers). "+
		"Harness bound and ceiling as for the files above, where the bench bounds the workload (the S3 scan: "+
		"every page of every data file, warm).\n\n")
	fmt.Fprintf(w, "| workload | lancego | pylance | vs pylance | requests ours / pylance | harness bound ms | ceiling |\n"+
		"|---|---|---|---|---|---|---|\n%s\n", strings.Join(rows, "\n"))
}

func reqCell(m Measure, ok bool) string {
	if !ok || m.Requests < 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f", m.Requests)
}

// s3CPUTable lists the CPU per request of the S3 takes: each reader's
// process, and the proxy's and the server's while that reader ran.
func (r *Results) s3CPUTable(w io.Writer) {
	var rows []string
	for _, wl := range r.workloads() {
		if !strings.HasPrefix(wl, "s3/take/") {
			continue
		}
		ours, theirs := r.Figures[wl][EngineLanceGo], r.Figures[wl][EnginePylance]
		if ours.ClientCPUms == 0 && theirs.ClientCPUms == 0 {
			continue
		}
		rows = append(rows, fmt.Sprintf("| `%s` | %s | %s |", wl, cpuCell(ours), cpuCell(theirs)))
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nCPU per request of the S3 takes, ms: the reader's process · the proxy · the S3 server "+
		"(the proxy runs in its own process; – where not measured). The three share this machine's cores.\n\n")
	fmt.Fprintf(w, "| workload | lancego | pylance |\n|---|---|---|\n%s\n", strings.Join(rows, "\n"))
}

func cpuCell(m Measure) string {
	f := func(v float64) string {
		if v <= 0 {
			return "–"
		}
		return fmt.Sprintf("%.3f", v)
	}
	return f(m.ClientCPUms) + " · " + f(m.ProxyCPUms) + " · " + f(m.ServerCPUms)
}

func ioCell(m Measure, ok bool) string {
	if !ok {
		return "–"
	}
	s := fmt.Sprintf("%.1f · %.3f", m.Requests, m.BytesRead/1e6)
	if m.RoundTrips > 0 {
		s += fmt.Sprintf(" · %.1f", m.RoundTrips)
	}
	if m.ColdRoundTrips > 0 {
		s += fmt.Sprintf(" (cold %.0f)", m.ColdRoundTrips)
	}
	return s
}

func (r *Results) targetTable(w io.Writer) {
	fmt.Fprintf(w, "\n## Targets\n\n| target | want | value | met | note |\n|---|---|---|---|---|\n")
	for _, t := range r.Targets {
		met := "no"
		if t.Met {
			met = "yes"
		}
		fmt.Fprintf(w, "| %s | %s | %.3g | %s | %s |\n", t.Name, t.Want, t.Value, met, t.Note)
	}
}

// WriteChart draws the ratio vs pylance of every workload as bars.
func (r *Results) WriteChart(path string) error {
	keys := r.chartKeys()
	if len(keys) == 0 {
		return nil
	}
	vals := make(plotter.Values, len(keys))
	for i, k := range keys {
		vals[i] = r.RatiosVsLance[k]
	}
	p := plot.New()
	p.Title.Text = "lancego speed / pylance speed (>1: lancego faster)"
	p.Y.Label.Text = "ratio"
	bars, err := plotter.NewBarChart(vals, vg.Points(10))
	if err != nil {
		return err
	}
	p.Add(bars)
	one, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 1}, {X: float64(len(keys)) - 0.5, Y: 1}})
	if err != nil {
		return err
	}
	p.Add(one)
	p.NominalX(keys...)
	p.X.Tick.Label.Rotation = 1.2
	p.X.Tick.Label.XAlign = -1
	p.X.Tick.Label.YAlign = -0.5
	return p.Save(vg.Length(14)*vg.Inch, 7*vg.Inch, path)
}

func (r *Results) chartKeys() []string {
	var out []string
	for _, k := range sortedKeys(r.RatiosVsLance) {
		if strings.Contains(k, "/") && r.RatiosVsLance[k] > 0 {
			out = append(out, k)
		}
	}
	return out
}

// writeTable is the write step's spread and its fsync-free round.
func (r *Results) writeTable(w io.Writer) {
	var rows []string
	for _, wl := range r.workloads() {
		f := r.Figures[wl]
		o, ok1 := f[EngineLanceGo]
		p, ok2 := f[EnginePylance]
		if !strings.HasPrefix(wl, "write/") || !ok1 || !ok2 || o.Runs == 0 {
			continue
		}
		row := fmt.Sprintf("| `%s` | %s | %s | %s | %s | %s |", wl, spreadCell(o), spreadCell(p),
			ratioCell(p.Seconds/o.Seconds, true), tmpfsCell(o, p), fsyncCell(o))
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Writes in steady state (median of alternating rounds after warm-up writes)\n\n")
	fmt.Fprintf(w, "| workload | lancego median (min–max, runs) | pylance median (min–max, runs) | ratio | on tmpfs: lancego / pylance, ratio | our fsync cost |\n|---|---|---|---|---|---|\n")
	for _, row := range rows {
		fmt.Fprintln(w, row)
	}
}

func spreadCell(m Measure) string {
	return fmt.Sprintf("%.3g s (%.3g–%.3g, %d)", m.Seconds, m.MinSeconds, m.MaxSeconds, m.Runs)
}

func tmpfsCell(o, p Measure) string {
	if o.TmpfsSeconds == 0 || p.TmpfsSeconds == 0 {
		return "–"
	}
	return fmt.Sprintf("%.3g / %.3g s, %.2fx", o.TmpfsSeconds, p.TmpfsSeconds, p.TmpfsSeconds/o.TmpfsSeconds)
}

// fsyncCell is what our disk write costs over the tmpfs one (fsync of the
// file and folder, which pylance does not do), as a share of the median.
func fsyncCell(o Measure) string {
	if o.SyncedSeconds > 0 {
		d := o.SyncedSeconds - o.Seconds
		return fmt.Sprintf("%.3g s (synced %.3g s)", d, o.SyncedSeconds)
	}
	if o.TmpfsSeconds == 0 {
		return "–"
	}
	d := o.Seconds - o.TmpfsSeconds
	if d <= 0 {
		return fmt.Sprintf("none measurable (%.3g s)", d)
	}
	return fmt.Sprintf("%.3g s (%.0f%%)", d, 100*d/o.Seconds)
}

// harnessNote says what CPU per request the harness bounds assume.
func (r *Results) harnessNote() string {
	if r.S3 == nil || r.S3.HarnessServerCPUms <= 0 {
		return "no CPU per request measured: the link alone"
	}
	return fmt.Sprintf("server %.3f and proxy %.3f ms per request on %d cores, the least measured",
		r.S3.HarnessServerCPUms, r.S3.HarnessProxyCPUms, r.S3.Cores)
}

func harnessCell(b BoundFig) string {
	if b.HarnessSeconds <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", b.HarnessSeconds*1e3)
}
