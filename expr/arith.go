package expr

import "fmt"

// bindArith binds + - * / % || << >>.
func (b *binder) bindArith(x *Binary, l, r node) (node, error) {
	return nil, fmt.Errorf("%w: operator %s (at %d)", ErrUnsupported, x.Op, x.At)
}

// bindNeg binds -x.
func (b *binder) bindNeg(x *Neg) (node, error) {
	return nil, fmt.Errorf("%w: negation (at %d)", ErrUnsupported, x.At)
}
