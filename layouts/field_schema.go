package layouts

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
)

// FieldsFromSchema converts a file schema into the decoder's field trees,
// one per top-level field (what BuildArray and the readers walk).
func FieldsFromSchema(s *format.Schema) ([]*Field, error) {
	out := make([]*Field, len(s.Fields))
	for i, f := range s.Fields {
		lf, err := fieldFromSchema(f, f.ArrowType, 0)
		if err != nil {
			return nil, err
		}
		out[i] = lf
	}
	return out, nil
}

func fieldFromSchema(f *format.Field, dt arrow.DataType, depth int) (*Field, error) {
	if depth > format.MaxSchemaDepth {
		return nil, fmt.Errorf("lance: field %q nested too deep", f.Name)
	}
	lf := &Field{Name: f.Name, Type: dt, Nullable: f.Nullable, Column: f.Column,
		BlobV1: f.BlobV1, BlobV2: f.BlobV2}
	if f.Column >= 0 {
		return lf, nil
	}
	kids, err := childTypes(f, dt)
	if err != nil {
		return nil, err
	}
	for i, c := range f.Children {
		k, err := fieldFromSchema(c, kids[i], depth+1)
		if err != nil {
			return nil, err
		}
		lf.Children = append(lf.Children, k)
	}
	return lf, nil
}

// childTypes returns the Arrow types of f's children as the parent type
// sees them, so built arrays match the parent's type exactly.
func childTypes(f *format.Field, dt arrow.DataType) ([]arrow.DataType, error) {
	var kids []arrow.DataType
	switch t := dt.(type) {
	case *arrow.StructType:
		for _, c := range t.Fields() {
			kids = append(kids, c.Type)
		}
	case *arrow.MapType:
		kids = []arrow.DataType{t.Elem()}
	case arrow.ListLikeType:
		kids = []arrow.DataType{t.Elem()}
	default:
		return nil, fmt.Errorf("%w: field %q of type %s has no column", ErrUnsupported, f.Name, dt)
	}
	if len(kids) != len(f.Children) {
		return nil, fmt.Errorf("%w: field %q has %d children, type %s has %d", format.ErrCorrupt, f.Name, len(f.Children), dt, len(kids))
	}
	return kids, nil
}
