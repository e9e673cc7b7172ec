package bench

import (
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"time"
)

// Engine names used as keys of Results.Figures.
const (
	EngineLanceGo = "lancego" // this repository's reader/writer
	EnginePylance = "pylance" // real Lance 14.0.2 through Python
	EnginePqarrow = "pqarrow" // Parquet through arrow-go
	EnginePyarrow = "pyarrow" // Parquet through pyarrow
)

// Measure is one engine's figure for one workload.
type Measure struct {
	// Seconds is the best (scan, write) or median (take, open) wall time of one run.
	Seconds float64 `json:"seconds"`
	// Rows is the number of rows one run produced or consumed.
	Rows int `json:"rows,omitempty"`
	// RowsPerSec is Rows / Seconds.
	RowsPerSec float64 `json:"rows_per_sec,omitempty"`
	// GBPerSec is the decoded Arrow size of the rows (same for every
	// engine) / Seconds, in 1e9 bytes per second.
	GBPerSec float64 `json:"decoded_gb_per_sec,omitempty"`
	// P90Seconds is the 90th percentile of repeated runs (take, open).
	P90Seconds float64 `json:"p90_seconds,omitempty"`
	// Requests and BytesRead are per run, counted by our reader's stats
	// locally and at the proxy on the object store (-1 when unknown).
	Requests  float64 `json:"requests,omitempty"`
	BytesRead float64 `json:"bytes_read,omitempty"`
	// RoundTrips is per run, counted by our reader (File.Stats): the
	// longest chain of requests that waited for another's answer.
	RoundTrips float64 `json:"round_trips,omitempty"`
	// ColdRoundTrips is the round trips of one take on a File just opened
	// (no page metadata cached yet), the open's own not counted (S3 takes).
	ColdRoundTrips float64 `json:"cold_round_trips,omitempty"`
	// FileBytes is the size on disk (write).
	FileBytes int64 `json:"file_bytes,omitempty"`
	// MinSeconds and MaxSeconds are the spread of the timed runs, and
	// Runs their count (write: Seconds is their median, after warm-ups).
	MinSeconds float64 `json:"min_seconds,omitempty"`
	MaxSeconds float64 `json:"max_seconds,omitempty"`
	Runs       int     `json:"runs,omitempty"`
	// TmpfsSeconds is the median write to a tmpfs folder, where fsync
	// costs nothing: Seconds - TmpfsSeconds is what durability costs.
	TmpfsSeconds float64 `json:"tmpfs_seconds,omitempty"`
	// SyncedSeconds is our median write with Close's fsync of the file
	// and folder (the default) where Seconds is without it (writecols):
	// the difference is what durability costs.
	SyncedSeconds float64 `json:"synced_seconds,omitempty"`
	// PeakHeapBytes is the peak live heap above the start of the run
	// (lancego scans in the memory check only).
	PeakHeapBytes int64 `json:"peak_heap_bytes,omitempty"`
	// CPU milliseconds per request of the reader's process, the proxy's
	// and the S3 server's during the timed part (S3 takes; 0: unknown).
	ClientCPUms float64 `json:"client_cpu_ms_per_request,omitempty"`
	ProxyCPUms  float64 `json:"proxy_cpu_ms_per_request,omitempty"`
	ServerCPUms float64 `json:"server_cpu_ms_per_request,omitempty"`
}

// setCPU records CPU seconds used during n requests as milliseconds per
// request (nil readings stay unknown).
func (m *Measure) setCPU(n int64, client, proxy, server *float64) {
	if n <= 0 {
		return
	}
	per := func(s *float64) float64 {
		if s == nil {
			return 0
		}
		return *s * 1000 / float64(n)
	}
	m.ClientCPUms, m.ProxyCPUms, m.ServerCPUms = per(client), per(proxy), per(server)
}

// fill computes the rates of m from its time, rows and decoded bytes.
func (m Measure) fill(decoded int64) Measure {
	if m.Seconds > 0 {
		m.RowsPerSec = float64(m.Rows) / m.Seconds
		if decoded > 0 {
			m.GBPerSec = float64(decoded) / m.Seconds / 1e9
		}
	}
	return m
}

// fromTimes builds a Measure from repeated run times (median and p90).
func fromTimes(times []float64, rows int) Measure {
	if len(times) == 0 {
		return Measure{}
	}
	s := slices.Clone(times)
	slices.Sort(s)
	p90 := s[min(len(s)-1, int(math.Ceil(0.9*float64(len(s))))-1)]
	return Measure{Seconds: median(s), P90Seconds: p90, Rows: rows}.fill(0)
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// Repeat says how many timed runs a measurement takes: at least Min, and
// more while the timed runs so far total under MinSeconds, up to Max.
// Every engine's scans of a run use the same Repeat, so a fast scan is
// timed often enough for its best run to be a steady one on a noisy
// machine (ten runs of a 1 ms scan gave 1.0 ms in one run and 1.4 ms in
// the next).
type Repeat struct {
	Min        int
	MinSeconds float64
	Max        int
}

// more reports whether a timed run follows i runs that took spent seconds.
func (r Repeat) more(i int, spent float64) bool {
	return i < max(1, r.Min) || (spent < r.MinSeconds && i < r.Max)
}

// op adds the repeat rule to a Python driver operation.
func (r Repeat) op(op PyOp) PyOp {
	op["reps"], op["min_seconds"], op["max_reps"] = r.Min, r.MinSeconds, r.Max
	return op
}

// timeBest runs f as rep says and returns the fastest wall time, after a
// GC before each run (as testing.B does).
func timeBest(rep Repeat, f func() error) (float64, error) {
	best, spent := math.Inf(1), 0.0
	for i := 0; rep.more(i, spent); i++ {
		runtime.GC()
		t0 := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		d := time.Since(t0).Seconds()
		best, spent = min(best, d), spent+d
	}
	return best, nil
}

// ratio returns a/b, or 0 when either is unknown.
func ratio(a, b float64) float64 {
	if a <= 0 || b <= 0 || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return 0
	}
	return a / b
}

// speedup is how many times faster ours is than peer (>1: we are faster).
func speedup(ours, peer Measure) float64 {
	if ours.RowsPerSec > 0 && peer.RowsPerSec > 0 {
		return ours.RowsPerSec / peer.RowsPerSec
	}
	return ratio(peer.Seconds, ours.Seconds)
}

// warmPageCache reads path through once, so that the OS page cache holds
// all of it before a timed run. Local figures are for a warm page cache;
// this VM's memory manager evicts pages of files left idle, and a random
// take then pays disk reads for rows a scan never touched (the engine
// timed first paid them, the next read the pages it had brought in).
func warmPageCache(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	buf := make([]byte, 4<<20)
	for {
		_, err := f.Read(buf)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
