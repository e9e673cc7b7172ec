package layouts

import (
	"reflect"
	"testing"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

const (
	avItem  = pb.RepDefLayer_REPDEF_ALL_VALID_ITEM
	nItem   = pb.RepDefLayer_REPDEF_NULLABLE_ITEM
	avList  = pb.RepDefLayer_REPDEF_ALL_VALID_LIST
	nList   = pb.RepDefLayer_REPDEF_NULLABLE_LIST
	eList   = pb.RepDefLayer_REPDEF_EMPTYABLE_LIST
	neList  = pb.RepDefLayer_REPDEF_NULL_AND_EMPTY_LIST
	unknown = pb.RepDefLayer(99)
)

func TestNewLayerSetCodes(t *testing.T) {
	// list<struct<x>> with every kind of null: inner-most first.
	set, err := NewLayerSet([]pb.RepDefLayer{nItem, nItem, neList})
	if err != nil {
		t.Fatal(err)
	}
	if set.MaxDef != 4 || set.MaxRep != 1 || set.MaxVisibleDef != 2 {
		t.Fatalf("set = %+v", set)
	}
	list := set.Layers[0]
	if list.Kind != LayerList || list.NullCode != 3 || list.EmptyCode != 4 || list.RepNumber != 1 {
		t.Fatalf("list layer = %+v", list)
	}
	if s := set.Layers[1]; s.NullCode != 2 || s.Before != 1 {
		t.Fatalf("struct layer = %+v", s)
	}
	for _, bad := range [][]pb.RepDefLayer{nil, {unknown}} {
		if _, err := NewLayerSet(bad); err == nil {
			t.Errorf("%v: want error", bad)
		}
	}
}

func TestUnravelStructs(t *testing.T) {
	// The spec's example: [{"middle":{"inner":1}}, NULL, {"middle":NULL}, {"middle":{"inner":NULL}}]
	// has definition levels 0,3,2,1 over three nullable item layers.
	set, _ := NewLayerSet([]pb.RepDefLayer{nItem, nItem, nItem})
	top, err := Unravel(set, Levels{Def: []uint16{0, 3, 2, 1}, N: 4})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]bool{{true, false, true, true}, {true, false, false, true}, {true, false, false, false}}
	n := top
	for layer, w := range want {
		if got := bits(n); !reflect.DeepEqual(got, w) {
			t.Errorf("layer %d validity = %v, want %v", layer, got, w)
		}
		n = n.Child
	}
}

func TestUnravelNestedLists(t *testing.T) {
	// [[[1,2], null, []], null, [], [[3]]] as list<list<int>> with all kinds of lists.
	set, _ := NewLayerSet([]pb.RepDefLayer{avItem, neList, neList})
	// inner list codes: null 1, empty 2; outer list: null 3, empty 4.
	lv := Levels{
		Rep: []uint16{2, 0, 1, 1, 2, 2, 2},
		Def: []uint16{0, 0, 1, 2, 3, 4, 0},
		N:   7,
	}
	top, err := Unravel(set, lv)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(top.Offsets, []int64{0, 3, 3, 3, 4}) || !reflect.DeepEqual(bits(top), []bool{true, false, true, true}) {
		t.Fatalf("outer offsets %v validity %v", top.Offsets, bits(top))
	}
	in := top.Child
	if !reflect.DeepEqual(in.Offsets, []int64{0, 2, 2, 2, 3}) || !reflect.DeepEqual(bits(in), []bool{true, false, true, true}) {
		t.Fatalf("inner offsets %v validity %v", in.Offsets, bits(in))
	}
	if leaf := in.Child; leaf.Len != 3 || leaf.Validity != nil {
		t.Fatalf("leaf = %+v", leaf)
	}
}

func TestUnravelRejectsBadLevels(t *testing.T) {
	set, _ := NewLayerSet([]pb.RepDefLayer{nItem, nList})
	for name, lv := range map[string]Levels{
		"def too high":     {Rep: []uint16{1}, Def: []uint16{9}, N: 1},
		"rep too high":     {Rep: []uint16{5}, Def: []uint16{0}, N: 1},
		"no row start":     {Rep: []uint16{0}, Def: []uint16{0}, N: 1},
		"length mismatch":  {Rep: []uint16{1, 0}, Def: []uint16{0}, N: 2},
		"missing rep list": {Def: []uint16{0}, N: 1},
	} {
		if _, err := Unravel(set, lv); err == nil {
			t.Errorf("%s: want error", name)
		}
	}
}

func TestAppendNode(t *testing.T) {
	set, _ := NewLayerSet([]pb.RepDefLayer{nItem, nList})
	a, _ := Unravel(set, Levels{Rep: []uint16{1, 0, 1}, Def: []uint16{0, 1, 2}, N: 3})
	b, _ := Unravel(set, Levels{Rep: []uint16{1}, Def: []uint16{0}, N: 1})
	if err := AppendNode(a, b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Offsets, []int64{0, 2, 2, 3}) || !reflect.DeepEqual(bits(a), []bool{true, false, true}) {
		t.Fatalf("offsets %v validity %v", a.Offsets, bits(a))
	}
	if !reflect.DeepEqual(bits(a.Child), []bool{true, false, true}) {
		t.Fatalf("leaf validity %v", bits(a.Child))
	}
}

func bits(n *PathNode) []bool {
	out := make([]bool, n.Len)
	for i := range out {
		out[i] = n.Validity == nil || getBit(n.Validity, i)
	}
	return out
}

func TestAppendBitsUnaligned(t *testing.T) {
	dst := newBitmapSet(3) // padding bits are set: appends must clear them
	dst = appendBits(dst, 3, []byte{0b0101}, 0, 4)
	want := []bool{true, true, true, true, false, true, false}
	for i, w := range want {
		if getBit(dst, i) != w {
			t.Fatalf("bit %d = %v, want %v", i, !w, w)
		}
	}
}
