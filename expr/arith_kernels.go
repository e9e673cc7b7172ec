package expr

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Kernels of arithNode and negNode: loops over typed slices, a
// constant operand read once (most filters are col op literal).

// arithOperand evaluates n, or returns a constant's one row without
// broadcasting it (isConst).
func arithOperand(ec *evalCtx, n node) (arrow.Array, bool, error) {
	if c, ok := n.(*constNode); ok {
		c.val.Retain()
		return c.val, true, nil
	}
	a, err := n.eval(ec)
	return a, false, err
}

// arrowEvalErr wraps an evaluation failure of operator op.
func arrowEvalErr(format string, args ...any) error {
	return fmt.Errorf("%w: Arrow error: %s", ErrEval, fmt.Sprintf(format, args...))
}

func (a *arithNode) eval(ec *evalCtx) (arrow.Array, error) {
	l, lc, err := arithOperand(ec, a.l)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	r, rc, err := arithOperand(ec, a.r)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	if (lc && l.IsNull(0)) || (rc && r.IsNull(0)) {
		return nullsOfType(ec.mem, a.typ, ec.n), nil
	}
	var parts []arrow.Array
	if !lc {
		parts = append(parts, l)
	}
	if !rc {
		parts = append(parts, r)
	}
	valid, nulls := andValid(ec.mem, ec.n, parts...)
	k := arithOperands{n: ec.n, lc: lc, rc: rc, valid: valid, nulls: nulls}
	var out arrow.Array
	if isTemporal(l.DataType()) {
		out, err = temporalDiff(ec.mem, a, l, r, k)
		if err != nil && valid != nil {
			valid.Release()
		}
		return out, err
	}
	switch a.typ.ID() {
	case arrow.INT8:
		out, err = arithInts[int8](ec.mem, a, l, r, k)
	case arrow.INT16:
		out, err = arithInts[int16](ec.mem, a, l, r, k)
	case arrow.INT32:
		out, err = arithInts[int32](ec.mem, a, l, r, k)
	case arrow.INT64:
		out, err = arithInts[int64](ec.mem, a, l, r, k)
	case arrow.UINT8:
		out, err = arithInts[uint8](ec.mem, a, l, r, k)
	case arrow.UINT16:
		out, err = arithInts[uint16](ec.mem, a, l, r, k)
	case arrow.UINT32:
		out, err = arithInts[uint32](ec.mem, a, l, r, k)
	case arrow.UINT64:
		out, err = arithInts[uint64](ec.mem, a, l, r, k)
	case arrow.FLOAT32:
		out, err = arithFloats[float32](ec.mem, a, l, r, k)
	case arrow.FLOAT64:
		out, err = arithFloats[float64](ec.mem, a, l, r, k)
	case arrow.DECIMAL128:
		out, err = arithDecimals(ec.mem, a, l, r, k)
	default:
		err = fmt.Errorf("%w: operator %s on %s", ErrUnsupported, a.op, a.typ)
	}
	if err != nil && valid != nil {
		valid.Release()
	}
	return out, err
}

// nullsOfType returns n NULLs of type t.
func nullsOfType(mem memory.Allocator, t arrow.DataType, n int) arrow.Array {
	if t.ID() == arrow.NULL {
		return arrowNullArray(n)
	}
	c := nullOf(mem, t)
	defer c.Release()
	out, err := broadcast(mem, c, n)
	if err != nil {
		return arrowNullArray(n)
	}
	return out
}

// arithOperands describes the operands of a binary kernel: which are
// one-row constants, and the result's validity (owned by the kernel).
type arithOperands struct {
	n      int
	lc, rc bool
	valid  *memory.Buffer
	nulls  int
}

// validAt reports whether row i of the result is valid.
func (k *arithOperands) validAt(i int) bool {
	return k.valid == nil || bitutil.BitIsSet(k.valid.Bytes(), i)
}

// arithAddSubMul computes + - * elementwise (wrapping for integers).
func arithAddSubMul[T numAny](op BinaryOp, a, b, out []T, k arithOperands) {
	switch {
	case k.rc:
		s := b[0]
		switch op {
		case OpPlus:
			for i := range out {
				out[i] = a[i] + s
			}
		case OpMinus:
			for i := range out {
				out[i] = a[i] - s
			}
		case OpMul:
			for i := range out {
				out[i] = a[i] * s
			}
		}
	case k.lc:
		s := a[0]
		switch op {
		case OpPlus:
			for i := range out {
				out[i] = s + b[i]
			}
		case OpMinus:
			for i := range out {
				out[i] = s - b[i]
			}
		case OpMul:
			for i := range out {
				out[i] = s * b[i]
			}
		}
	default:
		b = b[:len(out)]
		a = a[:len(out)]
		switch op {
		case OpPlus:
			for i := range out {
				out[i] = a[i] + b[i]
			}
		case OpMinus:
			for i := range out {
				out[i] = a[i] - b[i]
			}
		case OpMul:
			for i := range out {
				out[i] = a[i] * b[i]
			}
		}
	}
}

