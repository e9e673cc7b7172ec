package bench

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	lance "github.com/lancego/lancego"
)

// benchDataset returns a table or vector data set with a Lance file:
// pylance's when Python is available, else our writer's. Data is cached
// under $LANCE_BENCH_DATA (default: a temp folder of this run).
func benchDataset(b *testing.B, name string, rows int) (*Dataset, string) {
	dir := os.Getenv("LANCE_BENCH_DATA")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "lancego-bench-b")
	}
	d, err := EnsureDataset(dir, name, rows, 42)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := os.Stat(d.LancePath()); err == nil {
		return d, d.LancePath()
	}
	if exe, err := FindPython(repoRoot(b)); err == nil {
		py, err := NewPython(exe, b.TempDir(), os.Stderr)
		if err == nil && py.RunOne(ctx, nil, PyOp{"op": "write", "ipc": d.IPCPath(), "out": d.LancePath(), "version": "2.1"}, &pyWrite{}) == nil {
			return d, d.LancePath()
		}
	}
	if _, err := OursWrite(ctx, d, "2.1"); err != nil {
		b.Fatal(err)
	}
	return d, d.GoLancePath()
}

// BenchmarkScan scans each column of the 1M-row table and the 200k-row
// embeddings (reports rows/s and decoded GB/s).
func BenchmarkScan(b *testing.B) {
	for _, ds := range []struct {
		name string
		rows int
	}{{TableDataset, 1_000_000}, {VectorDataset, 200_000}} {
		d, path := benchDataset(b, ds.name, ds.rows)
		for _, c := range d.Columns {
			b.Run(ds.name+"/"+c, func(b *testing.B) {
				spec := ScanSpec{URL: path, Column: c, BatchSize: ScanBatchSize, Reps: 1}
				for b.Loop() {
					if _, err := OursScan(context.Background(), spec); err != nil {
						b.Fatal(err)
					}
				}
				secs := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(float64(d.Rows)/secs, "rows/s")
				b.ReportMetric(float64(d.ArrowBytes[c])/secs/1e9, "GB/s")
			})
		}
	}
}

// BenchmarkTake takes 1, 100 and 10,000 random rows of every column.
func BenchmarkTake(b *testing.B) {
	for _, ds := range []struct {
		name string
		rows int
	}{{TableDataset, 1_000_000}, {VectorDataset, 200_000}} {
		d, path := benchDataset(b, ds.name, ds.rows)
		for _, k := range takeSizes {
			b.Run(ds.name+"/"+itoa(k), func(b *testing.B) {
				sets := IndexSets(d.Rows, k, 16, uint64(k))
				ctx := context.Background()
				f, err := lance.Open(ctx, path)
				if err != nil {
					b.Fatal(err)
				}
				defer f.Close()
				if err := takeOnce(ctx, f, sets[0], nil); err != nil {
					b.Fatal(err)
				}
				for i := 0; b.Loop(); i++ {
					if err := takeOnce(ctx, f, sets[i%16], nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(k)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}

func itoa(k int) string {
	switch k {
	case 1:
		return "1"
	case 100:
		return "100"
	}
	return "10000"
}

// BenchmarkScanV20 scans each column of the 1M-row table written by
// pylance as a Lance 2.0 file (the `v20` step of lance bench; skipped
// without pylance). Set LANCE_BENCH_DATA to reuse a bench data folder.
func BenchmarkScanV20(b *testing.B) {
	d, _ := benchDataset(b, TableDataset, 1_000_000)
	path := v20Path(d)
	if _, err := os.Stat(path); err != nil {
		py := pythonOrSkip(b)
		if err := py.RunOne(context.Background(), nil, PyOp{"op": "write", "ipc": d.IPCPath(), "out": path, "version": "2.0"}, &pyWrite{}); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range d.Columns {
		b.Run(c, func(b *testing.B) {
			// Timed as lance bench times a scan (timeOneOpen): a fresh
			// File each run, opened and collected outside the timing.
			ctx := context.Background()
			spec := ScanSpec{URL: path, Column: c, BatchSize: ScanBatchSize}
			for b.Loop() {
				b.StopTimer()
				f, err := lance.Open(ctx, path)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				b.StartTimer()
				_, err = drainScan(ctx, f, spec)
				b.StopTimer()
				f.Close()
				b.StartTimer()
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(d.Rows)/(b.Elapsed().Seconds()/float64(b.N)), "rows/s")
		})
	}
}

// BenchmarkTakeColumn takes 10,000 random rows of one column at a time
// (the takecol step); LANCE_BENCH_FILE, when set, names another Lance file
// to take from (e.g. the dict step's), with LANCE_BENCH_ROWS its rows.
func BenchmarkTakeColumn(b *testing.B) {
	d, path := benchDataset(b, TableDataset, 1_000_000)
	cols, rows := d.Columns, d.Rows
	if p := os.Getenv("LANCE_BENCH_FILE"); p != "" {
		path, cols, rows = p, DictColumns, 1_000_000
	}
	for _, c := range cols {
		b.Run(c, func(b *testing.B) {
			sets := IndexSets(rows, 10000, 8, 10000)
			ctx := context.Background()
			f, err := lance.Open(ctx, path)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			if err := takeOnce(ctx, f, sets[0], []string{c}); err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				if err := takeOnce(ctx, f, sets[i%8], []string{c}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScanDict scans each column of the dict step's file named by
// LANCE_BENCH_FILE (skipped without it), expanded and, with /dict, as
// Arrow dictionary arrays.
func BenchmarkScanDict(b *testing.B) {
	path := os.Getenv("LANCE_BENCH_FILE")
	if path == "" {
		b.Skip("LANCE_BENCH_FILE not set")
	}
	for _, c := range DictColumns {
		for _, asDict := range []bool{false, true} {
			name := c
			if asDict {
				name += "/dict"
			}
			b.Run(name, func(b *testing.B) {
				spec := ScanSpec{URL: path, Column: c, BatchSize: ScanBatchSize, Reps: 1, Dictionary: asDict}
				cpu0 := ProcessCPU()
				for b.Loop() {
					if _, err := OursScan(context.Background(), spec); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu0)
			})
		}
	}
}

// BenchmarkTakeDict takes 100 and 10,000 random rows of each column of
// the dict step's file named by LANCE_BENCH_FILE (skipped without it), one
// column at a time, as the dict step does.
func BenchmarkTakeDict(b *testing.B) {
	path := os.Getenv("LANCE_BENCH_FILE")
	if path == "" {
		b.Skip("LANCE_BENCH_FILE not set")
	}
	for _, c := range DictColumns {
		for _, k := range dictTakeSizes {
			b.Run(c+"/"+itoa(k), func(b *testing.B) {
				sets := IndexSets(1_000_000, k, 16, uint64(k))
				ctx := context.Background()
				f, err := lance.Open(ctx, path)
				if err != nil {
					b.Fatal(err)
				}
				defer f.Close()
				if err := takeOnce(ctx, f, sets[0], []string{c}); err != nil {
					b.Fatal(err)
				}
				cpu0 := ProcessCPU()
				for i := 0; b.Loop(); i++ {
					if err := takeOnce(ctx, f, sets[i%16], []string{c}); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu0)
			})
		}
	}
}

// reportCPU reports the process CPU time (all threads, user + system)
// per iteration since cpu0, which a loaded machine disturbs less than
// the wall time.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	if cpu := ProcessCPU() - cpu0; cpu > 0 && b.N > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	}
}
