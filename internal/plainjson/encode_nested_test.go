package plainjson

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// sliced builds with from and returns rows [i, j) of it, to check that
// offsets of parents and children are honoured.
func sliced(from func(memory.Allocator) arrow.Array, i, j int64) func(memory.Allocator) arrow.Array {
	return func(mem memory.Allocator) arrow.Array {
		arr := from(mem)
		defer arr.Release()
		return array.NewSlice(arr, i, j)
	}
}

func nestedCases(t *testing.T) []encodeCase {
	i64 := arrow.PrimitiveTypes.Int64
	listI64 := arrow.ListOf(i64)
	st := arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b \"q\"", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Float32), Nullable: true},
	)
	stJSON := `[{"a":1,"b \"q\"":"x","l":[0.5]},null,{"a":null,"b \"q\"":null,"l":null},{"a":4,"b \"q\"":"y","l":[]}]`
	mapT := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)
	dictT := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.PrimitiveTypes.Int64}
	return []encodeCase{
		{"list", js(t, listI64, `[[1,null,-9223372036854775808],null,[]]`), []string{"[1,null,-9223372036854775808]", "null", "[]"}},
		{"list_sliced", sliced(js(t, listI64, `[[1],[2,3],[4],[5]]`), 1, 3), []string{"[2,3]", "[4]"}},
		{"large_list", js(t, arrow.LargeListOf(arrow.BinaryTypes.String), `[["a","b"],[null]]`), []string{`["a","b"]`, "[null]"}},
		{"list_view", js(t, arrow.ListViewOf(arrow.PrimitiveTypes.Int8), `[[1,2],[],null]`), []string{"[1,2]", "[]", "null"}},
		{"fixed_size_list", js(t, arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Float32), `[[0.5,1],null,[-0.25,null]]`),
			[]string{"[0.5,1]", "null", "[-0.25,null]"}},
		{"fixed_size_list_sliced", sliced(js(t, arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32), `[[1,2],[3,4],[5,6]]`), 1, 3),
			[]string{"[3,4]", "[5,6]"}},
		{"list_list", js(t, arrow.ListOf(listI64), `[[[1],[]],[null,[2,3]]]`), []string{"[[1],[]]", "[null,[2,3]]"}},
		{"struct", js(t, st, stJSON), []string{`{"a":1,"b \"q\"":"x","l":[0.5]}`, "null", `{"a":null,"b \"q\"":null,"l":null}`, `{"a":4,"b \"q\"":"y","l":[]}`}},
		{"struct_sliced", sliced(js(t, st, stJSON), 2, 4), []string{`{"a":null,"b \"q\"":null,"l":null}`, `{"a":4,"b \"q\"":"y","l":[]}`}},
		{"struct_empty", js(t, arrow.StructOf(), `[{}]`), []string{"{}"}},
		{"map", js(t, mapT, `[[{"key":"a","value":1},{"key":"a","value":null}],null,[]]`),
			[]string{`[{"key":"a","value":1},{"key":"a","value":null}]`, "null", "[]"}},
		{"map_sliced", sliced(js(t, mapT, `[[{"key":"a","value":1}],[{"key":"b","value":2}]]`), 1, 2), []string{`[{"key":"b","value":2}]`}},
		{"dictionary_int64", js(t, dictT, `[9223372036854775807,null,-1]`), []string{"9223372036854775807", "null", "-1"}},
		{"list_of_dictionary", js(t, arrow.ListOf(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}), `[["x","y","x"]]`),
			[]string{`["x","y","x"]`}},
	}
}

// TestUnsupportedType: a union has no JSON form here; the error wraps
// ErrUnsupported and the Writer names the column.
func TestUnsupportedType(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	ut := arrow.SparseUnionOf([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int32}}, []arrow.UnionTypeCode{0})
	arr := fromJSON(t, mem, ut, `[[0, 1]]`)
	defer arr.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "u", Type: ut}}, nil), []arrow.Array{arr}, 1)
	defer rec.Release()
	err := NewWriter(discard{}, false).Write(rec)
	if !errors.Is(err, ErrUnsupported) || !containsAll(err.Error(), `"u"`, "union") {
		t.Fatalf("err = %v", err)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}
