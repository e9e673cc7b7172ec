package layouts

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Field is one field of the output schema as the decoder sees it: its Arrow
// type, children, and for a leaf the physical column that stores it.
type Field struct {
	Name     string
	Type     arrow.DataType
	Nullable bool
	// Children: struct fields, the list item, or the map entries struct.
	Children []*Field
	// Column is the physical column of a leaf, -1 for inner fields.
	Column int
	// BlobV1 marks a large_binary column stored as blob descriptors.
	BlobV1 bool
	// BlobV2 marks a blob v2 struct<data, uri> stored as descriptors.
	BlobV2 bool
}

// IsLeaf reports whether the field is stored in one physical column.
func (f *Field) IsLeaf() bool { return f.Column >= 0 }

// Leaves returns the leaf fields under f in column order.
func (f *Field) Leaves() []*Field {
	if f.IsLeaf() {
		return []*Field{f}
	}
	var out []*Field
	for _, c := range f.Children {
		out = append(out, c.Leaves()...)
	}
	return out
}

// LeafPath returns the fields from f down to leaf (inclusive), or nil.
func (f *Field) LeafPath(leaf *Field) []*Field {
	if f == leaf {
		return []*Field{f}
	}
	for _, c := range f.Children {
		if p := c.LeafPath(leaf); p != nil {
			return append([]*Field{f}, p...)
		}
	}
	return nil
}

// pathLayerKinds returns the layer kinds a path of fields implies.
func pathLayerKinds(path []*Field) ([]LayerKind, error) {
	var out []LayerKind
	for _, f := range path {
		switch {
		case f.BlobV2:
			out = append(out, LayerItem, LayerItem)
		case f.IsLeaf():
			out = append(out, LayerItem)
		default:
			switch f.Type.ID() {
			case arrow.LIST, arrow.LARGE_LIST, arrow.MAP:
				out = append(out, LayerList)
			case arrow.STRUCT:
				out = append(out, LayerItem)
			case arrow.FIXED_SIZE_LIST:
				out = append(out, LayerFSL)
			default:
				return nil, fmt.Errorf("%w: nested %s field %q", ErrUnsupported, f.Type, f.Name)
			}
		}
	}
	return out, nil
}

// CheckLayers verifies that a page's layers fit the field path of its leaf.
func CheckLayers(set LayerSet, path []*Field) error {
	kinds, err := pathLayerKinds(path)
	if err != nil {
		return err
	}
	if last := path[len(path)-1]; last.BlobV2 && len(kinds) == len(set.Layers)+1 {
		// 2.2 stores a blob v2 descriptor struct with an extra all-valid
		// item layer inside its own; 2.3 (pylance 14.0.2) stores only the
		// struct's layer.
		kinds = kinds[:len(kinds)-1]
	}
	if len(kinds) != len(set.Layers) {
		return fmt.Errorf("%w: page has %d rep/def layers, field path %q implies %d",
			ErrCorrupt, len(set.Layers), path[len(path)-1].Name, len(kinds))
	}
	for i, k := range kinds {
		l := set.Layers[i]
		if k == LayerFSL && l.Kind != LayerFSL {
			// Lance 2.2 and dense 2.3 pages store a fixed-size list of
			// structs as an item layer: the reader passes their layer
			// set through DenseFSLSet before it gets here.
			return fmt.Errorf("%w: fixed-size list of structs %q in a page without a fixed-size-list layer", ErrCorrupt, path[i].Name)
		}
		if l.Kind != k {
			return fmt.Errorf("%w: rep/def layer %d does not match the schema", ErrCorrupt, i)
		}
		if k == LayerFSL && l.Dim != uint64(path[i].Type.(*arrow.FixedSizeListType).Len()) {
			return fmt.Errorf("%w: fixed-size-list layer %d has dimension %d, field %q has %d", ErrCorrupt, i, l.Dim, path[i].Name, path[i].Type.(*arrow.FixedSizeListType).Len())
		}
	}
	return nil
}
