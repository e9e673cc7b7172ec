package fileread

import (
	"bytes"
	"context"
	"github.com/lancego/lancego/internal/filewriter"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/valuejson"
)

// zoneMem returns a checked allocator that fails the test on leaks.
func zoneMem(t testing.TB) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// zoneFloats are special float64 bit patterns the tests draw from.
var zoneFloats = []float64{math.NaN(), math.Copysign(math.NaN(), -1), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1.5, -2.25}

// zoneStrings are the strings the tests draw from.
var zoneStrings = []string{"", "a", "ab", "abc", "b", "ba", "zz", "\u00e9t\u00e9"}

// zoneSchema is the schema of zoneRecord.
var zoneSchema = arrow.NewSchema([]arrow.Field{
	{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "u", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
	{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
}, nil)

// zoneRecord builds rows rows of zoneSchema starting at row base. With
// clustered, i, d and s grow with the row number (so zones have disjoint
// ranges) and f is mostly clustered; otherwise values are random.
func zoneRecord(r *rand.Rand, mem memory.Allocator, base, rows int, clustered bool) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, zoneSchema)
	defer b.Release()
	ints := make([]int64, rows)
	for k := range ints {
		ints[k] = r.Int64N(200) - 100
		if clustered {
			ints[k] = int64(base+k) * 3
		}
	}
	if !clustered && r.IntN(2) == 0 {
		slices.Sort(ints)
	}
	for k := 0; k < rows; k++ {
		appendZoneRow(r, b, base+k, ints[k], clustered)
	}
	return b.NewRecordBatch()
}

// appendZoneRow appends one row; about one value in eight is null.
func appendZoneRow(r *rand.Rand, b *array.RecordBuilder, row int, iv int64, clustered bool) {
	null := func() bool { return r.IntN(8) == 0 }
	appendOr(b.Field(0), null(), func() { b.Field(0).(*array.Int64Builder).Append(iv) })
	fv := zoneFloats[r.IntN(len(zoneFloats))]
	if clustered && r.IntN(16) != 0 {
		fv = float64(row) / 7
	}
	appendOr(b.Field(1), null(), func() { b.Field(1).(*array.Float64Builder).Append(fv) })
	sv := zoneStrings[r.IntN(len(zoneStrings))]
	if clustered {
		sv = string(rune('a'+row/4096%26)) + sv
	}
	appendOr(b.Field(2), null(), func() { b.Field(2).(*array.StringBuilder).Append(sv) })
	appendOr(b.Field(3), null(), func() { b.Field(3).(*array.Uint32Builder).Append(r.Uint32N(50)) })
	dv := arrow.Date32(r.Int32N(1000))
	if clustered {
		dv = arrow.Date32(row / 100)
	}
	appendOr(b.Field(4), null(), func() { b.Field(4).(*array.Date32Builder).Append(dv) })
	appendOr(b.Field(5), null(), func() { b.Field(5).(*array.BooleanBuilder).Append(r.IntN(2) == 0) })
	lb := b.Field(6).(*array.ListBuilder)
	appendOr(lb, null(), func() {
		lb.Append(true)
		for n := r.IntN(3); n > 0; n-- {
			lb.ValueBuilder().(*array.Int32Builder).Append(r.Int32N(9))
		}
	})
}

// appendOr appends a null or calls add.
func appendOr(b array.Builder, null bool, add func()) {
	if null {
		b.AppendNull()
		return
	}
	add()
}

// writeZoneFile writes rows rows in random batches to a new file with
// zone seeds of rpz rows for columns (all if none).
func writeZoneFile(t testing.TB, r *rand.Rand, rows int, clustered bool, rpz uint64, opts ...filewriter.Option) string {
	t.Helper()
	ctx := context.Background()
	mem := zoneMem(t)
	path := filepath.Join(t.TempDir(), "zones.lance")
	w, err := filewriter.Create(ctx, path, zoneSchema, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for base := 0; base < rows; {
		n := min(rows-base, 1+r.IntN(3000))
		rec := zoneRecord(r, mem, base, n, clustered)
		err := w.Write(ctx, rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
		base += n
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	return path
}

// scanJSON runs a scan and returns the corpus JSON of its rows and the
// number of batches.
func scanJSON(t testing.TB, f *File, opts ScanOptions) ([]byte, int) {
	t.Helper()
	var recs []arrow.RecordBatch
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	rr, err := f.Scan(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	for rec, err := range f.Batches(context.Background(), opts) {
		if err != nil {
			t.Fatal(err)
		}
		if opts.BatchSize > 0 && rec.NumRows() > int64(opts.BatchSize) {
			t.Fatalf("batch of %d rows, batch size %d", rec.NumRows(), opts.BatchSize)
		}
		recs = append(recs, rec)
	}
	return recordsBytes(t, rr.Schema(), recs), len(recs)
}

// recordsBytes renders batches in the corpus JSON conventions.
func recordsBytes(t testing.TB, schema *arrow.Schema, recs []arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := valuejson.WriteRecords(&buf, schema, recs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// referenceJSON is the expected result of a filtered scan: an unfiltered
// scan of all columns over the same rows, filtered with Evaluate
// afterwards, then projected.
func referenceJSON(t testing.TB, f *File, opts ScanOptions) []byte {
	t.Helper()
	pred, _, err := BindFilter(opts.filterArgs(), f.Schema(), expr.Options{})
	if err != nil {
		t.Fatal(err)
	}
	outCols, outSchema, err := f.projection(opts.Columns)
	if err != nil {
		t.Fatal(err)
	}
	var recs []arrow.RecordBatch
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	full := ScanOptions{From: opts.From, To: opts.To, BatchSize: 1000}
	for rec, err := range f.Batches(context.Background(), full) {
		if err != nil {
			t.Fatal(err)
		}
		keep, err := pred.Evaluate(rec)
		if err != nil {
			t.Fatal(err)
		}
		out, err := selectRows(memory.DefaultAllocator, rec, keep, outCols, outSchema)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
		if out != nil {
			recs = append(recs, out)
		}
	}
	return recordsBytes(t, outSchema, recs)
}
