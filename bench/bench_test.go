package bench

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"net/http"
)

// repoRoot is the repository root (the parent of this package).
func repoRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

// pythonOrSkip returns a driver runner, or skips without pylance.
func pythonOrSkip(t testing.TB) *Python {
	exe, err := FindPython(repoRoot(t))
	if err != nil {
		t.Skip(err)
	}
	py, err := NewPython(exe, t.TempDir(), os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	return py
}

func TestDatasetDeterministic(t *testing.T) {
	dir := t.TempDir()
	a, err := EnsureDataset(filepath.Join(dir, "a"), TableDataset, 3000, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := EnsureDataset(filepath.Join(dir, "b"), TableDataset, 3000, 1)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(a.IPCPath())
	y, _ := os.ReadFile(b.IPCPath())
	if string(x) != string(y) {
		t.Fatal("same seed produced different data")
	}
	if len(a.Columns) != 8 || a.ArrowBytes["str_long"] < 3000*64 {
		t.Fatalf("unexpected data set %+v", a)
	}
	again, err := EnsureDataset(filepath.Join(dir, "a"), TableDataset, 3000, 1)
	if err != nil || again.ArrowBytes["f64"] != a.ArrowBytes["f64"] {
		t.Fatalf("cached data set differs: %v", err)
	}
}

func TestPeersAgreeSmall(t *testing.T) {
	py := pythonOrSkip(t)
	ctx := context.Background()
	d, err := EnsureDataset(t.TempDir(), TableDataset, 5000, 3)
	if err != nil {
		t.Fatal(err)
	}
	var w pyWrite
	if err := py.RunOne(ctx, nil, PyOp{"op": "write", "ipc": d.IPCPath(), "out": d.LancePath(), "version": "2.1"}, &w); err != nil {
		t.Fatal(err)
	}
	if w.Rows != 5000 {
		t.Fatalf("pylance wrote %d rows", w.Rows)
	}
	for _, c := range d.Columns {
		m, err := OursScan(ctx, ScanSpec{URL: d.LancePath(), Column: c, BatchSize: 1024, Reps: 1})
		if err != nil || m.Rows != 5000 {
			t.Fatalf("scan %s: %v rows %d", c, err, m.Rows)
		}
	}
	sets := IndexSets(d.Rows, 100, 2, 9)
	if _, err := OursTake(ctx, ScanSpec{URL: d.LancePath()}, sets[0], sets); err != nil {
		t.Fatal(err)
	}
	var tk pyTimes
	op := PyOp{"op": "take", "path": d.LancePath(), "warmup": sets[0], "index_sets": sets}
	if err := py.RunOne(ctx, nil, op, &tk); err != nil || len(tk.Seconds) != 2 {
		t.Fatalf("pylance take: %v %v", err, tk)
	}
	if _, err := WriteParquet(d); err != nil {
		t.Fatal(err)
	}
	if m, err := PqarrowScan(ctx, d.ParquetPath(), "list_i32", 1024, 1, Repeat{Min: 1}); err != nil || m.Rows != 5000 {
		t.Fatalf("parquet scan: %v %+v", err, m)
	}
	if _, err := PqarrowTake(ctx, d.ParquetPath(), sets); err != nil {
		t.Fatal(err)
	}
}

func TestLowerBoundTake(t *testing.T) {
	py := pythonOrSkip(t)
	ctx := context.Background()
	d, err := EnsureDataset(t.TempDir(), TableDataset, 4000, 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := py.RunOne(ctx, nil, PyOp{"op": "write", "ipc": d.IPCPath(), "out": d.LancePath()}, &pyWrite{}); err != nil {
		t.Fatal(err)
	}
	lb, err := NewLowerBounds(ctx, d.LancePath())
	if err != nil {
		t.Fatal(err)
	}
	one := lb.Take([]uint64{17}, nil)
	if one.Requests < 1 || one.Bytes <= 0 {
		t.Fatalf("take bound %+v", one)
	}
	all := lb.Take(IndexSets(4000, 4000, 1, 1)[0], nil)
	scan := lb.Scan(nil)
	if all.Bytes > scan.Bytes || scan.Requests < 1 {
		t.Fatalf("take of every row %+v exceeds scan %+v", all, scan)
	}
	if lb.Open().Requests != 1 {
		t.Fatalf("open bound %+v", lb.Open())
	}
}

func TestProxyCountsAndDelays(t *testing.T) {
	up := os.Getenv("LANCE_TEST_S3_ENDPOINT")
	if up == "" {
		t.Skip("no S3 server (LANCE_TEST_S3_ENDPOINT)")
	}
	p, err := StartProxy(up, 20*time.Millisecond, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	t0 := time.Now()
	resp, err := http.DefaultClient.Get(p.URL() + "/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if time.Since(t0) < 20*time.Millisecond {
		t.Fatal("latency not injected")
	}
	if n, _ := p.Counts(); n != 1 {
		t.Fatalf("requests %d", n)
	}
	checkMarkCPU(t, p)
}

// checkMarkCPU checks that marks report CPU only when asked to, and reset
// the counters.
func checkMarkCPU(t *testing.T, p *Proxy) {
	m, err := p.Mark()
	if err != nil || m.Requests != 1 || m.CPUSeconds != nil || m.ServerCPUSeconds != nil {
		t.Fatalf("mark = %+v, %v; want 1 request and no CPU readings", m, err)
	}
	p.ReportCPU, p.ServerPID = true, os.Getpid()
	if _, err := p.Mark(); err != nil {
		t.Fatal(err)
	}
	m, err = p.Mark()
	if err != nil || m.Requests != 0 || m.CPUSeconds == nil {
		t.Fatalf("mark = %+v, %v; want no requests and a CPU reading", m, err)
	}
	if _, ok := pidCPU(os.Getpid()); ok && m.ServerCPUSeconds == nil {
		t.Fatalf("mark = %+v: no server CPU reading", m)
	}
}

func TestS3ThroughProxy(t *testing.T) {
	env, ok := S3FromEnv()
	if !ok {
		t.Skip("no S3 server (eval \"$(bash .ci/objectstores.sh env)\")")
	}
	py := pythonOrSkip(t)
	ctx := context.Background()
	d, err := EnsureDataset(t.TempDir(), TableDataset, 3000, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := py.RunOne(ctx, nil, PyOp{"op": "write", "ipc": d.IPCPath(), "out": d.LancePath()}, &pyWrite{}); err != nil {
		t.Fatal(err)
	}
	key := "bench-test/" + filepath.Base(d.Dir) + ".lance"
	if err := env.Upload(ctx, d.LancePath(), key); err != nil {
		t.Fatal(err)
	}
	p, err := StartProxy(env.Endpoint, 5*time.Millisecond, 50e6)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, err := OursScan(ctx, ScanSpec{URL: env.URL(p.URL(), key), Column: "str_long", Reps: 1})
	if err != nil || m.Rows != 3000 {
		t.Fatalf("our S3 scan: %v %+v", err, m)
	}
	if n, _ := p.Counts(); n < 2 {
		t.Fatalf("proxy saw %d requests", n)
	}
	var sc pyScan
	op := PyOp{"op": "scan", "path": env.PyPath(key), "storage_options": env.StorageOptions(p.URL()),
		"columns": []string{"str_long"}, "mark_url": p.URL() + MarkPath}
	if err := py.RunOne(ctx, nil, op, &sc); err != nil {
		t.Fatal(err)
	}
	if r := sc["str_long"]; r.Rows != 3000 || r.IO == nil || r.IO.Requests < 1 {
		t.Fatalf("pylance S3 scan %+v", r)
	}
	t.Logf("ours %v req; pylance %+v", m.Requests, *sc["str_long"].IO)
}
