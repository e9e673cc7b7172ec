package layouts

import (
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lerr"
)

// Shredding is the encoding half of rep/def levels; Unravel (unravel.go) is
// the decoding half, and TestShredUnravelIdentity checks that one undoes
// the other over random nested shapes. Levels number layers inner-most
// first, 0 meaning "valid at every layer" (Lance's convention, the reverse
// of Parquet's). A worked example (TestShredWorkedExample): the column
//
//	[[0, null], [], null, [2]]   list<int32>, nullable list and items
//
// has the layers [NULLABLE_ITEM, NULL_AND_EMPTY_LIST] (inner-most first),
// so def 0 = valid item, 1 = null item, 2 = null list, 3 = empty list; rep
// 1 starts a row (there is one list layer), 0 continues it. Shred gives one
// entry per item and per null or empty list, and the leaf slot of each
// visible entry (entries with a value or a null value; -1 for a null):
//
//	rep: 1 0 1 1 1
//	def: 0 1 3 2 0
//	Idx: 0 -1 2
//
// Unravel turns the levels back into a PathNode per layer: the list node
// has offsets [0, 2, 2, 2, 3] and validity 1,1,0,1; the item node three
// slots with validity 1,0,1.

// ShredScratch lends Shred the buffers it fills (the writer pools them).
// Each method returns an empty slice with room for n, or the slots lo, lo+1,
// ..., hi-1 (read-only).
type ShredScratch interface {
	U16sCap(n int) []uint16
	IntsCap(n int) []int
	Identity(lo, hi int) []int
}

// plainScratch allocates.
type plainScratch struct{}

func (plainScratch) U16sCap(n int) []uint16 { return make([]uint16, 0, n) }
func (plainScratch) IntsCap(n int) []int    { return make([]int, 0, n) }
func (plainScratch) Identity(lo, hi int) []int {
	s := make([]int, hi-lo)
	for i := range s {
		s[i] = lo + i
	}
	return s
}

// Shredded is one leaf column of a page flattened into rep/def levels and
// the leaf slots of its visible entries. It is the inverse of
// Unravel.
type Shredded struct {
	Layers []pb.RepDefLayer // inner-most first, describing this page's data
	Set    LayerSet
	Rep    []uint16 // nil when the page has no list layer
	Def    []uint16 // nil when nothing is null or empty
	Leaf   arrow.Array
	// Idx holds the leaf slot of each visible entry, -1 for a null slot
	// whose null comes from an enclosing struct; nil when Dense.
	Idx []int
	// Dense marks DenseN visible entries that are the leaf slots DenseLo,
	// DenseLo+1, ... in order, none null (Idx is then nil: Slots makes it
	// when a consumer needs it, and the common all-valid page never does).
	Dense           bool
	DenseLo, DenseN int
	// DenseNulls, with Dense, lets some of those entries be null: entry j
	// (slot DenseLo+j) is null where Def[j] != 0 (a flat nullable column;
	// its null entries are visible and have no slot of their own, -1 in
	// Slots).
	DenseNulls bool
	NumRows    int
	NumNull    int // visible entries that are null (def != 0)
	// FSL is, for a leaf below a fixed-size list of structs, the layer
	// set read as the schema's (DenseFSLSet: the list's item layer as a
	// LayerFSL); nil otherwise. Such a page has NumRows items (rows ×
	// dimension), as Lance counts them.
	FSL *LayerSet
}

// NumItems is the number of level entries.
func (s *Shredded) NumItems() int {
	if s.Rep != nil {
		return len(s.Rep)
	}
	if s.Def != nil {
		return len(s.Def)
	}
	return s.NumSlots()
}

// NumSlots is the number of visible entries.
func (s *Shredded) NumSlots() int {
	if s.Dense {
		return s.DenseN
	}
	return len(s.Idx)
}

// Slots returns the leaf slot of every visible entry (Idx), made from
// sc's identity when Dense.
func (s *Shredded) Slots(sc ShredScratch) []int {
	if s.Dense {
		if sc == nil {
			sc = plainScratch{}
		}
		if s.DenseNulls {
			return s.denseNullSlots(sc.IntsCap(s.DenseN))
		}
		return sc.Identity(s.DenseLo, s.DenseLo+s.DenseN)
	}
	return s.Idx
}

// denseNullSlots appends the slots of a DenseNulls range to idx.
func (s *Shredded) denseNullSlots(idx []int) []int {
	for j := 0; j < s.DenseN; j++ {
		if s.Def[j] != 0 {
			idx = append(idx, -1)
		} else {
			idx = append(idx, s.DenseLo+j)
		}
	}
	return idx
}

