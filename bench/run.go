// Package bench benchmarks lancego against real Lance (pylance) and
// Parquet (arrow-go pqarrow and pyarrow) on the same deterministic data
// sets and the same files, locally and through an S3-compatible server
// behind a latency- and bandwidth-injecting proxy. The CLI is `lance bench`;
// see docs/benchmarks.md.
package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego"
)

// Config configures a benchmark run.
type Config struct {
	// Quick runs small data sets with few repetitions (under a minute).
	Quick bool
	// DataDir caches generated data sets (required).
	DataDir string
	// RepoDir is where .ci/venv is looked for (LANCE_PY overrides).
	RepoDir string
	// Python is the interpreter with pylance; empty means FindPython.
	Python string
	// Rows and VectorRows override the data set sizes (0: by Quick).
	Rows, VectorRows int
	// Seed makes the data sets and index sets.
	Seed uint64
	// Latency and BytesPerSec shape the object-store link (proxy).
	Latency     time.Duration
	BytesPerSec float64
	// NoS3 skips the object-store runs.
	NoS3 bool
	// NoMmap makes our reader read local files with pread only
	// (lanceio.Config.NoMmap), to compare with its default memory map.
	NoMmap bool
	// NoSignedReads makes our reader send every S3 read through the AWS
	// SDK (lanceio.Config.NoSignedReads), to compare with its default
	// presigned-URL reads.
	NoSignedReads bool
	// ProxyExe is the lance executable, to run the S3 proxy in a process
	// of its own (`lance bench-proxy`): the benchmark process's CPU is
	// then our reader's alone, and CPU per request is reported for the
	// readers, the proxy and (with S3Env.ServerPID) the server. Empty runs
	// the proxy in this process and reports pylance's client CPU only.
	ProxyExe string
	// Only, when non-empty, runs just these steps (memcpy, write, writecols, open,
	// scan, take, memory, filter, v20, v23, dict, takecol, codecs, s3,
	// datasets); the table and vectors data sets are always made (dict
	// makes its own), and
	// the pylance files are written untimed when "write" is skipped.
	Only []string
	// Progress receives one line per step (stderr in the CLI).
	Progress io.Writer
	// Datasets, when set, runs the dataset workloads of step "datasets"
	// (issue #20; `lance bench-datasets`' machinery, in cmd/lance) for
	// this run's Config, with python the interpreter with pylance, and
	// returns their figures (workload -> engine -> Measure): workloads
	// named DatasetPrefix+op locally and S3DatasetPrefix+op behind the
	// proxy, Requests counted at the proxy there; and the bounds of those
	// it can bound.
	Datasets func(ctx context.Context, cfg Config, python string) (DatasetFigures, error)
}

