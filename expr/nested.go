package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// bindField binds st.x.
func (b *binder) bindField(x *Field) (node, error) {
	return nil, fmt.Errorf("%w: struct field %s (at %d)", ErrUnsupported, x, x.At)
}

// bindIndex binds l[i] (1-based).
func (b *binder) bindIndex(x *Index) (node, error) {
	return nil, fmt.Errorf("%w: subscript %s (at %d)", ErrUnsupported, x, x.At)
}

// bindArray binds an array literal; want is the list type to convert it
// to (nil: infer from the elements).
func (b *binder) bindArray(x *Array, want arrow.DataType) (node, error) {
	return nil, fmt.Errorf("%w: array literal %s (at %d)", ErrUnsupported, x, x.At)
}

// compareNested compares list operands.
func (b *binder) compareNested(op BinaryOp, l, r node, at int) (node, error) {
	return nil, fmt.Errorf("%w: comparison of lists (at %d)", ErrUnsupported, at)
}
