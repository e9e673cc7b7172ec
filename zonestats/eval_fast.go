package zonestats

import (
	"bytes"
	"cmp"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Evaluate's leaves are the cost of a filtered scan: a getter and a
// comparison closure per row. For a comparison of a plain (not
// dictionary) integer, float or string column with a non-null literal,
// and for IS [NOT] NULL, fastLeaf runs one typed loop over the column's
// values instead, with the same order (floats compared by total-order
// key), then marks the null rows.

// fastLeaf evaluates leaf n over arr into out (len arr.Len()), or returns
// false when n or arr's type has no fast path.
func (p *Predicate) fastLeaf(n *node, arr arrow.Array, out []uint8) bool {
	switch n.kind {
	case nIsNull, nIsNotNull:
		if _, ok := arr.(*array.Dictionary); ok {
			return false
		}
		is := n.kind == nIsNull
		for i := range out {
			out[i] = tri(arr.IsNull(i) == is)
		}
		return true
	case nCmp:
		if n.null || !fastCompare(arr, n.op, &n.lit, out) {
			return false
		}
	default:
		return false
	}
	if arr.NullN() > 0 {
		for i := range out {
			if arr.IsNull(i) {
				out[i] = triNull
			}
		}
	}
	return true
}

// fastCompare compares every value of arr with lit; false when arr's type
// has no typed loop.
func fastCompare(arr arrow.Array, op Op, lit *value, out []uint8) bool {
	switch a := arr.(type) {
	case *array.Int64:
		cmpOrdered(a.Int64Values(), op, lit.i, out)
	case *array.Int32:
		cmpOrdered(widen(a.Int32Values()), op, lit.i, out)
	case *array.Int16:
		cmpOrdered(widen(a.Int16Values()), op, lit.i, out)
	case *array.Int8:
		cmpOrdered(widen(a.Int8Values()), op, lit.i, out)
	case *array.Date32:
		cmpOrdered(widen(a.Date32Values()), op, lit.i, out)
	case *array.Timestamp:
		cmpOrdered(widen(a.TimestampValues()), op, lit.i, out)
	case *array.Uint64:
		cmpOrdered(a.Uint64Values(), op, lit.u, out)
	case *array.Uint32:
		cmpOrdered(widenU(a.Uint32Values()), op, lit.u, out)
	case *array.Uint16:
		cmpOrdered(widenU(a.Uint16Values()), op, lit.u, out)
	case *array.Uint8:
		cmpOrdered(widenU(a.Uint8Values()), op, lit.u, out)
	case *array.Float64:
		cmpOrdered(float64Keys(a.Float64Values()), op, lit.u, out)
	case *array.Float32:
		cmpOrdered(float32Keys(a.Float32Values()), op, lit.u, out)
	case *array.String:
		cmpBytes(a.ValueOffsets(), a.ValueBytes(), op, lit.b, out)
	case *array.LargeString:
		cmpBytes(a.ValueOffsets(), a.ValueBytes(), op, lit.b, out)
	case *array.Binary:
		cmpBytes(a.ValueOffsets(), a.ValueBytes(), op, lit.b, out)
	case *array.LargeBinary:
		cmpBytes(a.ValueOffsets(), a.ValueBytes(), op, lit.b, out)
	default:
		return false
	}
	return true
}

// tri converts a bool to TRUE/FALSE (inlined; boolTri's twin for loops).
func tri(b bool) uint8 {
	if b {
		return triTrue
	}
	return triFalse
}

// cmpOrdered sets out[i] to whether keys[i] op lit holds.
func cmpOrdered[K cmp.Ordered](keys []K, op Op, lit K, out []uint8) {
	out = out[:len(keys)]
	switch op {
	case OpEq:
		for i, v := range keys {
			out[i] = tri(v == lit)
		}
	case OpNotEq:
		for i, v := range keys {
			out[i] = tri(v != lit)
		}
	case OpLt:
		for i, v := range keys {
			out[i] = tri(v < lit)
		}
	case OpLtEq:
		for i, v := range keys {
			out[i] = tri(v <= lit)
		}
	case OpGt:
		for i, v := range keys {
			out[i] = tri(v > lit)
		}
	default:
		for i, v := range keys {
			out[i] = tri(v >= lit)
		}
	}
}

// cmpBytes compares each variable-width value (offsets relative to the
// array's slice) with lit bytewise.
func cmpBytes[O int32 | int64](offs []O, data []byte, op Op, lit []byte, out []uint8) {
	if len(offs) == 0 {
		return
	}
	base := offs[0]
	holds := opHolds(op)
	for i := range out {
		v := data[offs[i]-base : offs[i+1]-base]
		if op == OpEq || op == OpNotEq {
			out[i] = tri(bytes.Equal(v, lit) == (op == OpEq))
			continue
		}
		out[i] = tri(holds(bytes.Compare(v, lit)))
	}
}

// widen converts signed values to int64.
func widen[T ~int8 | ~int16 | ~int32 | ~int64](vals []T) []int64 {
	out := make([]int64, len(vals))
	for i, v := range vals {
		out[i] = int64(v)
	}
	return out
}

// widenU converts unsigned values to uint64.
func widenU[T ~uint8 | ~uint16 | ~uint32](vals []T) []uint64 {
	out := make([]uint64, len(vals))
	for i, v := range vals {
		out[i] = uint64(v)
	}
	return out
}

// float64Keys maps values to their total-order keys (floatLayout.key).
func float64Keys(vals []float64) []uint64 {
	out := make([]uint64, len(vals))
	for i, v := range vals {
		b := math.Float64bits(v)
		if b&(1<<63) != 0 {
			out[i] = ^b
		} else {
			out[i] = b | 1<<63
		}
	}
	return out
}

// float32Keys maps values to their total-order keys (floatLayout.key).
func float32Keys(vals []float32) []uint64 {
	out := make([]uint64, len(vals))
	for i, v := range vals {
		b := uint64(math.Float32bits(v))
		if b&(1<<31) != 0 {
			out[i] = ^b & 0xFFFFFFFF
		} else {
			out[i] = b | 1<<31
		}
	}
	return out
}
