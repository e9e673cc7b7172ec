package dataset

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// countingLock is a CommitLock over a mutex that records its use.
type countingLock struct {
	mu       sync.Mutex // the lock itself
	stats    sync.Mutex // guards the fields below
	versions []uint64
	unlocks  int
	held     bool
	fail     error // Lock fails with this when set
}

func (l *countingLock) Lock(ctx context.Context, v uint64) (func() error, error) {
	if l.fail != nil {
		return nil, l.fail
	}
	l.mu.Lock()
	l.stats.Lock()
	if l.held {
		l.stats.Unlock()
		return nil, errors.New("lock taken twice")
	}
	l.held = true
	l.versions = append(l.versions, v)
	l.stats.Unlock()
	once := sync.OnceValue(func() error {
		l.stats.Lock()
		l.held, l.unlocks = false, l.unlocks+1
		l.stats.Unlock()
		l.mu.Unlock()
		return nil
	})
	return once, nil
}

func (l *countingLock) counts() (locks, unlocks int, held bool) {
	l.stats.Lock()
	defer l.stats.Unlock()
	return len(l.versions), l.unlocks, l.held
}

// TestDatasetCommitLock commits through WithCommitLock: on mem:// (which
// cannot write conditionally) a create, an append and a delete each take
// the lock once and release it, and each returns its version; on a local dataset four concurrent appends serialized by
// the lock all commit, every lock is released, and every row is there
// once; a lock that fails fails the commit and leaves nothing.
func TestDatasetCommitLock(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	ml := &countingLock{}
	testMemDatasetLock(t, ml)
	if locks, unlocks, held := ml.counts(); locks != 3 || unlocks != 3 || held || !slices.Equal(ml.versions, []uint64{1, 2, 3}) {
		t.Fatalf("mem://: %d locks (versions %v), %d unlocks, held %v", locks, ml.versions, unlocks, held)
	}

	lock := &countingLock{}
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, all := rowsReader(t, mem, 0, 10, 10)
	ds, err := CreateDataset(ctx, dir, rdr, WithCommitLock(lock))
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for k := range errs {
		r, rows := rowsReader(t, mem, 1000*(k+1), 200, 50)
		all = append(all, rows...)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer r.Release()
			d, err := ds.Append(ctx, r, WithCommitLock(lock), WithMaxRowsPerFile(120))
			if err == nil {
				d.Close()
			}
			errs[k] = err
		}()
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			t.Fatalf("append %d: %v", k, err)
		}
	}
	locks, unlocks, held := lock.counts()
	if locks < 5 || unlocks != locks || held {
		t.Fatalf("%d locks (versions %v), %d unlocks, held %v", locks, lock.versions, unlocks, held)
	}
	checkLockedDataset(t, dir, all)

	before := listTree(t, dir)
	bad := &countingLock{fail: fmt.Errorf("lock service down")}
	rdr, _ = rowsReader(t, mem, 9000, 10, 10)
	_, err = ds.Append(ctx, rdr, WithCommitLock(bad))
	rdr.Release()
	if err == nil || !errors.Is(err, bad.fail) {
		t.Fatalf("append with a failing lock: %v", err)
	}
	if after := listTree(t, dir); !slices.Equal(before, after) {
		t.Fatalf("a failed lock left files:\n%v\n%v", before, after)
	}
}

// checkLockedDataset checks that the latest version of dir is version 5
// holding rows, each once.
func checkLockedDataset(t *testing.T, dir string, rows []wrow) {
	d, err := OpenDataset(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Version() != 5 {
		t.Fatalf("latest version %d, want 5", d.Version())
	}
	if got := readRows(t, d); !slices.Equal(got, sortRows(rows)) {
		t.Fatalf("read %d rows, want %d", len(got), len(rows))
	}
}

// testMemDatasetLock creates, appends to and deletes from a mem://
// dataset under lock. Each mem:// URL opens a fresh bucket, so this works
// only if the dataset a write returns reads through the store the write
// committed to; the datasets stay readable after the ones they came from
// are closed (they share the store until the last is closed).
func testMemDatasetLock(t *testing.T, lock CommitLock) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rdr, all := rowsReader(t, mem, 0, 10, 10)
	d1, err := CreateDataset(ctx, "mem://ds", rdr, WithCommitLock(lock))
	rdr.Release()
	if err != nil {
		t.Fatalf("mem:// create: %v", err)
	}
	rdr, rows := rowsReader(t, mem, 100, 20, 10)
	if _, err := d1.Append(ctx, rdr); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("mem:// append without a lock: %v, want ErrUnsupported", err)
	}
	d2, err := d1.Append(ctx, rdr, WithCommitLock(lock))
	rdr.Release()
	if err != nil {
		t.Fatalf("mem:// append: %v", err)
	}
	all = append(all, rows...)
	if err := d1.Close(); err != nil {
		t.Fatal(err)
	}
	d3, err := d2.Delete(ctx, "a < 5", WithCommitLock(lock))
	if err != nil {
		t.Fatalf("mem:// delete: %v", err)
	}
	if err := d2.Close(); err != nil || d2.Close() != nil {
		t.Fatalf("closing twice: %v", err)
	}
	defer d3.Close()
	if d3.Version() != 3 || !slices.Equal(readRows(t, d3), all[5:]) {
		t.Fatalf("mem:// version %d, rows %v", d3.Version(), readRows(t, d3))
	}
	vs, err := d3.Versions(ctx)
	if err != nil || len(vs) != 3 {
		t.Fatalf("mem:// versions %v, %v", vs, err)
	}
	old, err := d3.reopen(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if got := readRows(t, old); !slices.Equal(got, all[:10]) {
		t.Fatalf("mem:// version 1: %v", got)
	}
}
