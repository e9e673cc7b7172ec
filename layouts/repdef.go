// Package layouts decodes Lance 2.1/2.2 structural page layouts (mini-block,
// full-zip, constant, blob) from fetched bytes into repetition/definition
// levels plus values, and assembles those into Arrow arrays.
//
// Planning and decoding are pure: nothing here does I/O or takes a context.
package layouts

import (
	"fmt"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// LayerKind is the structural role of one rep/def layer.
type LayerKind uint8

const (
	// LayerItem is a struct or leaf validity layer.
	LayerItem LayerKind = iota + 1
	// LayerList is a list (or map) layer.
	LayerList
	// LayerFSL is a fixed-size list of structs (2.3 sparse pages only;
	// fixed-size lists of primitives are part of the leaf values): it
	// repeats like a list, but every slot, null or not, has Dim children
	// and none is empty.
	LayerFSL
)

// RepDefLayer is one decoded layer of a page: what it is and which
// definition levels mean "null" or "empty" at this layer. Levels are
// numbered from the inner-most layer outwards: 0 means valid everywhere.
type RepDefLayer struct {
	Kind LayerKind
	// Before is the highest def level that is still valid at this layer.
	Before uint16
	// After is the highest def level used by this layer or inner ones.
	After uint16
	// NullCode and EmptyCode are this layer's codes (0 when unused).
	NullCode, EmptyCode uint16
	// RepNumber is the repetition level that starts a list of this layer
	// (1 for the inner-most list, MaxRep for the outer-most); 0 for items.
	RepNumber uint16
	// Dim is the number of children of each slot of a LayerFSL.
	Dim uint64
}

// LayerSet is the decoded layer description of one page, outer-most first.
type LayerSet struct {
	Layers []RepDefLayer
	// MaxRep is the number of list and fixed-size-list layers.
	MaxRep uint16
	// MaxDef is the highest def level.
	MaxDef uint16
	// MaxVisibleDef is the highest def level of entries that carry a value.
	MaxVisibleDef uint16
	// DenseFSL marks the set of a dense page holding fixed-size lists of
	// structs (DenseFSLSet): it has no repetition levels, and its
	// fixed-size lists own runs of consecutive entries.
	DenseFSL bool
}

// layerSpec is one layer before level codes are assigned.
type layerSpec struct {
	kind        LayerKind
	null, empty bool
	dim         uint64 // LayerFSL only
}

// NewLayerSet converts the protobuf layers (inner-most first) into a
// LayerSet (outer-most first) with level codes assigned.
func NewLayerSet(layers []pb.RepDefLayer) (LayerSet, error) {
	if len(layers) == 0 {
		return LayerSet{}, fmt.Errorf("%w: page has no rep/def layers", ErrCorrupt)
	}
	if len(layers) > 64 {
		return LayerSet{}, fmt.Errorf("%w: %d rep/def layers (at most 64)", ErrCorrupt, len(layers))
	}
	specs := make([]layerSpec, len(layers))
	for i, l := range layers {
		var err error
		if specs[i], err = pbLayerSpec(l); err != nil {
			return LayerSet{}, err
		}
	}
	return layerSetOf(specs), nil
}

// pbLayerSpec is the layer a protobuf RepDefLayer describes.
func pbLayerSpec(l pb.RepDefLayer) (layerSpec, error) {
	switch l {
	case pb.RepDefLayer_REPDEF_ALL_VALID_ITEM:
		return layerSpec{kind: LayerItem}, nil
	case pb.RepDefLayer_REPDEF_NULLABLE_ITEM:
		return layerSpec{kind: LayerItem, null: true}, nil
	case pb.RepDefLayer_REPDEF_ALL_VALID_LIST:
		return layerSpec{kind: LayerList}, nil
	case pb.RepDefLayer_REPDEF_NULLABLE_LIST:
		return layerSpec{kind: LayerList, null: true}, nil
	case pb.RepDefLayer_REPDEF_EMPTYABLE_LIST:
		return layerSpec{kind: LayerList, empty: true}, nil
	case pb.RepDefLayer_REPDEF_NULL_AND_EMPTY_LIST:
		return layerSpec{kind: LayerList, null: true, empty: true}, nil
	}
	return layerSpec{}, fmt.Errorf("%w: unknown rep/def layer %d", ErrCorrupt, int32(l))
}

// layerSetOf assigns level codes to layers given inner-most first: a
// nullable layer takes the next def code for null, then (lists) for empty;
// each list or fixed-size list takes the next repetition level.
func layerSetOf(specs []layerSpec) LayerSet {
	out := make([]RepDefLayer, len(specs))
	var cmp, rep uint16
	visibleDone := false
	var maxVisible uint16
	for i, l := range specs {
		d := RepDefLayer{Kind: l.kind, Before: cmp, Dim: l.dim}
		if l.null {
			cmp++
			d.NullCode = cmp
		}
		if l.empty && l.kind == LayerList {
			cmp++
			d.EmptyCode = cmp
		}
		if l.kind != LayerItem {
			rep++
			d.RepNumber = rep
		}
		// Null and empty lists carry no value; null fixed-size lists keep
		// one (placeholder) value per child.
		if l.kind == LayerList && !visibleDone {
			maxVisible, visibleDone = d.Before, true
		}
		d.After = cmp
		out[len(specs)-1-i] = d
	}
	if !visibleDone {
		maxVisible = cmp
	}
	return LayerSet{Layers: out, MaxRep: rep, MaxDef: cmp, MaxVisibleDef: maxVisible}
}

// HasLists reports whether the page has repetition.
func (s LayerSet) HasLists() bool { return s.MaxRep > 0 }

// NeedsDef reports whether any layer can be null or empty.
func (s LayerSet) NeedsDef() bool { return s.MaxDef > 0 }
