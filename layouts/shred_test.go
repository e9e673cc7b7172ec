package layouts

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/lebits"
)

// TestShredUnravelIdentity is the round-trip property of rep/def levels:
// for random nested shapes (lists, large lists and structs over an int32
// leaf, up to four layers deep, with random nulls at every layer, empty
// lists and sliced arrays), shredding a column into levels (shred) and
// unraveling the levels (Unravel) gives back, layer by layer, the
// column's own structure: slot counts, validity and list offsets.
func TestShredUnravelIdentity(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(15, 2026))
	for it := range 300 {
		dt := randomShape(r, 1+r.IntN(4))
		rows := r.IntN(40)
		arr := randomArray(mem, r, dt, rows+2)
		sliced := array.NewSlice(arr, 1, int64(rows+1))
		arr.Release()
		defer sliced.Release()
		checkShredUnravel(t, fmt.Sprintf("%d/%s", it, dt), sliced)
	}
}

// checkShredUnravel shreds the leaf of col and compares the unraveled
// levels with the column's structure.
func checkShredUnravel(t *testing.T, name string, col arrow.Array) {
	child := pathTo(col.DataType())
	s, err := Shred(col, child, nil)
	if err != nil {
		t.Fatalf("%s: shred: %v", name, err)
	}
	set := s.Set
	if s.FSL != nil {
		set = *s.FSL // fixed-size lists of structs as layers of their own
	}
	got, err := Unravel(set, Levels{Rep: s.Rep, Def: s.Def, N: s.NumItems()})
	if err != nil {
		t.Fatalf("%s: unravel: %v", name, err)
	}
	want := layerOf(col, child, nil)
	if err := sameStructure(got, want); err != nil {
		t.Fatalf("%s: %v\nrep %v\ndef %v", name, err, s.Rep, s.Def)
	}
	// visible entries: one per leaf slot, pointing at the leaf's own slot
	if got.Leaf().Len != s.NumSlots() {
		t.Fatalf("%s: %d leaf slots, %d visible entries", name, got.Leaf().Len, s.NumSlots())
	}
}

// node is the expected structure of one layer.
type node struct {
	list    bool
	fsl     bool // a fixed-size list of structs: no offsets
	valid   []bool
	offsets []int64
	child   *node
}

// layerOf builds the expected layers of array a, restricted to slots
// (nil: all of them; -1-i: slot i hidden under a null struct or fixed-size
// list, so null), down the path given by child (the struct field taken at
// each struct layer).
func layerOf(a arrow.Array, child []int, slots []int) *node {
	if slots == nil {
		slots = make([]int, a.Len())
		for i := range slots {
			slots[i] = i
		}
	}
	n := &node{valid: make([]bool, len(slots))}
	for j, i := range slots {
		n.valid[j] = i >= 0 && a.IsValid(i)
	}
	switch t := a.(type) {
	case *array.FixedSizeList:
		// every slot, null or hidden, owns its dimension children
		n.fsl = true
		next := []int{}
		for j, i := range slots {
			lo, hi := t.ValueOffsets(max(i, -1-i))
			for k := lo; k < hi; k++ {
				next = append(next, hiddenUnless(int(k), n.valid[j]))
			}
		}
		n.child = layerOf(t.ListValues(), child[1:], next)
	case array.ListLike:
		n.list = true
		n.offsets = []int64{0}
		var next []int
		for j, i := range slots {
			if n.valid[j] {
				lo, hi := t.ValueOffsets(i)
				for k := lo; k < hi; k++ {
					next = append(next, int(k))
				}
			}
			n.offsets = append(n.offsets, int64(len(next)))
		}
		if next == nil {
			next = []int{}
		}
		n.child = layerOf(t.ListValues(), child[1:], next)
	case *array.Struct:
		next := make([]int, len(slots))
		for j, i := range slots {
			next[j] = hiddenUnless(max(i, -1-i), n.valid[j])
		}
		n.child = layerOf(t.Field(child[0]), child[1:], next)
	}
	return n
}

// hiddenUnless is slot i, marked hidden (-1-i) unless valid.
func hiddenUnless(i int, valid bool) int {
	if valid {
		return i
	}
	return -1 - i
}

