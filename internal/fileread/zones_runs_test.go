package fileread

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestGatherRuns checks the buffer-copying gather of runs against
// concatenated slices, for every layout it copies, with and without
// nulls, on arrays that are themselves slices (non-zero offset).
func TestGatherRuns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	types := []arrow.DataType{
		arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint16,
		arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Boolean,
		arrow.FixedWidthTypes.Date32, &arrow.FixedSizeBinaryType{ByteWidth: 3},
		&arrow.Decimal128Type{Precision: 20, Scale: 2}, arrow.BinaryTypes.String,
		arrow.BinaryTypes.Binary, arrow.BinaryTypes.LargeString, arrow.Null,
	}
	runSets := [][]RowRange{
		{{0, 1}},
		{{3, 9}},
		{{0, 2}, {5, 6}, {7, 20}},
		{{1, 2}, {3, 4}, {5, 6}, {8, 9}, {10, 11}, {19, 20}},
		{{0, 20}},
	}
	for _, dt := range types {
		for _, nulls := range []bool{false, true} {
			full := makeTestArray(mem, dt, 23, nulls)
			a := array.NewSlice(full, 2, 22) // 20 rows at offset 2
			for k, runs := range runSets {
				t.Run(fmt.Sprintf("%s/nulls=%v/%d", dt, nulls, k), func(t *testing.T) {
					checkGather(t, mem, a, runs)
				})
			}
			a.Release()
			full.Release()
		}
	}
}

func checkGather(t *testing.T, mem memory.Allocator, a arrow.Array, runs []RowRange) {
	n := 0
	parts := make([]arrow.Array, len(runs))
	for i, r := range runs {
		n += int(r.To - r.From)
		parts[i] = array.NewSlice(a, int64(r.From), int64(r.To))
	}
	want, err := array.Concatenate(parts, mem)
	for _, p := range parts {
		p.Release()
	}
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	got, ok := gatherRuns(mem, a, runs, n)
	if !ok {
		t.Fatalf("%s not gathered", a.DataType())
	}
	defer got.Release()
	if v, ok := got.(interface{ ValidateFull() error }); ok {
		if err := v.ValidateFull(); err != nil {
			t.Fatal(err)
		}
	}
	if got.NullN() != want.NullN() || !array.Equal(got, want) {
		t.Fatalf("got %v (nulls %d), want %v (nulls %d)", got, got.NullN(), want, want.NullN())
	}
}

// makeTestArray builds n distinct values of dt, every third null with nulls.
func makeTestArray(mem memory.Allocator, dt arrow.DataType, n int, nulls bool) arrow.Array {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for i := range n {
		if nulls && i%3 == 1 {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *array.Int8Builder:
			bb.Append(int8(i - 10))
		case *array.Int64Builder:
			bb.Append(int64(i) * 1e12)
		case *array.Uint16Builder:
			bb.Append(uint16(i * 1000))
		case *array.Float32Builder:
			bb.Append(float32(i) / 3)
		case *array.Float64Builder:
			bb.Append(float64(i) / 7)
		case *array.BooleanBuilder:
			bb.Append(i%2 == 0 || i%5 == 0)
		case *array.Date32Builder:
			bb.Append(arrow.Date32(i * 31))
		case *array.FixedSizeBinaryBuilder:
			bb.Append([]byte{byte(i), byte(i * 3), byte(i * 7)})
		case *array.Decimal128Builder:
			bb.Append(decimal128.FromI64(int64(i) * 12345))
		case *array.StringBuilder:
			bb.Append(fmt.Sprintf("s%d-%s", i, string(make([]byte, i%4))))
		case *array.BinaryBuilder:
			bb.Append([]byte(fmt.Sprintf("b%d", i*i)))
		case *array.LargeStringBuilder:
			bb.Append(fmt.Sprintf("large-%d", i))
		case *array.NullBuilder:
			bb.AppendNull()
		}
	}
	return b.NewArray()
}
