package lanceio

import (
	"sync/atomic"
	"time"
)

// NumLatencyBuckets is the number of latency histogram buckets: one per
// bound of LatencyBounds plus one for everything slower.
const NumLatencyBuckets = 13

// LatencyBounds returns the upper bounds of the latency histogram buckets.
func LatencyBounds() [NumLatencyBuckets - 1]time.Duration {
	return [...]time.Duration{
		time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond,
		10 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond,
		100 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond,
		time.Second, 2 * time.Second, 5 * time.Second,
	}
}

// Stats collects request counters with atomics; it is safe for concurrent
// use. Create one with NewStats and pass it in Config.Stats to share it
// across stores, or read a store's own with Store.Stats.
type Stats struct {
	requests atomic.Int64
	bytes    atomic.Int64
	retries  atomic.Int64
	failures atomic.Int64
	latency  [NumLatencyBuckets]atomic.Int64
}

// StatsSnapshot is a point-in-time copy of Stats.
type StatsSnapshot struct {
	// Requests counts attempts sent to the backend (GET/HEAD/pread), retries
	// included.
	Requests int64
	// Bytes counts payload bytes received.
	Bytes int64
	// Retries counts attempts that were repeated after a retryable error.
	Retries int64
	// Failures counts logical operations that returned an error.
	Failures int64
	// Latency[i] counts attempts with latency <= LatencyBounds()[i] (and
	// above the previous bound); the last element counts the rest.
	Latency [NumLatencyBuckets]int64
}

// NewStats returns an empty collector.
func NewStats() *Stats { return &Stats{} }

// Snapshot returns the current counters.
func (s *Stats) Snapshot() StatsSnapshot {
	var out StatsSnapshot
	out.Requests = s.requests.Load()
	out.Bytes = s.bytes.Load()
	out.Retries = s.retries.Load()
	out.Failures = s.failures.Load()
	for i := range s.latency {
		out.Latency[i] = s.latency[i].Load()
	}
	return out
}

// observe records one attempt.
func (s *Stats) observe(d time.Duration, n int) {
	s.requests.Add(1)
	s.bytes.Add(int64(n))
	bounds := LatencyBounds()
	i := 0
	for i < len(bounds) && d > bounds[i] {
		i++
	}
	s.latency[i].Add(1)
}
