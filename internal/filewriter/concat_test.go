package filewriter

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestConcatFixed checks concatFixed against array.Concatenate over
// sliced inputs of several fixed-width types, small and large enough to
// copy on two goroutines, and that it leaves nullable, boolean and
// nested inputs to Concatenate.
func TestConcatFixed(t *testing.T) {
	mem := memory.DefaultAllocator
	mk := func(dt arrow.DataType, n, seed int) arrow.Array {
		b := array.NewBuilder(mem, dt)
		defer b.Release()
		for i := range n {
			v := int64(i*7919 + seed)
			switch bb := b.(type) {
			case *array.Int64Builder:
				bb.Append(v)
			case *array.Int16Builder:
				bb.Append(int16(v))
			case *array.Float32Builder:
				bb.Append(float32(v) / 3)
			case *array.Decimal128Builder:
				bb.Append(decimal128.FromI64(v))
			case *array.TimestampBuilder:
				bb.Append(arrow.Timestamp(v))
			}
		}
		return b.NewArray()
	}
	types := []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Float32,
		&arrow.Decimal128Type{Precision: 18, Scale: 2}, &arrow.TimestampType{Unit: arrow.Microsecond}}
	for _, dt := range types {
		for _, n := range []int{3, 70000} {
			var arrs []arrow.Array
			for k := range 5 {
				a := mk(dt, n, k)
				lo := min(k, n/2)
				arrs = append(arrs, array.NewSlice(a, int64(lo), int64(n-lo)))
				a.Release()
			}
			got, ok := concatFixed(arrs)
			if !ok {
				t.Fatalf("%s: refused", dt)
			}
			want, err := array.Concatenate(arrs, mem)
			if err != nil {
				t.Fatal(err)
			}
			if !array.Equal(got, want) {
				t.Fatalf("%s x %d: concatenation differs", dt, n)
			}
			got.Release()
			want.Release()
			for _, a := range arrs {
				a.Release()
			}
		}
	}
	nb := array.NewInt64Builder(mem)
	nb.AppendValues([]int64{1, 2}, []bool{true, false})
	withNull := nb.NewArray()
	bb := array.NewBooleanBuilder(mem)
	bb.AppendValues([]bool{true, false}, nil)
	bools := bb.NewArray()
	db := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}).(*array.BinaryDictionaryBuilder)
	for _, s := range []string{"a", "b", "a"} {
		_ = db.AppendString(s)
	}
	dict := db.NewArray()
	for _, in := range [][]arrow.Array{{withNull, withNull}, {bools, bools}, {dict, dict},
		{mk(arrow.PrimitiveTypes.Int64, 2, 0), mk(arrow.PrimitiveTypes.Int16, 2, 0)}} {
		if _, ok := concatFixed(in); ok {
			t.Fatalf("%s: not refused", in[0].DataType())
		}
	}
}
