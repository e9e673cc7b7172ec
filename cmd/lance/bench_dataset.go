package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/bench"
)

// runBenchDatasets times dataset reads against pylance on the same
// dataset: open, full scan, takes of 100 and 10,000 random rows spread
// over every fragment, a cold take of one row (after a fresh open), and
// filtered scans (a contiguous 2%, a scattered string match, a dense
// half, a random 0.1%, a 12% string equality, a random half, their
// conjunction, a LIKE prefix and a function call). Each round times pylance then lancego, best of --reps each (the
// first repetition warms caches); with several --rounds the two
// alternate and the ratio's spread over rounds is shown. With --s3 both
// read the dataset from the S3 server behind the benchmark's latency and
// bandwidth proxy, which counts both readers' requests. Then (local runs
// of every operation) appends, and index builds (bench_index.go).
func runBenchDatasets(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench-datasets", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("data", filepath.Join(os.TempDir(), "lancego-bench-datasets"), "folder caching the dataset")
	rows := fs.Int("rows", 500_000, "rows of the dataset")
	perFrag := fs.Int("rows-per-fragment", 20_000, "rows per fragment")
	reps := fs.Int("reps", 5, "repetitions; the best is reported")
	rounds := fs.Int("rounds", 1, "alternating rounds of pylance then lancego; the spread is reported")
	url := fs.String("url", "", "read this copy of the dataset instead (e.g. s3://...); pylance gets --storage-options")
	so := fs.String("storage-options", "", "pylance storage_options as JSON, with --url")
	only := fs.String("ops", "", "comma-separated operation kinds to run (open,scan,take,filter); all if empty")
	cold := fs.Bool("cold", false, "open the dataset afresh before every timed run of ours (nothing cached: small data files are otherwise kept from their first read)")
	appendRows := fs.Int("append-rows", 2_000_000, "rows of the append step (0: no append step)")
	onlyAppend := fs.Bool("only-append", false, "run the append step alone")
	onlyIndex := fs.Bool("only-index", false, "run the index build step alone")
	s3 := fs.Bool("s3", false, "upload the dataset to the S3 server ($LANCE_TEST_S3_*) and read it behind the latency/bandwidth proxy")
	latency := fs.Duration("latency", 20*time.Millisecond, "with --s3: first-byte latency the proxy adds per request")
	bw := fs.Float64("bandwidth-mbps", 200, "with --s3: proxy bandwidth cap in MB/s (1e6 bytes)")
	if err := fs.Parse(splitArgs(args, map[string]bool{"cold": true, "only-append": true, "only-index": true, "s3": true})); err != nil {
		return err
	}
	py := os.Getenv("LANCE_PY")
	if py == "" {
		return fmt.Errorf("bench-datasets needs pylance: set LANCE_PY")
	}
	driver := filepath.Join("bench", "dataset_driver.py")
	if *onlyAppend {
		return benchAppend(ctx, py, driver, *dir, *appendRows, *reps, stdout, stderr)
	}
	root := filepath.Join(*dir, benchDatasetName(*rows, *perFrag))
	if err := ensureBenchDataset(ctx, py, driver, root, *rows, *perFrag, stderr); err != nil {
		return err
	}
	if *onlyIndex {
		return benchIndexBuild(ctx, py, driver, *dir, root, *perFrag, *reps, stdout, stderr)
	}
	target := root
	if *url != "" {
		target = *url
	}
	var opts map[string]string
	if *so != "" {
		if err := json.Unmarshal([]byte(*so), &opts); err != nil {
			return fmt.Errorf("--storage-options: %w", err)
		}
	}
	var counter *proxyCounter
	if *s3 {
		pc, err := startDatasetProxy(ctx, root, *latency, *bw*1e6)
		if err != nil {
			return err
		}
		defer pc.Close()
		counter, target, opts = pc, pc.url, pc.storageOptions
	}
	n, err := datasetRows(ctx, target)
	if err != nil {
		return err
	}
	ops := benchDatasetOps(n)
	if *only != "" {
		ops = slices.DeleteFunc(ops, func(o benchOp) bool { return !slices.Contains(strings.Split(*only, ","), o.Op) })
	}
	res := make([]opRounds, len(ops))
	for range max(1, *rounds) {
		if err := benchRound(ctx, py, driver, target, opts, *reps, *cold, ops, res, counter); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "dataset %s: %d rows, %d fragments of %d rows, best of %d, %d round(s)\n", target, n, (*rows+*perFrag-1) / *perFrag, *perFrag, *reps, max(1, *rounds))
	if counter != nil {
		fmt.Fprintf(stdout, "behind the proxy: %v first-byte latency, %.0f MB/s; requests of one run (the last) as our --stats count them and as the proxy counted them\n", *latency, *bw)
	}
	printDatasetBench(stdout, ops, res)
	if counter != nil && counter.err != nil {
		fmt.Fprintf(stderr, "bench-datasets: a proxy mark failed, our proxy counts are missing: %v\n", counter.err)
	}
	if *url != "" || *only != "" {
		return nil
	}
	if *appendRows > 0 {
		if err := benchAppend(ctx, py, driver, *dir, *appendRows, *reps, stdout, stderr); err != nil {
			return err
		}
	}
	return benchIndexBuild(ctx, py, driver, *dir, root, *perFrag, *reps, stdout, stderr)
}

