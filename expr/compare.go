package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// bindBinary binds a binary operator. AND/OR chains are flattened into
// one node (a 1,000-term OR is one loop, not 1,000 levels).
func (b *binder) bindBinary(x *Binary) (node, error) {
	switch {
	case x.Op == OpAnd || x.Op == OpOr:
		terms := flattenChain(x, x.Op)
		kids := make([]node, 0, len(terms))
		for _, t := range terms {
			start := len(b.refs)
			k, err := b.bind(coerceRegexpMatch(t))
			if err != nil {
				return nil, err
			}
			if err := wantBool(k, t, x.Op.String()); err != nil {
				return nil, err
			}
			kids = append(kids, b.dictWrap(k, start))
		}
		return b.fold(&logicNode{and: x.Op == OpAnd, kids: kids}, nil)
	case x.Op.IsComparison():
		return b.compare(x.Op, x.L, x.R, x.At)
	}
	l, err := b.bind(x.L)
	if err != nil {
		return nil, err
	}
	r, err := b.bind(x.R)
	if err != nil {
		return nil, err
	}
	return b.fold(b.bindArith(x, l, r))
}

// flattenChain lists the operands of a chain of op (AND or OR), left to
// right, without recursion.
func flattenChain(e Expr, op BinaryOp) []Expr {
	var out []Expr
	stack := []Expr{e}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if bx, ok := top.(*Binary); ok && bx.Op == op {
			stack = append(stack, bx.R, bx.L)
			continue
		}
		out = append(out, top)
	}
	return out
}

// coerceRegexpMatch rewrites regexp_match(…) in a boolean position into
// regexp_match(…) IS NOT NULL, as Lance does.
func coerceRegexpMatch(e Expr) Expr {
	if c, ok := e.(*Call); ok && c.Name == "regexp_match" {
		return &Is{X: c, Test: IsNotNull, At: c.At}
	}
	return e
}

// compare binds l op r for a comparison operator.
func (b *binder) compare(op BinaryOp, le, re Expr, at int) (node, error) {
	l, err := b.bind(coerceRegexpMatch(le))
	if err != nil {
		return nil, err
	}
	r, err := b.bind(coerceRegexpMatch(re))
	if err != nil {
		return nil, err
	}
	return b.compareNodes(op, l, r, le, re, at)
}

// compareNodes compares two bound operands, coercing them to a common
// type as DataFusion does.
func (b *binder) compareNodes(op BinaryOp, l, r node, le, re Expr, at int) (node, error) {
	lt, rt := l.dataType(), r.dataType()
	if lt.ID() == arrow.NULL && rt.ID() == arrow.NULL {
		if op == OpIsDistinctFrom || op == OpIsNotDistinctFrom {
			return &constNode{val: boolArray(b.mem, op == OpIsNotDistinctFrom)}, nil
		}
		return nullBool(b.mem), nil
	}
	if lt.ID() == arrow.NULL || rt.ID() == arrow.NULL {
		if op != OpIsDistinctFrom && op != OpIsNotDistinctFrom {
			return nullBool(b.mem), nil
		}
		if lt.ID() == arrow.NULL {
			l = &constNode{val: nullOf(b.mem, rt)}
		} else {
			r = &constNode{val: nullOf(b.mem, lt)}
		}
		return b.fold(&cmpNode{op: op, l: l, r: r}, nil)
	}
	if isList(lt) || isList(rt) {
		return b.fold(b.compareNested(op, l, r, at))
	}
	l, r = b.unwrapCastComparison(op, l, r)
	lt, rt = l.dataType(), r.dataType()
	t, ok := comparisonType(lt, rt)
	if ok && lt.ID() == arrow.TIMESTAMP && rt.ID() == arrow.TIMESTAMP {
		// DataFusion unwraps the cast of a column compared with a
		// constant: the constant is cast to the column's unit.
		if _, lc := l.(*constNode); lc {
			t = rt
		} else if _, rc := r.(*constNode); rc {
			t = lt
		}
	}
	if !ok {
		return nil, fmt.Errorf("%w: cannot compare %s (%s) with %s (%s) at %d", ErrBind, le, lt, re, rt, at)
	}
	if l, err := b.castTo(l, t, at); err != nil {
		return nil, err
	} else if r, err := b.castTo(r, t, at); err != nil {
		return nil, err
	} else {
		return b.fold(&cmpNode{op: op, l: l, r: r}, nil)
	}
}

// castTo casts n to t unless it has that type already (constants are
// cast at once).
func (b *binder) castTo(n node, t arrow.DataType, at int) (node, error) {
	if arrow.TypeEqual(n.dataType(), t) {
		return n, nil
	}
	return b.fold(newCast(n, t, false, at))
}

// comparisonType is the type two operands of a comparison are coerced
// to (DataFusion's comparison coercion, for the types filters meet).
func comparisonType(l, r arrow.DataType) (arrow.DataType, bool) {
	switch {
	case arrow.TypeEqual(l, r):
		return l, true
	case isNumeric(l) && isNumeric(r):
		return numericCommonType(l, r)
	case isString(l) && isString(r):
		return arrow.BinaryTypes.LargeString, true
	case isBinary(l) && isBinary(r), isBinary(l) && isString(r), isString(l) && isBinary(r):
		if l.ID() == arrow.LARGE_BINARY || r.ID() == arrow.LARGE_BINARY {
			return arrow.BinaryTypes.LargeBinary, true
		}
		return arrow.BinaryTypes.Binary, true
	case isString(l) && (isNumeric(r) || isTemporal(r)):
		return r, true // the strings are cast (and fail the query where they do not convert)
	case (isNumeric(l) || isTemporal(l)) && isString(r):
		return l, true
	case isTemporal(l) && isTemporal(r):
		return temporalCommonType(l, r)
	case (l.ID() == arrow.DATE32 || l.ID() == arrow.DATE64) && isInteger(r):
		return l, true // integers are days (milliseconds for date64)
	case isInteger(l) && (r.ID() == arrow.DATE32 || r.ID() == arrow.DATE64):
		return r, true
	}
	return nil, false
}

