package dataset

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
)

// fakeFragScan returns a fragScanFunc whose fragment i yields batches
// of one int64 value i*1000+j (j < perFrag) after random short sleeps,
// failing at fragment fail (-1: never) after its first batch.
func fakeFragScan(mem memory.Allocator, perFrag, fail int) fragScanFunc {
	return func(ctx context.Context, r fragRange, emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) bool {
		rng := rand.New(rand.NewPCG(uint64(r.idx), 7))
		schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)
		for j := range perFrag {
			if r.idx == fail && j == 1 {
				yield(nil, fmt.Errorf("fragment %d failed", r.idx))
				return false
			}
			time.Sleep(time.Duration(rng.IntN(300)) * time.Microsecond)
			b := array.NewInt64Builder(mem)
			b.Append(int64(r.idx*1000 + j))
			a := b.NewArray()
			b.Release()
			rec := array.NewRecordBatch(schema, []arrow.Array{a}, 1)
			a.Release()
			if !emit(rec) {
				return false
			}
		}
		return true
	}
}

// TestScanRangesAhead checks the read-ahead of fragments: batches come in
// fragment order whatever the depth, an error comes after the batches
// before it, and a consumer stopping early leaves no batch unreleased
// (every goroutine has ended: the checked allocator is empty on return).
func TestScanRangesAhead(t *testing.T) {
	ctx := context.Background()
	ranges := make([]fragRange, 9)
	for i := range ranges {
		ranges[i] = fragRange{idx: i}
	}
	for _, ahead := range []int{0, 1, 4, 20} {
		for _, c := range []struct {
			name       string
			fail, stop int // stop after that many batches (-1: never)
		}{{"all", -1, -1}, {"error", 5, -1}, {"stop", -1, 7}, {"stop at once", -1, 1}} {
			t.Run(fmt.Sprintf("ahead %d/%s", ahead, c.name), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				var got []int64
				var gotErr error
				warmed := 0
				emit := func(rec arrow.RecordBatch) bool {
					defer rec.Release()
					got = append(got, rec.Column(0).(*array.Int64).Value(0))
					return c.stop < 0 || len(got) < c.stop
				}
				yield := func(_ arrow.RecordBatch, err error) bool { gotErr = err; return false }
				scanRangesAhead(ctx, ranges, aheadPolicy{max: ahead}, fakeFragScan(mem, 3, c.fail), func(int) { warmed++ }, emit, yield)
				mem.AssertSize(t, 0)
				var want []int64
				for i := range ranges {
					for j := range 3 {
						if i == c.fail && j == 1 {
							break
						}
						want = append(want, int64(i*1000+j))
					}
					if i == c.fail {
						break
					}
				}
				if c.stop > 0 {
					want = want[:c.stop]
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("batches %v, want %v", got, want)
				}
				if (c.fail >= 0) != (gotErr != nil) {
					t.Errorf("error %v, want one: %v", gotErr, c.fail >= 0)
				}
				if c.stop < 0 && c.fail < 0 && warmed != len(ranges) {
					t.Errorf("warm called %d times, want %d", warmed, len(ranges))
				}
			})
		}
	}
}

// TestScanRangesAheadDataset scans the committed datasets fragment by
// fragment at several read-ahead depths and checks the rows equal a
// sequential scan's, and that a cancelled context ends the scan with its
// error.
func TestScanRangesAheadDataset(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"small", "stable_small"} {
		url := filepath.Join("..", "..", "testdata", "datasets", name)
		exp := loadExpectedDataset(t, url+".expected.json")
		last := exp.Versions[len(exp.Versions)-1]
		ds, err := OpenDataset(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		ro := ReadOptions{WithRowID: true, WithRowAddress: true}
		p, err := ds.project(ro)
		if err != nil {
			t.Fatal(err)
		}
		ranges := make([]fragRange, len(ds.frags))
		for i, f := range ds.frags {
			ranges[i] = fragRange{i, 0, f.ref.PhysicalRows}
		}
		scan := func(ctx context.Context, r fragRange, emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) bool {
			return ds.scanFragment(ctx, r, p, 3, emit, yield)
		}
		for _, ahead := range []int{0, 2, 8} {
			var recs []arrow.RecordBatch
			var failed error
			scanRangesAhead(ctx, ranges, aheadPolicy{max: ahead}, scan, func(int) {},
				func(rec arrow.RecordBatch) bool { recs = append(recs, rec); return true },
				func(_ arrow.RecordBatch, err error) bool { failed = err; return false })
			if failed != nil {
				t.Fatal(failed)
			}
			sameColumns(t, fmt.Sprintf("%s ahead %d", name, ahead), p.schema, recs, last.Columns)
			for _, r := range recs {
				r.Release()
			}
			cancelled, cancel := context.WithCancel(ctx)
			cancel()
			failed = nil
			scanRangesAhead(cancelled, ranges, aheadPolicy{max: ahead}, scan, func(int) {},
				func(rec arrow.RecordBatch) bool { rec.Release(); return true },
				func(_ arrow.RecordBatch, err error) bool { failed = err; return false })
			if !errors.Is(failed, context.Canceled) {
				t.Errorf("%s ahead %d: cancelled scan ended with %v", name, ahead, failed)
			}
		}
		ds.Close()
	}
}

