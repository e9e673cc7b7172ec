package expr

import "fmt"

// timeFuncs are the date and time functions (now, date_trunc, …).
var timeFuncs = map[string]funcSpec{}

// bindInterval binds an INTERVAL literal (a function argument).
func (b *binder) bindInterval(l *Literal) (node, error) {
	return nil, fmt.Errorf("%w: INTERVAL %s (at %d)", ErrUnsupported, l, l.At)
}