// numericCommonType is the type two numeric operands compare in: floats
// win (the widest), then decimals, then the integer type holding both.
func numericCommonType(l, r arrow.DataType) (arrow.DataType, bool) {
	switch {
	case isDecimal(l) && isFloat(r), isFloat(l) && isDecimal(r):
		return decimalCommonType(l, r) // floats as Decimal128(30, 15), as DataFusion (NaN fails the cast)
	case l.ID() == arrow.FLOAT64 || r.ID() == arrow.FLOAT64:
		return arrow.PrimitiveTypes.Float64, true
	case l.ID() == arrow.FLOAT32 || r.ID() == arrow.FLOAT32:
		if (isInteger(l) && intWidth(l) > 16) || (isInteger(r) && intWidth(r) > 16) || isDecimal(l) || isDecimal(r) {
			return arrow.PrimitiveTypes.Float64, true
		}
		return arrow.PrimitiveTypes.Float32, true
	case l.ID() == arrow.FLOAT16 || r.ID() == arrow.FLOAT16:
		return arrow.PrimitiveTypes.Float64, true
	case isDecimal(l) || isDecimal(r):
		return decimalCommonType(l, r)
	}
	return integerCommonType(l, r), true
}

// integerCommonType is the integer type holding every value of l and r
// (Decimal128(20, 0) for a uint64 against a signed type).
func integerCommonType(l, r arrow.DataType) arrow.DataType {
	lw, rw := intWidth(l), intWidth(r)
	switch {
	case isSignedInt(l) == isSignedInt(r):
		if isSignedInt(l) {
			return signedOfWidth(max(lw, rw))
		}
		return unsignedOfWidth(max(lw, rw))
	case isUnsignedInt(l) && lw == 64, isUnsignedInt(r) && rw == 64:
		return &arrow.Decimal128Type{Precision: 20, Scale: 0}
	case isUnsignedInt(l):
		return signedOfWidth(max(2*lw, rw))
	}
	return signedOfWidth(max(lw, 2*rw))
}

// decimalCommonType widens decimals (and integers, as decimals of their
// digits) to one decimal holding both.
func decimalCommonType(l, r arrow.DataType) (arrow.DataType, bool) {
	lp, ls := decimalShape(l)
	rp, rs := decimalShape(r)
	s := max(ls, rs)
	p := max(lp-ls, rp-rs) + s
	if p > 38 {
		p = 38
	}
	return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(s)}, true
}

// decimalShape returns the precision and scale of a decimal, or of the
// decimal holding every value of an integer type.
func decimalShape(t arrow.DataType) (int, int) {
	switch x := t.(type) {
	case *arrow.Decimal128Type:
		return int(x.Precision), int(x.Scale)
	case *arrow.Decimal256Type:
		return int(x.Precision), int(x.Scale)
	}
	switch t.ID() {
	case arrow.FLOAT64, arrow.FLOAT16:
		return 30, 15
	case arrow.FLOAT32:
		return 14, 7
	}
	switch intWidth(t) {
	case 8:
		return 3, 0
	case 16:
		return 5, 0
	case 32:
		return 10, 0
	}
	return 20, 0
}

// temporalCommonType: a date against a timestamp compares as the
// timestamp; two timestamps in the coarser unit (DataFusion's rule;
// compareNodes keeps a column's unit against a constant).
func temporalCommonType(l, r arrow.DataType) (arrow.DataType, bool) {
	lts, lok := l.(*arrow.TimestampType)
	rts, rok := r.(*arrow.TimestampType)
	switch {
	case lok && rok:
		u := min(lts.Unit, rts.Unit)
		return &arrow.TimestampType{Unit: u, TimeZone: lts.TimeZone}, true
	case lok && (r.ID() == arrow.DATE32 || r.ID() == arrow.DATE64):
		return l, true
	case rok && (l.ID() == arrow.DATE32 || l.ID() == arrow.DATE64):
		return r, true
	case l.ID() == arrow.DATE32 && r.ID() == arrow.DATE64, l.ID() == arrow.DATE64 && r.ID() == arrow.DATE32:
		return arrow.FixedWidthTypes.Date64, true
	}
	return nil, false
}

// bindLiteral binds a literal not resolved against a column: DataFusion
// types it as Int64, Float64, Utf8, Binary, Boolean or NULL.
func (b *binder) bindLiteral(l *Literal) (node, error) {
	switch l.Kind {
	case LitNull:
		return &constNode{val: arrowNullArray(1)}, nil
	case LitBool:
		return &constNode{val: boolArray(b.mem, l.Bool)}, nil
	case LitInt:
		return &constNode{val: intArray(b.mem, arrow.PrimitiveTypes.Int64, l.Int)}, nil
	case LitFloat:
		return &constNode{val: floatTo(b.mem, l.Float, arrow.PrimitiveTypes.Float64)}, nil
	case LitString:
		return &constNode{val: stringArray(b.mem, arrow.BinaryTypes.String, l.Str)}, nil
	case LitBinary:
		return &constNode{val: binaryArray(b.mem, arrow.BinaryTypes.Binary, []byte(l.Str))}, nil
	case LitInterval:
		return b.bindInterval(l)
	}
	return nil, fmt.Errorf("%w: unknown literal kind %d at %d", ErrBind, l.Kind, l.At)
}
