package expr

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Comparisons of a column with a constant, the shape of most filters,
// compare against the constant's value directly: no broadcast array.

// flipOp returns the operator with swapped operands (a op b ⇔ b flip a).
func flipOp(op BinaryOp) BinaryOp {
	switch op {
	case OpLt:
		return OpGt
	case OpLtEq:
		return OpGtEq
	case OpGt:
		return OpLt
	case OpGtEq:
		return OpLtEq
	}
	return op
}

// compareConst compares a with the non-NULL constant c (a op c). ok is
// false for types without a constant kernel (the caller broadcasts).
func compareConst(ec *evalCtx, op BinaryOp, a, c arrow.Array) (arrow.Array, bool) {
	if op == OpIsDistinctFrom || op == OpIsNotDistinctFrom || c.IsNull(0) {
		return nil, false
	}
	n := a.Len()
	data := make([]uint64, (n+63)/64)
	switch a.DataType().ID() {
	case arrow.INT8:
		cmpOrderedConst(op, a.(*array.Int8).Int8Values(), c.(*array.Int8).Value(0), data)
	case arrow.INT16:
		cmpOrderedConst(op, a.(*array.Int16).Int16Values(), c.(*array.Int16).Value(0), data)
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		cmpOrderedConst(op, int32Values(a), int32Values(c)[0], data)
	case arrow.INT64, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		cmpOrderedConst(op, int64Values(a), int64Values(c)[0], data)
	case arrow.UINT8:
		cmpOrderedConst(op, a.(*array.Uint8).Uint8Values(), c.(*array.Uint8).Value(0), data)
	case arrow.UINT16:
		cmpOrderedConst(op, a.(*array.Uint16).Uint16Values(), c.(*array.Uint16).Value(0), data)
	case arrow.UINT32:
		cmpOrderedConst(op, a.(*array.Uint32).Uint32Values(), c.(*array.Uint32).Value(0), data)
	case arrow.UINT64:
		cmpOrderedConst(op, a.(*array.Uint64).Uint64Values(), c.(*array.Uint64).Value(0), data)
	case arrow.FLOAT64:
		cmpFloat64Const(op, a.(*array.Float64).Float64Values(), c.(*array.Float64).Value(0), data)
	case arrow.FLOAT32:
		cmpFloat32Const(op, a.(*array.Float32).Float32Values(), c.(*array.Float32).Value(0), data)
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		av, cv := bytesOf(a), bytesOf(c)
		k := cv.at(0)
		ord := make([]int8, n)
		if op == OpEq || op == OpNotEq {
			for i := range ord {
				if !bytes.Equal(av.at(i), k) {
					ord[i] = 1
				}
			}
		} else {
			for i := range ord {
				ord[i] = int8(bytes.Compare(av.at(i), k))
			}
		}
		setFromOrder(op, ord, data)
	default:
		return nil, false
	}
	valid := nullWords(a)
	if valid != nil {
		for i := range data {
			data[i] &= valid[i]
		}
	}
	return boolArrayFromWords(ec.mem, data, valid, n), true
}

// cmpOrderedConst sets bit i of out when a[i] op k, 64 rows a word.
func cmpOrderedConst[T ordered](op BinaryOp, a []T, k T, out []uint64) {
	switch op {
	case OpEq:
		for base := 0; base < len(a); base += 64 {
			var w uint64
			for j, v := range a[base:min(base+64, len(a))] {
				w |= b2u(v == k) << uint(j)
			}
			out[base>>6] = w
		}
	case OpNotEq:
		for base := 0; base < len(a); base += 64 {
			var w uint64
			for j, v := range a[base:min(base+64, len(a))] {
				w |= b2u(v != k) << uint(j)
			}
			out[base>>6] = w
		}
	case OpLt:
		for base := 0; base < len(a); base += 64 {
			var w uint64
			for j, v := range a[base:min(base+64, len(a))] {
				w |= b2u(v < k) << uint(j)
			}
			out[base>>6] = w
		}
	case OpLtEq:
		for base := 0; base < len(a); base += 64 {
			var w uint64
			for j, v := range a[base:min(base+64, len(a))] {
				w |= b2u(v <= k) << uint(j)
			}
			out[base>>6] = w
		}
	case OpGt:
		for base := 0; base < len(a); base += 64 {
			var w uint64
			for j, v := range a[base:min(base+64, len(a))] {
				w |= b2u(v > k) << uint(j)
			}
			out[base>>6] = w
		}
	case OpGtEq:
		for base := 0; base < len(a); base += 64 {
			var w uint64
			for j, v := range a[base:min(base+64, len(a))] {
				w |= b2u(v >= k) << uint(j)
			}
			out[base>>6] = w
		}
	}
}

// cmpFloat64Const compares in the total order of floatKey64.
func cmpFloat64Const(op BinaryOp, a []float64, k float64, out []uint64) {
	cmpFloatKeysConst(op, a, floatKey64(k), out)
}

func cmpFloatKeysConst(op BinaryOp, a []float64, kk int64, out []uint64) {
	switch op {
	case OpEq:
		for base := 0; base < len(a); base += 64 {
			var w uint64
			for j, v := range a[base:min(base+64, len(a))] {
				w |= b2u(floatKey64(v) == kk) << uint(j)
			}
			out[base>>6] = w
		}
	case OpNotEq:
		for base := 0; base < len(a); base += 64 {
			var w uint64
			for j, v := range a[base:min(base+64, len(a))] {
				w |= b2u(floatKey64(v) != kk) << uint(j)
			}
			out[base>>6] = w
		}
	case OpLt:
		for base := 0; base < len(a); base += 64 {
			var w uint64
			for j, v := range a[base:min(base+64, len(a))] {
				w |= b2u(floatKey64(v) < kk) << uint(j)
			}
			out[base>>6] = w
		}
	case OpLtEq:
		for base := 0; base < len(a); base += 64 {
			var w uint64
			for j, v := range a[base:min(base+64, len(a))] {
				w |= b2u(floatKey64(v) <= kk) << uint(j)
			}
			out[base>>6] = w
		}
	case OpGt:
		for base := 0; base < len(a); base += 64 {
			var w uint64
			for j, v := range a[base:min(base+64, len(a))] {
				w |= b2u(floatKey64(v) > kk) << uint(j)
			}
			out[base>>6] = w
		}
	case OpGtEq:
		for base := 0; base < len(a); base += 64 {
			var w uint64
			for j, v := range a[base:min(base+64, len(a))] {
				w |= b2u(floatKey64(v) >= kk) << uint(j)
			}
			out[base>>6] = w
		}
	}
}

// cmpFloat32Const is cmpFloat64Const for float32.
func cmpFloat32Const(op BinaryOp, a []float32, k float32, out []uint64) {
	kk := floatKey32(k)
	keys := make([]int32, len(a))
	for i, v := range a {
		keys[i] = floatKey32(v)
	}
	cmpOrderedConst(op, keys, kk, out)
}
