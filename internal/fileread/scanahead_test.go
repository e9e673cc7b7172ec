package fileread

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/filewriter"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/scheduler"
)

// TestScanDecodesArrivingPagesAhead: on an object store, pages read at
// once arrive together; while the caller holds the first batch, the
// batches of every page whose first half is in are decoded, not only the
// window's, and the scan is right once the rest arrives.
func TestScanDecodesArrivingPagesAhead(t *testing.T) {
	store, key, vals := streamFile(t, 600_000, filewriter.WithPageBudget(1600_000))
	cfg := scheduler.ObjectStoreConfig(nil)
	// The three pages are of one size and back to back: a request size
	// a little above it cuts the wave into one read a page, side by side.
	cfg.MaxRequestSize = int64(pageSpanOf(t, store, key, 0).Length) * 5 / 4
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	fcfg := DefaultConfig()
	fcfg.Mem = mem
	f, obj := openHeld(t, store, key, 1, cfg, fcfg)
	if pages := len(f.meta.Columns[0].GetPages()); pages != 3 {
		t.Fatalf("%d pages, want 3", pages)
	}
	release := sync.OnceFunc(func() { close(obj.rest) })
	defer release()
	// The first halves of the three pages hold 300,000 values (2.4 MB).
	// The window alone (two jobs of 32,768 rows) decodes 0.5 MB, all of
	// page 0's first half; decoding ahead, the jobs wholly within what
	// has arrived, ~1.9 MB.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	const want = 1_500_000
	scanChecked(t, f, vals, func() {
		deadline := time.Now().Add(10 * time.Second)
		for mem.CurrentAlloc() < want && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if got := mem.CurrentAlloc(); got < want {
			t.Errorf("%d bytes decoded while the pages' first halves are in, want %d or more", got, want)
		}
		release()
	})
}

// pageSpanOf returns the span of page index of column 0 of the file key.
func pageSpanOf(t *testing.T, store *lanceio.Store, key string, index int) format.Range {
	t.Helper()
	f, _ := openHeld(t, store, key, 0, scheduler.ObjectStoreConfig(nil), DefaultConfig())
	bufs, err := f.meta.PageRanges(0, index)
	if err != nil {
		t.Fatal(err)
	}
	span, _ := pageSpan(bufs)
	return span
}
