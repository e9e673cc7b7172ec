package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/lancego/lancego/bench"
)

// runBench runs `lance bench`: lancego against pylance and Parquet on
// generated data sets (see docs/benchmarks.md).
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "small data sets, few repetitions (under a minute)")
	asJSON := fs.Bool("json", false, "print one JSON object with every figure on stdout")
	out := fs.String("out", "", "write results.json, results.md and ratios.png into this folder")
	data := fs.String("data", "", "folder caching generated data sets (default: a temp folder)")
	rows := fs.Int("rows", 0, "rows of the table data set (default 1,000,000; quick 100,000)")
	vecRows := fs.Int("vector-rows", 0, "rows of the embeddings data set (default 200,000; quick 10,000)")
	latency := fs.Duration("latency", 20*time.Millisecond, "first-byte latency the S3 proxy adds per request")
	bw := fs.Float64("bandwidth-mbps", 200, "S3 proxy bandwidth cap in MB/s (1e6 bytes)")
	noS3 := fs.Bool("no-s3", false, "skip the object-store runs")
	noMmap := fs.Bool("no-mmap", false, "read local files with pread only, never through a memory map")
	noSigned := fs.Bool("no-signed-reads", false, "send every S3 read through the AWS SDK, not a presigned URL")
	only := fs.String("only", "", "comma-separated steps to run: memcpy,write,writecols,open,scan,take,memory,filter,v20,v23,dict,takecol,codecs,s3,datasets (default all)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the whole run")
	check := fs.Bool("check", false, "fail when object-store round trips (takes, scans) or bytes miss their gates (CI; docs/benchmarks.md)")
	if err := fs.Parse(splitArgs(args, map[string]bool{"quick": true, "json": true, "no-s3": true, "no-mmap": true, "no-signed-reads": true, "check": true})); err != nil {
		return err
	}
	if *data == "" {
		*data = bench.DefaultDataDir()
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	repo, _ := os.Getwd()
	res, err := bench.Run(ctx, bench.Config{Quick: *quick, DataDir: *data, RepoDir: repo, Rows: *rows, VectorRows: *vecRows,
		Latency: *latency, BytesPerSec: *bw * 1e6, NoS3: *noS3, NoMmap: *noMmap, NoSignedReads: *noSigned, ProxyExe: proxyExe(), Only: splitList(*only), Progress: stderr,
		Datasets: benchDatasetsStep})
	if err != nil {
		return err
	}
	if *out != "" {
		if err := res.WriteDir(*out); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "bench: wrote %s\n", filepath.Join(*out, "results.md"))
	}
	if *asJSON {
		err = res.WriteJSON(stdout)
	} else if *out == "" {
		res.WriteMarkdown(stdout)
	}
	if err == nil && *check {
		err = checkBench(res, stderr)
	}
	return err
}

// errBenchCheck is returned when `lance bench --check` finds a figure
// missing its gate.
var errBenchCheck = errors.New("bench: object-store figures miss their gates")

// checkBench prints the gates res misses (bench.Results.Check) and fails
// if there is any.
func checkBench(res *bench.Results, stderr io.Writer) error {
	bad := res.Check()
	for _, b := range bad {
		fmt.Fprintf(stderr, "bench check: %s\n", b)
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w: %d", errBenchCheck, len(bad))
	}
	fmt.Fprintf(stderr, "bench check: round trips and bytes within their gates\n")
	return nil
}

// runBenchProxy serves the benchmark's latency/bandwidth proxy until in
// ends (the parent closes it), printing its URL first.
func runBenchProxy(args []string, in io.Reader, out io.Writer) error {
	fs := flag.NewFlagSet("bench-proxy", flag.ContinueOnError)
	upstream := fs.String("upstream", "", "S3 server URL")
	latency := fs.Duration("latency", 0, "first-byte latency added per request")
	bps := fs.Float64("bytes-per-sec", 0, "shared response bandwidth cap (0: none)")
	pid := fs.Int("server-pid", 0, "S3 server process whose CPU marks report (0: none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return bench.ServeProxyProcess(*upstream, *latency, *bps, *pid, in, out)
}

// proxyExe is this executable, to run the benchmark's S3 proxy in a
// process of its own; "" (the proxy then runs in the benchmark) if unknown.
func proxyExe() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}
