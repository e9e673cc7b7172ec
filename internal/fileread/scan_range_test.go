package fileread

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/filewriter"
	"github.com/lancego/lancego/scheduler"
)

// writeRangeFile writes n rows of id int64, vec fixed_size_list<f32, 256>
// (1 KiB a row: full-zip) and text (~1 KiB strings: full-zip with a
// repetition index), in pages of 1 MiB of input.
func writeRangeFile(t *testing.T, n int) string {
	t.Helper()
	ctx := context.Background()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "vec", Type: arrow.FixedSizeListOf(256, arrow.PrimitiveTypes.Float32)},
		{Name: "text", Type: arrow.BinaryTypes.String},
	}, nil)
	path := filepath.Join(t.TempDir(), "range.lance")
	w, err := filewriter.Create(ctx, path, schema, filewriter.WithFileVersion("2.1"), filewriter.WithPageBudget(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	vec := b.Field(1).(*array.FixedSizeListBuilder)
	vals := vec.ValueBuilder().(*array.Float32Builder)
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		vec.Append(true)
		for j := range 256 {
			vals.Append(float32(i) + float32(j)/256)
		}
		b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("%d:%s", i, strings.Repeat("x", 900+i%200)))
		if (i+1)%500 == 0 || i == n-1 {
			rec := b.NewRecordBatch()
			err := w.Write(ctx, rec)
			rec.Release()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRangeScanReadsOnlyItsRows: a scan of a few rows of large full-zip
// pages reads those rows, not the pages; a range needing most of its
// pages still reads them whole; either way the batches (rows and cuts)
// equal the whole-page scan's.
func TestRangeScanReadsOnlyItsRows(t *testing.T) {
	const n = 6000
	path := writeRangeFile(t, n)
	ctx := context.Background()
	f, err := Open(ctx, path, WithSchedulerConfig(scheduler.ObjectStoreConfig(nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pages := len(f.Metadata().Columns[1].GetPages())
	if pages < 4 {
		t.Fatalf("vec has %d pages, want several", pages)
	}
	var pageBytes uint64 // of vec's first page
	for _, b := range f.Metadata().Columns[1].GetPages()[0].GetBufferSizes() {
		pageBytes += b
	}
	tests := []struct {
		name     string
		from, to uint64
		maxBytes int64 // 0: no bound
	}{
		{"first row", 0, 1, 64 << 10},
		{"a few rows", 100, 140, 128 << 10},
		{"across a page edge", 1000, 1400, 1 << 20},
		{"most of the file", 30, n, 0},
		{"all", 0, n, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cols, schema, err := f.projection(nil)
			if err != nil {
				t.Fatal(err)
			}
			var want []arrow.RecordBatch
			f.pipelinedScan(ctx, cols, schema, tc.from, tc.to, 128, func(rec arrow.RecordBatch, err error) bool {
				if err != nil {
					t.Fatal(err)
				}
				rec.Retain()
				want = append(want, rec)
				return true
			})
			before := f.Stats().BytesRead
			i := 0
			for rec, err := range f.Batches(ctx, ScanOptions{From: tc.from, To: tc.to, BatchSize: 128}) {
				if err != nil {
					t.Fatal(err)
				}
				if i >= len(want) || !array.RecordEqual(rec, want[i]) {
					t.Fatalf("batch %d differs from the whole-page scan's", i)
				}
				i++
			}
			if i != len(want) {
				t.Fatalf("%d batches, want %d", i, len(want))
			}
			read := f.Stats().BytesRead - before
			t.Logf("rows [%d, %d): %d bytes read (pages of ~%d bytes)", tc.from, tc.to, read, pageBytes)
			if tc.maxBytes > 0 && read > tc.maxBytes {
				t.Errorf("read %d bytes, want at most %d", read, tc.maxBytes)
			}
			for _, r := range want {
				r.Release()
			}
		})
	}
}

// TestRangeScanStops: a consumer that stops early, in a run read like a
// take or in one scanned whole-page, ends the scan there.
func TestRangeScanStops(t *testing.T) {
	path := writeRangeFile(t, 3000)
	ctx := context.Background()
	f, err := Open(ctx, path, WithSchedulerConfig(scheduler.ObjectStoreConfig(nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// [700, 3000): the first page's last rows (less than half of it) are
	// read like a take, then the rest whole-page; 128-row batches.
	if runs := f.rangeRuns([]int{0, 1, 2}, 700, 3000, 128); len(runs) < 2 || runs[0].whole {
		t.Fatalf("runs %+v: want a take run, then whole-page ones", runs)
	}
	for _, stop := range []int{1, 3, 10} {
		seen := 0
		for rec, err := range f.Batches(ctx, ScanOptions{From: 700, To: 3000, BatchSize: 128}) {
			if err != nil {
				t.Fatal(err)
			}
			if got := rec.Column(0).(*array.Int64).Value(0); got != int64(700+128*seen) {
				t.Fatalf("batch %d starts at row %d, want %d", seen, got, 700+128*seen)
			}
			if seen++; seen == stop {
				break
			}
		}
		if seen != stop {
			t.Fatalf("stopped after %d batches, want %d", seen, stop)
		}
	}
}