// setDense marks the entries as the leaf slots lo, ..., hi-1.
func (s *Shredded) setDense(lo, hi int) {
	s.Idx, s.Dense, s.DenseLo, s.DenseN = nil, true, lo, hi-lo
}

// shredder walks the arrays of one leaf path.
type shredder struct {
	arrays   []arrow.Array // array of each path layer (top first)
	list     []bool        // layer is a list
	dim      []uint64      // dimension of a fixed-size list of structs, else 0
	mult     []int         // level entries per slot of each layer (Π dim at and below)
	hasNull  []bool
	hasEmpty []bool
	// repFSL: the path holds lists beside its fixed-size lists of structs,
	// so those repeat as layers of their own (sparse pages only).
	repFSL bool
	out    *Shredded
	lay    []walkLayer // per layer, for the walk (shred_walk.go)
	// the fast path's dense leaf slots [denseLo, denseHi) while dense
	// (shred_lists.go), and the scratch its slots come from
	dense            bool
	denseLo, denseHi int
	sc               ShredScratch
}

// Shred flattens one leaf column out of top (a whole top-level column):
// child lists the path from top to the leaf, the index of the child taken
// at each layer below top (0 under a list, the field under a struct). sc
// lends the level and slot buffers (nil: plain allocation).
func Shred(top arrow.Array, child []int, sc ShredScratch) (*Shredded, error) {
	if sc == nil {
		sc = plainScratch{}
	}
	if _, list := top.(array.ListLike); len(child) == 0 && (!list || top.DataType().ID() == arrow.FIXED_SIZE_LIST) {
		return shredFlat(top, sc)
	}
	if len(child) == 1 && top.Len() > 0 {
		// Offsets() is the whole offsets buffer: from the array offset on
		switch t := top.(type) {
		case *array.List:
			if leafArray(t.ListValues()) {
				return shredList(top, t.Offsets()[t.Data().Offset():], t.ListValues(), sc)
			}
		case *array.LargeList:
			if leafArray(t.ListValues()) {
				return shredList(top, t.Offsets()[t.Data().Offset():], t.ListValues(), sc)
			}
		}
	}
	s, err := newShredder(top, child)
	if err != nil {
		return nil, err
	}
	if s.structOnlyPath() {
		return shredStructs(s, sc)
	}
	if s.listsPath() {
		return s.shredLists(top.Len(), sc)
	}
	for i := 0; i < top.Len(); i++ {
		s.scan(0, i)
	}
	set, err := s.layerSet()
	if err != nil {
		return nil, err
	}
	if set.HasLists() {
		s.out.Rep = sc.U16sCap(s.arrays[len(s.arrays)-1].Len() + top.Len())
	}
	if set.NeedsDef() {
		s.out.Def = sc.U16sCap(s.arrays[len(s.arrays)-1].Len() + top.Len())
	}
	s.out.Idx = sc.IntsCap(s.arrays[len(s.arrays)-1].Len())
	for i := 0; i < top.Len(); i++ {
		s.visit(0, i, set.MaxRep)
	}
	return s.out, nil
}

// shredFlat is shred for a top-level field stored as one leaf (no list or
// struct layer): one level entry per row.
func shredFlat(top arrow.Array, sc ShredScratch) (*Shredded, error) {
	n := top.Len()
	out := &Shredded{NumRows: n, Leaf: top, Layers: []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM}}
	if top.NullN() > 0 {
		out.Layers[0] = pb.RepDefLayer_REPDEF_NULLABLE_ITEM
	}
	set, err := NewLayerSet(out.Layers)
	if err != nil {
		return nil, err
	}
	out.Set = set
	if !set.NeedsDef() {
		out.setDense(0, n)
		return out, nil
	}
	out.Def = sc.U16sCap(n)[:n]
	clear(out.Def)
	code, visible := set.Layers[0].NullCode, set.Layers[0].NullCode <= set.MaxVisibleDef
	bitmap, off := top.NullBitmapBytes(), top.Data().Offset()
	if visible && len(bitmap) > 0 { // every row an entry, its slot its row
		for i := 0; i < n; i++ {
			if bitutil.BitIsNotSet(bitmap, off+i) {
				out.Def[i] = code
				out.NumNull++
			}
		}
		out.setDense(0, n)
		out.DenseNulls = true
		return out, nil
	}
	out.Idx = sc.IntsCap(n)
	for i := 0; i < n; i++ {
		switch {
		case len(bitmap) > 0 && bitutil.BitIsNotSet(bitmap, off+i), len(bitmap) == 0 && top.IsNull(i):
			out.Def[i] = code
			if visible {
				out.NumNull++
				out.Idx = append(out.Idx, -1)
			}
		default:
			out.Idx = append(out.Idx, i)
		}
	}
	return out, nil
}

