package fileread

import (
	"context"
	"sync/atomic"

	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/scheduler"
)

// fileCounters are the reader's own counters.
type fileCounters struct {
	cacheHits, cacheMisses atomic.Int64
	// zone pruning of filtered scans (zones_scan.go)
	zonesTotal, zonesPruned, bytesSkipped atomic.Int64
}

// Stats reports what a file's reads cost.
type Stats struct {
	// Requests, BytesRead and Retries count requests to storage.
	Requests  int64 `json:"requests"`
	BytesRead int64 `json:"bytes_read"`
	Retries   int64 `json:"retries"`
	Failures  int64 `json:"failures"`
	// BytesRequested is what the scheduler asked for (gaps included) and
	// BytesUsed what decoders asked for; Coalesced counts merged ranges.
	BytesRequested int64 `json:"bytes_requested"`
	BytesUsed      int64 `json:"bytes_used"`
	Coalesced      int64 `json:"coalesced_ranges"`
	// RoundTrips sums, over the operations (Open, Take, a scan: Batches or
	// Scan) the file's scheduler served, the longest chain of requests
	// each of which waited for another's answer: what an operation pays
	// in first-byte latencies, however many requests each wave holds.
	// Operations counts those operations. Both are the scheduler's, so
	// shared by the files of a dataset or of one WithScheduler.
	RoundTrips int64 `json:"round_trips"`
	Operations int64 `json:"operations"`
	// LinkBandwidth is the bandwidth (bytes per second) the scheduler's
	// reads measured on the link, which its coalescing cost model plans
	// with; 0 until measured (scheduler.Stats.LinkBandwidth).
	LinkBandwidth int64 `json:"link_bandwidth"`
	// CacheHits and CacheMisses count page-metadata lookups.
	CacheHits   int64 `json:"cache_hits"`
	CacheMisses int64 `json:"cache_misses"`
	// ZonesTotal counts the zones filtered scans checked against zone
	// seeds, ZonesPruned those the seeds proved empty (never read), and
	// BytesSkipped estimates the page bytes not read because of pruning.
	ZonesTotal   int64 `json:"zones_total"`
	ZonesPruned  int64 `json:"zones_pruned"`
	BytesSkipped int64 `json:"bytes_skipped"`
	// LatencyBuckets counts requests by latency (upper bounds in
	// LatencyBoundsMillis; the last bucket is unbounded).
	LatencyBuckets      [lanceio.NumLatencyBuckets]int64       `json:"latency_buckets"`
	LatencyBoundsMillis [lanceio.NumLatencyBuckets - 1]float64 `json:"latency_bounds_ms"`
}

// Stats returns the file's I/O and cache counters. Requests and bytes are
// those of the file's storage statistics (shared if WithIOConfig passed a
// shared lanceio.Stats), and scheduler figures those of its scheduler.
func (f *File) Stats() Stats {
	var s Stats
	if f.cfg.IO.Stats != nil {
		io := f.cfg.IO.Stats.Snapshot()
		s.Requests, s.BytesRead, s.Retries, s.Failures = io.Requests, io.Bytes, io.Retries, io.Failures
		s.LatencyBuckets = io.Latency
	}
	for i, d := range lanceio.LatencyBounds() {
		s.LatencyBoundsMillis[i] = float64(d.Microseconds()) / 1000
	}
	src := f.src
	if ts, ok := src.(*tailSource); ok {
		src = ts.source
	}
	if os, ok := src.(*objectSource); ok {
		ss := os.sched.Stats()
		s.BytesRequested, s.BytesUsed, s.Coalesced = ss.BytesRequested, ss.BytesUsed, ss.Coalesced
		s.RoundTrips, s.Operations = ss.RoundTrips, ss.Operations
		s.LinkBandwidth = ss.LinkBandwidth
	}
	s.CacheHits, s.CacheMisses = f.stats.cacheHits.Load(), f.stats.cacheMisses.Load()
	s.ZonesTotal, s.ZonesPruned = f.stats.zonesTotal.Load(), f.stats.zonesPruned.Load()
	s.BytesSkipped = f.stats.bytesSkipped.Load()
	return s
}

// track starts the round-trip count of a public operation on f (see
// scheduler.Track): it returns the context to read with and the function
// to call when the operation returns, which adds its round trips (and the
// operation, even one served from memory) to f's scheduler's counters.
func (f *File) track(ctx context.Context) (context.Context, func()) {
	ctx, end := scheduler.Track(ctx)
	if os := f.objectSource(); os != nil {
		scheduler.Attach(ctx, os.sched)
	}
	return ctx, end
}
