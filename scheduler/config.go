// Package scheduler turns byte ranges into few, well-sized, concurrent reads
// of a lanceio.Object: it coalesces nearby ranges, splits large ones, serves
// requests in priority order, and bounds requests and bytes in flight (bytes
// are returned only when the consumer releases the delivered buffers, which
// is the backpressure). It follows Lance's ScanScheduler/FileScheduler; see
// shared/spec/io-scheduler.md.
package scheduler

import "time"

// Defaults (Lance's own numbers).
const (
	// DefaultCoalesceGapObjectStore merges ranges at most this far apart on
	// object stores (Lance's cloud block size).
	DefaultCoalesceGapObjectStore = 64 << 10
	// DefaultCoalesceGapLocal merges ranges at most this far apart locally.
	DefaultCoalesceGapLocal = 4 << 10
	// DefaultMaxRequestSize is the largest single request; longer merged
	// ranges are split into near-equal parts read in parallel.
	DefaultMaxRequestSize = 16 << 20
	// DefaultMaxRequestSizeLocal is the largest single read of a local
	// file. Smaller than on object stores, where each request costs a
	// round trip: a local read costs only its copy, and splitting an 8 MiB
	// page in two lets two cores copy it (one pread of a page is serial
	// work every batch of a scan waits for; measured, the first batch of a
	// one-page column came ~0.6 ms sooner on the 2-core benchmark machine).
	DefaultMaxRequestSizeLocal = 4 << 20
	// DefaultMaxInFlightRequestsObjectStore is the per-scheduler request
	// parallelism on object stores: a take or scan issues up to this many
	// reads in one round trip, so it is what a take of many rows costs in
	// round trips. 256, not Lance's 64: behind a 100 ms proxy a take of
	// 100 table rows (360 reads) fell from 663 to 298 ms and one of 10,000
	// vectors (3,250 reads) from 5.4 to 1.9 s, with no change at 20 ms
	// (docs/benchmarks.md, session 30).
	DefaultMaxInFlightRequestsObjectStore = 256
	// DefaultMaxInFlightRequestsLocal is the per-scheduler request
	// parallelism on local files.
	DefaultMaxInFlightRequestsLocal = 8
	// DefaultProcessMaxRequests is the suggested size of the one
	// process-wide Limiter (see NewLimiter).
	DefaultProcessMaxRequests = 256
	// DefaultMaxInFlightBytes bounds bytes read but not yet released by the
	// consumer (Lance's dataset-scan default of 2 GiB; lower it on small
	// machines).
	DefaultMaxInFlightBytes = 2 << 30
	// DefaultFirstByteLatencyObjectStore and DefaultBandwidthObjectStore
	// are the coalescing cost model of object stores (S3, GCS, Azure):
	// a request's first byte takes ~20 ms (same-region S3 and GCS take
	// 15-100 ms), and the link carries ~1 GiB/s across its connections
	// until the scheduler has measured it.
	// With 64 requests overlapping (the most the cost model counts, see
	// plan.go), a gap of up to 20 ms × 1 GiB/s / 64 = 320 KiB costs less
	// to read than one more request.
	DefaultFirstByteLatencyObjectStore = 20 * time.Millisecond
	DefaultBandwidthObjectStore        = 1 << 30
	// DefaultMaxReadAmplification bounds the bytes read against the bytes
	// needed when the cost model merges gaps beyond CoalesceGap.
	DefaultMaxReadAmplification = 1.25
)

