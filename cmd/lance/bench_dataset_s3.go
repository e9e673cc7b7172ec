package main

import (
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/lancego/lancego/bench"
	lanceio "github.com/lancego/lancego/io"
)

// linkProxy is the benchmark's latency/bandwidth proxy, in a process of
// its own (bench.ProxyProcess) or in this one (bench.Proxy).
type linkProxy interface {
	URL() string
	Mark() (bench.MarkCounts, error)
	Close() error
}

// proxyCounter is the S3 side of `lance bench-datasets --s3`: the proxy
// both readers go through, the dataset's URL behind it for us and
// pylance's storage options for it. A nil *proxyCounter counts nothing.
type proxyCounter struct {
	p              linkProxy
	url            string
	storageOptions map[string]string
	err            error // the first failed mark
}

// startDatasetProxy uploads the dataset at root to the S3 server the
// environment names (.ci/objectstores.sh env) and starts the proxy in
// front of it.
func startDatasetProxy(ctx context.Context, root string, latency time.Duration, bytesPerSec float64) (*proxyCounter, error) {
	env, ok := bench.S3FromEnv()
	if !ok {
		return nil, fmt.Errorf("--s3 needs an S3 server: run `bash .ci/objectstores.sh start` and `eval \"$(bash .ci/objectstores.sh env)\"`")
	}
	// the local folder's hash in the key: runs from other folders (another
	// checkout's benchmark at the same time) do not overwrite this one's
	abs, _ := filepath.Abs(root)
	key := fmt.Sprintf("lancego-bench-datasets/%08x-%s", crc32.ChecksumIEEE([]byte(abs)), filepath.Base(root))
	if err := uploadTree(ctx, env.URL(env.Endpoint, key), root); err != nil {
		return nil, fmt.Errorf("upload %s: %w", root, err)
	}
	var (
		p   linkProxy
		err error
	)
	if exe := proxyExe(); exe != "" {
		p, err = bench.StartProxyProcess(exe, env.Endpoint, latency, bytesPerSec, env.ServerPID)
	} else {
		p, err = bench.StartProxy(env.Endpoint, latency, bytesPerSec)
	}
	if err != nil {
		return nil, err
	}
	return &proxyCounter{p: p, url: env.URL(p.URL(), key), storageOptions: env.StorageOptions(p.URL())}, nil
}

// uploadTree copies every file under dir to the store at url, keeping
// relative paths (replacing what a previous run put there).
func uploadTree(ctx context.Context, url, dir string) error {
	store, err := lanceio.OpenStore(ctx, url, lanceio.Config{})
	if err != nil {
		return err
	}
	defer store.Close()
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		w, err := store.Create(ctx, filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, in); err != nil {
			w.Abort()
			return err
		}
		return w.Close()
	})
}

// markURL is the proxy endpoint pylance's driver marks ("" without one).
func (c *proxyCounter) markURL() string {
	if c == nil {
		return ""
	}
	return c.p.URL() + bench.MarkPath
}

// mark returns the requests the proxy counted since the previous mark
// and starts a new count; -1 without a proxy or when the mark fails.
func (c *proxyCounter) mark() int64 {
	if c == nil {
		return -1
	}
	m, err := c.p.Mark()
	if err != nil {
		if c.err == nil {
			c.err = err
		}
		return -1
	}
	return m.Requests
}

// Close stops the proxy.
func (c *proxyCounter) Close() error { return c.p.Close() }

// printDatasetBench prints the table of bench-datasets: times, ratio and
// its spread, and the requests of the last run of each side.
func printDatasetBench(w io.Writer, ops []benchOp, res []opRounds) {
	fmt.Fprintf(w, "%-24s %12s %12s %8s %15s %9s %12s %12s\n", "operation", "lancego", "pylance", "ratio", "ratio spread",
		"requests", "proxy: ours", "pylance")
	for i, op := range ops {
		r := res[i]
		fmt.Fprintf(w, "%-24s %10.2fms %10.2fms %7.2fx %6.2fx-%6.2fx %9d %12s %12s\n", op.name(), r.ours*1e3, r.theirs*1e3,
			r.theirs/r.ours, r.lo, r.hi, r.reqs, countOrDash(r.proxyOurs), countOrDash(r.proxyTheirs))
	}
}

func countOrDash(n int64) string {
	if n < 0 {
		return "-"
	}
	return fmt.Sprint(n)
}
