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
}

// LayerSet is the decoded layer description of one page, outer-most first.
type LayerSet struct {
	Layers []RepDefLayer
	// MaxRep is the number of list layers.
	MaxRep uint16
	// MaxDef is the highest def level.
	MaxDef uint16
	// MaxVisibleDef is the highest def level of entries that carry a value.
	MaxVisibleDef uint16
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
	out := make([]RepDefLayer, len(layers))
	var cmp, rep uint16
	visibleDone := false
	var maxVisible uint16
	for i, l := range layers {
		d := RepDefLayer{Before: cmp}
		switch l {
		case pb.RepDefLayer_REPDEF_ALL_VALID_ITEM:
			d.Kind = LayerItem
		case pb.RepDefLayer_REPDEF_NULLABLE_ITEM:
			d.Kind = LayerItem
			cmp++
			d.NullCode = cmp
		case pb.RepDefLayer_REPDEF_ALL_VALID_LIST:
			d.Kind = LayerList
		case pb.RepDefLayer_REPDEF_NULLABLE_LIST:
			d.Kind = LayerList
			cmp++
			d.NullCode = cmp
		case pb.RepDefLayer_REPDEF_EMPTYABLE_LIST:
			d.Kind = LayerList
			cmp++
			d.EmptyCode = cmp
		case pb.RepDefLayer_REPDEF_NULL_AND_EMPTY_LIST:
			d.Kind = LayerList
			d.NullCode = cmp + 1
			d.EmptyCode = cmp + 2
			cmp += 2
		default:
			return LayerSet{}, fmt.Errorf("%w: unknown rep/def layer %d", ErrCorrupt, int32(l))
		}
		if d.Kind == LayerList {
			rep++
			d.RepNumber = rep
			if !visibleDone {
				maxVisible, visibleDone = d.Before, true
			}
		}
		d.After = cmp
		out[len(layers)-1-i] = d
	}
	if !visibleDone {
		maxVisible = cmp
	}
	return LayerSet{Layers: out, MaxRep: rep, MaxDef: cmp, MaxVisibleDef: maxVisible}, nil
}

// HasLists reports whether the page has repetition.
func (s LayerSet) HasLists() bool { return s.MaxRep > 0 }

// NeedsDef reports whether any layer can be null or empty.
func (s LayerSet) NeedsDef() bool { return s.MaxDef > 0 }
