package expr

import (
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// dictBatches returns one batch twice: s and d as plain strings, and as
// dictionary<int32, string> arrays (what a dictionary scan of a Lance
// file gives) whose dictionaries also hold entries no row uses ("zz",
// which no CAST to a number accepts) and a NULL entry; t is a plain
// string, n an int32.
func dictBatches(t *testing.T) (plain, dict arrow.RecordBatch) {
	t.Helper()
	mem := memory.DefaultAllocator
	sDict := []string{"red", "Red", "RED", "é", "", "a%", "blue", "zz", "unused"}
	sIdx := []int32{0, 1, 2, 3, 4, 5, 6, 0, 0, 6, 1, 3, 0}
	sNull := []bool{true, true, true, true, true, true, true, false, true, true, true, false, true}
	dDict := []string{"1", "12", "zz", "7"}
	dIdx := []int32{0, 1, 3, 1, 0, 3, 1, 0, 1, 1, 3, 0, 0}
	dNull := []bool{true, true, true, false, true, true, true, true, true, true, true, true, true}
	tVals := []string{"red", "x", "RED", "é", "", "b", "blue", "red", "x", "blue", "Red", "y", "red"}
	nVals := []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}
	n := len(sIdx)
	expand := func(d []string, idx []int32, valid []bool) arrow.Array {
		b := array.NewStringBuilder(mem)
		defer b.Release()
		for i, k := range idx {
			if valid[i] {
				b.Append(d[k])
			} else {
				b.AppendNull()
			}
		}
		return b.NewArray()
	}
	encode := func(d []string, idx []int32, valid []bool) arrow.Array {
		vb := array.NewStringBuilder(mem)
		defer vb.Release()
		vb.AppendValues(d, nil)
		vb.AppendNull() // a NULL entry no row uses
		values := vb.NewArray()
		defer values.Release()
		ib := array.NewInt32Builder(mem)
		defer ib.Release()
		ib.AppendValues(idx, valid)
		indices := ib.NewArray()
		defer indices.Release()
		dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
		return array.NewDictionaryArray(dt, indices, values)
	}
	tb := array.NewStringBuilder(mem)
	defer tb.Release()
	tb.AppendValues(tVals, nil)
	tc := tb.NewArray()
	defer tc.Release()
	nb := array.NewInt32Builder(mem)
	defer nb.Release()
	nb.AppendValues(nVals, nil)
	nc := nb.NewArray()
	defer nc.Release()
	batch := func(s, d arrow.Array) arrow.RecordBatch {
		defer s.Release()
		defer d.Release()
		schema := arrow.NewSchema([]arrow.Field{
			{Name: "s", Type: s.DataType(), Nullable: true}, {Name: "d", Type: d.DataType(), Nullable: true},
			{Name: "t", Type: arrow.BinaryTypes.String}, {Name: "n", Type: arrow.PrimitiveTypes.Int32},
		}, nil)
		return array.NewRecordBatch(schema, []arrow.Array{s, d, tc, nc}, int64(n))
	}
	return batch(expand(sDict, sIdx, sNull), expand(dDict, dIdx, dNull)), batch(encode(sDict, sIdx, sNull), encode(dDict, dIdx, dNull))
}

