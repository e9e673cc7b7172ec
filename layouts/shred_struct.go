package layouts

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// structOnlyPath reports a path of structs down to a leaf: no list or
// fixed-size list layer, so every layer has one slot per row (arrow-go
// slices struct children to the parent's offset and length).
func (s *shredder) structOnlyPath() bool {
	for k := range s.arrays {
		if s.list[k] || s.dim[k] > 0 {
			return false
		}
	}
	return true
}

// shredStructs is Shred for a struct-only path, without the per-slot
// recursion and interface calls of scan and visit (issue #40: a
// struct<int16, f64> column spent two thirds of its write there). It
// makes the same decisions: a layer is nullable when its array holds a
// null bit anywhere (scan looks at every slot of every layer of such a
// path, under null structs too), and a row's level is the null code of
// its outer-most null layer.
func shredStructs(s *shredder, sc ShredScratch) (*Shredded, error) {
	n := s.out.NumRows
	for k, a := range s.arrays {
		s.hasNull[k] = a.NullN() > 0
	}
	set, err := s.layerSet()
	if err != nil {
		return nil, err
	}
	out := s.out
	if !set.NeedsDef() {
		out.setDense(0, n)
		return out, nil
	}
	out.Idx = sc.IntsCap(n)
	out.Def = sc.U16sCap(n)[:n]
	clear(out.Def)
	// Walk the layers inner-most first so an outer null overwrites.
	for k := len(s.arrays) - 1; k >= 0; k-- {
		if s.hasNull[k] {
			markNulls(out.Def, s.arrays[k], set.Layers[k].NullCode)
		}
	}
	for i, d := range out.Def {
		switch {
		case d == 0:
			out.Idx = append(out.Idx, i)
		case d <= set.MaxVisibleDef:
			out.NumNull++
			out.Idx = append(out.Idx, -1)
		}
	}
	return out, nil
}

// markNulls sets def[i] = code for every null slot i of a.
func markNulls(def []uint16, a arrow.Array, code uint16) {
	bitmap, off := a.NullBitmapBytes(), a.Data().Offset()
	if len(bitmap) == 0 { // a null-typed array: no bitmap, every slot null
		for i := range def {
			if a.IsNull(i) {
				def[i] = code
			}
		}
		return
	}
	for i := range def {
		if bitutil.BitIsNotSet(bitmap, off+i) {
			def[i] = code
		}
	}
}