// benchRound times ops with pylance, then with lancego, into res; pc,
// if not nil, is the proxy both read through.
func benchRound(ctx context.Context, py, driver, target string, so map[string]string, reps int, cold bool, ops []benchOp, res []opRounds, pc *proxyCounter) error {
	theirs, err := pylanceTimes(ctx, py, driver, target, so, reps, ops, pc.markURL())
	if err != nil {
		return err
	}
	for i, op := range ops {
		ours, err := timeOurs(ctx, target, op, reps, cold, pc)
		if err != nil {
			return err
		}
		if ours.rows != theirs[i].Rows && op.Op != "open" {
			return fmt.Errorf("%s: %d rows, pylance %d", op.name(), ours.rows, theirs[i].Rows)
		}
		res[i].add(ours, theirs[i])
	}
	return nil
}

// opRounds gathers one operation's times over rounds: the best of each
// side, the lowest and highest per-round ratio (pylance / lancego), and
// the requests of the last run: ours by our Stats, and where a proxy
// counted them ours and pylance's there (-1: not counted).
type opRounds struct {
	ours, theirs, lo, hi         float64
	reqs, proxyOurs, proxyTheirs int64
}

func (r *opRounds) add(ours ourRun, theirs pyResult) {
	ratio := theirs.Seconds / ours.seconds
	if r.ours == 0 {
		*r = opRounds{ours: ours.seconds, theirs: theirs.Seconds, lo: ratio, hi: ratio}
	}
	r.ours, r.theirs = min(r.ours, ours.seconds), min(r.theirs, theirs.Seconds)
	r.lo, r.hi, r.reqs = min(r.lo, ratio), max(r.hi, ratio), ours.reqs
	r.proxyOurs, r.proxyTheirs = ours.proxyReqs, -1
	if theirs.IO != nil {
		r.proxyTheirs = theirs.IO.Requests
	}
}

// benchDatasetName names the cached dataset of rows rows, perFrag a
// fragment; the suffix is the generator's schema version (v2: cat and x
// added), so a copy cached by an older driver is not reused.
func benchDatasetName(rows, perFrag int) string {
	return fmt.Sprintf("d%d-%d-v2.lance", rows, perFrag)
}

// ensureBenchDataset builds the benchmark dataset with pylance unless it
// exists.
func ensureBenchDataset(ctx context.Context, py, driver, root string, rows, perFrag int, stderr io.Writer) error {
	if _, err := os.Stat(root); err == nil {
		return nil
	}
	fmt.Fprintf(stderr, "bench-datasets: building %s with pylance\n", root)
	cmd := exec.CommandContext(ctx, py, driver, "make", root, fmt.Sprint(rows), fmt.Sprint(perFrag))
	cmd.Stderr = stderr
	return cmd.Run()
}

// datasetRows returns the live rows of the dataset at url.
func datasetRows(ctx context.Context, url string) (uint64, error) {
	ds, err := lance.OpenDataset(ctx, url)
	if err != nil {
		return 0, err
	}
	defer ds.Close()
	return ds.CountRows(ctx)
}

// benchDatasetOps lists the timed operations on a dataset of n rows (ids
// 0..; score = id / 2; name = "name-" + id % 1000; cat one of 8 colours
// and x uniform in [0, 1), both random: bench/dataset_driver.py make).
func benchDatasetOps(n uint64) []benchOp {
	r := rand.New(rand.NewPCG(1, 2))
	offsets := func(k int) []uint64 {
		out := make([]uint64, k)
		for i := range out {
			out[i] = r.Uint64N(n)
		}
		return out
	}
	return []benchOp{{Op: "open"}, {Op: "scan"}, {Op: "take", Offsets: offsets(100)}, {Op: "take", Offsets: offsets(10_000)},
		{Op: "cold_take", Offsets: offsets(1)},
		{Op: "filter", Filter: fmt.Sprintf("id >= %d AND id < %d", n/4, n/4+n/50), Label: "filtered scan 2%", Key: "filter_2pct"},
		{Op: "filter", Filter: "name = 'name-7'", Label: "filtered scan scattered", Key: "filter_scattered"},
		{Op: "filter", Filter: fmt.Sprintf("score >= %d", n/4), Label: "filtered scan half", Key: "filter_half"},
		{Op: "filter", Filter: "x < 0.001", Label: "filtered scan 0.1% random", Key: "filter_0_1pct"},
		{Op: "filter", Filter: "cat = 'red'", Label: "filtered scan cat 12%", Key: "filter_cat"},
		{Op: "filter", Filter: "x > 0.5", Label: "filtered scan x 50%", Key: "filter_x_half"},
		{Op: "filter", Filter: "cat = 'red' AND x > 0.5", Label: "filtered scan cat AND x 6%", Key: "filter_and"},
		{Op: "filter", Filter: "name LIKE 'name-1%'", Label: "filtered scan LIKE 11%", Key: "filter_like"},
		{Op: "filter", Filter: "lower(cat) = 'red'", Label: "filtered scan lower() 12%", Key: "filter_func"}}
}

