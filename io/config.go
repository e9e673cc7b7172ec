package lanceio

import (
	"net/http"
	"time"
)

// Defaults used when the matching Config field is zero.
const (
	// DefaultMaxAttempts is the number of attempts (first try included) for
	// one request before a retryable error is returned.
	DefaultMaxAttempts = 4
	// DefaultBaseDelay is the backoff cap of the first retry; the cap doubles
	// for each further attempt and the actual sleep is uniform in [0, cap)
	// ("full jitter").
	DefaultBaseDelay = 50 * time.Millisecond
	// DefaultMaxDelay bounds the backoff cap of any single retry.
	DefaultMaxDelay = 2 * time.Second
	// DefaultRetryDeadline bounds the total time spent on one logical
	// request including all retries and sleeps.
	DefaultRetryDeadline = 2 * time.Minute
	// DefaultAttemptTimeout bounds one attempt; an attempt that times out is
	// retried as a transient fault.
	DefaultAttemptTimeout = 60 * time.Second
	// DefaultTailSize is the size of the speculative tail read used to open
	// a Lance file in one request (Lance's cloud block size).
	DefaultTailSize = 64 << 10
	// DefaultMaxIdleConnsPerHost is how many idle connections the S3 and
	// GCS clients keep per host: more than the reads a process runs at once
	// (scheduler.DefaultProcessMaxRequests), so the connections of one
	// burst of reads serve the next. The AWS SDK keeps 10: a take issuing
	// 64 reads at once then closed 54 connections and opened 54 new ones
	// for its next burst (a TCP, on real S3 also a TLS, handshake each).
	DefaultMaxIdleConnsPerHost = 512
)

// Config configures a Store. The zero value uses the Default* constants.
// The retry settings (MaxAttempts, BaseDelay, MaxDelay) govern reads and
// deletes everywhere and S3 uploads too (the SDK's retries, paced by
// them); GCS and Azure uploads retry as their SDKs do.
type Config struct {
	// MaxAttempts is the number of attempts per request (>= 1).
	// Zero means DefaultMaxAttempts.
	MaxAttempts int
	// BaseDelay is the first backoff cap. Zero means DefaultBaseDelay.
	BaseDelay time.Duration
	// MaxDelay bounds one backoff cap. Zero means DefaultMaxDelay.
	MaxDelay time.Duration
	// RetryDeadline bounds one request including retries.
	// Zero means DefaultRetryDeadline; negative means no bound.
	RetryDeadline time.Duration
	// AttemptTimeout bounds one attempt. Zero means DefaultAttemptTimeout;
	// negative means no bound.
	AttemptTimeout time.Duration
	// HTTPClient, if set, is used for S3 and GCS requests (tests inject
	// fault-injecting transports here). Azure ignores it.
	HTTPClient *http.Client
	// Stats, if set, receives the counters of every request made through
	// the store; share one *Stats to aggregate across stores. Nil gives the
	// store a private collector.
	Stats *Stats
	// NoMmap makes local files serve every read with pread: their Objects
	// then never lend views (Viewer.View fails with ErrUnsupported). By
	// default a local file is memory-mapped on its first View.
	NoMmap bool
	// NoSignedReads makes every S3 read a GetObject call through the AWS
	// SDK. By default an object's reads share one presigned GET URL
	// (signed through gocloud, renewed every few minutes) and send plain
	// ranged GETs, about a third of the client CPU a read; a store that
	// refuses a freshly signed URL (a bucket policy may deny query-string
	// authentication) is read through the SDK from then on, the refused
	// read included.
	NoSignedReads bool
}

func (c Config) withDefaults() Config {
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = DefaultMaxAttempts
	}
	if c.BaseDelay <= 0 {
		c.BaseDelay = DefaultBaseDelay
	}
	if c.MaxDelay <= 0 {
		c.MaxDelay = DefaultMaxDelay
	}
	if c.RetryDeadline == 0 {
		c.RetryDeadline = DefaultRetryDeadline
	}
	if c.AttemptTimeout == 0 {
		c.AttemptTimeout = DefaultAttemptTimeout
	}
	if c.Stats == nil {
		c.Stats = NewStats()
	}
	return c
}

// keepIdleConns keeps up to DefaultMaxIdleConnsPerHost idle connections
// per host (see there).
func keepIdleConns(t *http.Transport) {
	t.MaxIdleConnsPerHost = DefaultMaxIdleConnsPerHost
	t.MaxIdleConns = max(t.MaxIdleConns, DefaultMaxIdleConnsPerHost)
}

// idleKeepingTransport is a copy of Go's default transport that keeps
// DefaultMaxIdleConnsPerHost idle connections per host.
func idleKeepingTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	keepIdleConns(t)
	return t
}
