package lance

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestWriterDictionaryPermutedIndices writes dictionary columns whose
// indices are a permutation of a contiguous range (the first and last are
// len-1 apart): the values must not be gathered as a contiguous run.
func TestWriterDictionaryPermutedIndices(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for _, vt := range []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String} {
		dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: vt}
		schema := arrow.NewSchema([]arrow.Field{{Name: "d", Type: dt}}, nil)
		vb := array.NewBuilder(mem, vt)
		for _, x := range []int64{10, 20, 30, 40} {
			switch b := vb.(type) {
			case *array.Int64Builder:
				b.Append(x)
			case *array.StringBuilder:
				b.Append(string(rune('a' + x/10)))
			}
		}
		dict := vb.NewArray()
		vb.Release()
		ib := array.NewInt32Builder(mem)
		ib.AppendValues([]int32{0, 2, 1, 3}, nil)
		idx := ib.NewArray()
		ib.Release()
		arr := array.NewDictionaryArray(dt, idx, dict)
		idx.Release()
		dict.Release()
		rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
		arr.Release()
		for _, ver := range []string{"2.1", "2.2"} {
			roundTrip(t, schema, []arrow.RecordBatch{rec}, WithFileVersion(ver))
		}
		rec.Release()
	}
}
