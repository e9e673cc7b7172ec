package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Arithmetic follows DataFusion: operands are coerced to a common type
// (two integers to the narrowest integer type holding both, UInt64 with a
// signed type to Decimal128(20, 0); any float wins, Float64 over Float32;
// an integer meeting a decimal becomes a decimal of its digits), then
// arrow-rs's kernels apply: + - * wrap on integer overflow, / and % fail
// on a zero divisor in a non-NULL row ("Divide by zero error"), integer
// division truncates toward zero and overflows only for MIN / -1;
// floats follow IEEE (x/0 = ±inf, 0/0 = NaN, % is fmod); decimal results
// take arrow-rs's precision and scale and fail on 128-bit overflow.
// Shifts take integers (count modulo the width, as Rust's wrapping_shl);
// || concatenates strings (non-string operands are cast to Utf8).

// arithNode is l op r for + - * / % << >>. The operands are already cast
// to the kernel's input types: both typ for integers and floats, each its
// own decimal type for decimals. The pruner reads op, l and r to find
// monotonic shapes (col + const, col - const, col * positive const).
type arithNode struct {
	op   BinaryOp
	l, r node
	typ  arrow.DataType // the result type
}

func (a *arithNode) dataType() arrow.DataType { return a.typ }
func (a *arithNode) inputs() []node           { return []node{a.l, a.r} }

// bindArith binds + - * / % || << >>.
func (b *binder) bindArith(x *Binary, l, r node) (node, error) {
	if x.Op == OpConcat {
		return b.bindConcat(x, l, r)
	}
	if n, handled, err := b.bindIntervalArith(x.Op, l, r, x.At); handled || err != nil {
		return n, err
	}
	lt, rt := l.dataType(), r.dataType()
	if lt.ID() == arrow.NULL && rt.ID() == arrow.NULL {
		return &constNode{val: arrowNullArray(1)}, nil
	}
	if lt.ID() == arrow.NULL {
		lt = rt
		l = &constNode{val: nullOf(b.mem, rt)}
	}
	if rt.ID() == arrow.NULL {
		rt = lt
		r = &constNode{val: nullOf(b.mem, lt)}
	}
	lc, rc, res, err := arithTypes(x.Op, lt, rt)
	if err != nil {
		return nil, fmt.Errorf("%w: %s %s %s: %v (at %d)", ErrBind, lt, x.Op, rt, err, x.At)
	}
	if isNullConst(l) || isNullConst(r) {
		return &constNode{val: nullOf(b.mem, res)}, nil
	}
	if l, err = b.castTo(l, lc, x.At); err != nil {
		return nil, err
	}
	if r, err = b.castTo(r, rc, x.At); err != nil {
		return nil, err
	}
	return &arithNode{op: x.Op, l: l, r: r, typ: res}, nil
}

// arithTypes returns the types the operands are cast to and the result
// type of l op r, as DataFusion's coercion and arrow-rs's kernels give.
func arithTypes(op BinaryOp, l, r arrow.DataType) (arrow.DataType, arrow.DataType, arrow.DataType, error) {
	if op == OpShiftLeft || op == OpShiftRight {
		if !isInteger(l) || !isInteger(r) {
			return nil, nil, nil, fmt.Errorf("cannot infer common type for bitwise operation %s %s %s", dfTypeName(l), op, dfTypeName(r))
		}
		// DataFusion's bitwise coercion: as for arithmetic, except that
		// UInt64 with any integer is UInt64.
		t := integerCommonType(l, r)
		if l.ID() == arrow.UINT64 || r.ID() == arrow.UINT64 {
			t = arrow.PrimitiveTypes.Uint64
		}
		return t, t, t, nil
	}
	if isTemporal(l) || isTemporal(r) {
		return temporalArithTypes(op, l, r)
	}
	if !isNumeric(l) || !isNumeric(r) || l.ID() == arrow.DECIMAL256 || r.ID() == arrow.DECIMAL256 {
		return nil, nil, nil, fmt.Errorf("cannot coerce arithmetic expression %s %s %s to valid types", dfTypeName(l), op, dfTypeName(r))
	}
	switch {
	case l.ID() == arrow.FLOAT64 || r.ID() == arrow.FLOAT64, l.ID() == arrow.FLOAT16 || r.ID() == arrow.FLOAT16:
		t := arrow.PrimitiveTypes.Float64
		return t, t, t, nil
	case l.ID() == arrow.FLOAT32 || r.ID() == arrow.FLOAT32:
		t := arrow.PrimitiveTypes.Float32
		return t, t, t, nil
	case isDecimal(l) || isDecimal(r):
		return decimalArithTypes(op, l, r)
	}
	t := integerCommonType(l, r)
	if isDecimal(t) {
		return decimalArithTypes(op, t, t)
	}
	return t, t, t, nil
}

