package filewriter

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lerr"
	"github.com/lancego/lancego/layouts"
)

// shredded is one leaf column of a page flattened into rep/def levels and
// the leaf slots of its visible entries. It is the inverse of
// layouts.Unravel.
type shredded struct {
	layers []pb.RepDefLayer // inner-most first, describing this page's data
	set    layouts.LayerSet
	rep    []uint16 // nil when the page has no list layer
	def    []uint16 // nil when nothing is null or empty
	leaf   arrow.Array
	// idx holds the leaf slot of each visible entry, -1 for a null slot
	// whose null comes from an enclosing struct.
	idx     []int
	numRows int
	numNull int // visible entries that are null (def != 0)
	sc      *leafScratch
}

// numItems is the number of level entries.
func (s *shredded) numItems() int {
	if s.rep != nil {
		return len(s.rep)
	}
	if s.def != nil {
		return len(s.def)
	}
	return len(s.idx)
}

// shredder walks the arrays of one leaf path.
type shredder struct {
	arrays   []arrow.Array // array of each path layer (top first)
	list     []bool        // layer is a list
	hasNull  []bool
	hasEmpty []bool
	out      *shredded
}

// shred flattens the leaf of l out of top (a whole top-level column).
func shred(top arrow.Array, l *wleaf, sc *leafScratch) (*shredded, error) {
	if _, list := top.(array.ListLike); len(l.path) == 1 && (!list || top.DataType().ID() == arrow.FIXED_SIZE_LIST) {
		return shredFlat(top, sc)
	}
	if len(l.path) == 2 && top.Len() > 0 {
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
	s, err := newShredder(top, l)
	if err != nil {
		return nil, err
	}
	s.out.sc = sc
	for i := 0; i < top.Len(); i++ {
		s.scan(0, i)
	}
	s.out.layers = s.pbLayers()
	set, err := layouts.NewLayerSet(s.out.layers)
	if err != nil {
		return nil, err
	}
	s.out.set = set
	if set.HasLists() {
		s.out.rep = sc.u16sCap(s.arrays[len(s.arrays)-1].Len() + top.Len())
	}
	if set.NeedsDef() {
		s.out.def = sc.u16sCap(s.arrays[len(s.arrays)-1].Len() + top.Len())
	}
	s.out.idx = sc.intsCap(s.arrays[len(s.arrays)-1].Len())
	for i := 0; i < top.Len(); i++ {
		s.visit(0, i, set.MaxRep)
	}
	return s.out, nil
}

// shredFlat is shred for a top-level field stored as one leaf (no list or
// struct layer): one level entry per row.
func shredFlat(top arrow.Array, sc *leafScratch) (*shredded, error) {
	n := top.Len()
	out := &shredded{numRows: n, leaf: top, layers: []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM}, sc: sc}
	if top.NullN() > 0 {
		out.layers[0] = pb.RepDefLayer_REPDEF_NULLABLE_ITEM
	}
	set, err := layouts.NewLayerSet(out.layers)
	if err != nil {
		return nil, err
	}
	out.set = set
	if !set.NeedsDef() {
		out.idx = sc.identity(0, n)
		return out, nil
	}
	out.idx = sc.intsCap(n)
	out.def = sc.u16sCap(n)[:n]
	clear(out.def)
	code, visible := set.Layers[0].NullCode, set.Layers[0].NullCode <= set.MaxVisibleDef
	bitmap, off := top.NullBitmapBytes(), top.Data().Offset()
	for i := 0; i < n; i++ {
		switch {
		case len(bitmap) > 0 && bitutil.BitIsNotSet(bitmap, off+i), len(bitmap) == 0 && top.IsNull(i):
			out.def[i] = code
			if visible {
				out.numNull++
				out.idx = append(out.idx, -1)
			}
		default:
			out.idx = append(out.idx, i)
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
func shredList[T int32 | int64](top arrow.Array, offs []T, child arrow.Array, sc *leafScratch) (*shredded, error) {
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
	out := &shredded{numRows: n, leaf: child, layers: []pb.RepDefLayer{item, list}, sc: sc}
	set, err := layouts.NewLayerSet(out.layers)
	if err != nil {
		return nil, err
	}
	out.set = set
	// pass 2: one entry per item, or per null or empty list
	entries := int(offs[n]-offs[0]) + n
	out.rep = sc.u16sCap(entries)
	if set.NeedsDef() {
		out.def = sc.u16sCap(entries)
	}
	// without item nulls or gaps the slots are offs[0], offs[0]+1, ...
	run := !itemNull && !gap
	if !run {
		out.idx = sc.intsCap(entries)
	}
	L, I := set.Layers[0], set.Layers[1]
	emit := func(rep, def uint16, slot int) {
		out.rep = append(out.rep, rep)
		if out.def != nil {
			out.def = append(out.def, def)
		}
		if !run && def <= set.MaxVisibleDef {
			if def != 0 {
				out.numNull++
				slot = -1
			}
			out.idx = append(out.idx, slot)
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
		out.idx = sc.identity(int(offs[0]), int(offs[n]))
	}
	return out, nil
}

// newShredder resolves the array of every layer of the path.
func newShredder(top arrow.Array, l *wleaf) (*shredder, error) {
	n := len(l.path)
	s := &shredder{arrays: make([]arrow.Array, n), list: make([]bool, n), hasNull: make([]bool, n),
		hasEmpty: make([]bool, n), out: &shredded{numRows: top.Len()}}
	s.arrays[0] = top
	for k := 0; k < n; k++ {
		switch a := s.arrays[k].(type) {
		case array.ListLike:
			if a.DataType().ID() == arrow.FIXED_SIZE_LIST {
				break
			}
			s.list[k] = true
			if k+1 < n {
				s.arrays[k+1] = a.ListValues()
			}
			continue
		case *array.Struct:
			if k+1 < n {
				s.arrays[k+1] = a.Field(l.child[k])
			}
			continue
		}
		if k+1 < n {
			return nil, fmt.Errorf("%w: cannot descend into %s", lerr.ErrUnsupportedType, s.arrays[k].DataType())
		}
	}
	s.out.leaf = s.arrays[n-1]
	return s, nil
}

// scan records which layers hold nulls or empty lists (pass 1).
func (s *shredder) scan(k, i int) {
	a := s.arrays[k]
	if a.IsNull(i) {
		s.hasNull[k] = true
		return
	}
	if s.list[k] {
		start, end := a.(array.ListLike).ValueOffsets(i)
		if start == end {
			s.hasEmpty[k] = true
		}
		for j := start; j < end; j++ {
			s.scan(k+1, int(j))
		}
		return
	}
	if k+1 < len(s.arrays) {
		s.scan(k+1, i)
	}
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

// visit emits the entries of slot i of layer k (pass 2).
func (s *shredder) visit(k, i int, rep uint16) {
	a, L := s.arrays[k], s.out.set.Layers[k]
	if a.IsNull(i) {
		s.emit(rep, L.NullCode, -1)
		return
	}
	if s.list[k] {
		start, end := a.(array.ListLike).ValueOffsets(i)
		if start == end {
			s.emit(rep, L.EmptyCode, -1)
			return
		}
		for j := start; j < end; j++ {
			r := rep
			if j > start {
				r = L.RepNumber - 1
			}
			s.visit(k+1, int(j), r)
		}
		return
	}
	if k+1 < len(s.arrays) {
		s.visit(k+1, i, rep)
		return
	}
	s.emit(rep, 0, i)
}

// emit appends one level entry; visible entries get a value slot.
func (s *shredder) emit(rep, def uint16, slot int) {
	o := s.out
	if o.rep != nil {
		o.rep = append(o.rep, rep)
	}
	if o.def != nil {
		o.def = append(o.def, def)
	}
	if def <= o.set.MaxVisibleDef {
		if def != 0 {
			o.numNull++
			slot = -1
		}
		o.idx = append(o.idx, slot)
	}
}
