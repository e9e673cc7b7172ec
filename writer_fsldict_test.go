package lance

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestWriterFSLDictionary checks the 2.3 dictionary rule for fixed-size
// lists against pylance 14.0.2: every list page is eligible from 2.3 on
// (not at 2.1/2.2), and the usual budget decides: k distinct lists of
// rowBytes bytes take k*rowBytes + 4 bytes per index, at most 0.8 of the
// data (900 rows of 6 bytes: 120 lists pass, 121 do not; 3000 rows: 400
// pass, 401 do not; 3 distinct rows of 5 bytes never pass, of 6 bytes do).
func TestWriterFSLDictionary(t *testing.T) {
	mem := memory.NewGoAllocator()
	var cases []writerCase
	add := func(name, ver string, a arrow.Array) {
		schema, rec := oneColumn(arrow.Field{Name: "v", Type: a.DataType(), Nullable: true}, a)
		a.Release()
		cases = append(cases, writerCase{name: ver + "/" + name, ver: ver, schema: schema, recs: []arrow.RecordBatch{rec}})
	}
	for _, ver := range []string{"2.2", "2.3"} {
		for _, c := range []struct{ n, k int }{{900, 3}, {900, 120}, {900, 121}, {3000, 400}, {3000, 401}} {
			add(fmt.Sprintf("f16x3/%d_of_%d", c.k, c.n), ver, fslCycle(mem, arrow.FixedSizeListOf(3, arrow.FixedWidthTypes.Float16), c.n, c.k))
		}
		for _, dim := range []int32{5, 6} {
			add(fmt.Sprintf("u8x%d/3_of_900", dim), ver, fslCycle(mem, arrow.FixedSizeListOf(dim, arrow.PrimitiveTypes.Uint8), 900, 3))
		}
		add("i32x2x2/3_of_900", ver, fslCycle(mem, arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32)), 900, 3))
	}
	checkWriterCases(t, cases)
}

// fslCycle builds n fixed-size lists of type dt (of integers or float16,
// nested lists allowed) cycling through k distinct lists.
func fslCycle(mem memory.Allocator, dt *arrow.FixedSizeListType, n, k int) arrow.Array {
	b := array.NewFixedSizeListBuilderWithField(mem, dt.Len(), dt.ElemField())
	defer b.Release()
	for i := 0; i < n; i++ {
		appendFSLRow(b, i%k)
	}
	return b.NewArray()
}

// appendFSLRow appends the list of id row (items id, id+1, ...).
func appendFSLRow(b *array.FixedSizeListBuilder, row int) {
	b.Append(true)
	dim := int(b.Type().(*arrow.FixedSizeListType).Len())
	for j := 0; j < dim; j++ {
		switch vb := b.ValueBuilder().(type) {
		case *array.FixedSizeListBuilder:
			appendFSLRow(vb, row*dim+j)
		case *array.Float16Builder:
			vb.Append(float16.New(float32(row%1024) + float32(j)/4))
		case *array.Uint8Builder:
			vb.Append(uint8(row + j))
		case *array.Int32Builder:
			vb.Append(int32(row*10 + j))
		}
	}
}

// TestWriterFSLDictionaryNulls: fixed-size lists with null items and rows
// get 2.3 dictionaries keyed and stored as pylance 14.0.2 keys and stores
// them (rows zipped with their validity bytes, unmasked where a row starts
// a byte: dict_fsl.go), so the entry counts, the dictionary bytes and the
// budget's verdict near its edge equal pylance's; in dense and sparse pages.
func TestWriterFSLDictionaryNulls(t *testing.T) {
	mem := memory.NewGoAllocator()
	var cases []writerCase
	add := func(name string, a arrow.Array, md map[string]string) {
		f := arrow.Field{Name: "v", Type: a.DataType(), Nullable: true, Metadata: arrow.MetadataFrom(md)}
		schema, rec := oneColumn(f, a)
		a.Release()
		cases = append(cases, writerCase{name: "2.3/" + name, ver: "2.3", schema: schema, recs: []arrow.RecordBatch{rec}})
	}
	f16x3 := arrow.FixedSizeListOf(3, arrow.FixedWidthTypes.Float16)
	for _, c := range []struct{ n, k, nullRow, nullItem int }{
		{900, 3, 0, 2}, {900, 5, 4, 3}, {900, 5, 4, 0}, {2000, 1500, 2, 0}, {900, 40, 7, 5}, {900, 100, 11, 4}, {900, 110, 0, 3}, {3000, 300, 13, 6}, {5000, 8, 0, 9},
	} {
		add(fmt.Sprintf("f16x3/%d_of_%d_nulls_%d_%d", c.k, c.n, c.nullRow, c.nullItem),
			fslCycleNulls(mem, f16x3, c.n, c.k, c.nullRow, c.nullItem), nil)
	}
	add("u8x9/4_of_900_nulls", fslCycleNulls(mem, arrow.FixedSizeListOf(9, arrow.PrimitiveTypes.Uint8), 900, 4, 5, 7), nil)
	add("i32x2x2/5_of_900_nulls", fslCycleNulls(mem, arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32)), 900, 5, 6, 3), nil)
	sparse := map[string]string{"lance-encoding:structural-encoding": "sparse"}
	add("f16x3/sparse_6_of_900_nulls", fslCycleNulls(mem, f16x3, 900, 6, 4, 5), sparse)
	add("f16x3/sparse_1500_of_2000_null_rows", fslCycleNulls(mem, f16x3, 2000, 1500, 2, 0), sparse)
	checkWriterCases(t, cases)
}

// fslCycleNulls is fslCycle with row r%k null when nullRow > 0 and
// r%k%nullRow == 1, and item j of a row null when (r%k+j)%nullItem == 0
// (at every nesting level; none when nullItem is 0).
func fslCycleNulls(mem memory.Allocator, dt *arrow.FixedSizeListType, n, k, nullRow, nullItem int) arrow.Array {
	b := array.NewFixedSizeListBuilderWithField(mem, dt.Len(), dt.ElemField())
	defer b.Release()
	for i := 0; i < n; i++ {
		if r := i % k; nullRow > 0 && r%nullRow == 1 {
			b.AppendNull()
		} else {
			appendFSLRowNulls(b, r, nullItem)
		}
	}
	return b.NewArray()
}

// appendFSLRowNulls is appendFSLRow with item j null when
// (row+j)%nullItem == 0 (never when nullItem is 0).
func appendFSLRowNulls(b *array.FixedSizeListBuilder, row, nullItem int) {
	b.Append(true)
	dim := int(b.Type().(*arrow.FixedSizeListType).Len())
	for j := 0; j < dim; j++ {
		vb := b.ValueBuilder()
		if nullItem > 0 && (row+j)%nullItem == 0 {
			vb.AppendNull()
			continue
		}
		switch vb := vb.(type) {
		case *array.FixedSizeListBuilder:
			appendFSLRowNulls(vb, row*dim+j, nullItem)
		case *array.Float16Builder:
			vb.Append(float16.New(float32(row%1024) + float32(j)/4))
		case *array.Uint8Builder:
			vb.Append(uint8(row + j))
		case *array.Int32Builder:
			vb.Append(int32(row*dim + j))
		}
	}
}
