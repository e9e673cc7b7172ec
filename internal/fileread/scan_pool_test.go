package fileread

import (
	"context"
	"github.com/lancego/lancego/internal/filewriter"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/internal/bufpool"
)

// TestScanReusesReleasedBuffers scans a file whose batches' value buffers
// are large enough for the pool: released batches' buffers must be reused
// by later ones, and a batch still held must keep its values while the
// others are released and their memory reused.
func TestScanReusesReleasedBuffers(t *testing.T) {
	ctx := context.Background()
	const rows, batch = 100_000, 8192
	path := filepath.Join(t.TempDir(), "ints.lance")
	writeInt64s(t, path, rows)
	pool := bufpool.New(DefaultBufferPoolBytes)
	f, err := Open(ctx, path, WithAllocator(pool))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var kept arrow.RecordBatch
	next := int64(0)
	for rec, err := range f.Batches(ctx, ScanOptions{BatchSize: batch}) {
		if err != nil {
			t.Fatal(err)
		}
		checkInt64s(t, rec, next)
		next += rec.NumRows()
		if kept == nil {
			kept = rec
			continue
		}
		rec.Release()
	}
	if next != rows {
		t.Fatalf("scanned %d rows, want %d", next, rows)
	}
	checkInt64s(t, kept, 0) // untouched by the reuse of the others' memory
	kept.Release()
	if pool.Reused() == 0 {
		t.Fatal("no batch reused a released buffer")
	}
}

func writeInt64s(t *testing.T, path string, rows int) {
	t.Helper()
	ctx := context.Background()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	w, err := filewriter.Create(ctx, path, schema)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	defer sb.Release()
	for i := range rows {
		b.Append(int64(i) * 7919)
		sb.Append(rowString(int64(i)))
	}
	col, scol := b.NewArray(), sb.NewArray()
	defer col.Release()
	defer scol.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col, scol}, int64(rows))
	defer rec.Release()
	if err := w.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// rowString is the string column's value of row i (FSST-compressible).
func rowString(i int64) string {
	return "row-" + strconv.FormatInt(i, 10) + "-of-the-pool-test"
}

// checkInt64s checks that rec's columns hold row*7919 and rowString(row)
// from row first on.
func checkInt64s(t *testing.T, rec arrow.RecordBatch, first int64) {
	t.Helper()
	vals := rec.Column(0).(*array.Int64).Int64Values()
	strs := rec.Column(1).(*array.String)
	for i, v := range vals {
		row := first + int64(i)
		if want := row * 7919; v != want {
			t.Fatalf("row %d: %d, want %d", row, v, want)
		}
		if got, want := strs.Value(i), rowString(row); got != want {
			t.Fatalf("row %d: %q, want %q", row, got, want)
		}
	}
}

// TestBufferPoolSharedBetweenFiles checks that a pool given to two Files
// lends the buffers released by the first File's scan to the second's.
func TestBufferPoolSharedBetweenFiles(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ints.lance")
	writeInt64s(t, path, 50_000)
	mem := NewBufferPool(DefaultBufferPoolBytes)
	pool := mem.(*bufpool.Pool)
	scan := func() {
		f, err := Open(ctx, path, WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		next := int64(0)
		for rec, err := range f.Batches(ctx, ScanOptions{BatchSize: 8192}) {
			if err != nil {
				t.Fatal(err)
			}
			checkInt64s(t, rec, next)
			next += rec.NumRows()
			rec.Release()
		}
	}
	scan()
	before := pool.Reused()
	if pool.Held() == 0 {
		t.Fatal("the first File's released buffers were not kept")
	}
	scan()
	if pool.Reused() == before {
		t.Fatal("the second File reused none of the first File's buffers")
	}
}
