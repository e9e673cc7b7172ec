package fileread

import (
	"context"
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

func TestRequestedThrough(t *testing.T) {
	store, key, _ := streamFile(t, 600_000, filewriter.WithPageBudget(1600_000))
	f, _ := openHeld(t, store, key, 0, scheduler.ObjectStoreConfig(nil), DefaultConfig())
	starts := f.pageStarts(0)
	if len(starts) != 4 {
		t.Fatalf("page starts %v, want 3 pages", starts)
	}
	cases := []struct {
		name      string
		requested []int
		from      uint64
		want      uint64
	}{
		{"nothing requested", nil, 10, 10},
		{"first two pages", []int{0, 1}, 10, starts[2]},
		{"every page", []int{0, 1, 2}, 10, 600_000},
		{"from a later page", []int{1}, starts[1] + 5, starts[2]},
		{"a gap stops it", []int{0, 2}, 0, starts[1]},
		{"past the end", []int{0, 1, 2}, 600_000, 600_000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newScanCache(context.Background(), f, 600_000)
			for _, i := range tc.requested {
				c.pages[[2]int{0, i}] = &scanPage{}
			}
			if got := c.requestedThrough([]int{0}, tc.from); got != tc.want {
				t.Fatalf("requestedThrough(%d) = %d, want %d", tc.from, got, tc.want)
			}
			lo, hi := tc.from, tc.from+4096
			if got, want := c.mayStart(2, 2, 4, []int{0}, lo, hi), tc.want >= hi; got != want {
				t.Fatalf("mayStart past the window = %v, want %v", got, want)
			}
			if !c.mayStart(1, 2, 4, []int{0}, lo, hi) || c.mayStart(6, 2, 4, []int{0}, lo, hi) {
				t.Fatal("mayStart ignores the window or its bound")
			}
		})
	}
}
