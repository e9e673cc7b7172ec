package lance_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	lance "github.com/lancego/lancego"
)

// exampleRows is a reader of n rows: id, name and a 2-d vector.
func exampleRows(from, n int) array.RecordReader {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "vec", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Float32)},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	vec := b.Field(2).(*array.FixedSizeListBuilder)
	for i := from; i < from+n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("row-%d", i))
		vec.Append(true)
		vec.ValueBuilder().(*array.Float32Builder).AppendValues([]float32{float32(i), float32(i % 3)}, nil)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		log.Fatal(err)
	}
	return rdr
}

// Write a dataset, append to it, delete rows and read it back with a
// filter, at the latest version and at the first.
func ExampleCreateDataset() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "lance-example-")
	defer os.RemoveAll(dir)
	url := filepath.Join(dir, "people.lance")

	ds, err := lance.CreateDataset(ctx, url, exampleRows(0, 100))
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	ds2, err := ds.Append(ctx, exampleRows(100, 50))
	if err != nil {
		log.Fatal(err)
	}
	defer ds2.Close()
	ds3, err := ds2.Delete(ctx, "id % 10 = 0")
	if err != nil {
		log.Fatal(err)
	}
	defer ds3.Close()
	n, _ := ds3.CountRows(ctx)
	fmt.Println("version", ds3.Version(), "rows", n, "fragments", ds3.NumFragments())

	for rec, err := range ds3.Batches(ctx, lance.DatasetScanOptions{
		ReadOptions: lance.ReadOptions{Columns: []string{"id", "name"}},
		FilterSQL:   "id BETWEEN 118 AND 122",
	}) {
		if err != nil {
			log.Fatal(err)
		}
		ids, names := rec.Column(0).(*array.Int64), rec.Column(1).(*array.String)
		for i := 0; i < int(rec.NumRows()); i++ {
			fmt.Println(ids.Value(i), names.Value(i))
		}
		rec.Release()
	}

	first, err := lance.OpenDataset(ctx, url, lance.WithVersion(1))
	if err != nil {
		log.Fatal(err)
	}
	defer first.Close()
	n, _ = first.CountRows(ctx)
	fmt.Println("version 1 rows", n)
	// Output:
	// version 3 rows 135 fragments 2
	// 118 row-118
	// 119 row-119
	// 121 row-121
	// 122 row-122
	// version 1 rows 100
}

// Find the rows nearest to a query vector (exact search here: the
// dataset has no vector index), keeping only rows a filter selects. The
// distance is squared L2, as Lance reports it; equal distances are
// ordered by row id (rows 8 and 12 are both at 5).
func ExampleDataset_Nearest() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "lance-example-")
	defer os.RemoveAll(dir)
	ds, err := lance.CreateDataset(ctx, filepath.Join(dir, "v.lance"), exampleRows(0, 40))
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	rec, err := ds.Nearest(ctx, lance.VectorQuery{
		Column: "vec", Vector: []float32{10, 1}, K: 3, Metric: lance.MetricL2,
		Filter: "id != 10", Prefilter: true, Columns: []string{"id"},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer rec.Release()
	ids, dist := rec.Column(0).(*array.Int64), rec.Column(1).(*array.Float32)
	for i := 0; i < int(rec.NumRows()); i++ {
		fmt.Println(ids.Value(i), dist.Value(i))
	}
	// Output:
	// 9 2
	// 11 2
	// 8 5
}

// Take rows by position, and count the rows a filter selects.
func ExampleDataset_Take() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "lance-example-")
	defer os.RemoveAll(dir)
	ds, err := lance.CreateDataset(ctx, filepath.Join(dir, "t.lance"), exampleRows(0, 1000))
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	rec, err := ds.Take(ctx, []uint64{999, 5, 5}, lance.ReadOptions{Columns: []string{"name"}})
	if err != nil {
		log.Fatal(err)
	}
	defer rec.Release()
	fmt.Println(rec.Column(0))
	// Output:
	// ["row-999" "row-5" "row-5"]
}
