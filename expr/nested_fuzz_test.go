package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// nestFuzzListExprs are evaluated on every fuzzed batch: subscripts, slices
// and positions by arbitrary indices, and the list functions over
// lists, large lists and fixed-size lists with NULL rows and elements.
var nestFuzzListExprs = []string{
	"l[i]", "ll[i]", "fl[j]", "l[j]", "array_element(ll, j)",
	"array_slice(l, i, j)", "array_slice(ll, i, j, 2)", "array_slice(l, j, i, -1)", "array_slice(fl, i, j, -2)",
	"array_position(l, i)", "array_position(ll, j, 1)", "array_position(l, i, j)",
	"array_distinct(l)", "array_sort(ll, 'DESC', 'NULLS LAST')", "array_sort(fl)",
	"l < ll", "l = fl", "ll IS DISTINCT FROM fl", "l >= [1, 2]", "fl = [1, 2]",
	"array_has(l, i)", "array_has_any(l, ll)", "array_has_all(fl, l)",
	"array_intersect(l, fl)", "array_union(ll, l)", "array_except(l, ll)",
	"array_remove(l, i)", "array_remove_n(ll, i, j)", "array_remove_all(fl, j)",
	"array_length(l)", "array_length(make_array(l, ll), j)", "cardinality(make_array(fl, l))", "array_ndims(l)", "empty(ll)",
	"array_max(l)", "array_min(fl)", "flatten(make_array(l, ll, fl))", "array_to_string(make_array(l, ll), ',', 'N')",
	"array_concat(l, ll, fl)", "array_append(fl, i)", "array_prepend(j, l)", "array_repeat(i, j % 64)", "array_repeat(l, i % 8)",
	"make_array(i, j)", "struct(l, i).c0[j]", "named_struct('a', ll).a[i]",
}

// nestFuzzListBatch builds columns l (list<int64>), ll (large_list<int64>),
// fl (fixed_size_list<int64, 2>), i and j (int64) from data: each byte is
// an element, or ends a row, or is a NULL element or row; the batch is
// then sliced from row off.
func nestFuzzListBatch(mem memory.Allocator, data []byte, i, j int64, off uint8) arrow.RecordBatch {
	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int64)
	defer lb.Release()
	llb := array.NewLargeListBuilder(mem, arrow.PrimitiveTypes.Int64)
	defer llb.Release()
	fb := array.NewFixedSizeListBuilder(mem, 2, arrow.PrimitiveTypes.Int64)
	defer fb.Release()
	ib, jb := array.NewInt64Builder(mem), array.NewInt64Builder(mem)
	defer ib.Release()
	defer jb.Release()
	lv := lb.ValueBuilder().(*array.Int64Builder)
	llv := llb.ValueBuilder().(*array.Int64Builder)
	fv := fb.ValueBuilder().(*array.Int64Builder)
	rows := 0
	open := false
	endRow := func(null bool) {
		if !open {
			lb.Append(true)
			llb.Append(true)
		}
		open = false
		if null {
			// A NULL row of l and ll follows the (valid) row just ended.
			lb.AppendNull()
			llb.AppendNull()
			fb.AppendNull()
			ib.AppendNull()
			jb.Append(j)
			rows++
		}
		fb.Append(true)
		fv.Append(int64(rows))
		fv.AppendNull()
		ib.Append(i + int64(rows%5) - 2)
		if rows%4 == 3 {
			jb.AppendNull()
		} else {
			jb.Append(j - int64(rows%3))
		}
		rows++
	}
	for _, c := range data {
		switch {
		case c == 0xff:
			endRow(true)
			continue
		case c%7 == 0:
			endRow(false)
			continue
		}
		if !open {
			lb.Append(true)
			llb.Append(true)
			open = true
		}
		if c%13 == 0 {
			lv.AppendNull()
			llv.AppendNull()
		} else {
			lv.Append(int64(int8(c)) % 5)
			llv.Append(int64(c) % 3)
		}
	}
	endRow(false)
	cols := []arrow.Array{lb.NewArray(), llb.NewArray(), fb.NewArray(), ib.NewArray(), jb.NewArray()}
	defer releaseArrays(cols)
	n := cols[0].Len()
	for _, c := range cols {
		n = min(n, c.Len())
	}
	start := int(off) % (n + 1)
	names := []string{"l", "ll", "fl", "i", "j"}
	fields := make([]arrow.Field, len(cols))
	sliced := make([]arrow.Array, len(cols))
	for k, c := range cols {
		fields[k] = arrow.Field{Name: names[k], Type: c.DataType(), Nullable: true}
		sliced[k] = array.NewSlice(c, int64(start), int64(n))
	}
	defer releaseArrays(sliced)
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), sliced, int64(n-start))
}

// FuzzNestedLists evaluates nestFuzzListExprs on random lists and indices:
// evaluation may fail (an index out of bounds for array_position, a
// stride of 0) but never panics, and results have one row per row.
func FuzzNestedLists(f *testing.F) {
	f.Add([]byte{1, 2, 7, 3, 13, 0xff, 5, 6, 8, 14, 9}, int64(1), int64(-1), uint8(0))
	f.Add([]byte{}, int64(0), int64(0), uint8(3))
	f.Add([]byte{7, 7, 0xff, 0xff, 26, 39, 7, 4}, int64(-3), int64(2), uint8(1))
	f.Add([]byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, int64(1<<62), int64(-1<<62), uint8(200))
	exprs := make([]Expr, len(nestFuzzListExprs))
	for k, s := range nestFuzzListExprs {
		e, err := Parse(s)
		if err != nil {
			f.Fatalf("%s: %v", s, err)
		}
		exprs[k] = e
	}
	f.Fuzz(func(t *testing.T, data []byte, i, j int64, off uint8) {
		if len(data) > 256 {
			data = data[:256]
		}
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		rec := nestFuzzListBatch(mem, data, i, j, off)
		for k, e := range exprs {
			c, err := BindValue(e, rec.Schema(), Options{Mem: memory.DefaultAllocator})
			if err != nil {
				t.Fatalf("%s: %v", nestFuzzListExprs[k], err)
			}
			c.mem = mem
			a, err := c.Eval(rec)
			if err != nil {
				continue
			}
			if a.Len() != int(rec.NumRows()) {
				t.Errorf("%s: %d rows for %d", nestFuzzListExprs[k], a.Len(), rec.NumRows())
			}
			if v, ok := a.(interface{ ValidateFull() error }); ok {
				if err := v.ValidateFull(); err != nil {
					t.Errorf("%s: invalid result: %v", nestFuzzListExprs[k], err)
				}
			}
			a.Release()
		}
		rec.Release()
		if mem.CurrentAlloc() != 0 {
			t.Errorf("%d bytes not released", mem.CurrentAlloc())
		}
	})
}
