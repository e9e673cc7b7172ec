package lanceio

import (
	"context"
	"math/rand/v2"
	"time"
)

// attemptFunc performs one attempt of an operation with a context bounded by
// the per-attempt timeout. Reads make progress across attempts by closing
// over their own offset.
type attemptFunc func(ctx context.Context) error

// run executes attempt until it succeeds, fails with a non-retryable error,
// exhausts cfg.MaxAttempts, or would exceed cfg.RetryDeadline. Failures are
// returned as op with Class, Err and Attempts filled in.
func run(ctx context.Context, cfg Config, op *OpError, attempt attemptFunc) error {
	start := time.Now()
	for n := 1; ; n++ {
		if ctx.Err() != nil {
			return fail(cfg, op, n-1, ErrCanceled, canceledError(ctx))
		}
		err := runOnce(ctx, cfg, attempt)
		if err == nil {
			return nil
		}
		class := classify(ctx, err)
		if class == ErrCanceled {
			return fail(cfg, op, n, class, canceledError(ctx))
		}
		d := backoff(cfg, n)
		if !retryable(class) || n >= cfg.MaxAttempts || pastDeadline(cfg, start, d) {
			return fail(cfg, op, n, class, err)
		}
		cfg.Stats.retries.Add(1)
		if sleep(ctx, d) != nil {
			return fail(cfg, op, n, ErrCanceled, canceledError(ctx))
		}
	}
}

func runOnce(ctx context.Context, cfg Config, attempt attemptFunc) error {
	if cfg.AttemptTimeout <= 0 {
		return attempt(ctx)
	}
	actx, cancel := context.WithTimeout(ctx, cfg.AttemptTimeout)
	defer cancel()
	return attempt(actx)
}

func fail(cfg Config, op *OpError, attempts int, class, err error) error {
	cfg.Stats.failures.Add(1)
	op.Attempts, op.Class, op.Err = attempts, class, err
	return op
}

// backoff returns the full-jitter sleep before attempt n+1: uniform in
// [0, min(MaxDelay, BaseDelay*2^(n-1))).
func backoff(cfg Config, n int) time.Duration {
	c := cfg.BaseDelay
	for i := 1; i < n && c < cfg.MaxDelay; i++ {
		c *= 2
	}
	c = min(c, cfg.MaxDelay)
	if c <= 0 {
		return 0
	}
	return rand.N(c)
}

func pastDeadline(cfg Config, start time.Time, d time.Duration) bool {
	return cfg.RetryDeadline > 0 && time.Since(start)+d > cfg.RetryDeadline
}

// sleep waits for d or until ctx is done, returning ctx.Err() in the latter
// case. It starts no goroutine.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
