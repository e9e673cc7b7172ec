package expr

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// bindIn binds x [NOT] IN (list): TRUE when x equals an item, else NULL
// when x or an item is NULL, else FALSE. Constant items go into a hash
// set of x's type, so a 5,000-item list costs one lookup a row.
func (b *binder) bindIn(x *InList) (node, error) {
	if len(x.List) == 0 {
		return nil, fmt.Errorf("%w: IN needs at least one item (at %d)", ErrSyntax, x.At)
	}
	xn, err := b.bind(x.X)
	if err != nil {
		return nil, err
	}
	items := make([]node, len(x.List))
	t := xn.dataType()
	for i, e := range x.List {
		if items[i], err = b.bind(e); err != nil {
			return nil, err
		}
		it := items[i].dataType()
		switch {
		case it.ID() == arrow.NULL:
		case t.ID() == arrow.NULL:
			t = it
		default:
			ct, ok := comparisonType(t, it)
			if !ok {
				return nil, fmt.Errorf("%w: cannot compare %s (%s) with IN item %s (%s) at %d", ErrBind, x.X, t, e, it, e.Pos())
			}
			t = ct
		}
	}
	if t.ID() == arrow.NULL {
		return nullBool(b.mem), nil
	}
	if ux, uitems := b.unwrapCastInList(xn, items); ux != xn {
		xn, items, t = ux, uitems, ux.dataType()
	}
	if isList(t) {
		return nil, fmt.Errorf("%w: IN on list values is not supported (at %d)", ErrBind, x.At)
	}
	if xn, err = b.castTo(xn, t, x.At); err != nil {
		return nil, err
	}
	n := &inNode{x: xn, not: x.Not}
	for i, it := range items {
		if isNullConst(it) {
			n.hasNull = true
			continue
		}
		if it, err = b.castTo(it, t, x.List[i].Pos()); err != nil {
			return nil, err
		}
		c, ok := asConst(it)
		if !ok {
			n.others = append(n.others, it)
			continue
		}
		if !n.set.add(c.val) {
			n.others = append(n.others, it)
		}
	}
	return b.fold(n, nil)
}

// inNode evaluates IN: a set of constant items, and the other items
// compared one by one.
type inNode struct {
	x       node
	set     keySet
	others  []node
	hasNull bool
	not     bool
}

func (n *inNode) dataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }

func (n *inNode) inputs() []node { return append([]node{n.x}, n.others...) }

func (n *inNode) eval(ec *evalCtx) (arrow.Array, error) {
	a, err := n.x.eval(ec)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	nw := (ec.n + 63) / 64
	t := make([]uint64, nw) // rows found equal
	n.set.match(a, t)
	valid := nullWords(a)
	if valid == nil {
		valid = make([]uint64, nw)
		for i := range valid {
			valid[i] = ^uint64(0)
		}
	}
	unknown := make([]uint64, nw) // rows where an item is NULL
	for _, o := range n.others {
		ov, err := o.eval(ec)
		if err != nil {
			return nil, err
		}
		eq, err := compareArrays(ec, OpEq, a, ov)
		ov.Release()
		if err != nil {
			return nil, err
		}
		w := words(eq)
		eq.Release()
		for i := range t {
			t[i] |= w.data[i] & w.valid[i]
			unknown[i] |= ^w.valid[i]
		}
	}
	out, ok := make([]uint64, nw), make([]uint64, nw)
	for i := range out {
		found := t[i] & valid[i]
		known := valid[i] &^ unknown[i]
		if n.hasNull {
			known = 0
		}
		ok[i] = found | known
		if n.not {
			out[i] = ^found & ok[i]
		} else {
			out[i] = found
		}
	}
	maskTail(ok, ec.n)
	maskTail(out, ec.n)
	return boolArrayFromWords(ec.mem, out, ok, ec.n), nil
}

// keySet is a set of constant values of one type, keyed without boxing.
type keySet struct {
	ints  map[int64]struct{}
	uints map[uint64]struct{}
	strs  map[string]struct{}
}

// add puts the value of one-row array v into the set; false when the
// type has no key (the item is then compared as an ordinary operand).
func (s *keySet) add(v arrow.Array) bool {
	switch v.DataType().ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32, arrow.DATE64,
		arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64, arrow.DURATION:
		if s.ints == nil {
			s.ints = map[int64]struct{}{}
		}
		s.ints[intKey(v, 0)] = struct{}{}
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64, arrow.FLOAT32, arrow.FLOAT64:
		if s.uints == nil {
			s.uints = map[uint64]struct{}{}
		}
		s.uints[uintKey(v, 0)] = struct{}{}
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY:
		if s.strs == nil {
			s.strs = map[string]struct{}{}
		}
		bv := bytesOf(v)
		s.strs[string(bv.at(0))] = struct{}{}
	case arrow.BOOL:
		if s.uints == nil {
			s.uints = map[uint64]struct{}{}
		}
		s.uints[b2u(v.(*array.Boolean).Value(0))] = struct{}{}
	default:
		return false
	}
	return true
}

