package fileread

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/filewriter"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/scheduler"
)

// heldObject is an object store's object whose long reads report their
// first half in steps equal parts and hold the rest until rest is closed;
// it records where reads start.
type heldObject struct {
	lanceio.Object
	steps int
	rest  chan struct{}
	mu    sync.Mutex
	offs  []int64
}

func (o *heldObject) ReadAt(ctx context.Context, p []byte, off int64) error {
	o.mu.Lock()
	o.offs = append(o.offs, off)
	o.mu.Unlock()
	if err := o.Object.ReadAt(ctx, p, off); err != nil {
		return err
	}
	notify := lanceio.ReadProgressOf(ctx)
	if notify == nil {
		return nil
	}
	for k := 1; k <= o.steps; k++ {
		notify(len(p) * k / (2 * o.steps))
	}
	select {
	case <-o.rest:
	case <-ctx.Done():
		return ctx.Err()
	}
	notify(len(p))
	return nil
}

// readAt reports whether a read started at off.
func (o *heldObject) readAt(off uint64) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, x := range o.offs {
		if uint64(x) == off {
			return true
		}
	}
	return false
}

// openHeld opens the file key of store through a heldObject of steps
// steps and a scheduler of cfg (closed with the test), with fcfg.
func openHeld(t *testing.T, store *lanceio.Store, key string, steps int, cfg scheduler.Config, fcfg Config) (*File, *heldObject) {
	t.Helper()
	ctx := context.Background()
	inner, tail, err := store.OpenTail(ctx, key, 64)
	if err != nil {
		t.Fatal(err)
	}
	obj := &heldObject{Object: inner, steps: steps, rest: make(chan struct{})}
	sched := scheduler.New(cfg)
	t.Cleanup(func() { sched.Close() })
	f, err := OpenObject(ctx, "mem://"+key, obj, tail, sched, fcfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, obj
}

// scanChecked scans f's one column in batches of 4,096 rows, checks the
// values against vals, and calls first before checking the first batch.
func scanChecked(t *testing.T, f *File, vals []int64, first func()) {
	t.Helper()
	row := 0
	for rec, err := range f.Batches(context.Background(), ScanOptions{BatchSize: 4096}) {
		if err != nil {
			t.Fatal(err)
		}
		if row == 0 && first != nil {
			first()
		}
		col := rec.Column(0).(*array.Int64)
		for i := range col.Len() {
			if col.Value(i) != vals[row+i] {
				t.Fatalf("row %d: %d, want %d", row+i, col.Value(i), vals[row+i])
			}
		}
		row += col.Len()
		rec.Release()
	}
	if row != len(vals) {
		t.Fatalf("%d rows, want %d", row, len(vals))
	}
}

// streamFile writes n random int64s (flat: no bit-packing applies) to a
// 2.1 file in a store in memory, in writes of 200,000 rows (one page, or
// one each with a page budget below 1.6 MB), and returns the store, key
// and values.
func streamFile(t *testing.T, n int, opts ...filewriter.Option) (*lanceio.Store, string, []int64) {
	t.Helper()
	ctx := context.Background()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)
	path := filepath.Join(t.TempDir(), "stream.lance")
	w, err := filewriter.Create(ctx, path, schema, append([]filewriter.Option{filewriter.WithFileVersion("2.1")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	vals := make([]int64, n)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	for i := range vals {
		vals[i] = int64(r.Uint64())
		b.Append(vals[i])
	}
	col := b.NewArray()
	b.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(n))
	col.Release()
	for lo := int64(0); lo < int64(n) && err == nil; lo += 200_000 { // writes of 1.6 MB
		part := rec.NewSlice(lo, min(lo+200_000, int64(n)))
		err = w.Write(ctx, part)
		part.Release()
	}
	rec.Release()
	if err == nil {
		err = w.Close(ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
	return memStoreOf(t, path, "stream.lance"), "stream.lance", vals
}

// TestScanDecodesPageWhileItArrives: on an object store, a scan hands out
// its first batch while the second half of the column's only page is
// still on the wire, and the whole scan is right once it arrives.
func TestScanDecodesPageWhileItArrives(t *testing.T) {
	store, key, vals := streamFile(t, 200_000)
	f, obj := openHeld(t, store, key, 1, scheduler.ObjectStoreConfig(nil), DefaultConfig())
	if pages := len(f.meta.Columns[0].GetPages()); pages != 1 {
		t.Fatalf("%d pages, want 1", pages)
	}
	release := sync.OnceFunc(func() { close(obj.rest) })
	defer release()
	timer := time.AfterFunc(10*time.Second, release) // a scan that waits for the whole page still ends
	defer timer.Stop()
	scanChecked(t, f, vals, func() {
		if !timer.Stop() {
			t.Error("first batch only after the whole page arrived")
		}
		release()
	})
}

// TestScanReadsAheadAsPagesArrive: once half of a page is in, the scan
// requests the pages after it up to twice its read-ahead, before the page
// has landed (so the next wave is on its way while this one lands).
func TestScanReadsAheadAsPagesArrive(t *testing.T) {
	store, key, vals := streamFile(t, 800_000, filewriter.WithPageBudget(1600_000))
	cfg := scheduler.ObjectStoreConfig(nil)
	cfg.MaxInFlightBytes = 8 << 20 // read-ahead: a quarter, 2 MiB (one page ahead)
	f, obj := openHeld(t, store, key, 2, cfg, DefaultConfig())
	if pages := len(f.meta.Columns[0].GetPages()); pages < 4 {
		t.Fatalf("%d pages, want 4 or more", pages)
	}
	third, err := f.meta.PageRanges(0, 2)
	if err != nil {
		t.Fatal(err)
	}
	span, _ := pageSpan(third)
	release := sync.OnceFunc(func() { close(obj.rest) })
	defer release()
	early := make(chan bool, 1)
	go func() { // let the reads land once page 2 has been asked for, or after 10 s
		deadline := time.Now().Add(10 * time.Second)
		for !obj.readAt(span.Offset) && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		early <- obj.readAt(span.Offset)
		release()
	}()
	defer func() {
		if !<-early {
			t.Error("page 2 was not asked for while pages 0 and 1 were arriving")
		}
	}()
	scanChecked(t, f, vals, nil)
	if !obj.readAt(span.Offset) {
		t.Fatal("page 2 never read")
	}
}
