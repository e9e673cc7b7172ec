package lance

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// appendBenchBatches are the rows of `lance bench-datasets --only-append`
// (cmd/lance/bench_append.go): id i, name "name-{i % 5000}", score i/2,
// in batches of 65,536 rows.
func appendBenchBatches(rows int) []arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	var out []arrow.RecordBatch
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for off := 0; off < rows; off += 65536 {
		for i := off; i < min(rows, off+65536); i++ {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("name-%d", i%5000))
			b.Field(2).(*array.Float64Builder).Append(float64(i) * 0.5)
		}
		out = append(out, b.NewRecordBatch())
	}
	return out
}

// BenchmarkDatasetAppend appends the 2M rows of the append bench to a
// small local dataset (two data files); cpu-ns/op is the process CPU time
// per append, steadier than wall time on a shared machine.
func BenchmarkDatasetAppend(b *testing.B) {
	ctx := context.Background()
	recs := appendBenchBatches(2_000_000)
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	n := 0
	c0 := cpuNow()
	for b.Loop() {
		n++
		dir := filepath.Join(b.TempDir(), fmt.Sprint(n))
		base, err := array.NewRecordReader(recs[0].Schema(), []arrow.RecordBatch{recs[0].NewSlice(0, 10)})
		if err != nil {
			b.Fatal(err)
		}
		ds, err := CreateDataset(ctx, dir, base)
		base.Release()
		if err != nil {
			b.Fatal(err)
		}
		rdr, err := array.NewRecordReader(recs[0].Schema(), recs)
		if err != nil {
			b.Fatal(err)
		}
		d2, err := ds.Append(ctx, rdr)
		rdr.Release()
		if err != nil {
			b.Fatal(err)
		}
		d2.Close()
		ds.Close()
	}
	b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
}
