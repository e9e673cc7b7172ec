package filewriter

import (
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
	"github.com/lancego/lancego/layouts"
)

// The 2.3 planar pages the choice policy (policy.go, section 6) asks for,
// built from the 2.2 encoders' pages: dense re-descriptions and the
// sparse pages planarSparseRequested requests.

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
		Set: set, Leaf: s.Leaf, Idx: s.Idx, NumRows: v.N}, sc: s.sc}, nil
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
	for j, i := range s.Idx {
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
