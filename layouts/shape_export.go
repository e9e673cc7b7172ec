package layouts

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
)

// ShapeFor returns an empty block with the value shape this package uses
// for an Arrow leaf type (dictionaries take their value type's shape), so
// that other decoders (layouts/v20) produce values BuildArray accepts.
func ShapeFor(dt arrow.DataType) (codecs.Block, error) { return shapeFor(dt) }