// leafArray reports an array stored as one leaf under a list: not a
// list, map or struct (fixed-size lists are leaves).
func leafArray(a arrow.Array) bool {
	switch a.DataType().ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.MAP, arrow.STRUCT, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW:
		return false
	}
	return true
}

// shredList is shred for a top-level list of leaves (offs are the list's
// offsets from its array offset, child its values): the same levels as the
// general walk, without its per-entry recursion.
func shredList[T int32 | int64](top arrow.Array, offs []T, child arrow.Array, sc ShredScratch) (*Shredded, error) {
	n := top.Len()
	// pass 1: which layers have nulls or empty lists; gap: the items of
	// the non-null lists are not one run (a null list owns items)
	listNull, listEmpty, itemNull, gap := top.NullN() > 0, false, false, false
	for i := 0; i < n; i++ {
		if listNull && top.IsNull(i) {
			gap = gap || offs[i] != offs[i+1]
			continue
		}
		start, end := int(offs[i]), int(offs[i+1])
		if start == end {
			listEmpty = true
		}
		if !itemNull && child.NullN() > 0 {
			for j := start; j < end; j++ {
				if child.IsNull(j) {
					itemNull = true
					break
				}
			}
		}
	}
	item, list := pb.RepDefLayer_REPDEF_ALL_VALID_ITEM, pb.RepDefLayer_REPDEF_ALL_VALID_LIST
	if itemNull {
		item = pb.RepDefLayer_REPDEF_NULLABLE_ITEM
	}
	switch {
	case listNull && listEmpty:
		list = pb.RepDefLayer_REPDEF_NULL_AND_EMPTY_LIST
	case listNull:
		list = pb.RepDefLayer_REPDEF_NULLABLE_LIST
	case listEmpty:
		list = pb.RepDefLayer_REPDEF_EMPTYABLE_LIST
	}
	out := &Shredded{NumRows: n, Leaf: child, Layers: []pb.RepDefLayer{item, list}}
	set, err := NewLayerSet(out.Layers)
	if err != nil {
		return nil, err
	}
	out.Set = set
	// pass 2: one entry per item, or per null or empty list
	entries := int(offs[n]-offs[0]) + n
	out.Rep = sc.U16sCap(entries)
	if set.NeedsDef() {
		out.Def = sc.U16sCap(entries)
	}
	// without item nulls or gaps the slots are offs[0], offs[0]+1, ...
	run := !itemNull && !gap
	if !run {
		out.Idx = sc.IntsCap(entries)
	}
	L, I := set.Layers[0], set.Layers[1]
	emit := func(rep, def uint16, slot int) {
		out.Rep = append(out.Rep, rep)
		if out.Def != nil {
			out.Def = append(out.Def, def)
		}
		if !run && def <= set.MaxVisibleDef {
			if def != 0 {
				out.NumNull++
				slot = -1
			}
			out.Idx = append(out.Idx, slot)
		}
	}
	maxRep, inner := set.MaxRep, L.RepNumber-1
	for i := 0; i < n; i++ {
		if listNull && top.IsNull(i) {
			emit(maxRep, L.NullCode, -1)
			continue
		}
		start, end := int(offs[i]), int(offs[i+1])
		if start == end {
			emit(maxRep, L.EmptyCode, -1)
			continue
		}
		rep := maxRep
		for j := start; j < end; j++ {
			if itemNull && child.IsNull(j) {
				emit(rep, I.NullCode, -1)
			} else {
				emit(rep, 0, j)
			}
			rep = inner
		}
	}
	if run {
		out.setDense(int(offs[0]), int(offs[n]))
	}
	return out, nil
}

// newShredder resolves the array of every layer of the path.
func newShredder(top arrow.Array, child []int) (*shredder, error) {
	n := len(child) + 1
	s := &shredder{arrays: make([]arrow.Array, n), list: make([]bool, n), hasNull: make([]bool, n),
		hasEmpty: make([]bool, n), dim: make([]uint64, n), out: &Shredded{NumRows: top.Len()}}
	s.arrays[0] = top
	for k := 0; k < n; k++ {
		switch a := s.arrays[k].(type) {
		case array.ListLike:
			if a.DataType().ID() == arrow.FIXED_SIZE_LIST {
				if k+1 < n { // a fixed-size list of structs: a layer of its own
					s.dim[k] = uint64(a.DataType().(*arrow.FixedSizeListType).Len())
					s.arrays[k+1] = a.ListValues()
					continue
				}
				break
			}
			s.list[k] = true
			if k+1 < n {
				s.arrays[k+1] = a.ListValues()
			}
			continue
		case *array.Struct:
			if k+1 < n {
				s.arrays[k+1] = a.Field(child[k])
			}
			continue
		}
		if k+1 < n {
			return nil, fmt.Errorf("%w: cannot descend into %s", lerr.ErrUnsupportedType, s.arrays[k].DataType())
		}
	}
	s.out.Leaf = s.arrays[n-1]
	s.resolveLayers()
	return s, s.multiples()
}

