package lance

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
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
func shred(top arrow.Array, l *wleaf) (*shredded, error) {
	s, err := newShredder(top, l)
	if err != nil {
		return nil, err
	}
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
		s.out.rep = make([]uint16, 0, top.Len())
	}
	if set.NeedsDef() {
		s.out.def = make([]uint16, 0, top.Len())
	}
	s.out.idx = make([]int, 0, s.arrays[len(s.arrays)-1].Len())
	for i := 0; i < top.Len(); i++ {
		s.visit(0, i, set.MaxRep)
	}
	return s.out, nil
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
			return nil, fmt.Errorf("%w: cannot descend into %s", ErrUnsupportedType, s.arrays[k].DataType())
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
