package valuejson

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// newMem returns a checked allocator that fails the test if anything leaks.
func newMem(t *testing.T) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// encode is the compact JSON of v as produced by Encode, without newline.
func encode(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(&b, v); err != nil {
		t.Fatalf("Encode: %v", err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// checkColumn compares Column(arr) byte for byte with want (compact JSON)
// and checks Value row by row against Column.
func checkColumn(t *testing.T, arr arrow.Array, want string) {
	t.Helper()
	col, err := Column(arr)
	if err != nil {
		t.Fatalf("Column(%s): %v", arr.DataType(), err)
	}
	if got := encode(t, col); got != want {
		t.Errorf("Column(%s)\n got %s\nwant %s", arr.DataType(), got, want)
	}
	for i := range col {
		v, err := Value(arr, i)
		if err != nil {
			t.Fatalf("Value(%d): %v", i, err)
		}
		if ok, msg := EqualJSON(col[i], v); !ok {
			t.Errorf("Value(%d) differs from Column: %s", i, msg)
		}
	}
}

// fromJSON builds an array of type dt from arrow-go's JSON form.
func fromJSON(t *testing.T, mem memory.Allocator, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	if err != nil {
		t.Fatalf("FromJSON(%s): %v", dt, err)
	}
	return arr
}

// reinterpret builds an array of type dt over the buffers of src (same
// width), so float arrays can be made from exact bit patterns.
func reinterpret(src arrow.Array, dt arrow.DataType) arrow.Array {
	d := src.Data()
	nd := array.NewData(dt, d.Len(), d.Buffers(), nil, d.NullN(), d.Offset())
	defer nd.Release()
	return array.MakeFromData(nd)
}

// uintArray builds a uint32 (or other unsigned) array with nulls where
// valid is false.
func uint32Array(mem memory.Allocator, vals []uint32, valid []bool) arrow.Array {
	b := array.NewUint32Builder(mem)
	defer b.Release()
	b.AppendValues(vals, valid)
	return b.NewArray()
}

func uint64Array(mem memory.Allocator, vals []uint64, valid []bool) arrow.Array {
	b := array.NewUint64Builder(mem)
	defer b.Release()
	b.AppendValues(vals, valid)
	return b.NewArray()
}

func uint16Array(mem memory.Allocator, vals []uint16, valid []bool) arrow.Array {
	b := array.NewUint16Builder(mem)
	defer b.Release()
	b.AppendValues(vals, valid)
	return b.NewArray()
}

// release releases all arrays.
func release(arrs ...arrow.Array) {
	for _, a := range arrs {
		a.Release()
	}
}
