package fileread

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

const scanTestFile = "../../testdata/corpus/2.2/map_utf8_int32.lance"

// collect concatenates a column of the batches of a RecordReader.
func readAllRows(t *testing.T, rr array.RecordReader) (int, []int) {
	t.Helper()
	total := 0
	var sizes []int
	for rr.Next() {
		n := int(rr.RecordBatch().NumRows())
		total += n
		sizes = append(sizes, n)
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	return total, sizes
}

func TestScanRecordReaderBatchesAndRange(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	f, err := Open(ctx, scanTestFile, WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rr, err := f.Scan(ctx, ScanOptions{From: 10, To: 1010, BatchSize: 300})
	if err != nil {
		t.Fatal(err)
	}
	total, sizes := readAllRows(t, rr)
	rr.Release()
	if total != 1000 || len(sizes) != 4 || sizes[3] != 100 {
		t.Fatalf("rows %d in batches %v, want 1000 in 300,300,300,100", total, sizes)
	}
}

// TestScanRangeMatchesTake checks that a scan of a row range and a take of
// the same rows give equal arrays.
func TestScanRangeMatchesTake(t *testing.T) {
	ctx := context.Background()
	f, err := Open(ctx, scanTestFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var scanned []arrow.RecordBatch
	for rec, err := range f.Batches(ctx, ScanOptions{From: 500, To: 700, BatchSize: 1000}) {
		if err != nil {
			t.Fatal(err)
		}
		scanned = append(scanned, rec)
	}
	rows := make([]uint64, 200)
	for i := range rows {
		rows[i] = uint64(500 + i)
	}
	taken, err := f.Take(ctx, rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Release()
	if len(scanned) != 1 || !array.RecordEqual(scanned[0], taken) {
		t.Fatal("scan of rows 500..700 differs from take of the same rows")
	}
	scanned[0].Release()
}

func TestProjectionAndBadArguments(t *testing.T) {
	ctx := context.Background()
	f, err := Open(ctx, "../../testdata/corpus/2.1/meta_bss.lance")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := f.Schema().Field(1).Name
	rec, err := f.Take(ctx, []uint64{3, 1}, []string{name})
	if err != nil {
		t.Fatal(err)
	}
	if rec.NumCols() != 1 || rec.Schema().Field(0).Name != name || rec.NumRows() != 2 {
		t.Fatalf("projection gave %v", rec.Schema())
	}
	rec.Release()
	if _, err := f.Take(ctx, []uint64{f.NumRows()}, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("take past the end: %v", err)
	}
	if _, err := f.Scan(ctx, ScanOptions{Columns: []string{"no_such"}}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("unknown column: %v", err)
	}
	if _, err := f.Scan(ctx, ScanOptions{From: 5, To: f.NumRows() + 1}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("range past the end: %v", err)
	}
	rec, err = f.Take(ctx, nil, nil)
	if err != nil || rec.NumRows() != 0 {
		t.Fatalf("empty take: %v", err)
	}
	rec.Release()
}

func TestScanStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f, err := Open(ctx, scanTestFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	var last error
	for rec, err := range f.Batches(ctx, ScanOptions{BatchSize: 100}) {
		if err != nil {
			last = err
			break
		}
		rec.Release()
		n++
		if n == 2 {
			cancel()
		}
	}
	if !errors.Is(last, context.Canceled) {
		t.Fatalf("after cancel: %v (batches %d)", last, n)
	}
}