// sameStructure compares unraveled path nodes with the expected layers.
func sameStructure(got *PathNode, want *node) error {
	for depth := 0; want != nil; depth++ {
		if got == nil {
			return fmt.Errorf("layer %d missing", depth)
		}
		if got.Len != len(want.valid) {
			return fmt.Errorf("layer %d: %d slots, want %d", depth, got.Len, len(want.valid))
		}
		for i, v := range want.valid {
			if g := got.Validity == nil || lebits.Bit(got.Validity, i); g != v {
				return fmt.Errorf("layer %d slot %d: valid %v, want %v", depth, i, g, v)
			}
		}
		if want.fsl != (got.Kind == LayerFSL) {
			return fmt.Errorf("layer %d: kind %d, want a fixed-size list %v", depth, got.Kind, want.fsl)
		}
		if want.list {
			if len(got.Offsets) != len(want.offsets) {
				return fmt.Errorf("layer %d: %d offsets, want %d", depth, len(got.Offsets), len(want.offsets))
			}
			for i := range want.offsets {
				if got.Offsets[i]-got.Offsets[0] != want.offsets[i] {
					return fmt.Errorf("layer %d: offsets %v, want %v", depth, got.Offsets, want.offsets)
				}
			}
		}
		got, want = got.Child, want.child
	}
	if got != nil {
		return fmt.Errorf("extra layers")
	}
	return nil
}

// randomShape returns a nested type of depth layers above an int32 leaf.
func randomShape(r *rand.Rand, depth int) arrow.DataType {
	if depth == 0 {
		return arrow.PrimitiveTypes.Int32
	}
	inner := randomShape(r, depth-1)
	switch r.IntN(4) {
	case 0:
		return arrow.ListOf(inner)
	case 1:
		return arrow.LargeListOf(inner)
	case 2: // a fixed-size list of structs, with or without lists beside it
		return arrow.FixedSizeListOf(int32(1+r.IntN(3)), arrow.StructOf(arrow.Field{Name: "x", Type: inner, Nullable: true}))
	}
	return arrow.StructOf(arrow.Field{Name: "x", Type: inner, Nullable: true})
}

// randomArray builds n random values of dt with nulls at every layer and
// empty lists.
func randomArray(mem memory.Allocator, r *rand.Rand, dt arrow.DataType, n int) arrow.Array {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	nullP := []float64{0, 0.1, 0.4}[r.IntN(3)]
	for range n {
		appendRandom(r, b, nullP)
	}
	return b.NewArray()
}

// appendRandom appends one random value to b.
func appendRandom(r *rand.Rand, b array.Builder, nullP float64) {
	if r.Float64() < nullP {
		b.AppendNull()
		return
	}
	switch t := b.(type) {
	case *array.Int32Builder:
		t.Append(r.Int32N(100))
	case *array.FixedSizeListBuilder:
		t.Append(true)
		for range t.Type().(*arrow.FixedSizeListType).Len() {
			appendRandom(r, t.ValueBuilder(), nullP)
		}
	case array.ListLikeBuilder:
		t.Append(true)
		for range r.IntN(4) {
			appendRandom(r, t.ValueBuilder(), nullP)
		}
	case *array.StructBuilder:
		t.Append(true)
		appendRandom(r, t.FieldBuilder(0), nullP)
	}
}

// pathTo is the child path of the only leaf of dt (every struct here has
// one field).
func pathTo(dt arrow.DataType) []int {
	var child []int
	for {
		switch t := dt.(type) {
		case arrow.ListLikeType:
			dt = t.Elem()
		case *arrow.StructType:
			dt = t.Field(0).Type
		default:
			return child
		}
		child = append(child, 0)
	}
}

// TestShredWorkedExample checks the example of shred.go's doc comment.
func TestShredWorkedExample(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
	defer b.Release()
	vb := b.ValueBuilder().(*array.Int32Builder)
	b.Append(true)
	vb.AppendValues([]int32{0, 1}, []bool{true, false})
	b.Append(true) // []
	b.AppendNull()
	b.Append(true)
	vb.Append(2)
	col := b.NewArray()
	defer col.Release()
	s, err := Shred(col, []int{0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(s.Rep) != "[1 0 1 1 1]" || fmt.Sprint(s.Def) != "[0 1 3 2 0]" || fmt.Sprint(s.Idx) != "[0 -1 2]" {
		t.Fatalf("rep %v def %v idx %v", s.Rep, s.Def, s.Idx)
	}
	if fmt.Sprint(s.Layers) != "[REPDEF_NULLABLE_ITEM REPDEF_NULL_AND_EMPTY_LIST]" {
		t.Fatalf("layers %v", s.Layers)
	}
	node, err := Unravel(s.Set, Levels{Rep: s.Rep, Def: s.Def, N: s.NumItems()})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(node.Offsets) != "[0 2 2 2 3]" || node.Validity[0]&0xF != 0b1011 {
		t.Fatalf("offsets %v validity %08b", node.Offsets, node.Validity)
	}
	if item := node.Child; item.Len != 3 || item.Validity[0]&7 != 0b101 {
		t.Fatalf("items %d validity %08b", item.Len, item.Validity)
	}
}
