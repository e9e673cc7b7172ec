package layouts

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The general walk of Shred: pass 1 (scan) finds which layers hold nulls
// or empty lists, pass 2 (visit) emits the level entries. Both read each
// layer's null bits and list offsets through walkLayer, resolved once per
// page, so that no entry costs an interface call (a list<list<int32>>
// page visits every item of every layer).

// walkLayer is what the walk reads of one layer's array.
type walkLayer struct {
	// bits is the validity bitmap from bit off (nil: no nulls, or slow).
	bits []byte
	off  int
	// slow: the array has nulls but no bitmap (the null type), so IsNull
	// is asked.
	slow bool
	// o32 / o64 are a list's offsets from its array offset; dim > 0 is a
	// fixed-size list's dimension (slots from fslOff); with none of them a
	// list layer asks ValueOffsets.
	o32    []int32
	o64    []int64
	dim    int
	fslOff int
}

// resolveLayers fills s.lay from s.arrays.
func (s *shredder) resolveLayers() {
	s.lay = make([]walkLayer, len(s.arrays))
	for k, a := range s.arrays {
		l := &s.lay[k]
		if a.NullN() > 0 {
			if bm := a.NullBitmapBytes(); len(bm) > 0 {
				l.bits, l.off = bm, a.Data().Offset()
			} else {
				l.slow = true
			}
		}
		off := a.Data().Offset()
		switch t := a.(type) {
		case *array.List:
			l.o32 = t.Offsets()[off:]
		case *array.Map:
			l.o32 = t.Offsets()[off:]
		case *array.LargeList:
			l.o64 = t.Offsets()[off:]
		case *array.FixedSizeList:
			l.dim, l.fslOff = int(t.DataType().(*arrow.FixedSizeListType).Len()), off
		}
	}
}

// isNull reports whether slot i of layer k is null.
func (s *shredder) isNull(k, i int) bool {
	l := &s.lay[k]
	if l.bits == nil {
		return l.slow && s.arrays[k].IsNull(i)
	}
	j := l.off + i
	return l.bits[j>>3]&(1<<(j&7)) == 0
}

// span returns the child slots [start, end) of list slot i of layer k.
func (s *shredder) span(k, i int) (int, int) {
	l := &s.lay[k]
	switch {
	case l.o32 != nil:
		return int(l.o32[i]), int(l.o32[i+1])
	case l.o64 != nil:
		return int(l.o64[i]), int(l.o64[i+1])
	case l.dim > 0:
		j := (l.fslOff + i) * l.dim
		return j, j + l.dim
	}
	start, end := s.arrays[k].(array.ListLike).ValueOffsets(i)
	return int(start), int(end)
}

// scan records which layers hold nulls or empty lists (pass 1).
func (s *shredder) scan(k, i int) {
	if s.isNull(k, i) {
		s.hasNull[k] = true
		s.scanUnderNull(k, i)
		return
	}
	if s.list[k] || s.dim[k] > 0 {
		start, end := s.span(k, i)
		if start == end {
			s.hasEmpty[k] = true
		}
		for j := start; j < end; j++ {
			s.scan(k+1, j)
		}
		return
	}
	if k+1 < len(s.arrays) {
		s.scan(k+1, i)
	}
}

// scanUnderNull: below a null struct slot i of layer k, a child slot whose
// own null bit is set makes its layer nullable too, as Lance decides
// layers from each array's null bits (pylance 14.0.2 writes
// struct<list> whose only list nulls sit under null structs with a
// NULLABLE_LIST layer, struct<int32> likewise with NULLABLE_ITEM leaves).
// Nothing under a null list slot is looked at.
// Below a null fixed-size list of structs every child slot is looked at
// (Lance repeats the list's null level over them, and takes each layer's
// kind from its whole array's null bits).
func (s *shredder) scanUnderNull(k, i int) {
	if s.list[k] || k+1 >= len(s.arrays) {
		return
	}
	lo, hi := i, i+1
	if s.dim[k] > 0 {
		lo, hi = s.span(k, i)
	}
	for j := lo; j < hi; j++ {
		if s.isNull(k+1, j) {
			s.hasNull[k+1] = true
		}
		s.scanUnderNull(k+1, j)
	}
}

// visit emits the entries of slot i of layer k (pass 2).
func (s *shredder) visit(k, i int, rep uint16) {
	L := &s.out.Set.Layers[k]
	null := s.isNull(k, i)
	if null && s.repFSL {
		s.emitNull(k, L.NullCode, rep)
		return
	}
	if null {
		for range s.mult[k] { // a null above a fixed-size list repeats per item
			s.emit(rep, L.NullCode, -1)
		}
		return
	}
	if s.dim[k] > 0 {
		start, end := s.span(k, i)
		for j := start; j < end; j++ {
			r := rep
			if s.repFSL && j > start {
				r = L.RepNumber - 1
			}
			s.visit(k+1, j, r)
		}
		return
	}
	if s.list[k] {
		start, end := s.span(k, i)
		if start == end {
			s.emit(rep, L.EmptyCode, -1)
			return
		}
		for j := start; j < end; j++ {
			r := rep
			if j > start {
				r = L.RepNumber - 1
			}
			s.visit(k+1, j, r)
		}
		return
	}
	if k+1 < len(s.arrays) {
		s.visit(k+1, i, rep)
		return
	}
	s.emit(rep, 0, i)
}

// emitNull emits the entries of a slot of layer k below (or at) a null
// whose code is code, when fixed-size lists repeat (repFSL): every
// fixed-size list still owns its dimension entries, the first one
// continuing rep; a list or the leaf takes one entry.
func (s *shredder) emitNull(k int, code, rep uint16) {
	switch {
	case s.dim[k] > 0:
		inner := s.out.Set.Layers[k].RepNumber - 1
		s.emitNull(k+1, code, rep)
		for range s.dim[k] - 1 {
			s.emitNull(k+1, code, inner)
		}
	case s.list[k] || k+1 == len(s.arrays):
		s.emit(rep, code, -1)
	default:
		s.emitNull(k+1, code, rep)
	}
}

// emit appends one level entry; visible entries get a value slot.
func (s *shredder) emit(rep, def uint16, slot int) {
	o := s.out
	if o.Rep != nil {
		o.Rep = append(o.Rep, rep)
	}
	if o.Def != nil {
		o.Def = append(o.Def, def)
	}
	if def <= o.Set.MaxVisibleDef {
		if def != 0 {
			o.NumNull++
			slot = -1
		}
		o.Idx = append(o.Idx, slot)
	}
}