// temporalArithTypes types the differences DataFusion computes without
// intervals: date - date is Int64 days, timestamp - timestamp (or date)
// a duration in the coarser unit.
func temporalArithTypes(op BinaryOp, l, r arrow.DataType) (arrow.DataType, arrow.DataType, arrow.DataType, error) {
	bad := fmt.Errorf("cannot coerce arithmetic expression %s %s %s to valid types", dfTypeName(l), op, dfTypeName(r))
	if op != OpMinus {
		return nil, nil, nil, bad
	}
	lts, lok := l.(*arrow.TimestampType)
	rts, rok := r.(*arrow.TimestampType)
	switch {
	case l.ID() == arrow.DATE32 && r.ID() == arrow.DATE32:
		return l, r, arrow.PrimitiveTypes.Int64, nil
	case lok && rok:
		t := &arrow.TimestampType{Unit: min(lts.Unit, rts.Unit), TimeZone: lts.TimeZone}
		return t, t, &arrow.DurationType{Unit: t.Unit}, nil
	case lok && r.ID() == arrow.DATE32:
		return l, l, &arrow.DurationType{Unit: lts.Unit}, nil
	case rok && l.ID() == arrow.DATE32:
		return r, r, &arrow.DurationType{Unit: rts.Unit}, nil
	}
	return nil, nil, nil, bad
}

// decimalArithTypes types decimal arithmetic: integers become decimals
// of their digits; the result's precision and scale are arrow-rs's.
func decimalArithTypes(op BinaryOp, l, r arrow.DataType) (arrow.DataType, arrow.DataType, arrow.DataType, error) {
	p1, s1 := decimalShape(l)
	p2, s2 := decimalShape(r)
	lt := &arrow.Decimal128Type{Precision: int32(p1), Scale: int32(s1)}
	rt := &arrow.Decimal128Type{Precision: int32(p2), Scale: int32(s2)}
	var p, s int
	switch op {
	case OpPlus, OpMinus:
		s = max(s1, s2)
		p = max(p1-s1, p2-s2) + s + 1
	case OpMul:
		p, s = p1+p2+1, s1+s2
		if s > 38 {
			return nil, nil, nil, fmt.Errorf("output scale of %s * %s would exceed max scale of 38", dfTypeName(lt), dfTypeName(rt))
		}
	case OpDiv:
		s = min(s1+4, 38)
		p = p1 - s1 + s2 + s
	case OpMod:
		s = max(s1, s2)
		p = min(p1-s1, p2-s2) + s
	default:
		return nil, nil, nil, fmt.Errorf("operator %s on decimals", op)
	}
	p = min(p, 38)
	if p < 1 {
		p = 1
	}
	return lt, rt, &arrow.Decimal128Type{Precision: int32(p), Scale: int32(s)}, nil
}