// multiples fills mult and scales NumRows to items for a path through
// fixed-size lists of structs holding no list (Lance 2.2 and dense 2.3
// pages store them without repetition levels). A path with lists too is
// shredded with the fixed-size lists repeating (repFSL), as Lance 14.0.2's
// 2.3 sparse pages hold them.
func (s *shredder) multiples() error {
	n := len(s.arrays)
	s.mult = make([]int, n)
	m, fsl := 1, false
	for k := n - 1; k >= 0; k-- {
		if s.dim[k] > 0 {
			if m > math.MaxInt32/int(s.dim[k]) {
				return fmt.Errorf("%w: fixed-size lists of %d items a row", lerr.ErrUnsupportedType, uint64(m)*s.dim[k])
			}
			m *= int(s.dim[k])
			fsl = true
		}
		s.mult[k] = m
	}
	if !fsl {
		return nil
	}
	if s.out.NumRows > math.MaxInt32/m {
		return fmt.Errorf("%w: %d rows of %d fixed-size-list items", lerr.ErrUnsupportedType, s.out.NumRows, m)
	}
	s.out.NumRows *= m // Lance counts such pages in items, lists or not
	s.repFSL = slices.Contains(s.list, true)
	return nil
}

// layerSet sets the page's layers and the set its levels are written in:
// the protobuf layers' set, or with fixed-size lists of structs the set
// with LayerFSL layers (Shredded.FSL; it is the levels' own set when those
// repeat, repFSL).
func (s *shredder) layerSet() (LayerSet, error) {
	s.out.Layers = s.pbLayers()
	if s.repFSL {
		set := layerSetOf(s.specs())
		s.out.Set, s.out.FSL = set, &set
		return set, nil
	}
	set, err := NewLayerSet(s.out.Layers)
	if err != nil {
		return LayerSet{}, err
	}
	s.out.Set = set
	return set, s.fslSet()
}

// specs are the layers, inner-most first, with the fixed-size lists of
// structs as LayerFSL layers.
func (s *shredder) specs() []layerSpec {
	out := make([]layerSpec, 0, len(s.arrays))
	for k := len(s.arrays) - 1; k >= 0; k-- {
		sp := layerSpec{kind: LayerItem, null: s.hasNull[k]}
		switch {
		case s.list[k]:
			sp.kind, sp.empty = LayerList, s.hasEmpty[k]
		case s.dim[k] > 0:
			sp.kind, sp.dim = LayerFSL, s.dim[k]
		}
		out = append(out, sp)
	}
	return out
}

// fslSet records the layer set with the fixed-size lists of structs as
// LayerFSL layers (Shredded.FSL), for sparse structure.
func (s *shredder) fslSet() error {
	if !slices.ContainsFunc(s.dim, func(d uint64) bool { return d > 0 }) {
		return nil
	}
	set := s.out.Set
	set.Layers = slices.Clone(set.Layers)
	for k, d := range s.dim {
		if d > 0 {
			set.Layers[k].Kind, set.Layers[k].Dim = LayerFSL, d
		}
	}
	set = numberFSL(set)
	s.out.FSL = &set
	return nil
}

// pbLayers converts the scan flags into layers, inner-most first.
func (s *shredder) pbLayers() []pb.RepDefLayer {
	out := make([]pb.RepDefLayer, 0, len(s.arrays))
	for k := len(s.arrays) - 1; k >= 0; k-- {
		nul, emp := s.hasNull[k], s.hasEmpty[k]
		switch {
		case !s.list[k] && nul:
			out = append(out, pb.RepDefLayer_REPDEF_NULLABLE_ITEM)
		case !s.list[k]:
			out = append(out, pb.RepDefLayer_REPDEF_ALL_VALID_ITEM)
		case nul && emp:
			out = append(out, pb.RepDefLayer_REPDEF_NULL_AND_EMPTY_LIST)
		case nul:
			out = append(out, pb.RepDefLayer_REPDEF_NULLABLE_LIST)
		case emp:
			out = append(out, pb.RepDefLayer_REPDEF_EMPTYABLE_LIST)
		default:
			out = append(out, pb.RepDefLayer_REPDEF_ALL_VALID_LIST)
		}
	}
	return out
}