// TestScanRangesAheadBudget checks how many fragments run ahead: no more
// than the policy's max, while their costs stay within its budget, and
// always one, however costly; warm gets the first fragment not started.
func TestScanRangesAheadBudget(t *testing.T) {
	ctx := context.Background()
	ranges := make([]fragRange, 12)
	for i := range ranges {
		ranges[i] = fragRange{idx: i}
	}
	for _, c := range []struct {
		policy  aheadPolicy
		mostRun int // fragments scanning at once, the current one included
	}{
		{aheadPolicy{max: 8, budget: 25, cost: func(fragRange) uint64 { return 10 }}, 3},
		{aheadPolicy{max: 8, budget: 25, cost: func(fragRange) uint64 { return 100 }}, 2},
		{aheadPolicy{max: 3, budget: 1000, cost: func(fragRange) uint64 { return 10 }}, 4},
		// an object store's policy: fragments of 1 MiB all at once (the
		// bound is in bytes), of 16 MiB 4 ahead
		{aheadPolicy{max: scanAheadRemote, budget: scanAheadBytes, cost: func(fragRange) uint64 { return 1 << 20 }}, 12},
		{aheadPolicy{max: scanAheadRemote, budget: scanAheadBytes, cost: func(fragRange) uint64 { return 16 << 20 }}, 5},
	} {
		var mu sync.Mutex
		running, most := 0, 0
		var lastWarm []int
		scan := func(ctx context.Context, r fragRange, emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) bool {
			mu.Lock()
			running++
			most = max(most, running)
			mu.Unlock()
			time.Sleep(2 * time.Millisecond)
			mu.Lock()
			running--
			mu.Unlock()
			return true
		}
		scanRangesAhead(ctx, ranges, c.policy, scan, func(next int) { lastWarm = append(lastWarm, next) },
			func(rec arrow.RecordBatch) bool { rec.Release(); return true }, func(arrow.RecordBatch, error) bool { return false })
		if most > c.mostRun || most < 2 {
			t.Errorf("%+v: %d fragments scanned at once, want 2 to %d", c.policy, most, c.mostRun)
		}
		if len(lastWarm) != len(ranges) || lastWarm[len(lastWarm)-1] != len(ranges) || lastWarm[0] != c.mostRun {
			t.Errorf("%+v: warm got %v", c.policy, lastWarm)
		}
	}
}

// TestSparseMatchesInOrder runs a filtered scan whose matches are sparse
// in their fragments (read like a take, several batches at once) with
// one-row batches and checks the rows come in order, with a limit too.
func TestSparseMatchesInOrder(t *testing.T) {
	ctx := context.Background()
	ds, err := OpenDataset(ctx, filepath.Join("..", "..", "testdata", "datasets", "small"))
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	// fragment 0 holds 6 physical rows: 2 matches are fewer than half, so
	// they are read like a take, one batch each
	f, err := expr.Parse("id = 0 OR id = 3 OR id = 9")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		limit uint64
		want  string
	}{{0, "[0 3 9 9]"}, {1, "[0]"}, {3, "[0 3 9]"}} {
		var got []int64
		o := DatasetScanOptions{Filter: f, BatchSize: 1, Limit: c.limit, ReadOptions: ReadOptions{Columns: []string{"id", "name"}}}
		for rec, err := range ds.Batches(ctx, o) {
			if err != nil {
				t.Fatal(err)
			}
			ids := rec.Column(0).(*array.Int64)
			for i := range ids.Len() {
				got = append(got, ids.Value(i))
			}
			rec.Release()
		}
		if fmt.Sprint(got) != c.want {
			t.Errorf("limit %d: ids %v, want %s", c.limit, got, c.want)
		}
	}
}