// bindNeg binds -x: numbers only (unsigned integers are refused, as in
// DataFusion); integers wrap (-MIN = MIN).
func (b *binder) bindNeg(x *Neg) (node, error) {
	n, err := b.bind(x.X)
	if err != nil {
		return nil, err
	}
	t := n.dataType()
	switch {
	case t.ID() == arrow.NULL:
		return n, nil
	case isSignedInt(t), t.ID() == arrow.FLOAT32, t.ID() == arrow.FLOAT64, t.ID() == arrow.DECIMAL128:
	default:
		return nil, fmt.Errorf("%w: Negation only supports numeric, interval and timestamp types, %s is %s (at %d)", ErrBind, x.X, t, x.At)
	}
	return b.fold(&negNode{x: n}, nil)
}

// negNode is -x.
type negNode struct{ x node }

func (n *negNode) dataType() arrow.DataType { return n.x.dataType() }
func (n *negNode) inputs() []node           { return []node{n.x} }

// bindConcat binds l || r: strings (Utf8, or LargeUtf8 when either is
// large), or two binaries; other operands are cast to Utf8; NULL gives
// NULL.
func (b *binder) bindConcat(x *Binary, l, r node) (node, error) {
	lt, rt := l.dataType(), r.dataType()
	var t arrow.DataType
	switch {
	case isBinary(lt) && isBinary(rt) && lt.ID() != arrow.FIXED_SIZE_BINARY && rt.ID() != arrow.FIXED_SIZE_BINARY:
		t = arrow.BinaryTypes.Binary
		if lt.ID() == arrow.LARGE_BINARY || rt.ID() == arrow.LARGE_BINARY {
			t = arrow.BinaryTypes.LargeBinary
		}
	case lt.ID() == arrow.NULL && rt.ID() == arrow.NULL:
		return nil, fmt.Errorf("%w: Cannot infer common string type for string concat operation Null || Null (at %d)", ErrBind, x.At)
	case isBinary(lt) || isBinary(rt):
		return nil, fmt.Errorf("%w: Cannot infer common string type for string concat operation %s || %s (at %d)", ErrBind, dfTypeName(lt), dfTypeName(rt), x.At)
	case lt.ID() == arrow.LARGE_STRING || rt.ID() == arrow.LARGE_STRING:
		t = arrow.BinaryTypes.LargeString
	case isString(lt) || isString(rt) || lt.ID() == arrow.NULL || rt.ID() == arrow.NULL:
		t = arrow.BinaryTypes.String
	default:
		return nil, fmt.Errorf("%w: Cannot infer common string type for string concat operation %s || %s (at %d)", ErrBind, dfTypeName(lt), dfTypeName(rt), x.At)
	}
	if lt.ID() == arrow.NULL || rt.ID() == arrow.NULL {
		return &constNode{val: nullOf(b.mem, t)}, nil
	}
	var err error
	if l, err = b.castTo(l, t, x.At); err != nil {
		return nil, err
	}
	if r, err = b.castTo(r, t, x.At); err != nil {
		return nil, err
	}
	return &concatNode{l: l, r: r, typ: t}, nil
}

// concatNode is l || r over two operands of type typ.
type concatNode struct {
	l, r node
	typ  arrow.DataType
}

func (c *concatNode) dataType() arrow.DataType { return c.typ }
func (c *concatNode) inputs() []node           { return []node{c.l, c.r} }

func (c *concatNode) eval(ec *evalCtx) (arrow.Array, error) {
	l, err := c.l.eval(ec)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	r, err := c.r.eval(ec)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	n := ec.n
	lv, rv := bytesOf(l), bytesOf(r)
	lbm, loff, lhas := validBits(l)
	rbm, roff, rhas := validBits(r)
	out := newCastStrOut(n)
	for i := 0; i < n; i++ {
		if isValidAt(lbm, loff, lhas, i) && isValidAt(rbm, roff, rhas, i) {
			out.data = append(out.data, lv.at(i)...)
			out.data = append(out.data, rv.at(i)...)
		}
		out.end()
	}
	valid, nulls := andValid(ec.mem, n, l, r)
	res, err := out.finish(ec.mem, c.typ, valid, nulls)
	if err != nil {
		return nil, fmt.Errorf("%w: ||: %w", ErrEval, err)
	}
	return res, nil
}
