package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// objectStore runs open, scan and take through the S3-compatible server
// behind the latency/bandwidth proxy, for us and pylance, and records the
// lower bound of each workload.
func (r *runner) objectStore(ctx context.Context) error {
	env, ok := S3FromEnv()
	if r.cfg.NoS3 || !ok {
		r.res.NotAvailable["s3"] = "no S3 server: run `bash .ci/objectstores.sh start` and " +
			"`eval \"$(bash .ci/objectstores.sh env)\"` first"
		return nil
	}
	p, err := r.startProxy(env)
	if err != nil {
		return err
	}
	defer p.Close()
	r.res.S3 = &S3Info{LatencyMs: float64(r.cfg.Latency.Microseconds()) / 1000, BandwidthMBps: r.cfg.BytesPerSec / 1e6}
	for _, name := range []string{TableDataset, VectorDataset} {
		d := r.data[name]
		local, err := r.s3File(ctx, d)
		if err != nil {
			return err
		}
		key := fmt.Sprintf("lancego-bench/%s/%s", filepath.Base(d.Dir), filepath.Base(local))
		if err := env.Upload(ctx, local, key); err != nil {
			return fmt.Errorf("upload %s: %w", key, err)
		}
		lb, err := NewLowerBounds(ctx, local)
		if err != nil {
			return err
		}
		s := s3run{r: r, env: env, p: p, d: d, key: key, lb: lb, curves: r.curves}
		for _, f := range []func(context.Context) error{s.open, s.scans, s.takes} {
			if err := f(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// s3File is the local file the object-store step uploads: pylance's,
// or without Python (no pylance file to read) ours, so that our figures
// are still measured and checked.
func (r *runner) s3File(ctx context.Context, d *Dataset) (string, error) {
	if _, err := os.Stat(d.LancePath()); err == nil || r.py != nil {
		return d.LancePath(), err
	}
	if _, err := os.Stat(d.GoLancePath()); err != nil {
		if _, err := OursWrite(ctx, d, "2.1"); err != nil {
			return "", err
		}
	}
	r.res.NotAvailable["s3/"+d.Name+"/pylance file"] = "no Python: the object-store step reads our own file " + filepath.Base(d.GoLancePath())
	return d.GoLancePath(), nil
}

// startProxy starts the latency/bandwidth proxy in a process of its own
// when the benchmark knows the lance executable, else in this process.
func (r *runner) startProxy(env S3Env) (linkProxy, error) {
	if r.cfg.ProxyExe == "" {
		return StartProxy(env.Endpoint, r.cfg.Latency, r.cfg.BytesPerSec)
	}
	return StartProxyProcess(r.cfg.ProxyExe, env.Endpoint, r.cfg.Latency, r.cfg.BytesPerSec, env.ServerPID)
}

// s3run is the object-store run of one data set.
type s3run struct {
	r   *runner
	env S3Env
	p   linkProxy
	d   *Dataset
	key string
	lb  *LowerBounds
	// curves collects each scan's and take's request curves (harness.go).
	curves map[string][]RequestCurve
}

// s3Count is what the proxy counted during our timed part, with the CPU
// seconds our process used meanwhile (nil when the proxy shares it).
type s3Count struct {
	MarkCounts
	ClientCPUSeconds *float64
}

// apply sets m's requests and bytes per run (of runs) and its CPU per
// request from c.
func (c s3Count) apply(m *Measure, runs int) {
	m.Requests, m.BytesRead = float64(c.Requests)/float64(runs), float64(c.Bytes)/float64(runs)
	m.setCPU(c.Requests, c.ClientCPUSeconds, c.CPUSeconds, c.ServerCPUSeconds)
}

func (s *s3run) spec(column string, counted *s3Count) ScanSpec {
	var cpu0 time.Duration
	return ScanSpec{URL: s.env.URL(s.p.URL(), s.key), Column: column, BatchSize: ScanBatchSize, Reps: 1, IO: s.r.ioConfig(), Options: s.r.ours(),
		Mark: func(start bool) {
			mc, err := s.p.Mark()
			if err != nil {
				s.r.logf("proxy mark: %v", err)
			}
			if start {
				cpu0 = processCPU()
				return
			}
			counted.MarkCounts = mc
			if mc.CPUSeconds != nil { // the proxy runs elsewhere: our CPU is the reader's
				counted.ClientCPUSeconds = seconds(processCPU() - cpu0)
			}
		}}
}

func (s *s3run) pyOp(op string) PyOp {
	return PyOp{"op": op, "path": s.env.PyPath(s.key), "storage_options": s.env.StorageOptions(s.p.URL()),
		"mark_url": s.p.URL() + MarkPath}
}

func (s *s3run) bound(wl string, b Bound) {
	s.r.res.Bounds[wl] = BoundFig{Bound: b, Seconds: b.Seconds(s.r.cfg.Latency, s.r.cfg.BytesPerSec)}
}

func (s *s3run) open(ctx context.Context) error {
	wl := "s3/open/" + s.d.Name
	reps := map[bool]int{true: 3, false: 10}[s.r.cfg.Quick]
	if _, err := s.p.Mark(); err != nil {
		return err
	}
	m, err := OursOpen(ctx, s.env.URL(s.p.URL(), s.key), s.r.ioConfig(), reps)
	if err != nil {
		return err
	}
	mc, err := s.p.Mark()
	if err != nil {
		return err
	}
	m.Requests, m.BytesRead = float64(mc.Requests)/float64(reps), float64(mc.Bytes)/float64(reps)
	s.r.res.put(wl, EngineLanceGo, m)
	if s.r.py != nil {
		op := s.pyOp("open")
		op["reps"] = reps
		var pt pyTimes
		if err := s.r.py.RunOne(ctx, nil, op, &pt); err != nil {
			return err
		}
		pm := fromTimes(pt.Seconds, 0)
		if pt.IO != nil {
			pm.Requests, pm.BytesRead = float64(pt.IO.Requests)/float64(reps), float64(pt.IO.Bytes)/float64(reps)
		}
		s.r.res.put(wl, EnginePylance, pm)
	}
	s.bound(wl, s.lb.Open())
	s.r.logf("%s: %s", wl, s.r.res.line(wl))
	return nil
}

func (s *s3run) scans(ctx context.Context) error {
	var pl pyScan
	if s.r.py != nil {
		op := s.pyOp("scan")
		op["columns"], op["batch_size"], op["reps"] = s.d.Columns, ScanBatchSize, s.r.cfg.s3ScanReps()
		if err := s.r.py.RunOne(ctx, nil, op, &pl); err != nil {
			return err
		}
	}
	for _, c := range s.d.Columns {
		wl := fmt.Sprintf("s3/scan/%s/%s", s.d.Name, c)
		var n s3Count
		spec := s.spec(c, &n)
		spec.Reps = s.r.cfg.s3ScanReps()
		m, err := OursScan(ctx, spec)
		if err != nil {
			return fmt.Errorf("%s: %w", wl, err)
		}
		m.Requests, m.BytesRead = float64(n.Requests), float64(n.Bytes)
		s.r.res.put(wl, EngineLanceGo, m.fill(s.d.ArrowBytes[c]))
		if v, ok := pl[c]; ok {
			pm := Measure{Seconds: v.Seconds, Rows: v.Rows}.fill(s.d.ArrowBytes[c])
			if v.IO != nil {
				pm.Requests, pm.BytesRead = float64(v.IO.Requests), float64(v.IO.Bytes)
			}
			s.r.res.put(wl, EnginePylance, pm)
		}
		s.bound(wl, s.lb.Scan([]string{c}))
		s.curves[wl] = []RequestCurve{s.lb.ScanCurve([]string{c})}
		s.r.logf("%s: %s", wl, s.r.res.line(wl))
	}
	return nil
}

func (s *s3run) takes(ctx context.Context) error {
	for _, k := range takeSizes {
		if k > s.d.Rows {
			continue
		}
		wl := fmt.Sprintf("s3/take/%s/%d", s.d.Name, k)
		sets := IndexSets(s.d.Rows, k, s.r.cfg.s3TakeSets(k), s.r.cfg.Seed+uint64(k))
		warm := IndexSets(s.d.Rows, k, 1, s.r.cfg.Seed+1000+uint64(k))[0]
		if err := s.env.Warm(ctx, s.key); err != nil {
			return err
		}
		var n s3Count
		m, err := OursTake(ctx, s.spec("", &n), warm, sets)
		if err != nil {
			return fmt.Errorf("%s: %w", wl, err)
		}
		n.apply(&m, len(sets))
		cold, err := OursColdTake(ctx, s.spec("", nil), sets[0])
		if err != nil {
			return fmt.Errorf("%s cold: %w", wl, err)
		}
		m.ColdRoundTrips = float64(cold)
		s.r.res.put(wl, EngineLanceGo, m)
		if err := s.env.Warm(ctx, s.key); err != nil {
			return err
		}
		if err := s.pyTake(ctx, wl, warm, sets); err != nil {
			return err
		}
		var b Bound
		for _, set := range sets {
			b.add(s.lb.Take(set, nil))
			s.curves[wl] = append(s.curves[wl], s.lb.TakeCurve(set, nil))
		}
		s.bound(wl, b.div(len(sets)))
		s.r.logf("%s: %s", wl, s.r.res.line(wl))
	}
	return nil
}

func (s *s3run) pyTake(ctx context.Context, wl string, warm []uint64, sets [][]uint64) error {
	if s.r.py == nil {
		return nil
	}
	op := s.pyOp("take")
	op["warmup"], op["index_sets"] = warm, sets
	var pt pyTimes
	if err := s.r.py.RunOne(ctx, nil, op, &pt); err != nil {
		return err
	}
	pm := fromTimes(pt.Seconds, len(sets[0]))
	if pt.IO != nil {
		s3Count{MarkCounts: *pt.IO, ClientCPUSeconds: pt.CPUSeconds}.apply(&pm, len(sets))
	}
	s.r.res.put(wl, EnginePylance, pm)
	return nil
}

func unmarshal(b json.RawMessage, v any) error { return json.Unmarshal(b, v) }