// Config configures a Scheduler. Zero fields take the object-store
// defaults, except the coalescing cost model's (FirstByteLatency,
// Bandwidth: zero turns it off); use ObjectStoreConfig or LocalConfig for
// every default of a store kind.
type Config struct {
	// CoalesceGap merges two ranges when the gap between them is at most
	// this many bytes (with a cost model: while reading it shortens the
	// modelled time, see FirstByteLatency). Zero means
	// DefaultCoalesceGapObjectStore; negative means merge only
	// overlapping or touching ranges.
	CoalesceGap int64
	// FirstByteLatency and Bandwidth are the coalescing cost model: reading
	// a gap of g bytes costs g / Bandwidth (bytes per second), another
	// request FirstByteLatency, shared by the MaxInFlightRequests whose
	// waits overlap; the larger of the bytes' and the requests' time
	// bounds a request's (plan.go, readTime). With both set, gaps are read
	// the smallest first while that shortens the modelled time: those of
	// up to CoalesceGap, and larger ones of up to FirstByteLatency ×
	// Bandwidth / MaxInFlightRequests bytes while the bytes read also stay
	// within MaxReadAmplification times the bytes needed. Bandwidth is
	// where the model starts: once the scheduler's reads have measured the
	// link (link.go, Stats.LinkBandwidth), it plans with that instead.
	// Zero (LocalConfig's: a local read has no first byte to wait for)
	// means no cost model: gaps of up to CoalesceGap are read, no others.
	// ObjectStoreConfig sets DefaultFirstByteLatencyObjectStore and
	// DefaultBandwidthObjectStore.
	FirstByteLatency time.Duration
	Bandwidth        int64
	// MaxReadAmplification bounds bytes read / bytes needed for the cost
	// model's merges (gaps up to CoalesceGap are merged regardless); below
	// 1 means DefaultMaxReadAmplification.
	MaxReadAmplification float64
	// MaxRequestSize splits merged ranges longer than this. Zero means
	// DefaultMaxRequestSize.
	MaxRequestSize int64
	// MaxInFlightRequests bounds concurrent reads of this scheduler. Zero
	// means DefaultMaxInFlightRequestsObjectStore.
	MaxInFlightRequests int
	// MaxInFlightBytes bounds bytes requested but not released. A request
	// whose priority is not above every in-flight request is admitted even
	// beyond the budget (as in Lance), so a small budget cannot deadlock.
	// Zero means DefaultMaxInFlightBytes.
	MaxInFlightBytes int64
	// Limiter is the process-wide request cap shared by all schedulers.
	// Create ONE with NewLimiter(DefaultProcessMaxRequests) and pass it to
	// every scheduler; nil means no process-wide cap.
	Limiter *Limiter
	// Buffers, when set, provides the read buffers of requests submitted
	// with SubmitPooled and takes them back from Pending.Recycle (see
	// BufferAllocator); other requests read into plain Go memory, left to
	// the garbage collector.
	Buffers BufferAllocator
}

// BufferAllocator is where a scheduler's read buffers come from. Its
// AllocateUninit returns size bytes with unspecified contents (a read
// overwrites them all); Free takes back a buffer no one refers to any
// more. The reader's buffer pool (internal/bufpool) is one.
type BufferAllocator interface {
	AllocateUninit(size int) []byte
	Free(b []byte)
}

// ObjectStoreConfig returns the defaults for object stores.
func ObjectStoreConfig(l *Limiter) Config {
	return Config{
		CoalesceGap:         DefaultCoalesceGapObjectStore,
		MaxRequestSize:      DefaultMaxRequestSize,
		MaxInFlightRequests: DefaultMaxInFlightRequestsObjectStore,
		MaxInFlightBytes:    DefaultMaxInFlightBytes,
		Limiter:             l,

		FirstByteLatency:     DefaultFirstByteLatencyObjectStore,
		Bandwidth:            DefaultBandwidthObjectStore,
		MaxReadAmplification: DefaultMaxReadAmplification,
	}
}

// LocalConfig returns the defaults for local files.
func LocalConfig(l *Limiter) Config {
	c := ObjectStoreConfig(l)
	c.CoalesceGap = DefaultCoalesceGapLocal
	c.MaxInFlightRequests = DefaultMaxInFlightRequestsLocal
	c.MaxRequestSize = DefaultMaxRequestSizeLocal
	c.FirstByteLatency, c.Bandwidth = 0, 0 // pread-sized requests
	return c
}

// CostModel reports whether c merges ranges by the coalescing cost model
// (FirstByteLatency and Bandwidth set, as ObjectStoreConfig does): a
// request then costs a first-byte wait, so callers gain by handing the
// scheduler more ranges at once to merge (a scan submits the pages of
// all its columns together), where locally each read stays its own.
func (c Config) CostModel() bool { return breakEvenGap(c.withDefaults()) > 0 }

func (c Config) withDefaults() Config {
	d := ObjectStoreConfig(c.Limiter)
	if c.CoalesceGap == 0 {
		c.CoalesceGap = d.CoalesceGap
	}
	if c.CoalesceGap < 0 {
		c.CoalesceGap = 0
	}
	if c.MaxRequestSize <= 0 {
		c.MaxRequestSize = d.MaxRequestSize
	}
	if c.MaxInFlightRequests <= 0 {
		c.MaxInFlightRequests = d.MaxInFlightRequests
	}
	if c.MaxInFlightBytes <= 0 {
		c.MaxInFlightBytes = d.MaxInFlightBytes
	}
	return c
}
