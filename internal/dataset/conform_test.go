package dataset

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/format"
)

// TestConformStructChildren checks a sliced List<Struct<c, b>> read as
// List<Struct<a, b, c>>: children by name, the missing one null, and a
// leaf of another type an ErrCorrupt error rather than a panic.
func TestConformStructChildren(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	str := arrow.BinaryTypes.String
	got := arrow.ListOf(arrow.StructOf(arrow.Field{Name: "c", Type: str, Nullable: true}, arrow.Field{Name: "b", Type: str, Nullable: true}))
	want := arrow.ListOf(arrow.StructOf(arrow.Field{Name: "a", Type: str, Nullable: true},
		arrow.Field{Name: "b", Type: str, Nullable: true}, arrow.Field{Name: "c", Type: str, Nullable: true}))
	a, _, err := array.FromJSON(mem, got, strings.NewReader(`[[{"c":"c0","b":"b0"}],[{"c":"c1","b":null},{"c":null,"b":"b2"}],null,[]]`))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	s := array.NewSlice(a, 1, 4)
	defer s.Release()
	b, err := conform(mem, s, want, "data")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	exp, _, err := array.FromJSON(mem, want, strings.NewReader(`[[{"a":null,"b":null,"c":"c1"},{"a":null,"b":"b2","c":null}],null,[]]`))
	if err != nil {
		t.Fatal(err)
	}
	defer exp.Release()
	if !array.Equal(b, exp) {
		t.Fatalf("conformed %v, want %v", b, exp)
	}
	bad := arrow.ListOf(arrow.StructOf(arrow.Field{Name: "b", Type: arrow.PrimitiveTypes.Int32, Nullable: true}))
	if _, err := conform(mem, s, bad, "data"); !errors.Is(err, format.ErrCorrupt) {
		t.Fatalf("leaf of another type: %v, want ErrCorrupt", err)
	}
}
