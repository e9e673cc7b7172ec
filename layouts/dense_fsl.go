package layouts

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Lance 2.2 and dense 2.3 pages store a fixed-size list of structs as an
// item layer (nullable or all-valid) whose levels are repeated once per
// child: the page counts items (rows × dimension), has no repetition
// levels, and a null list's children all carry its null code. DenseFSLSet
// reads such a page's layer set as the schema's: the item layer at a
// fixed-size list becomes a LayerFSL that Unravel cuts into runs of Dim
// consecutive entries (LayerSet.DenseFSL), so the rest of the read sees
// the same structure as a 2.3 sparse page's.

// DenseFSLSet returns set (a dense page's, all item layers) with the
// layers the field path puts at fixed-size lists turned into LayerFSL,
// and the number of entries per row. A page with list layers is refused:
// pylance 14.0.2 cannot read its own dense fixed-size lists of structs
// holding lists (it writes them sparse at 2.3).
func DenseFSLSet(set LayerSet, path []*Field) (LayerSet, uint64, error) {
	kinds, err := pathLayerKinds(path)
	if err != nil {
		return LayerSet{}, 0, err
	}
	if len(kinds) != len(set.Layers) {
		return LayerSet{}, 0, fmt.Errorf("%w: page has %d rep/def layers, field path %q implies %d",
			ErrCorrupt, len(set.Layers), path[len(path)-1].Name, len(kinds))
	}
	out := set
	out.Layers = append([]RepDefLayer(nil), set.Layers...)
	per := uint64(1)
	for i, k := range kinds {
		l := &out.Layers[i]
		if l.Kind == LayerList || k == LayerList {
			return LayerSet{}, 0, fmt.Errorf("%w: fixed-size list of structs holding lists in a dense page (pylance 14.0.2 cannot read it either)", ErrUnsupported)
		}
		if k != LayerFSL {
			continue
		}
		if l.Kind != LayerItem {
			return LayerSet{}, 0, fmt.Errorf("%w: rep/def layer %d does not match the schema", ErrCorrupt, i)
		}
		dim := uint64(path[i].Type.(*arrow.FixedSizeListType).Len())
		if dim == 0 || per > maxDenseRowItems/dim {
			return LayerSet{}, 0, fmt.Errorf("%w: fixed-size list %q of dimension %d", ErrUnsupported, path[i].Name, dim)
		}
		per *= dim
		l.Kind, l.Dim = LayerFSL, dim
	}
	return numberFSL(out), per, nil
}

// numberFSL numbers the LayerFSL layers of set (outer-most first) as
// repetition layers, the outer-most highest, and marks the set DenseFSL.
func numberFSL(set LayerSet) LayerSet {
	set.MaxRep = 0
	for _, l := range set.Layers {
		if l.Kind == LayerFSL {
			set.MaxRep++
		}
	}
	r := set.MaxRep
	for i := range set.Layers {
		if set.Layers[i].Kind == LayerFSL {
			set.Layers[i].RepNumber = r
			r--
		}
	}
	set.DenseFSL = set.MaxRep > 0
	return set
}

// maxDenseRowItems bounds the entries of one row of a dense fixed-size
// list of structs (Lance's dimensions are i32).
const maxDenseRowItems = 1 << 31

// denseRowItems is the product of a dense set's fixed-size-list
// dimensions: the entries of one row.
func (s LayerSet) denseRowItems() uint64 {
	per := uint64(1)
	for _, l := range s.Layers {
		if l.Kind == LayerFSL {
			per *= l.Dim
		}
	}
	return per
}

// denseSlots are the entries starting the n/per rows of a dense page.
func denseSlots(n int, per uint64) []int32 {
	out := make([]int32, 0, uint64(n)/per)
	for s := uint64(0); s < uint64(n); s += per {
		out = append(out, int32(s))
	}
	return out
}

// denseFSLLayer fills a fixed-size-list node of a dense page: each slot
// owns Dim runs of stride/Dim entries; it returns the child slots and
// their stride.
func denseFSLLayer(node *PathNode, layer RepDefLayer, lv Levels, slots []int32, stride uint64) ([]int32, uint64) {
	step := stride / layer.Dim
	child := make([]int32, 0, uint64(node.Len)*layer.Dim)
	var bm []byte
	nulls := 0
	for i := 0; i < node.Len; i++ {
		s := slots[i]
		if lv.def(int(s)) > layer.Before {
			if bm == nil {
				bm = newBitmapSet(node.Len)
			}
			clearBit(bm, i)
			nulls++
		}
		for j := uint64(0); j < layer.Dim; j++ {
			child = append(child, s+int32(j*step))
		}
	}
	if nulls > 0 {
		node.Validity, node.NullCount = bm, nulls
	}
	return child, step
}
