package layouts

import "slices"

// The walk's fast path for paths of lists (and structs without nulls)
// over a leaf, such as list<list<int32>> or struct<list<string>>: both
// passes go a range of slots at a time, a leaf's items are appended in
// bulk, and the leaf slots are kept as a dense range (Shredded.Dense)
// for as long as they are one. The levels are those of scan and visit.

// listsPath reports whether the path takes the fast path: every layer
// above the leaf a list with offsets or a struct without nulls, no
// fixed-size list of structs.
func (s *shredder) listsPath() bool {
	for k := 0; k < len(s.arrays)-1; k++ {
		l := &s.lay[k]
		switch {
		case s.dim[k] > 0:
			return false
		case s.list[k]:
			if l.o32 == nil && l.o64 == nil {
				return false
			}
		case s.arrays[k].NullN() > 0:
			return false
		}
	}
	return !s.repFSL
}

// scanRange is scan over the slots [lo, hi) of layer k: the children of
// its non-null lists are reached a run of adjacent lists at a time.
func (s *shredder) scanRange(k, lo, hi int) {
	if lo >= hi {
		return
	}
	if k == len(s.arrays)-1 {
		if !s.hasNull[k] && (s.lay[k].bits != nil || s.lay[k].slow) {
			for i := lo; i < hi; i++ {
				if s.isNull(k, i) {
					s.hasNull[k] = true
					break
				}
			}
		}
		return
	}
	if !s.list[k] {
		s.scanRange(k+1, lo, hi)
		return
	}
	runLo, runHi := -1, -1
	for i := lo; i < hi; i++ {
		if s.isNull(k, i) {
			s.hasNull[k] = true
			if runLo >= 0 {
				s.scanRange(k+1, runLo, runHi)
				runLo = -1
			}
			continue
		}
		start, end := s.span(k, i)
		if start == end {
			s.hasEmpty[k] = true
		}
		if runLo < 0 {
			runLo = start
		}
		runHi = end
	}
	if runLo >= 0 {
		s.scanRange(k+1, runLo, runHi)
	}
}

// visitRange is visit over the slots [lo, hi) of layer k, the first with
// repetition level first and the others with rest.
func (s *shredder) visitRange(k, lo, hi int, first, rest uint16) {
	if lo >= hi {
		return
	}
	if k == len(s.arrays)-1 {
		s.emitLeaf(k, lo, hi, first, rest)
		return
	}
	if !s.list[k] {
		s.visitRange(k+1, lo, hi, first, rest)
		return
	}
	L := &s.out.Set.Layers[k]
	inner := L.RepNumber - 1
	r := first
	for i := lo; i < hi; i++ {
		switch start, end := s.span(k, i); {
		case s.isNull(k, i):
			s.emitTerminal(r, L.NullCode)
		case start == end:
			s.emitTerminal(r, L.EmptyCode)
		default:
			s.visitRange(k+1, start, end, r, inner)
		}
		r = rest
	}
}

// emitLeaf emits the leaf slots [lo, hi) of layer k.
func (s *shredder) emitLeaf(k, lo, hi int, first, rest uint16) {
	o := s.out
	if s.lay[k].bits != nil || s.lay[k].slow {
		code := o.Set.Layers[k].NullCode
		r := first
		for i := lo; i < hi; i++ {
			if s.isNull(k, i) {
				s.emitTerminal(r, code)
			} else {
				s.emitLeafRun(r, r, i, i+1)
			}
			r = rest
		}
		return
	}
	s.emitLeafRun(first, rest, lo, hi)
}

// emitLeafRun emits valid leaf slots [lo, hi).
func (s *shredder) emitLeafRun(first, rest uint16, lo, hi int) {
	o := s.out
	if o.Rep != nil {
		o.Rep = append(o.Rep, first)
		for range hi - lo - 1 {
			o.Rep = append(o.Rep, rest)
		}
	}
	if o.Def != nil {
		n := len(o.Def)
		o.Def = slices.Grow(o.Def, hi-lo)[:n+hi-lo]
		clear(o.Def[n:])
	}
	if s.dense {
		if s.denseLo < 0 {
			s.denseLo, s.denseHi = lo, lo
		}
		if lo == s.denseHi {
			s.denseHi = hi
			return
		}
		s.spill()
	}
	for i := lo; i < hi; i++ {
		o.Idx = append(o.Idx, i)
	}
}

// emitTerminal emits a null or empty entry (no leaf slot of its own).
func (s *shredder) emitTerminal(rep, def uint16) {
	if def <= s.out.Set.MaxVisibleDef && s.dense {
		s.spill()
	}
	s.emit(rep, def, -1)
}

// spill ends the dense range: Idx gets its slots, and slots append to it
// from now on.
func (s *shredder) spill() {
	s.dense = false
	if s.out.Idx == nil {
		s.out.Idx = s.sc.IntsCap(s.arrays[len(s.arrays)-1].Len())
	}
	for i := max(s.denseLo, 0); i < s.denseHi; i++ {
		s.out.Idx = append(s.out.Idx, i)
	}
}

// shredLists runs both passes of the fast path over the n rows of layer 0.
func (s *shredder) shredLists(n int, sc ShredScratch) (*Shredded, error) {
	s.scanRange(0, 0, n)
	set, err := s.layerSet()
	if err != nil {
		return nil, err
	}
	leaf := s.arrays[len(s.arrays)-1].Len()
	if set.HasLists() {
		s.out.Rep = sc.U16sCap(leaf + n)
	}
	if set.NeedsDef() {
		s.out.Def = sc.U16sCap(leaf + n)
	}
	s.sc, s.dense, s.denseLo, s.denseHi = sc, true, -1, -1
	s.visitRange(0, 0, n, set.MaxRep, set.MaxRep)
	if s.dense && s.denseLo >= 0 {
		s.out.setDense(s.denseLo, s.denseHi)
	}
	return s.out, nil
}