type benchOp struct {
	Op      string   `json:"op"`
	Offsets []uint64 `json:"offsets,omitempty"`
	Filter  string   `json:"filter,omitempty"`
	Label   string   `json:"-"`
	Key     string   `json:"-"` // the workload name in `lance bench` (filters; else from Op)
}

// key names op as a `lance bench` workload (after bench.DatasetPrefix).
func (o benchOp) key() string {
	switch {
	case o.Key != "":
		return o.Key
	case o.Op == "take":
		return fmt.Sprintf("take_%d", len(o.Offsets))
	}
	return o.Op
}

func (o benchOp) name() string {
	switch o.Op {
	case "take":
		return fmt.Sprintf("take %d rows", len(o.Offsets))
	case "cold_take":
		return fmt.Sprintf("cold take %d row(s)", len(o.Offsets))
	case "filter":
		return o.Label
	}
	return o.Op
}

type pyResult struct {
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"` // process CPU, where the driver reports it
	Rows       int64   `json:"rows"`
	// IO is what the proxy counted during pylance's last run (nil: no
	// proxy).
	IO *bench.MarkCounts `json:"io"`
}

func pylanceTimes(ctx context.Context, py, driver, url string, so map[string]string, reps int, ops []benchOp, markURL string) ([]pyResult, error) {
	req, _ := json.Marshal(map[string]any{"url": url, "storage_options": so, "reps": reps, "ops": ops, "mark_url": markURL})
	cmd := exec.CommandContext(ctx, py, driver, "run")
	cmd.Stdin = bytes.NewReader(req)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("pylance driver: %v\n%s", err, errb.String())
	}
	var res struct {
		Results []pyResult `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return nil, err
	}
	return res.Results, nil
}

// ourRun is timeOurs' answer: the best time, the requests of the last
// run by our Stats and at the proxy (-1: no proxy), the rows returned.
type ourRun struct {
	seconds         float64
	reqs, proxyReqs int64
	rows            int64
}

// timeOurs times reps runs of op: "open" opens the dataset afresh each
// time; a cold take (and with cold every op) runs on a dataset just
// opened (its open is not timed); other ops run on one open dataset,
// whose first run warms it. pc, if not nil, counts the last run's
// requests at the proxy.
func timeOurs(ctx context.Context, url string, op benchOp, reps int, cold bool, pc *proxyCounter) (ourRun, error) {
	out := ourRun{seconds: 1e9, proxyReqs: -1}
	var ds *lance.Dataset
	defer func() {
		if ds != nil {
			ds.Close()
		}
	}()
	fresh := cold || op.Op == "cold_take"
	for i := range reps {
		last := i == reps-1
		if last {
			pc.mark()
		}
		if op.Op == "open" || ds == nil || fresh {
			if ds != nil {
				ds.Close()
			}
			t0 := time.Now()
			var err error
			if ds, err = lance.OpenDataset(ctx, url); err != nil {
				return out, err
			}
			if op.Op == "open" {
				out.seconds, out.reqs = min(out.seconds, time.Since(t0).Seconds()), ds.Stats().Requests
				if last {
					out.proxyReqs = pc.mark()
				}
				continue
			}
		}
		if last {
			pc.mark()
		}
		before := ds.Stats().Requests
		t0 := time.Now()
		n, err := runOp(ctx, ds, op)
		if err != nil {
			return out, err
		}
		out.seconds, out.reqs, out.rows = min(out.seconds, time.Since(t0).Seconds()), ds.Stats().Requests-before, n
		if last {
			out.proxyReqs = pc.mark()
		}
	}
	return out, nil
}

func runOp(ctx context.Context, ds *lance.Dataset, op benchOp) (int64, error) {
	var n int64
	switch op.Op {
	case "take", "cold_take":
		rec, err := ds.Take(ctx, op.Offsets, lance.ReadOptions{})
		if err != nil {
			return 0, err
		}
		n = rec.NumRows()
		rec.Release()
		return n, nil
	case "scan", "filter":
		o := lance.DatasetScanOptions{}
		if op.Filter != "" {
			o.FilterSQL = op.Filter
		}
		for rec, err := range ds.Batches(ctx, o) {
			if err != nil {
				return 0, err
			}
			n += rec.NumRows()
			rec.Release()
		}
	}
	return n, nil
}
