package fileread

import (
	"bytes"
	"context"
	"errors"
	"github.com/lancego/lancego/internal/filewriter"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	lanceio "github.com/lancego/lancego/io"
)

// mappedNow reports whether this process has path memory-mapped, from
// /proc/self/maps; the test is skipped where that file does not exist.
func mappedNow(t *testing.T, path string) bool {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("no /proc/self/maps: %v", err)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Contains(maps, []byte(real))
}

// scanThenClose scans path holding every batch, closes the File (which
// removes its memory map once the scan's views are released), and only
// then returns the held batches' values in the corpus JSON form: a batch
// still referring to the map would fault or show other bytes. It also
// reports whether the file was mapped before Close.
func scanThenClose(ctx context.Context, t *testing.T, path string, mem memory.Allocator, batch int, opts ...Option) (got any, mapped bool) {
	t.Helper()
	f, err := Open(ctx, path, append([]Option{WithAllocator(mem)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	var recs []arrow.RecordBatch
	for rec, err := range f.Batches(ctx, ScanOptions{BatchSize: batch}) {
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	schema := f.Schema()
	mapped = mappedNow(t, path)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if mappedNow(t, path) {
		t.Fatalf("%s still mapped after Close: a scan view was not released", path)
	}
	_, got = recordsJSON(t, schema, recs)
	for _, r := range recs {
		r.Release()
	}
	return got, mapped
}

// TestCorpusScanViewsOutliveNothing scans every real Lance file through
// views of its memory map and checks the batches after the map is gone.
func TestCorpusScanViewsOutliveNothing(t *testing.T) {
	ctx := context.Background()
	eachCorpusFile(t, func(t *testing.T, path string, want any) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		got, _ := scanThenClose(ctx, t, path, mem, 777)
		if ok, diff := valuejsonEqual(want, got); !ok {
			t.Fatalf("scan through views differs after Close: %s", diff)
		}
	})
}

// mappedTestFile writes every column kind over many small pages.
func mappedTestFile(t *testing.T) (string, any) {
	t.Helper()
	schema := randSchema(false)
	r := rand.New(rand.NewPCG(3, 5))
	var recs []arrow.RecordBatch
	for range 2 {
		recs = append(recs, randBatch(memory.DefaultAllocator, schema, r, 6_000))
	}
	path := roundTrip(t, schema, recs, filewriter.WithPageBudget(64<<10))
	_, want := recordsJSON(t, schema, recs)
	for _, rec := range recs {
		rec.Release()
	}
	return path, want
}

// TestScanMapsLocalFiles checks that a scan of a local file reads its
// mini-block pages through the memory map (mapped while the File is
// open, unmapped by Close, batches intact after it) and that NoMmap turns
// the map off.
func TestScanMapsLocalFiles(t *testing.T) {
	ctx := context.Background()
	path, want := mappedTestFile(t)
	for _, noMmap := range []bool{false, true} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		got, mapped := scanThenClose(ctx, t, path, mem, 1000, WithIOConfig(lanceio.Config{NoMmap: noMmap}))
		if ok, diff := valuejsonEqual(want, got); !ok {
			t.Fatalf("NoMmap=%v: %s", noMmap, diff)
		}
		if mapped == noMmap {
			t.Errorf("NoMmap=%v: file mapped during the scan = %v", noMmap, mapped)
		}
		mem.AssertSize(t, 0)
	}
}

// TestScanOfShrunkMappedFile truncates a file after it was opened: the
// scan's views of the lost pages fault, which must come back as an error
// (lanceio.ErrShortRead naming the file), not crash the process.
func TestScanOfShrunkMappedFile(t *testing.T) {
	ctx := context.Background()
	path, _ := mappedTestFile(t)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() < 512<<10 {
		t.Fatalf("test file of %d bytes: too small to lose pages outside the open's tail read", st.Size())
	}
	f, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	var scanErr error
	for rec, err := range f.Batches(ctx, ScanOptions{}) {
		if err != nil {
			scanErr = err
			break
		}
		rec.Release()
	}
	if !errors.Is(scanErr, lanceio.ErrShortRead) {
		t.Fatalf("scan of a shrunk file: %v, want lanceio.ErrShortRead", scanErr)
	}
	t.Log(scanErr)
}

// TestCorpusReadsLeaveTheirBytesAlone scans and takes every corpus file
// from read-only memory: no decoder may write into the bytes it fetched
// (a scan's pages may be views of a read-only map), and a fault there is
// not mistaken for a file that shrank (it would crash this test).
func TestCorpusReadsLeaveTheirBytesAlone(t *testing.T) {
	ctx := context.Background()
	eachCorpusFile(t, func(t *testing.T, path string, _ any) {
		wantRows, wantCols := loadExpected(t, path[:len(path)-len(".lance")]+".expected.json")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		cfg := DefaultConfig()
		cfg.Mem = mem
		f, err := newFile(ctx, path, bytesSource{readOnlyCopy(t, data)}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		checkFileReads(ctx, t, f, wantRows, wantCols)
	})
}