// at returns row i of v, or its one row when constant.
func rowAt[T any](v []T, c bool, i int) T {
	if c {
		return v[0]
	}
	return v[i]
}

func arithInts[T numInt](mem memory.Allocator, a *arithNode, l, r arrow.Array, k arithOperands) (arrow.Array, error) {
	x, y := primValues[T](l), primValues[T](r)
	buf, out := newPrimValues[T](mem, k.n)
	w, signed := numIntInfo[T]()
	switch a.op {
	case OpPlus, OpMinus, OpMul:
		arithAddSubMul(a.op, x, y, out, k)
	case OpDiv, OpMod:
		for i := range out {
			p, q := rowAt(x, k.lc, i), rowAt(y, k.rc, i)
			if q == 0 {
				if k.validAt(i) {
					buf.Release()
					return nil, arrowEvalErr("Divide by zero error")
				}
				continue
			}
			if a.op == OpMod {
				out[i] = p % q
				continue
			}
			if signed && q == ^T(0) && p == minOfInt[T]() {
				if k.validAt(i) {
					buf.Release()
					return nil, arrowEvalErr("Arithmetic overflow: Overflow happened on: %d / -1", int64(p))
				}
				continue
			}
			out[i] = p / q
		}
	case OpShiftLeft, OpShiftRight:
		mask := uint32(w - 1)
		left := a.op == OpShiftLeft
		for i := range out {
			p, q := rowAt(x, k.lc, i), rowAt(y, k.rc, i)
			c := uint32(q) & mask
			if left {
				out[i] = p << c
			} else {
				out[i] = p >> c
			}
		}
	default:
		buf.Release()
		return nil, fmt.Errorf("%w: operator %s on integers", ErrUnsupported, a.op)
	}
	return makePrimArray(a.typ, k.n, buf, k.valid, k.nulls), nil
}

// minOfInt returns the smallest value of a signed integer type.
func minOfInt[T numInt]() T {
	w, signed := numIntInfo[T]()
	if !signed {
		return 0
	}
	var one T = 1
	return one << (w - 1)
}

func arithFloats[T float32 | float64](mem memory.Allocator, a *arithNode, l, r arrow.Array, k arithOperands) (arrow.Array, error) {
	x, y := primValues[T](l), primValues[T](r)
	buf, out := newPrimValues[T](mem, k.n)
	switch a.op {
	case OpPlus, OpMinus, OpMul:
		arithAddSubMul(a.op, x, y, out, k)
	case OpDiv:
		switch {
		case k.rc:
			s := y[0]
			for i := range out {
				out[i] = x[i] / s
			}
		default:
			for i := range out {
				out[i] = rowAt(x, k.lc, i) / rowAt(y, k.rc, i)
			}
		}
	case OpMod:
		for i := range out {
			out[i] = T(math.Mod(float64(rowAt(x, k.lc, i)), float64(rowAt(y, k.rc, i))))
		}
	default:
		buf.Release()
		return nil, fmt.Errorf("%w: operator %s on floats", ErrUnsupported, a.op)
	}
	return makePrimArray(a.typ, k.n, buf, k.valid, k.nulls), nil
}

