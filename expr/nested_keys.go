package expr

import (
	"bytes"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Equality of list elements for the searching and set functions: keys
// compared (or hashed) without an interface call per element, two NULLs
// equal, floats equal only bit for bit (-0.0 is not 0.0, NaN is NaN) as
// arrow-rs compares them.

// nestKeys gives equality (NULL equal to NULL) over the elements of one
// array: through 64-bit keys, string keys, or the ordering for nested
// types.
type nestKeys struct {
	u    []uint64
	s    []string
	cmp  nestRowCmp
	mask nestMask
}

// nestKeysOf builds the keys of a's elements (one pass over its values).
func nestKeysOf(a arrow.Array) (*nestKeys, error) {
	k := &nestKeys{mask: nestMaskOf(a)}
	n := a.Len()
	switch a.DataType().ID() {
	case arrow.NULL:
		k.u = make([]uint64, n)
	case arrow.INT8:
		k.u = widenKeys(a.(*array.Int8).Int8Values(), n)
	case arrow.INT16:
		k.u = widenKeys(a.(*array.Int16).Int16Values(), n)
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		k.u = widenKeys(int32Values(a), n)
	case arrow.INT64, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		k.u = widenKeys(int64Values(a), n)
	case arrow.UINT8:
		k.u = widenKeys(a.(*array.Uint8).Uint8Values(), n)
	case arrow.UINT16:
		k.u = widenKeys(a.(*array.Uint16).Uint16Values(), n)
	case arrow.UINT32:
		k.u = widenKeys(a.(*array.Uint32).Uint32Values(), n)
	case arrow.UINT64:
		k.u = widenKeys(a.(*array.Uint64).Uint64Values(), n)
	case arrow.FLOAT64:
		k.u = make([]uint64, n)
		for i, f := range a.(*array.Float64).Float64Values() {
			k.u[i] = math.Float64bits(f)
		}
	case arrow.FLOAT32:
		k.u = make([]uint64, n)
		for i, f := range a.(*array.Float32).Float32Values() {
			k.u[i] = uint64(math.Float32bits(f))
		}
	case arrow.FLOAT16:
		k.u = make([]uint64, n)
		for i, f := range a.(*array.Float16).Values() {
			k.u[i] = uint64(f.Uint16())
		}
	case arrow.BOOL:
		k.u = make([]uint64, n)
		x := a.(*array.Boolean)
		for i := range k.u {
			k.u[i] = b2u(x.Value(i))
		}
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY:
		k.s = make([]string, n)
		v := bytesOf(a)
		for i := range k.s {
			k.s[i] = v.str(i)
		}
	case arrow.DECIMAL128:
		k.s = make([]string, n)
		vs := a.(*array.Decimal128).Values()
		for i := range vs {
			k.s[i] = unsafe.String((*byte)(unsafe.Pointer(&vs[i])), 16)
		}
	default:
		c, err := nestValueCmp(a, a)
		if err != nil {
			return nil, err
		}
		k.cmp = c
	}
	return k, nil
}

// widenKeys converts integer values to 64-bit keys (length n; missing values
// stay 0).
func widenKeys[T ordered](v []T, n int) []uint64 {
	out := make([]uint64, n)
	for i := 0; i < n && i < len(v); i++ {
		out[i] = uint64(int64(v[i]))
	}
	return out
}

// eq reports whether elements i and j are equal (two NULLs are).
func (k *nestKeys) eq(i, j int) bool {
	ni, nj := k.mask.null(i), k.mask.null(j)
	if ni || nj {
		return ni && nj
	}
	switch {
	case k.u != nil:
		return k.u[i] == k.u[j]
	case k.s != nil:
		return k.s[i] == k.s[j]
	}
	return k.cmp(i, j) == 0
}

// nestSet is a set of elements of one nestKeys, cleared between rows.
type nestSet struct {
	k       *nestKeys
	all     arrow.Array // the concatenated elements keyed (newNestSetOver)
	u       map[uint64]struct{}
	s       map[string]struct{}
	members []int // nested types: the members, compared one by one
	null    bool
}

func newNestSet(k *nestKeys) *nestSet {
	s := &nestSet{k: k}
	switch {
	case k.u != nil:
		s.u = map[uint64]struct{}{}
	case k.s != nil:
		s.s = map[string]struct{}{}
	}
	return s
}

// newNestSetOver is a set over the elements of a followed by those of b
// (element i of b is len(a)+i); release it after use.
func newNestSetOver(mem memory.Allocator, a, b arrow.Array) (*nestSet, error) {
	all, err := nestWithElems(mem, a, b)
	if err != nil {
		return nil, err
	}
	k, err := nestKeysOf(all)
	if err != nil {
		all.Release()
		return nil, err
	}
	s := newNestSet(k)
	s.all = all
	return s, nil
}

// release frees the elements a set built with newNestSetOver holds.
func (s *nestSet) release() {
	if s.all != nil {
		s.all.Release()
		s.all = nil
	}
}

func (s *nestSet) reset() {
	clear(s.u)
	clear(s.s)
	s.members = s.members[:0]
	s.null = false
}

// has reports whether element i is in the set.
func (s *nestSet) has(i int) bool {
	if s.k.mask.null(i) {
		return s.null
	}
	switch {
	case s.u != nil:
		_, ok := s.u[s.k.u[i]]
		return ok
	case s.s != nil:
		_, ok := s.s[s.k.s[i]]
		return ok
	}
	for _, m := range s.members {
		if s.k.eq(m, i) {
			return true
		}
	}
	return false
}

// add puts element i in the set, reporting whether it was new.
func (s *nestSet) add(i int) bool {
	if s.has(i) {
		return false
	}
	switch {
	case s.k.mask.null(i):
		s.null = true
	case s.u != nil:
		s.u[s.k.u[i]] = struct{}{}
	case s.s != nil:
		s.s[s.k.s[i]] = struct{}{}
	default:
		s.members = append(s.members, i)
	}
	return true
}

// nestCrossEq returns the equality (two NULLs equal) of elements of a
// with elements of b, arrays of one type, without concatenating them.
func nestCrossEq(a, b arrow.Array) (func(i, j int) bool, error) {
	switch a.DataType().ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY:
		if b.DataType().ID() != a.DataType().ID() {
			break
		}
		va, vb := bytesOf(a), bytesOf(b)
		ma, mb := nestMaskOf(a), nestMaskOf(b)
		return func(i, j int) bool {
			ni, nj := ma.null(i), mb.null(j)
			if ni || nj {
				return ni && nj
			}
			return bytes.Equal(va.at(i), vb.at(j))
		}, nil
	}
	ka, err := nestKeysOf(a)
	if err != nil {
		return nil, err
	}
	kb, err := nestKeysOf(b)
	if err != nil {
		return nil, err
	}
	ma, mb := ka.mask, kb.mask
	switch {
	case ka.u != nil && kb.u != nil:
		return func(i, j int) bool {
			ni, nj := ma.null(i), mb.null(j)
			if ni || nj {
				return ni && nj
			}
			return ka.u[i] == kb.u[j]
		}, nil
	case ka.s != nil && kb.s != nil:
		return func(i, j int) bool {
			ni, nj := ma.null(i), mb.null(j)
			if ni || nj {
				return ni && nj
			}
			return ka.s[i] == kb.s[j]
		}, nil
	}
	c, err := nestCmp(a, b)
	if err != nil {
		return nil, err
	}
	return func(i, j int) bool { return c(i, j) == 0 }, nil
}
