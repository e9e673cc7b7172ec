package searchcache

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func key(i int) Key { return Key{File: "f", Column: i, Page: 0, Kind: "chunks"} }

func TestEvictionByWeight(t *testing.T) {
	c := New(Config{MaxBytes: 1000})
	for i := range 10 {
		c.Put(key(i), i, 300) // only 3 fit
	}
	st := c.Stats()
	if st.Bytes != 900 || st.Entries != 3 || st.Evictions != 7 {
		t.Fatalf("stats = %+v, want 900 bytes, 3 entries, 7 evictions", st)
	}
	for i := 7; i < 10; i++ {
		if _, ok := c.Get(key(i)); !ok {
			t.Errorf("key %d evicted, want kept", i)
		}
	}
	c.Get(key(7))           // 7 becomes most recent
	c.Put(key(10), 10, 600) // must evict 8 and 9, keep 7? 7(300)+10(600)=900
	if _, ok := c.Get(key(7)); !ok {
		t.Error("recently used key 7 evicted")
	}
	if _, ok := c.Get(key(8)); ok {
		t.Error("LRU key 8 kept")
	}
	c.Put(key(11), 11, 5000) // larger than the bound: not stored
	if _, ok := c.Get(key(11)); ok || c.Stats().Bytes > 1000 {
		t.Errorf("oversized value stored; stats %+v", c.Stats())
	}
	if DefaultMaxBytes != 256<<20 || New(Config{}).max != DefaultMaxBytes {
		t.Error("default bound is not 256 MiB")
	}
}

func TestSingleFlight(t *testing.T) {
	c := New(Config{})
	var loads atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			v, err := GetOrLoad(context.Background(), c, key(1), func(ctx context.Context) ([]byte, int64, error) {
				loads.Add(1)
				<-release
				return []byte("abc"), 3, nil
			})
			if err != nil || string(v) != "abc" {
				t.Errorf("GetOrLoad = %q, %v", v, err)
			}
		})
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := loads.Load(); n != 1 {
		t.Fatalf("loads = %d, want 1", n)
	}
	if st := c.Stats(); st.Loads != 1 || st.Entries != 1 || st.Hits+st.Misses < 50 {
		t.Fatalf("stats = %+v", st)
	}
}

func TestWaiterCancel(t *testing.T) {
	c := New(Config{})
	started, release := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = GetOrLoad(context.Background(), c, key(1), func(ctx context.Context) (int, int64, error) {
			close(started)
			<-release
			return 1, 8, nil
		})
	}()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err := GetOrLoad(ctx, c, key(1), func(ctx context.Context) (int, int64, error) { return 2, 8, nil })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiter err = %v, want deadline exceeded", err)
	}
	close(release)
	<-done
}

func TestLeaderCancelFollowerRetries(t *testing.T) {
	c := New(Config{})
	lctx, lcancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	leaderDone := make(chan struct{})
	go func() {
		defer close(leaderDone)
		_, _ = GetOrLoad(lctx, c, key(1), func(ctx context.Context) (int, int64, error) {
			close(started)
			<-ctx.Done()
			return 0, 0, ctx.Err()
		})
	}()
	<-started
	res := make(chan error, 1)
	go func() {
		v, err := GetOrLoad(context.Background(), c, key(1), func(ctx context.Context) (int, int64, error) { return 42, 8, nil })
		if err == nil && v != 42 {
			err = fmt.Errorf("v = %d", v)
		}
		res <- err
	}()
	time.Sleep(5 * time.Millisecond)
	lcancel()
	<-leaderDone
	if err := <-res; err != nil {
		t.Fatalf("follower: %v", err)
	}
}

func TestErrorsNotCachedAndTypeMismatch(t *testing.T) {
	c := New(Config{})
	boom := errors.New("boom")
	_, err := GetOrLoad(context.Background(), c, key(1), func(ctx context.Context) (int, int64, error) { return 0, 0, boom })
	if !errors.Is(err, boom) || c.Stats().Entries != 0 {
		t.Fatalf("err = %v, entries %d", err, c.Stats().Entries)
	}
	if _, err := GetOrLoad(context.Background(), c, key(1), func(ctx context.Context) (int, int64, error) { return 1, 8, nil }); err != nil {
		t.Fatal(err)
	}
	_, err = GetOrLoad(context.Background(), c, key(1), func(ctx context.Context) (string, int64, error) { return "x", 1, nil })
	if !errors.Is(err, ErrTypeMismatch) {
		t.Fatalf("err = %v, want ErrTypeMismatch", err)
	}
}

func TestConcurrentMixed(t *testing.T) {
	c := New(Config{MaxBytes: 10_000})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				k := key((i * (g + 1)) % 97)
				v, err := GetOrLoad(context.Background(), c, k, func(ctx context.Context) (int, int64, error) {
					return k.Column, int64(100 + k.Column), nil
				})
				if err != nil || v != k.Column {
					t.Errorf("GetOrLoad(%v) = %d, %v", k, v, err)
					return
				}
				if i%50 == 0 {
					c.Remove(k)
				}
			}
		})
	}
	wg.Wait()
	if st := c.Stats(); st.Bytes > 10_000 || st.Bytes < 0 {
		t.Fatalf("bytes out of bound: %+v", st)
	}
}

func TestLoadPanicReleasesWaiters(t *testing.T) {
	c := New(Config{})
	func() {
		defer func() { _ = recover() }()
		_, _ = GetOrLoad(context.Background(), c, key(1), func(ctx context.Context) (int, int64, error) { panic("x") })
	}()
	v, err := GetOrLoad(context.Background(), c, key(1), func(ctx context.Context) (int, int64, error) { return 5, 1, nil })
	if err != nil || v != 5 {
		t.Fatalf("after panic: %d, %v", v, err)
	}
}
