package main

import (
	"context"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	lance "github.com/lancego/lancego"
)

// demoRows is the size of the file the demo writes.
const demoRows = 50_000

// demoSchema is the schema of the demo file: a sorted id (so zone seeds can
// prune), a short label, a float with NaNs and nulls, and a list of tags.
func demoSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "label", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	}, nil)
}

// demoBatch builds rows [from, to) of the demo data deterministically.
func demoBatch(mem memory.Allocator, from, to int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, demoSchema())
	defer b.Release()
	ids := b.Field(0).(*array.Int64Builder)
	labels := b.Field(1).(*array.StringBuilder)
	scores := b.Field(2).(*array.Float64Builder)
	tags := b.Field(3).(*array.ListBuilder)
	tagVals := tags.ValueBuilder().(*array.StringBuilder)
	words := []string{"red", "green", "blue", "cyan", "plum"}
	for i := from; i < to; i++ {
		ids.Append(int64(i))
		if i%11 == 0 {
			labels.AppendNull()
		} else {
			labels.Append(fmt.Sprintf("item-%d", i%997))
		}
		switch {
		case i%13 == 0:
			scores.AppendNull()
		case i%101 == 0:
			scores.Append(math.NaN())
		default:
			scores.Append(float64(i%1000) / 10)
		}
		tags.Append(true)
		for k := 0; k < i%4; k++ {
			tagVals.Append(words[(i+k)%len(words)])
		}
	}
	return b.NewRecordBatch()
}

// writeDemoFile writes the demo data with zone seeds (8,192 rows a zone).
func writeDemoFile(ctx context.Context, path string) error {
	w, err := lance.Create(ctx, path, demoSchema(), lance.WithZoneSeeds(0))
	if err != nil {
		return err
	}
	mem := memory.NewGoAllocator()
	for from := 0; from < demoRows; from += 10_000 {
		rec := demoBatch(mem, from, min(from+10_000, demoRows))
		err := w.Write(ctx, rec)
		rec.Release()
		if err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close(ctx)
}
