package lance

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// levelPatterns are null patterns of row i of n: they give level arrays
// whose runs, bit widths and sizes pick each of the level codecs (flat,
// inline bit-packing, out-of-line bit-packing, RLE).
var levelPatterns = []struct {
	name string
	null func(i, n int) bool
}{
	{"one", func(i, n int) bool { return i == n/2 }},
	{"alternating", func(i, _ int) bool { return i%2 == 1 }},
	{"runs50", func(i, _ int) bool { return (i/50)%2 == 1 }},
	{"runs300", func(i, _ int) bool { return (i/300)%2 == 1 }},
	{"every10", func(i, _ int) bool { return i%10 == 3 }},
	{"first1000", func(i, _ int) bool { return i < 1000 && i%7 == 0 }},
}

// levelSizes are page sizes in rows around the thresholds of the rule: one
// inline block not smaller than the raw levels (<= 64), one inline block
// (<= 1024), out-of-line blocks with a raw or packed tail.
var levelSizes = []int{40, 64, 100, 500, 900, 1024, 1025, 1100, 3000}

// TestWriterLevelCodecs writes nullable columns (ints, strings, lists of
// ints with null items and null lists) with the null patterns of
// levelPatterns at the sizes of levelSizes, at 2.1, 2.2 and 2.3, and
// compares the pages, level codecs included, with pylance's.
func TestWriterLevelCodecs(t *testing.T) {
	mem := memory.NewGoAllocator()
	var cases []writerCase
	for _, ver := range []string{"2.1", "2.2", "2.3"} {
		for _, p := range levelPatterns {
			for _, n := range levelSizes {
				for _, col := range []struct {
					kind string
					make func(n int, null func(i, n int) bool) arrow.Array
				}{{"i32", levelInts(mem)}, {"str", levelStrings(mem)}, {"list", levelLists(mem)}} {
					if col.kind != "i32" && n != 100 && n != 1100 {
						continue // the other types at one small and one large size
					}
					a := col.make(n, p.null)
					schema, rec := oneColumn(arrow.Field{Name: "v", Type: a.DataType(), Nullable: true}, a)
					a.Release()
					cases = append(cases, writerCase{name: fmt.Sprintf("%s/%s/%s/%d", ver, col.kind, p.name, n),
						ver: ver, schema: schema, recs: []arrow.RecordBatch{rec}})
				}
			}
		}
	}
	checkWriterCases(t, cases)
}

// levelInts builds n int32 rows, row i null when null(i, n).
func levelInts(mem memory.Allocator) func(int, func(int, int) bool) arrow.Array {
	return func(n int, null func(i, n int) bool) arrow.Array {
		b := array.NewInt32Builder(mem)
		defer b.Release()
		for i := 0; i < n; i++ {
			if null(i, n) {
				b.AppendNull()
			} else {
				b.Append(int32(i * 7))
			}
		}
		return b.NewArray()
	}
}

// levelStrings builds n short strings, row i null when null(i, n).
func levelStrings(mem memory.Allocator) func(int, func(int, int) bool) arrow.Array {
	return func(n int, null func(i, n int) bool) arrow.Array {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		for i := 0; i < n; i++ {
			if null(i, n) {
				b.AppendNull()
			} else {
				b.Append(fmt.Sprintf("s%d", i%13))
			}
		}
		return b.NewArray()
	}
}

// levelLists builds n lists of 0 to 2 int32 items: row i a null list when
// null(i, n), every 5th list holds a null item.
func levelLists(mem memory.Allocator) func(int, func(int, int) bool) arrow.Array {
	return func(n int, null func(i, n int) bool) arrow.Array {
		b := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
		defer b.Release()
		vb := b.ValueBuilder().(*array.Int32Builder)
		for i := 0; i < n; i++ {
			if null(i, n) {
				b.AppendNull()
				continue
			}
			b.Append(true)
			for j := 0; j < 1+i%2; j++ {
				if i%5 == 0 && j == 0 {
					vb.AppendNull()
				} else {
					vb.Append(int32(i + j))
				}
			}
		}
		return b.NewArray()
	}
}
