package scheduler

import "context"

// Limiter caps concurrent requests across every Scheduler that shares it.
// It is an explicit object, not package state: create one per process
// (NewLimiter(DefaultProcessMaxRequests)) and pass it in Config.Limiter.
type Limiter struct {
	sem chan struct{}
}

// NewLimiter returns a limiter admitting n concurrent requests (n >= 1).
func NewLimiter(n int) *Limiter {
	return &Limiter{sem: make(chan struct{}, max(n, 1))}
}

// InUse returns the number of requests currently holding a permit.
func (l *Limiter) InUse() int { return len(l.sem) }

func (l *Limiter) acquire(ctx context.Context) error {
	if l == nil {
		return nil
	}
	select {
	case l.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *Limiter) release() {
	if l != nil {
		<-l.sem
	}
}
