package lance_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	lance "github.com/lancego/lancego"
)

// TestWriterStreamingMemory streams LANCEGO_STREAM_MB (default 512) MB of
// generated batches (i64, 40–160-byte strings, list<int32>) through one
// Writer and checks that what it holds does not grow with the stream
// (issue #40 item 3): the writer's own PeakBufferedBytes stays within the
// page budget per column plus one batch, and the process's heap (objects,
// sampled every 200 µs at GOGC=50, so garbage not yet collected and the
// test's own batch building count too, so the peak depends on when
// collections run: 150-230 MB over 512 MB, 350 MB over 10 GB) stays within
// 16 page budgets per column above the start, while the live heap after a collection (what
// the writer keeps between batches) is the same at the end of the
// stream's third quarter as at the end of its first. A 10 GB run: LANCEGO_STREAM_MB=10240.
func TestWriterStreamingMemory(t *testing.T) {
	totalMB := 512
	if v := os.Getenv("LANCEGO_STREAM_MB"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("LANCEGO_STREAM_MB=%q", v)
		}
		totalMB = n
	}
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "vals", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
	}, nil)
	const rows = 32 << 10
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "stream.lance")
	w, err := lance.Create(ctx, path, schema, lance.WithSync(false))
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	sampler := startObjectSampler()
	var written, batchBytes, firstHalf int64
	var retained []int64 // live heap after a collection, at each quarter
	t0 := time.Now()
	for b := 0; written < int64(totalMB)<<20; b++ {
		if quarter := int64(len(retained)+1) * int64(totalMB) << 18; written >= quarter && len(retained) < 3 {
			retained = append(retained, liveHeap())
		}
		if firstHalf == 0 && written >= int64(totalMB)<<19 {
			firstHalf = sampler.restart()
		}
		rec := streamBatch(schema, b, rows)
		batchBytes = max(batchBytes, batchSize(rec))
		written += batchSize(rec)
		err := w.Write(ctx, rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	secondHalf := sampler.restart()
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	closing := sampler.stop()
	peak := max(firstHalf, secondHalf, closing)
	st := w.Stats()
	budget := int64(lance.DefaultPageBudget)
	t.Logf("%d MB of Arrow input in %v (%d rows, %d pages, %d MB file): held at most %.1f MB of input; heap peak above the start %.1f MB in the first half, %.1f MB in the second, %.1f MB in Close",
		written>>20, time.Since(t0).Round(time.Millisecond), st.Rows, st.Pages, st.Bytes>>20,
		float64(st.PeakBufferedBytes)/(1<<20), float64(firstHalf)/(1<<20), float64(secondHalf)/(1<<20), float64(closing)/(1<<20))
	if limit := 3*budget + batchBytes; st.PeakBufferedBytes > limit {
		t.Errorf("held %d bytes of input at once, want at most a page budget per column plus a batch (%d)", st.PeakBufferedBytes, limit)
	}
	if limit := 3 * 16 * budget; peak > limit {
		t.Errorf("heap peaked %d MB above the start, want at most 16 page budgets per column (%d MB)", peak>>20, limit>>20)
	}
	t.Logf("live heap after a collection at 1/4, 1/2, 3/4 of the stream: %v MB", mbs(retained))
	if len(retained) == 3 && retained[2] > retained[0]+budget {
		t.Errorf("what the writer keeps grew with the stream: live heap %v MB at 1/4, 1/2, 3/4", mbs(retained))
	}
	f, err := lance.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.NumRows(); got != st.Rows {
		t.Fatalf("file has %d rows, the writer wrote %d", got, st.Rows)
	}
}

// streamBatch is batch b of the stream: ids b*rows, ..., names of 40–160
// bytes, lists of 0–7 items.
func streamBatch(schema *arrow.Schema, b, rows int) arrow.RecordBatch {
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	ids := rb.Field(0).(*array.Int64Builder)
	names := rb.Field(1).(*array.StringBuilder)
	vals := rb.Field(2).(*array.ListBuilder)
	items := vals.ValueBuilder().(*array.Int32Builder)
	const text = "lance columnar files stream through one writer page by page without holding the source in memory; "
	for i := range rows {
		id := int64(b*rows + i)
		ids.Append(id)
		n := 40 + int(id*7919%121)
		names.Append(text[:n%len(text)] + strconv.FormatInt(id, 36))
		vals.Append(true)
		for j := range int(id % 8) {
			items.Append(int32(id) + int32(j))
		}
	}
	return rb.NewRecordBatch()
}

// liveHeap is the heap's live bytes after two full collections (the
// second empties what sync.Pools kept through the first).
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func mbs(xs []int64) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = x >> 20
	}
	return out
}

// batchSize is the bytes of Arrow buffers a batch references.
func batchSize(rec arrow.RecordBatch) int64 {
	var n int64
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
	}
	for _, c := range rec.Columns() {
		walk(c.Data())
	}
	return n
}

// objectSampler records the peak of the heap's object bytes above the
// start.
type objectSampler struct {
	base int64
	peak atomic.Int64
	done chan struct{}
	wg   sync.WaitGroup
}

func heapObjects() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

func startObjectSampler() *objectSampler {
	o := &objectSampler{base: heapObjects(), done: make(chan struct{})}
	o.wg.Go(func() {
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
		for {
			select {
			case <-o.done:
				return
			case <-tick.C:
				if v := heapObjects(); v > o.peak.Load() {
					o.peak.Store(v)
				}
			}
		}
	})
	return o
}

// restart returns the peak so far and starts a new one.
func (o *objectSampler) restart() int64 {
	return max(0, o.peak.Swap(0)-o.base)
}

func (o *objectSampler) stop() int64 {
	close(o.done)
	o.wg.Wait()
	return max(0, o.peak.Load()-o.base)
}
