package layouts

import (
	"fmt"
	mathbits "math/bits"

	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
)

// Sparse fixed-size-list layers. pylance 14.0.2 writes one for each
// fixed-size list of structs (a fixed-size list of primitives is part of
// the leaf values instead): its validity set covers the parent domain and
// every parent slot, null or not, owns dimension consecutive child slots.
// Expanded to levels, a fixed-size list repeats like a list (its own
// repetition level) whose every slot has exactly dimension entries; the
// entries of a null one carry its null code, or the code of the null
// parent above.

// fslLayer decodes a fixed-size-list layer's validity over the current
// domain and moves the builder to the child domain (parent × dimension).
func (b *sparseBuilder) fslLayer(l *pb23.SparseFixedSizeListLayer, field string) ([]byte, error) {
	dim := l.GetDimension()
	if dim == 0 {
		return nil, fmt.Errorf("%w: sparse structure: field %s.dimension: 0", ErrCorrupt, field)
	}
	bm, err := b.nulls(l.GetValidity(), field+".validity")
	if err != nil {
		return nil, err
	}
	hi, lo := mathbits.Mul64(b.domain, dim)
	if hi != 0 || lo > maxSparseEntries {
		return nil, fmt.Errorf("%w: sparse structure: field %s.dimension: %d slots of %d items exceed %d", ErrCorrupt, field, b.domain, dim, maxSparseEntries)
	}
	b.domain = lo
	return bm, nil
}

// applyFSL expands every entry that is a slot of the layer's parent domain
// into its dimension children (slots s·dim … s·dim+dim−1): valid ones
// keep the entry's def level, children of a null fixed-size list get the
// layer's null code. Entries that are no slot here (below a null or empty
// list) stay one entry.
func (b *sparseBuilder) applyFSL(nulls []byte, d RepDefLayer) error {
	dim := d.Dim
	total := uint64(0)
	for _, s := range b.slot {
		if s >= 0 {
			total += dim
		} else {
			total++
		}
	}
	if total > maxSparseEntries {
		return fmt.Errorf("%w: sparse structure expands to %d entries", ErrCorrupt, total)
	}
	rep := make([]uint16, 0, total)
	def := make([]uint16, 0, total)
	slot := make([]int32, 0, total)
	for e, s := range b.slot {
		r := uint16(0)
		if b.rep != nil {
			r = b.rep[e]
		}
		if s < 0 {
			rep, def, slot = append(rep, r), append(def, b.def[e]), append(slot, -1)
			continue
		}
		code := b.def[e]
		if code == 0 && isSet(nulls, s) {
			code = d.NullCode
		}
		for j := range dim {
			rr := d.RepNumber - 1
			if j == 0 {
				rr = r
			}
			rep, def, slot = append(rep, rr), append(def, code), append(slot, int32(uint64(s)*dim+j))
		}
	}
	b.rep, b.def, b.slot = rep, def, slot
	return nil
}
