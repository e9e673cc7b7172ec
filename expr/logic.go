package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// logicNode is AND or OR of its kids, in SQL's three-valued logic:
// FALSE AND NULL is FALSE, TRUE OR NULL is TRUE, else NULL wins.
type logicNode struct {
	and  bool
	kids []node
}

func (l *logicNode) dataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (l *logicNode) inputs() []node           { return l.kids }

func (l *logicNode) eval(ec *evalCtx) (arrow.Array, error) {
	nw := (ec.n + 63) / 64
	// Accumulate: for AND, t = rows known TRUE so far, f = known FALSE;
	// a row is NULL when neither. Start with TRUE (AND) / FALSE (OR).
	t, f := make([]uint64, nw), make([]uint64, nw)
	init := t
	if !l.and {
		init = f
	}
	for i := range init {
		init[i] = ^uint64(0)
	}
	for _, k := range l.kids {
		a, err := k.eval(ec)
		if err != nil {
			return nil, err
		}
		w := words(a)
		a.Release()
		for i := 0; i < nw; i++ {
			kt, kf := w.data[i]&w.valid[i], ^w.data[i]&w.valid[i]
			if l.and {
				f[i] |= kf
				t[i] &= kt
			} else {
				t[i] |= kt
				f[i] &= kf
			}
		}
	}
	valid := make([]uint64, nw)
	for i := range valid {
		valid[i] = t[i] | f[i]
	}
	maskTail(valid, ec.n)
	maskTail(t, ec.n)
	return boolArrayFromWords(ec.mem, t, valid, ec.n), nil
}

// notNode is NOT x (NULL stays NULL).
type notNode struct{ x node }

func (n *notNode) dataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (n *notNode) inputs() []node           { return []node{n.x} }

func (n *notNode) eval(ec *evalCtx) (arrow.Array, error) {
	a, err := n.x.eval(ec)
	if err != nil {
		return nil, err
	}
	w := words(a)
	a.Release()
	for i := range w.data {
		w.data[i] = ^w.data[i] & w.valid[i]
	}
	return boolArrayFromWords(ec.mem, w.data, w.valid, ec.n), nil
}

// isNode is x IS [NOT] NULL/TRUE/FALSE: never NULL.
type isNode struct {
	x    node
	test IsTest
}

func (n *isNode) dataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (n *isNode) inputs() []node           { return []node{n.x} }

func (n *isNode) eval(ec *evalCtx) (arrow.Array, error) {
	a, err := n.x.eval(ec)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	nw := (ec.n + 63) / 64
	out := make([]uint64, nw)
	switch n.test {
	case IsNull, IsNotNull:
		valid := nullWords(a)
		for i := range out {
			v := ^uint64(0)
			if valid != nil {
				v = valid[i]
			}
			if n.test == IsNull {
				out[i] = ^v
			} else {
				out[i] = v
			}
		}
	default:
		w := words(a)
		for i := range out {
			t, f := w.data[i]&w.valid[i], ^w.data[i]&w.valid[i]
			switch n.test {
			case IsTrue:
				out[i] = t
			case IsNotTrue:
				out[i] = ^t
			case IsFalse:
				out[i] = f
			case IsNotFalse:
				out[i] = ^f
			}
		}
	}
	maskTail(out, ec.n)
	return boolArrayFromWords(ec.mem, out, nil, ec.n), nil
}
