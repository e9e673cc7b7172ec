package filewriter

import (
	"math/bits"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
	"github.com/lancego/lancego/layouts"
)

// The 2.3 planar pages the choice policy (policy.go, section 6) asks for,
// built from the 2.2 encoders' pages: dense re-descriptions and the
// sparse pages planarSparse chooses, and the measurements of wantSparse.

// toPlanar gives a 2.3 page its planar layout: pages the policy made
// sparse keep theirs, every other page becomes dense.
func toPlanar(p *encodedPage) (*encodedPage, error) {
	if p.Planar != nil {
		return p, nil
	}
	pl, err := layouts.DensePlanar(p.Layout)
	if err != nil {
		return nil, err
	}
	p.Planar = pl
	return p, nil
}

// allValidItems is the one-layer set of a level-free page.
func allValidItems() (layouts.LayerSet, error) {
	return layouts.NewLayerSet([]pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM})
}

// slotRows is the page of v's terminal slots as rows without levels: one
// value per slot, nulls included, for chunked sparse values.
func slotRows(s *shredded, v *values) (*shredded, error) {
	set, err := allValidItems()
	if err != nil {
		return nil, err
	}
	return &shredded{Shredded: layouts.Shredded{Layers: []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM},
		Set: set, Leaf: s.Leaf, Idx: s.slots(), NumRows: v.N}, sc: s.sc}, nil
}

// encodeSparseChunked makes the sparse page of s whose chunked value plane
// is inner, a mini-block page of the slot rows (slotRows).
func encodeSparseChunked(s *shredded, v *values, inner *encodedPage) (*encodedPage, bool, error) {
	ml := inner.Layout.GetMiniBlockLayout()
	plane := &pb23.ValuePlane{Codec: &pb23.ValuePlane_Chunked{Chunked: &pb23.ChunkedValues{
		Compression: ml.GetValueCompression(), NumBuffers: ml.GetNumBuffers(),
		Dictionary: ml.GetDictionary(), NumDictionaryItems: ml.GetNumDictionaryItems()}}}
	page, err := layouts.EncodeSparse(&s.Shredded, plane, inner.Buffers, v.N, "planar/sparse/chunked/"+inner.Desc)
	if err != nil {
		return nil, false, err
	}
	page.Scratch = inner.Scratch
	return page, true, nil
}

// encodeSparseZipped: wide values of a page asking for sparse structure
// are zipped: only the materialized values, as a full-zip page without
// levels (so without control words), with its byte index for variable
// values (seed "Sparse Buffers": zipped fixed and variable).
func encodeSparseZipped(s *shredded, v *values, p encodingParams, cfg *writerConfig) (*encodedPage, bool, error) {
	set, err := allValidItems()
	if err != nil {
		return nil, false, err
	}
	idx := make([]int, 0, v.N)
	for j, i := range s.slots() {
		if i >= 0 && (v.Valid == nil || v.Valid[j]) {
			idx = append(idx, i)
		}
	}
	mat, err := gatherValues(s.Leaf, idx, s.sc)
	if err != nil {
		return nil, false, err
	}
	flat := &shredded{Shredded: layouts.Shredded{Layers: []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM},
		Set: set, Leaf: s.Leaf, Idx: idx, NumRows: len(idx)}, sc: s.sc}
	inner, err := encodeFullZip(flat, mat, p, cfg.version)
	if err != nil {
		return nil, false, err
	}
	fz := inner.Layout.GetFullZipLayout()
	z := &pb23.ZippedValues{Compression: fz.GetValueCompression(), NumItems: uint64(len(idx)), NumVisibleItems: uint64(len(idx))}
	switch d := fz.GetDetails().(type) {
	case *pb.FullZipLayout_BitsPerValue:
		z.Addressing = &pb23.ZippedValues_BitsPerValue{BitsPerValue: d.BitsPerValue}
	case *pb.FullZipLayout_BitsPerOffset:
		z.Addressing = &pb23.ZippedValues_BitsPerOffset{BitsPerOffset: d.BitsPerOffset}
	}
	plane := &pb23.ValuePlane{Codec: &pb23.ValuePlane_Zipped{Zipped: z}}
	page, err := layouts.EncodeSparse(&s.Shredded, plane, inner.Buffers, -1, "planar/sparse/zipped")
	if err != nil {
		return nil, false, err
	}
	// Value buffers come first, so split buffers keep their index.
	page.Scratch, page.Split = inner.Scratch, inner.Split
	return page, true, nil
}

// denseOverBudget reports whether the dense structure of s is over 14.0.2's
// budget (policy.go, denseStructuralBudgetBits): its levels include null or
// empty lists (a def level above the inner-most list's visible ones) and
// need 16 KiB or more at the bit widths of the highest rep and def levels.
func denseOverBudget(s *shredded) bool {
	set := s.Set
	if set.MaxRep == 0 || set.MaxDef <= set.MaxVisibleDef {
		return false
	}
	width := uint64(bits.Len16(set.MaxRep) + bits.Len16(set.MaxDef))
	return uint64(s.NumItems())*width >= denseStructuralBudgetBits
}

// mostlyNullWide reports whether the values of s would be zipped (256 bytes
// or more) and more than half of its leaf slots are null (null and empty
// lists have no leaf slot; a null struct's child slot is a null one).
func mostlyNullWide(s *shredded, v *values) bool {
	return 2*s.NumNull > s.NumSlots() && maxValueBytes(v) >= fullZipThreshold
}
