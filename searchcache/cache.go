// Package searchcache is the process-wide, byte-weighted LRU for decoded
// per-column metadata (chunk tables, dictionaries, repetition indices, file
// metadata). Create one Cache per process and share it among readers;
// concurrent misses for the same key run one load (single-flight).
package searchcache

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// DefaultMaxBytes is the default bound on the summed size of cached values.
const DefaultMaxBytes = 256 << 20

// Config configures a Cache.
type Config struct {
	// MaxBytes bounds the summed sizes of all values; least recently used
	// values are evicted until the total fits. Zero means DefaultMaxBytes.
	MaxBytes int64
}

// Key identifies one cached value. File should be a stable version key of
// the file (lanceio.Identity.String()), so a rewritten file never hits stale
// entries. Kind names the kind of value ("chunks", "dict", "repidx", ...).
type Key struct {
	File   string
	Column int
	Page   int
	Kind   string
}

// Stats is a snapshot of cache counters.
type Stats struct {
	Hits      int64 // lookups served from the cache (including after waiting on a load)
	Misses    int64 // lookups that found nothing and started or joined a load
	Loads     int64 // load functions run
	Evictions int64 // values evicted to respect MaxBytes
	Bytes     int64 // summed size of cached values
	Entries   int64 // number of cached values
}

// Cache is a byte-weighted LRU with single-flight loads; safe for
// concurrent use.
type Cache struct {
	max     int64
	mu      sync.Mutex
	lru     *simplelru.LRU[Key, entry]
	bytes   int64
	flights map[Key]*flight

	hits, misses, loads, evictions atomic.Int64
}

type entry struct {
	val  any
	size int64
}

// flight is one in-progress load; done is closed when val/err are set.
//
// This is not golang.org/x/sync/singleflight on purpose (issue #15 looked):
// the LRU lookup and joining or starting a flight happen under the one
// c.mu, so a load that finishes in between cannot start a second one (with
// singleflight the cache would need a second lookup inside Do and a
// second lock); a loader that panics releases its waiters with
// ErrLoadPanicked while the panic goes on in the leader (singleflight's
// DoChan re-panics in a new goroutine, crashing the process); and a waiter
// whose leader was cancelled retries with its own context. None of that is
// simpler with singleflight, so it stays.
type flight struct {
	done chan struct{}
	val  any
	err  error
}

// New returns an empty cache.
func New(cfg Config) *Cache {
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	c := &Cache{max: cfg.MaxBytes, flights: make(map[Key]*flight)}
	// Entry count is unbounded; weight is enforced in add.
	l, _ := simplelru.NewLRU[Key, entry](math.MaxInt32, c.onEvict)
	c.lru = l
	return c
}

// onEvict runs under c.mu for every removal (eviction or Remove).
func (c *Cache) onEvict(_ Key, e entry) { c.bytes -= e.size }

// Get returns the cached value for key.
func (c *Cache) Get(key Key) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.lru.Get(key)
	if ok {
		c.hits.Add(1)
	}
	return e.val, ok
}

// Put stores val with its size in bytes, evicting least recently used
// values until the total fits. A value larger than MaxBytes is not stored.
func (c *Cache) Put(key Key, val any, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.add(key, val, size)
}

func (c *Cache) add(key Key, val any, size int64) {
	c.lru.Remove(key)
	if size > c.max {
		return
	}
	c.lru.Add(key, entry{val: val, size: size})
	c.bytes += size
	for c.bytes > c.max {
		if _, _, ok := c.lru.RemoveOldest(); !ok {
			break
		}
		c.evictions.Add(1)
	}
}

// Remove drops key if cached.
func (c *Cache) Remove(key Key) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Remove(key)
}

// Stats returns current counters.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	b, n := c.bytes, int64(c.lru.Len())
	c.mu.Unlock()
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Loads: c.loads.Load(),
		Evictions: c.evictions.Load(), Bytes: b, Entries: n}
}

// GetOrLoad returns the value cached under key, or runs load once for all
// concurrent callers missing the same key and caches its result (errors
// are not cached). A waiting caller returns early with ctx's error when
// ctx ends; if the loading caller's context ends, a waiting caller whose
// context is still live retries the load itself. load runs on the calling
// goroutine.
func GetOrLoad[V any](ctx context.Context, c *Cache, key Key, load func(ctx context.Context) (V, int64, error)) (V, error) {
	var zero V
	for {
		v, f, leader := c.lookup(key)
		if f == nil {
			return typed[V](v)
		}
		if leader {
			return lead(ctx, c, key, f, load)
		}
		select {
		case <-f.done:
		case <-ctx.Done():
			return zero, ctx.Err()
		}
		if f.err == nil {
			c.hits.Add(1)
			return typed[V](f.val)
		}
		if ctx.Err() == nil && isContextErr(f.err) {
			continue // the leader gave up; try again ourselves
		}
		return zero, f.err
	}
}

// lookup returns a cached value (f == nil), or the flight to wait for,
// creating it (leader) if none is running.
func (c *Cache) lookup(key Key) (any, *flight, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.lru.Get(key); ok {
		c.hits.Add(1)
		return e.val, nil, false
	}
	c.misses.Add(1)
	if f, ok := c.flights[key]; ok {
		return nil, f, false
	}
	f := &flight{done: make(chan struct{})}
	c.flights[key] = f
	return nil, f, true
}

func lead[V any](ctx context.Context, c *Cache, key Key, f *flight, load func(context.Context) (V, int64, error)) (V, error) {
	c.loads.Add(1)
	finished := false
	defer func() {
		if !finished { // load panicked: release the waiters, then keep panicking
			c.finish(key, f, nil, 0, ErrLoadPanicked)
		}
	}()
	v, size, err := load(ctx)
	if err == nil && size < 0 {
		err = fmt.Errorf("%w: %d for %+v", ErrNegativeSize, size, key)
	}
	finished = true
	c.finish(key, f, v, size, err)
	return v, err
}

// finish publishes a load result to the cache and to waiting callers.
func (c *Cache) finish(key Key, f *flight, v any, size int64, err error) {
	c.mu.Lock()
	delete(c.flights, key)
	if err == nil {
		c.add(key, v, size)
	}
	c.mu.Unlock()
	f.val, f.err = v, err
	close(f.done)
}

func typed[V any](v any) (V, error) {
	t, ok := v.(V)
	if !ok {
		var zero V
		return zero, fmt.Errorf("%w: have %T, want %T", ErrTypeMismatch, v, zero)
	}
	return t, nil
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
