package layouts

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
)

// ShapeFor returns an empty block with the value shape this package uses
// for an Arrow leaf type (dictionaries take their value type's shape), so
// that other decoders (layouts/v20) produce values BuildArray accepts.
func ShapeFor(dt arrow.DataType) (codecs.Block, error) { return shapeFor(dt) }

// ChildTypes returns the Arrow types of f's children as its type dt sees
// them (struct fields, list or map element), so that other read paths
// (2.0, legacy) build children whose types match the parent's exactly.
func ChildTypes(f *format.Field, dt arrow.DataType) ([]arrow.DataType, error) {
	return childTypes(f, dt)
}
