package lance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// benchTable builds 200k deterministic rows of the column kinds the
// encoders treat differently (sorted and random ints, floats, short
// strings, lists, nullable strings) in batches of 8192.
func benchTable() (*arrow.Schema, []arrow.RecordBatch) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i64_sorted", Type: arrow.PrimitiveTypes.Int64},
		{Name: "i64_random", Type: arrow.PrimitiveTypes.Int64},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64},
		{Name: "str_short", Type: arrow.BinaryTypes.String},
		{Name: "list_i32", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
		{Name: "str_nullable", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	r := rand.New(rand.NewPCG(1, 2))
	mem := memory.NewGoAllocator()
	var recs []arrow.RecordBatch
	row := 0
	for range 25 {
		b := array.NewRecordBuilder(mem, schema)
		for range 8192 {
			b.Field(0).(*array.Int64Builder).Append(int64(row / 3))
			b.Field(1).(*array.Int64Builder).Append(r.Int64())
			b.Field(2).(*array.Float64Builder).Append(float64(r.IntN(100000)) / 100)
			b.Field(3).(*array.StringBuilder).Append(fmt.Sprintf("s%0*d", 8+r.IntN(16), r.IntN(1000000)))
			lb := b.Field(4).(*array.ListBuilder)
			lb.Append(true)
			for range r.IntN(9) {
				lb.ValueBuilder().(*array.Int32Builder).Append(r.Int32N(1000))
			}
			if r.IntN(5) == 0 {
				b.Field(5).(*array.StringBuilder).AppendNull()
			} else {
				b.Field(5).(*array.StringBuilder).Append(fmt.Sprintf("word%d", r.IntN(500)))
			}
			row++
		}
		recs = append(recs, b.NewRecordBatch())
		b.Release()
	}
	return schema, recs
}

func benchWriteFile(b testing.TB, schema *arrow.Schema, recs []arrow.RecordBatch, path string) {
	benchWriteFileVersion(b, schema, recs, path, "2.1")
}

// benchWriteFileVersion writes recs to path at file version ver.
func benchWriteFileVersion(b testing.TB, schema *arrow.Schema, recs []arrow.RecordBatch, path, ver string) {
	ctx := context.Background()
	w, err := Create(ctx, path, schema, WithFileVersion(ver))
	if err != nil {
		b.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(ctx, rec); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWriteTable writes the bench table (2.1); cpu-ns/op is the
// process CPU time per write, steadier than wall time on a shared machine.
func BenchmarkWriteTable(b *testing.B) {
	schema, recs := benchTable()
	path := filepath.Join(b.TempDir(), "t.lance")
	b.ResetTimer()
	c0 := cpuNow()
	for b.Loop() {
		benchWriteFile(b, schema, recs, path)
	}
	b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkWriteTable23 writes the bench table at 2.3 (planar pages; every
// fixed-width page also weighs RLE with its children stored one by one).
func BenchmarkWriteTable23(b *testing.B) {
	schema, recs := benchTable()
	path := filepath.Join(b.TempDir(), "t.lance")
	b.ResetTimer()
	c0 := cpuNow()
	for b.Loop() {
		benchWriteFileVersion(b, schema, recs, path, "2.3")
	}
	b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkScanTable scans the written bench table.
func BenchmarkScanTable(b *testing.B) {
	schema, recs := benchTable()
	path := filepath.Join(b.TempDir(), "t.lance")
	benchWriteFile(b, schema, recs, path)
	ctx := context.Background()
	f, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.ResetTimer()
	c0 := cpuNow()
	for b.Loop() {
		for rec, err := range f.Batches(ctx, ScanOptions{BatchSize: 8192}) {
			if err != nil {
				b.Fatal(err)
			}
			rec.Release()
		}
	}
	b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
}