// TestDictionaryEvaluation checks that a filter gives every row the same
// answer (TRUE, FALSE or NULL) and the same error whether its string
// columns come expanded or as dictionaries, and which columns it takes
// as dictionaries.
func TestDictionaryEvaluation(t *testing.T) {
	plain, dict := dictBatches(t)
	defer plain.Release()
	defer dict.Release()
	cases := []struct {
		filter string
		dicts  []string // DictionaryColumns
	}{
		{"s = 'red'", []string{"s"}},
		{"s <> 'red'", []string{"s"}},
		{"s < 'b'", []string{"s"}},
		{"s IN ('red', 'é')", []string{"s"}},
		{"s NOT IN ('red', NULL)", []string{"s"}},
		{"s LIKE 'r%'", []string{"s"}},
		{"s ILIKE 'R%'", []string{"s"}},
		{"s NOT LIKE '%e%'", []string{"s"}},
		{"lower(s) = 'red'", []string{"s"}},
		{"upper(s) = 'RED'", []string{"s"}},
		{"starts_with(s, 're')", []string{"s"}},
		{"regexp_match(s, '^[rR]')", []string{"s"}},
		{"s IS NULL", []string{"s"}},
		{"s IS NOT NULL", []string{"s"}},
		{"NOT (s = 'red')", []string{"s"}},
		{"s = 'red' OR s IS NULL", []string{"s"}},
		{"(s = 'red') IS NOT TRUE", []string{"s"}},
		{"coalesce(s, 'x') = 'x'", []string{"s"}},
		{"s || 'x' = 'redx'", []string{"s"}},
		{"s = 'red' AND n > 2", []string{"s"}},
		{"s = 'red' OR n > 2", []string{"s"}},
		{"NOT (s LIKE 'r%' AND n < 9)", []string{"s"}},
		{"s = 'red' AND d = '12'", []string{"s", "d"}},
		{"lower(s) = 'red' OR (d IN ('7', '1') AND n > 3)", []string{"s", "d"}},
		{"CAST(d AS INT) = 12", []string{"d"}},             // "zz" is in the dictionary, in no row: no error
		{"d = '12' AND CAST(d AS INT) > 1", []string{"d"}}, // one subtree
		{"s = t", nil},              // two columns: s expanded
		{"s = t OR s = 'red'", nil}, // s also read outside a one-column part
		{"s = 'red' AND random() < 2.0", []string{"s"}},
		{"s = 'red' AND (random() < 2.0 OR s = 'é')", []string{"s"}},
		{"CAST(s AS INT) = 1", []string{"s"}}, // fails on a row's "red" either way
	}
	for _, c := range cases {
		p, err := Compile(c.filter, plain.Schema())
		if err != nil {
			t.Errorf("Compile(%s): %v", c.filter, err)
			continue
		}
		if got := p.DictionaryColumns(); !slices.Equal(got, c.dicts) {
			t.Errorf("%s: DictionaryColumns = %v, want %v", c.filter, got, c.dicts)
		}
		want, werr := p.Eval(plain)
		got, gerr := p.Eval(dict)
		switch {
		case (werr == nil) != (gerr == nil):
			t.Errorf("%s: error %v over plain columns, %v over dictionaries", c.filter, werr, gerr)
		case werr != nil:
			if werr.Error() != gerr.Error() {
				t.Errorf("%s: error %q over plain columns, %q over dictionaries", c.filter, werr, gerr)
			}
		default:
			if !array.Equal(want, got) {
				t.Errorf("%s:\n over plain columns   %v\n over dictionaries     %v", c.filter, want, got)
			}
		}
		for _, a := range []arrow.Array{want, got} {
			if a != nil {
				a.Release()
			}
		}
	}
}

// TestDictionaryMismatch checks that a dictionary of another value type
// than the bound one is refused as a plain column of that type is.
func TestDictionaryMismatch(t *testing.T) {
	mem := memory.DefaultAllocator
	vb := array.NewInt64Builder(mem)
	defer vb.Release()
	vb.AppendValues([]int64{1, 2}, nil)
	values := vb.NewArray()
	defer values.Release()
	ib := array.NewInt32Builder(mem)
	defer ib.Release()
	ib.AppendValues([]int32{0, 1, 1}, nil)
	indices := ib.NewArray()
	defer indices.Release()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.PrimitiveTypes.Int64}
	col := array.NewDictionaryArray(dt, indices, values)
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "s", Type: dt}}, nil), []arrow.Array{col}, 3)
	defer rec.Release()
	p, err := Compile("s = 'a'", arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Evaluate(rec); err == nil {
		t.Error("an int64 dictionary evaluated as a string column")
	}
}
