package layouts

import (
	"errors"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// TestDenseFSLUnravel: the levels of a dense page of fixed-size lists of
// structs (Lance's repdef test vectors: a nullable fixed-size list of 2
// over an all-valid one of 2 over nullable items, def [0 1 0 1 2 2 2 2];
// and one list level over a nullable struct) unravel into the schema's
// structure, and malformed ones are refused.
func TestDenseFSLUnravel(t *testing.T) {
	item := &Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Column: 0}
	st := &Field{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64}), Column: -1, Children: []*Field{item}}
	fsl := func(n int32, c *Field) *Field {
		return &Field{Name: "f", Type: arrow.FixedSizeListOf(n, c.Type), Column: -1, Children: []*Field{c}}
	}
	nullable, valid := pb.RepDefLayer_REPDEF_NULLABLE_ITEM, pb.RepDefLayer_REPDEF_ALL_VALID_ITEM
	for _, c := range []struct {
		name   string
		layers []pb.RepDefLayer // inner-most first
		path   []*Field
		def    []uint16
		per    uint64
		lens   []int // node lengths, outer-most first
		nulls  []int // null counts, outer-most first
		err    error // of Unravel
	}{
		{"lance_fsl_fsl", []pb.RepDefLayer{nullable, valid, nullable}, []*Field{fsl(2, fsl(2, item)), fsl(2, item), item},
			[]uint16{0, 1, 0, 1, 2, 2, 2, 2}, 4, []int{2, 4, 8}, []int{1, 2, 6}, nil},
		{"fsl_struct", []pb.RepDefLayer{nullable, nullable, nullable}, []*Field{fsl(2, st), st, item},
			[]uint16{0, 2, 3, 3, 1, 0}, 2, []int{3, 6, 6}, []int{1, 3, 4}, nil},
		{"not_whole_rows", []pb.RepDefLayer{nullable, nullable, nullable}, []*Field{fsl(2, st), st, item},
			[]uint16{0, 2, 3}, 2, nil, nil, ErrCorrupt},
	} {
		set, err := NewLayerSet(c.layers)
		if err != nil {
			t.Fatal(err)
		}
		dset, per, err := DenseFSLSet(set, c.path)
		if err != nil || per != c.per {
			t.Fatalf("%s: DenseFSLSet = %d, %v; want %d", c.name, per, err, c.per)
		}
		top, err := Unravel(dset, Levels{Def: c.def, N: len(c.def)})
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Fatalf("%s: err = %v, want %v", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var lens, nulls []int
		for n := top; n != nil; n = n.Child {
			lens, nulls = append(lens, n.Len), append(nulls, n.NullCount)
		}
		if !reflect.DeepEqual(lens, c.lens) || !reflect.DeepEqual(nulls, c.nulls) {
			t.Fatalf("%s: lengths %v nulls %v, want %v %v", c.name, lens, nulls, c.lens, c.nulls)
		}
	}
}

// TestDenseFSLSetRefusals: a dense page whose layers hold a list, or do
// not match the field path, is not read as fixed-size lists.
func TestDenseFSLSetRefusals(t *testing.T) {
	item := &Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Column: 0}
	lst := &Field{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Column: -1, Children: []*Field{item}}
	st := &Field{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "l", Type: lst.Type}), Column: -1, Children: []*Field{lst}}
	f := &Field{Name: "f", Type: arrow.FixedSizeListOf(2, st.Type), Column: -1, Children: []*Field{st}}
	nullable := pb.RepDefLayer_REPDEF_NULLABLE_ITEM
	for _, c := range []struct {
		name   string
		layers []pb.RepDefLayer
		path   []*Field
		want   error
	}{
		{"list_below", []pb.RepDefLayer{nullable, pb.RepDefLayer_REPDEF_NULLABLE_LIST, nullable, nullable}, []*Field{f, st, lst, item}, ErrUnsupported},
		{"layer_count", []pb.RepDefLayer{nullable, nullable}, []*Field{f, st, lst, item}, ErrCorrupt},
	} {
		set, err := NewLayerSet(c.layers)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := DenseFSLSet(set, c.path); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
}
