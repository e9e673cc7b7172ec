package expr

import "fmt"

// bindLike binds x [NOT] LIKE|ILIKE pattern.
func (b *binder) bindLike(x *Like, xn, pn node) (node, error) {
	return nil, fmt.Errorf("%w: LIKE (at %d)", ErrUnsupported, x.At)
}
