package scheduler

import (
	"context"
	"sync/atomic"

	"golang.org/x/sync/semaphore"
)

// Limiter caps concurrent requests across every Scheduler that shares it.
// It is an explicit object, not package state: create one per process
// (NewLimiter(DefaultProcessMaxRequests)) and pass it in Config.Limiter.
type Limiter struct {
	sem   *semaphore.Weighted
	inUse atomic.Int64
}

// NewLimiter returns a limiter admitting n concurrent requests (n >= 1).
func NewLimiter(n int) *Limiter {
	return &Limiter{sem: semaphore.NewWeighted(int64(max(n, 1)))}
}

// InUse returns the number of requests currently holding a permit.
func (l *Limiter) InUse() int { return int(l.inUse.Load()) }

func (l *Limiter) acquire(ctx context.Context) error {
	if l == nil {
		return nil
	}
	if err := l.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	l.inUse.Add(1)
	return nil
}

func (l *Limiter) release() {
	if l != nil {
		l.inUse.Add(-1)
		l.sem.Release(1)
	}
}