// arithDecimals computes decimal arithmetic in checked 128-bit integers,
// scaling the operands as arrow-rs does.
func arithDecimals(mem memory.Allocator, a *arithNode, l, r arrow.Array, k arithOperands) (arrow.Array, error) {
	lt := l.DataType().(*arrow.Decimal128Type)
	rt := r.DataType().(*arrow.Decimal128Type)
	res := a.typ.(*arrow.Decimal128Type)
	x, y := primValues[decimal128Num](l), primValues[decimal128Num](r)
	buf, out := newPrimValues[decimal128Num](mem, k.n)
	var sc i128Scratch
	// Multipliers applied to each side before the operation.
	lm, rm := pow10i128[0], pow10i128[0]
	switch a.op {
	case OpPlus, OpMinus, OpMod:
		lm, rm = pow10i128[res.Scale-lt.Scale], pow10i128[res.Scale-rt.Scale]
	case OpDiv:
		mulPow := res.Scale - lt.Scale + rt.Scale
		if mulPow > 38 || mulPow < -38 {
			buf.Release()
			return nil, arrowEvalErr("Arithmetic overflow: decimal division scale")
		}
		if mulPow >= 0 {
			lm = pow10i128[mulPow]
		} else {
			rm = pow10i128[-mulPow]
		}
	}
	overflow := func(p, q decimal128Num) error {
		return arrowEvalErr("Arithmetic overflow: Overflow happened on: %s %s %s",
			string(appendDecimalText(nil, p, 0)), a.op, string(appendDecimalText(nil, q, 0)))
	}
	for i := range out {
		if !k.validAt(i) {
			continue
		}
		p, q := rowAt(x, k.lc, i), rowAt(y, k.rc, i)
		var v decimal128Num
		ok := true
		if a.op != OpMul {
			var ok1, ok2 bool
			p1, q1 := p, q
			if p, ok1 = sc.mul128(p1, lm); !ok1 {
				buf.Release()
				return nil, overflow(p1, lm)
			}
			if q, ok2 = sc.mul128(q1, rm); !ok2 {
				buf.Release()
				return nil, overflow(q1, rm)
			}
		}
		switch a.op {
		case OpPlus:
			v, ok = add128(p, q)
		case OpMinus:
			v, ok = sub128(p, q)
		case OpMul:
			v, ok = sc.mul128(p, q)
		case OpDiv, OpMod:
			if q.Sign() == 0 {
				buf.Release()
				return nil, arrowEvalErr("Divide by zero error")
			}
			var rem decimal128Num
			v, rem, ok = sc.quoRem128(p, q)
			if a.op == OpMod {
				v, ok = rem, true
			}
		}
		if !ok {
			buf.Release()
			return nil, overflow(p, q)
		}
		out[i] = v
	}
	return makePrimArray(a.typ, k.n, buf, k.valid, k.nulls), nil
}

// temporalDiff computes date - date (days) and timestamp - timestamp (a
// duration), failing on overflow.
func temporalDiff(mem memory.Allocator, a *arithNode, l, r arrow.Array, k arithOperands) (arrow.Array, error) {
	var x, y []int64
	if l.DataType().ID() == arrow.DATE32 {
		x, y = widen32(primValues[int32](l)), widen32(primValues[int32](r))
	} else {
		x, y = primValues[int64](l), primValues[int64](r)
	}
	buf, out := newPrimValues[int64](mem, k.n)
	for i := range out {
		p, q := rowAt(x, k.lc, i), rowAt(y, k.rc, i)
		d := p - q
		if (q < 0 && d < p) || (q > 0 && d > p) {
			if k.validAt(i) {
				buf.Release()
				return nil, arrowEvalErr("Arithmetic overflow: Overflow happened on: %d - %d", p, q)
			}
			continue
		}
		out[i] = d
	}
	return makePrimArray(a.typ, k.n, buf, k.valid, k.nulls), nil
}

// widen32 converts int32 values to int64.
func widen32(v []int32) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

func (n *negNode) eval(ec *evalCtx) (arrow.Array, error) {
	x, err := n.x.eval(ec)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	t := x.DataType()
	valid, nulls := copyValid(ec.mem, x)
	switch t.ID() {
	case arrow.INT8:
		return negateValues[int8](ec.mem, t, x, valid, nulls), nil
	case arrow.INT16:
		return negateValues[int16](ec.mem, t, x, valid, nulls), nil
	case arrow.INT32:
		return negateValues[int32](ec.mem, t, x, valid, nulls), nil
	case arrow.INT64:
		return negateValues[int64](ec.mem, t, x, valid, nulls), nil
	case arrow.FLOAT32:
		return negateValues[float32](ec.mem, t, x, valid, nulls), nil
	case arrow.FLOAT64:
		return negateValues[float64](ec.mem, t, x, valid, nulls), nil
	case arrow.DECIMAL128:
		src := primValues[decimal128Num](x)
		buf, out := newPrimValues[decimal128Num](ec.mem, x.Len())
		for i, v := range src {
			out[i] = v.Negate()
		}
		return makePrimArray(t, x.Len(), buf, valid, nulls), nil
	}
	if valid != nil {
		valid.Release()
	}
	return nil, fmt.Errorf("%w: negation of %s", ErrUnsupported, t)
}

func negateValues[T int8 | int16 | int32 | int64 | float32 | float64](mem memory.Allocator, t arrow.DataType, x arrow.Array, valid *memory.Buffer, nulls int) arrow.Array {
	src := primValues[T](x)
	buf, out := newPrimValues[T](mem, x.Len())
	for i, v := range src {
		out[i] = -v
	}
	return makePrimArray(t, x.Len(), buf, valid, nulls)
}

var _ = decimal128.Num{}
