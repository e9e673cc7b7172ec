package fileread

import (
	"context"
	"github.com/lancego/lancego/internal/filewriter"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/bufpool"
	lanceio "github.com/lancego/lancego/io"
)

// poisonPool is a buffer pool that overwrites every buffer given back to
// it, so that a batch still referring to a recycled read buffer (or to a
// released output buffer) shows garbage instead of its values. It records
// the lengths of the buffers it took back.
type poisonPool struct {
	*bufpool.Pool
	mu    sync.Mutex
	freed map[int]int // length -> count
}

func newPoisonPool() *poisonPool {
	return &poisonPool{Pool: bufpool.New(DefaultBufferPoolBytes), freed: map[int]int{}}
}

func (p *poisonPool) Free(b []byte) {
	full := b[:cap(b)]
	for i := range full {
		full[i] = 0xA5
	}
	p.mu.Lock()
	p.freed[len(b)]++
	p.mu.Unlock()
	p.Pool.Free(b)
}

// pooledReads makes a File read local pages with pread into its pool's
// buffers, the path read-buffer recycling takes (by default mini-block
// scan pages of local files are views of a memory map, never pooled).
func pooledReads() Option { return WithIOConfig(lanceio.Config{NoMmap: true}) }

// scanHeld scans path with mem twice on one File (the second scan uses the
// page states the first cached), holding every batch of a scan until it
// ends, and returns each scan's values in the corpus JSON form.
func scanHeld(ctx context.Context, t *testing.T, path string, mem memory.Allocator, batch int) [2]any {
	t.Helper()
	f, err := Open(ctx, path, WithAllocator(mem), pooledReads())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [2]any
	for i := range out {
		var recs []arrow.RecordBatch
		for rec, err := range f.Batches(ctx, ScanOptions{BatchSize: batch}) {
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
		}
		_, out[i] = recordsJSON(t, f.Schema(), recs)
		for _, r := range recs {
			r.Release()
		}
	}
	return out
}

// checkScansHeld compares both scans of scanHeld with want.
func checkScansHeld(t *testing.T, want any, got [2]any) {
	t.Helper()
	for i, g := range got {
		if ok, diff := valuejsonEqual(want, g); !ok {
			t.Fatalf("scan %d with recycled read buffers differs: %s", i+1, diff)
		}
	}
}

// TestCorpusScanRecycledBuffers scans every real Lance file with a pool
// that poisons what it takes back: a decoded batch aliasing a page read
// buffer the scan recycled would no longer match the expected values.
func TestCorpusScanRecycledBuffers(t *testing.T) {
	ctx := context.Background()
	eachCorpusFile(t, func(t *testing.T, path string, want any) {
		checkScansHeld(t, want, scanHeld(ctx, t, path, newPoisonPool(), 777))
	})
}

// TestScanRecyclesMiniBlockPages writes every column kind over many pages
// and checks that a scan gives its mini-block pages' read buffers back to
// the pool while batches decoded from them stay intact.
func TestScanRecyclesMiniBlockPages(t *testing.T) {
	ctx := context.Background()
	for _, ver := range []string{"2.1", "2.2"} {
		t.Run(ver, func(t *testing.T) {
			schema := randSchema(ver == "2.2")
			r := rand.New(rand.NewPCG(7, 11))
			var recs []arrow.RecordBatch
			for range 2 {
				recs = append(recs, randBatch(memory.DefaultAllocator, schema, r, 6_000))
			}
			path := roundTrip(t, schema, recs, filewriter.WithFileVersion(ver), filewriter.WithPageBudget(64<<10))
			_, want := recordsJSON(t, schema, recs)
			for _, rec := range recs {
				rec.Release()
			}
			pool := newPoisonPool()
			checkScansHeld(t, want, scanHeld(ctx, t, path, pool, 1000))
			n := recycledPages(ctx, t, path, pool)
			t.Logf("%d mini-block page buffers recycled", n)
			if n < 4 {
				t.Fatalf("%d mini-block page buffers recycled, want several", n)
			}
		})
	}
}

// recycledPages counts the mini-block pages of path whose read span the
// pool took back.
func recycledPages(ctx context.Context, t *testing.T, path string, pool *poisonPool) int {
	t.Helper()
	f, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for col := range f.meta.Columns {
		for i := range f.meta.Columns[col].GetPages() {
			st, err := f.newPageState(col, i)
			if err != nil {
				t.Fatal(err)
			}
			span, ok := pageSpan(st.bufs)
			if _, mini := st.layout.GetLayout().(*pb.PageLayout_MiniBlockLayout); ok && mini && pool.freed[int(span.Length)] > 0 {
				n++
			}
		}
	}
	return n
}