func (c *Config) defaults() {
	if c.Rows == 0 {
		c.Rows = 1_000_000
		if c.Quick {
			c.Rows = 100_000
		}
	}
	if c.VectorRows == 0 {
		c.VectorRows = 200_000
		if c.Quick {
			c.VectorRows = 10_000
		}
	}
	if c.Seed == 0 {
		c.Seed = 42
	}
	if c.Latency == 0 {
		c.Latency = 20 * time.Millisecond
	}
	if c.BytesPerSec == 0 {
		c.BytesPerSec = 200e6
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
}

// reps is the number of timed repetitions of a scan (best is kept), for
// every engine: ten, because on a shared VM single runs of a
// millisecond-long scan vary by up to 2x (best of five still moved the
// ratios by 1.5x between full runs).
func (c *Config) reps() int {
	if c.Quick {
		return 1
	}
	return 10
}

// scanRepeat is how every engine's local scans are timed: at least reps()
// runs, and in a full run more while they total under half a second (at
// most 200).
func (c *Config) scanRepeat() Repeat {
	if c.Quick {
		return Repeat{Min: c.reps()}
	}
	return Repeat{Min: c.reps(), MinSeconds: 0.5, Max: 200}
}

// takeSets is how many index sets of k rows each take workload times.
func (c *Config) takeSets(k int) int {
	switch {
	case k >= 10000:
		return map[bool]int{true: 2, false: 9}[c.Quick]
	case k >= 100:
		return map[bool]int{true: 10, false: 30}[c.Quick]
	}
	return map[bool]int{true: 20, false: 100}[c.Quick]
}

// s3TakeSets is how many index sets the object-store take workloads time.
func (c *Config) s3TakeSets(k int) int {
	if c.Quick {
		return 2
	}
	return max(3, c.takeSets(k)/4)
}

// s3ScanReps is how many times each object-store scan runs for every
// engine (best kept): single runs through the shared proxy varied by up to
// 1.4x between full runs.
func (c *Config) s3ScanReps() int {
	if c.Quick {
		return 1
	}
	return 3
}

// TakeSizes are the numbers of rows of the take workloads.
var takeSizes = [...]int{1, 100, 10000}

// ScanWarmups is the number of untimed runs of each local scan, for every
// engine, before the timed ones: the first run in a process pays one-time
// costs (a Go heap that has not grown yet, first-touch page faults, Python
// imports and caches) that a long-running reader pays once, not per scan.
const ScanWarmups = 1

// ScanBatchSize is the batch size of every scan (all engines).
const ScanBatchSize = 8192

// runner holds one run's state.
type runner struct {
	cfg   Config
	res   *Results
	py    *Python
	start time.Time
	data  map[string]*Dataset
	// pool is the one buffer pool every lancego File of the run reads
	// into (lance.WithAllocator), as a service opening a File per query
	// shares one: each timed run opens a fresh File, and without a shared
	// pool every run would read and decode into memory the Go runtime has
	// just returned to the OS (page faults on every touch), which a reader
	// living in a process pays once. The memory check keeps its own.
	pool memory.Allocator
	// curves are the request curves of the object-store workloads, whose
	// harness bounds are set once every step has run (harness.go).
	curves map[string][]RequestCurve
}

// ours returns the options of the run's lancego Files.
func (r *runner) ours() []lance.Option { return []lance.Option{lance.WithAllocator(r.pool)} }

// Run runs the benchmark and returns every figure.
func Run(ctx context.Context, cfg Config) (*Results, error) {
	cfg.defaults()
	if cfg.DataDir == "" {
		return nil, fmt.Errorf("bench: no data folder")
	}
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, res: newResults(cfg), start: time.Now(), data: map[string]*Dataset{},
		pool: lance.NewBufferPool(lance.DefaultBufferPoolBytes), curves: map[string][]RequestCurve{}}
	if err := r.setupPython(); err != nil {
		r.res.NotAvailable["pylance"] = err.Error()
	}
	steps := []struct {
		name string
		fn   func(context.Context) error
	}{
		{"memcpy", r.memcpy}, {"data", r.datasets}, {"write", r.writes}, {"writecols", r.writeColumns}, {"open", r.opens},
		{"scan", r.scans}, {"take", r.takes}, {"memory", r.memory}, {"filter", r.filter}, {"v20", r.v20}, {"v23", r.v23}, {"dict", r.dict}, {"takecol", r.takecols}, {"codecs", r.codecs}, {"s3", r.objectStore},
		{"datasets", r.datasetWorkloads},
	}
	for _, s := range steps {
		if err := ctx.Err(); err != nil {
			return r.res, err
		}
		if !r.selected(s.name) {
			if s.name == "write" {
				if err := r.ensureLanceFiles(ctx); err != nil {
					return r.res, err
				}
			}
			continue
		}
		settle()
		if err := s.fn(ctx); err != nil {
			if s.name == "data" {
				return r.res, err
			}
			r.res.Errors = append(r.res.Errors, fmt.Sprintf("%s: %v", s.name, err))
			r.logf("%s failed: %v", s.name, err)
		}
	}
	r.res.setHarnessBounds(r.curves, cfg.Latency, cfg.BytesPerSec, runtime.NumCPU())
	r.res.finish()
	r.res.ElapsedSeconds = time.Since(r.start).Seconds()
	return r.res, nil
}

// selected reports whether step runs under Config.Only.
func (r *runner) selected(step string) bool {
	if len(r.cfg.Only) == 0 || step == "data" {
		return true
	}
	for _, o := range r.cfg.Only {
		if o == step {
			return true
		}
	}
	return false
}

