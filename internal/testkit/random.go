package testkit

import (
	"math/rand/v2"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// RandSchema is the schema of the property tests: every kind of column
// (primitives, strings, binary, structs in lists, nested lists,
// fixed-size lists, and maps when withMap).
func RandSchema(withMap bool) *arrow.Schema {
	item := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true})
	fs := []arrow.Field{
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "u8", Type: arrow.PrimitiveTypes.Uint8},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		{Name: "ls", Type: arrow.ListOf(item), Nullable: true},
		{Name: "ll", Type: arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int16)), Nullable: true},
		{Name: "v", Type: arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float32), Nullable: true},
		{Name: "big", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}
	if withMap {
		fs = append(fs, arrow.Field{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

// RandBatch fills a batch of n random rows (nulls everywhere allowed).
func RandBatch(mem memory.Allocator, schema *arrow.Schema, r *rand.Rand, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, f := range schema.Fields() {
		depth := 0
		if !f.Nullable {
			depth = -1 // no nulls in non-nullable columns
		}
		for j := 0; j < n; j++ {
			appendRandom(b.Field(i), r, depth)
		}
	}
	return b.NewRecordBatch()
}

// appendRandom appends one random value (maybe null) to bld.
func appendRandom(bld array.Builder, r *rand.Rand, depth int) {
	if r.IntN(8) == 0 && depth >= 0 {
		bld.AppendNull()
		return
	}
	switch b := bld.(type) {
	case *array.Int32Builder:
		b.Append(r.Int32N(1000) - 500)
	case *array.Uint8Builder:
		b.Append(uint8(r.IntN(16)))
	case *array.Int64Builder:
		b.Append(r.Int64())
	case *array.Int16Builder:
		b.Append(int16(r.IntN(100)))
	case *array.Float64Builder:
		b.Append(r.Float64())
	case *array.Float32Builder:
		b.Append(r.Float32())
	case *array.BooleanBuilder:
		b.Append(r.IntN(2) == 0)
	case *array.StringBuilder:
		b.Append(strings.Repeat("ab", r.IntN(10)))
	case *array.LargeStringBuilder:
		b.Append(strings.Repeat("xyz", r.IntN(20)))
	case *array.BinaryBuilder:
		b.Append(make([]byte, r.IntN(600)))
	case *array.StructBuilder:
		b.Append(true)
		for i := 0; i < b.NumField(); i++ {
			appendRandom(b.FieldBuilder(i), r, depth+1)
		}
	case *array.FixedSizeListBuilder:
		b.Append(true)
		for k := 0; k < 3; k++ {
			appendRandom(b.ValueBuilder(), r, depth+1)
		}
	case *array.MapBuilder:
		b.Append(true)
		for k := r.IntN(3); k > 0; k-- {
			b.KeyBuilder().(*array.StringBuilder).Append(string(rune('a' + k)))
			appendRandom(b.ItemBuilder(), r, depth+1)
		}
	case *array.ListBuilder:
		b.Append(true)
		for k := r.IntN(4); k > 0; k-- {
			appendRandom(b.ValueBuilder(), r, depth+1)
		}
	}
}
