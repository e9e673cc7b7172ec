package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// newCast returns the node casting x to type to (try: NULL where a value
// does not convert, else an error).
func newCast(x node, to arrow.DataType, try bool, at int) (node, error) {
	return nil, fmt.Errorf("%w: cast from %s to %s (at %d)", ErrUnsupported, x.dataType(), to, at)
}