// ensureLanceFiles writes each data set's pylance and Parquet files when
// they are missing (the write step, which times them, was skipped).
func (r *runner) ensureLanceFiles(ctx context.Context) error {
	for _, name := range []string{TableDataset, VectorDataset} {
		d := r.data[name]
		if _, err := os.Stat(d.ParquetPath()); err != nil {
			if _, err := WriteParquet(d); err != nil {
				return err
			}
		}
		if _, err := os.Stat(d.LancePath()); err == nil || r.py == nil {
			continue
		}
		op := PyOp{"op": "write", "ipc": d.IPCPath(), "out": d.LancePath(), "version": "2.1"}
		if err := r.py.RunOne(ctx, nil, op, &pyWrite{}); err != nil {
			// an interpreter without a working pylance: measure without it
			// (the object-store step then reads our own file)
			r.res.NotAvailable["pylance"] = err.Error()
			r.logf("pylance write failed, continuing without pylance: %v", err)
			r.py = nil
			os.Remove(d.LancePath())
		}
	}
	return nil
}

func (r *runner) logf(format string, args ...any) {
	fmt.Fprintf(r.cfg.Progress, "bench [%5.1fs] %s\n", time.Since(r.start).Seconds(), fmt.Sprintf(format, args...))
}

func (r *runner) setupPython() error {
	exe := r.cfg.Python
	if exe == "" {
		var err error
		if exe, err = FindPython(r.cfg.RepoDir); err != nil {
			return err
		}
	}
	py, err := NewPython(exe, r.cfg.DataDir, r.cfg.Progress)
	if err != nil {
		return err
	}
	r.py = py
	return nil
}

func (r *runner) memcpy(context.Context) error {
	r.res.Machine.MemcpyGBps = MemcpyGBps(256<<20, 5)
	r.logf("memcpy %.2f GB/s (one goroutine)", r.res.Machine.MemcpyGBps)
	return nil
}

func (r *runner) datasets(context.Context) error {
	for _, spec := range []struct {
		name string
		rows int
	}{{TableDataset, r.cfg.Rows}, {VectorDataset, r.cfg.VectorRows}} {
		t0 := time.Now()
		d, err := EnsureDataset(r.cfg.DataDir, spec.name, spec.rows, r.cfg.Seed)
		if err != nil {
			return err
		}
		r.data[spec.name] = d
		r.res.Datasets[spec.name] = d
		r.logf("data set %s: %d rows in %s (%.1fs)", d.Name, d.Rows, d.Dir, time.Since(t0).Seconds())
	}
	return nil
}

func (r *runner) arrowTotal(d *Dataset) int64 {
	var n int64
	for _, v := range d.ArrowBytes {
		n += v
	}
	return n
}

func (r *runner) opens(ctx context.Context) error {
	reps := map[bool]int{true: 10, false: 50}[r.cfg.Quick]
	for _, name := range []string{TableDataset, VectorDataset} {
		d, wl := r.data[name], "open/"+name
		m, err := OursOpen(ctx, d.LancePath(), r.ioConfig(), reps)
		if err != nil {
			return err
		}
		r.res.put(wl, EngineLanceGo, m)
		if r.py != nil {
			var pt pyTimes
			if err := r.py.RunOne(ctx, nil, PyOp{"op": "open", "path": d.LancePath(), "reps": reps}, &pt); err != nil {
				return err
			}
			r.res.put(wl, EnginePylance, fromTimes(pt.Seconds, 0))
		}
		r.logf("%s: %s", wl, r.res.line(wl))
	}
	return nil
}

// MemcpyGBps measures single-goroutine copy bandwidth (bytes copied per
// second, 1e9) of an n-byte buffer, best of reps.
func MemcpyGBps(n, reps int) float64 {
	src, dst := make([]byte, n), make([]byte, n)
	for i := range src {
		src[i] = byte(i)
	}
	copy(dst, src)
	best, _ := timeBest(Repeat{Min: reps}, func() error { copy(dst, src); return nil })
	return float64(n) / best / 1e9
}

// Env returns the data folder default: $TMPDIR/lancego-bench.
func DefaultDataDir() string { return os.TempDir() + "/lancego-bench" }