// match sets bit i of out when row i of a is in the set (NULL rows are
// left to the caller's validity).
func (s *keySet) match(a arrow.Array, out []uint64) {
	switch a.DataType().ID() {
	case arrow.INT8:
		matchInts(s.ints, a.(*array.Int8).Int8Values(), out)
	case arrow.INT16:
		matchInts(s.ints, a.(*array.Int16).Int16Values(), out)
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		matchInts(s.ints, int32Values(a), out)
	case arrow.INT64, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		matchInts(s.ints, int64Values(a), out)
	case arrow.UINT8:
		matchUints(s.uints, a.(*array.Uint8).Uint8Values(), out)
	case arrow.UINT16:
		matchUints(s.uints, a.(*array.Uint16).Uint16Values(), out)
	case arrow.UINT32:
		matchUints(s.uints, a.(*array.Uint32).Uint32Values(), out)
	case arrow.UINT64:
		matchUints(s.uints, a.(*array.Uint64).Uint64Values(), out)
	case arrow.FLOAT32, arrow.FLOAT64, arrow.BOOL:
		if len(s.uints) == 0 {
			return
		}
		for i := 0; i < a.Len(); i++ {
			var k uint64
			switch x := a.(type) {
			case *array.Boolean:
				k = b2u(x.Value(i))
			default:
				k = uintKey(a, i)
			}
			if _, ok := s.uints[k]; ok {
				out[i>>6] |= 1 << (i & 63)
			}
		}
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY:
		if len(s.strs) == 0 {
			return
		}
		bv := bytesOf(a)
		if len(s.strs) <= 4 {
			keys := make([]string, 0, len(s.strs))
			for k := range s.strs {
				keys = append(keys, k)
			}
			for i := 0; i < a.Len(); i++ {
				v := bv.str(i)
				for _, k := range keys {
					if v == k {
						out[i>>6] |= 1 << (i & 63)
						break
					}
				}
			}
			return
		}
		for i := 0; i < a.Len(); i++ {
			if _, ok := s.strs[bv.str(i)]; ok {
				out[i>>6] |= 1 << (i & 63)
			}
		}
	}
}

// smallSet is the size up to which sets are searched linearly.
const smallSet = 8

// matchInts marks the values of vs found in set.
func matchInts[T ~int8 | ~int16 | ~int32 | ~int64](set map[int64]struct{}, vs []T, out []uint64) {
	if len(set) == 0 {
		return
	}
	if len(set) <= smallSet {
		keys := make([]T, 0, len(set))
		for k := range set {
			keys = append(keys, T(k))
		}
		for i, v := range vs {
			for _, k := range keys {
				if v == k {
					out[i>>6] |= 1 << (i & 63)
					break
				}
			}
		}
		return
	}
	lo, hi := int64(0), int64(-1)
	first := true
	for k := range set {
		if first || k < lo {
			lo = k
		}
		if first || k > hi {
			hi = k
		}
		first = false
	}
	if span := hi - lo; span >= 0 && span < 1<<16 {
		bits := make([]uint64, span/64+1)
		for k := range set {
			bits[(k-lo)>>6] |= 1 << ((k - lo) & 63)
		}
		for i, v := range vs {
			if d := int64(v) - lo; d >= 0 && d <= span && bits[d>>6]&(1<<(d&63)) != 0 {
				out[i>>6] |= 1 << (i & 63)
			}
		}
		return
	}
	for i, v := range vs {
		if _, ok := set[int64(v)]; ok {
			out[i>>6] |= 1 << (i & 63)
		}
	}
}

// matchUints marks the values of vs found in set.
func matchUints[T ~uint8 | ~uint16 | ~uint32 | ~uint64](set map[uint64]struct{}, vs []T, out []uint64) {
	if len(set) == 0 {
		return
	}
	for i, v := range vs {
		if _, ok := set[uint64(v)]; ok {
			out[i>>6] |= 1 << (i & 63)
		}
	}
}

// intKey returns row i of a signed integer or temporal array as int64.
func intKey(a arrow.Array, i int) int64 {
	switch x := a.(type) {
	case *array.Int8:
		return int64(x.Value(i))
	case *array.Int16:
		return int64(x.Value(i))
	}
	switch a.DataType().ID() {
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		return int64(int32Values(a)[i])
	}
	return int64Values(a)[i]
}

// uintKey returns row i of an unsigned or float array as a key (floats
// by their total-order key, so NaN matches NaN and -0.0 matches 0.0).
func uintKey(a arrow.Array, i int) uint64 {
	switch x := a.(type) {
	case *array.Uint8:
		return uint64(x.Value(i))
	case *array.Uint16:
		return uint64(x.Value(i))
	case *array.Uint32:
		return uint64(x.Value(i))
	case *array.Uint64:
		return x.Value(i)
	case *array.Float32:
		return uint64(floatKey64(float64(x.Value(i))))
	case *array.Float64:
		return uint64(floatKey64(x.Value(i)))
	}
	return math.MaxUint64
}
