package filewriter

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/lerr"
)

// dictFromJSON builds a dictionary array of utf8 values.
func dictFromJSON(t *testing.T, mem memory.Allocator, kt arrow.DataType, keys, values string) *array.Dictionary {
	t.Helper()
	dt := &arrow.DictionaryType{IndexType: kt, ValueType: arrow.BinaryTypes.String}
	k, _, err := array.FromJSON(mem, kt, strings.NewReader(keys))
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	v, _, err := array.FromJSON(mem, arrow.BinaryTypes.String, strings.NewReader(values))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Release()
	return array.NewDictionaryArray(dt, k, v)
}

// TestNormalizeDictNulls checks that null dictionary values become null
// keys (0 under them), the other values keep their order, unused ones
// included, and that a dictionary without null values is kept as is.
func TestNormalizeDictNulls(t *testing.T) {
	for _, tc := range []struct {
		name, keys, values string
		wantKeys, wantVals string
		changed            bool
	}{
		{"null values", `[0,1,2,null,3,2,4]`, `["a",null,"b",null,"unused"]`, `[0,null,1,null,null,1,2]`, `["a","b","unused"]`, true},
		{"no null values", `[0,null,1]`, `["a","b","c"]`, `[0,null,1]`, `["a","b","c"]`, false},
		{"all values null", `[0,1,null]`, `[null,null]`, `[null,null,null]`, `[]`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			d := dictFromJSON(t, mem, arrow.PrimitiveTypes.Int8, tc.keys, tc.values)
			defer d.Release()
			out, changed, err := normalizeDictNulls(d, mem)
			if err != nil || changed != tc.changed {
				t.Fatalf("changed %v, err %v; want changed %v", changed, err, tc.changed)
			}
			if changed {
				defer out.Release()
			}
			nd := out.(*array.Dictionary)
			if got := nd.Indices().String(); got != jsonList(t, mem, arrow.PrimitiveTypes.Int8, tc.wantKeys) {
				t.Errorf("keys %s, want %s", got, tc.wantKeys)
			}
			if got := nd.Dictionary().String(); got != jsonList(t, mem, arrow.BinaryTypes.String, tc.wantVals) {
				t.Errorf("values %s, want %s", got, tc.wantVals)
			}
			if changed {
				for i := 0; i < nd.Len(); i++ {
					if nd.IsNull(i) && nd.Indices().(*array.Int8).Value(i) != 0 {
						t.Errorf("null key %d stored as %d, want 0", i, nd.Indices().(*array.Int8).Value(i))
					}
				}
			}
		})
	}
}

// jsonList is the String form of a JSON array of type dt.
func jsonList(t *testing.T, mem memory.Allocator, dt arrow.DataType, js string) string {
	a, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	return a.String()
}

// TestNormalizeDictNullsNested checks a dictionary inside a struct.
func TestNormalizeDictNullsNested(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	d := dictFromJSON(t, mem, arrow.PrimitiveTypes.Uint16, `[0,1,0]`, `[null,"x"]`)
	defer d.Release()
	st, err := array.NewStructArray([]arrow.Array{d}, []string{"d"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Release()
	out, changed, err := normalizeDictNulls(st, mem)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	defer out.Release()
	if got, want := out.(*array.Struct).Field(0).String(), `{ dictionary: ["x"]
  indices: [(null) 0 (null)] }`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestNormalizeDictNullsHostile checks keys outside the dictionary.
func TestNormalizeDictNullsHostile(t *testing.T) {
	for _, tc := range []struct {
		name string
		kt   arrow.DataType
		keys string
	}{
		{"too large", arrow.PrimitiveTypes.Uint8, `[0,7]`},
		{"negative", arrow.PrimitiveTypes.Int8, `[0,-1]`},
		{"negative int64", arrow.PrimitiveTypes.Int64, `[-9]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			d := dictFromJSON(t, mem, tc.kt, tc.keys, `["a",null]`)
			defer d.Release()
			if _, _, err := normalizeDictNulls(d, mem); !errors.Is(err, lerr.ErrInvalidArgument) {
				t.Fatalf("err %v, want ErrInvalidArgument", err)
			}
		})
	}
}
