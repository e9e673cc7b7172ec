package expr

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow"
)

// DataFusion's simplifier moves a cast off a compared column onto the
// literal (unwrap_cast_in_comparison): CAST(x AS T) op lit becomes
// x op lit' when lit converts exactly to x's type, so the cast is never
// applied to the rows; a row whose cast would fail no longer fails the
// query, and CAST(dec AS int) = 1 compares dec = 1.000. Lance runs that
// simplifier before coercion, so the literal still has its parsed type
// (Int64, Float64, Utf8). The comparison binder applies these rewrites
// to its bound operands.

// unwrapCastComparison returns the operands of l op r with such a cast
// moved onto the constant side, or l and r unchanged.
func (b *binder) unwrapCastComparison(op BinaryOp, l, r node) (node, node) {
	if !op.IsComparison() {
		return l, r
	}
	if x, c, ok := b.unwrapCastOperand(op, l, r); ok {
		return x, c
	}
	if x, c, ok := b.unwrapCastOperand(op, r, l); ok {
		return c, x
	}
	return l, r
}

// unwrapCastInList returns x IN (items) with the cast moved onto the
// items when x is a cast and every item is a constant converting exactly
// to the cast's input type.
func (b *binder) unwrapCastInList(x node, items []node) (node, []node) {
	cn, ok := x.(*castNode)
	if !ok || !unwrapSupported(cn.x.dataType()) || unwrapLossyCast(cn.x.dataType(), cn.to) {
		return x, items
	}
	out := make([]node, len(items))
	for i, it := range items {
		c, ok := it.(*constNode)
		if !ok || c.isNull() || unwrapFamily(c.dataType()) != unwrapFamily(cn.x.dataType()) {
			return x, items
		}
		v, ok := b.exactLiteral(c, cn.x.dataType())
		if !ok {
			return x, items
		}
		out[i] = v
	}
	return cn.x, out
}

// unwrapCastOperand rewrites cast op lit when cast is a castNode.
func (b *binder) unwrapCastOperand(op BinaryOp, cast, lit node) (node, node, bool) {
	cn, ok := cast.(*castNode)
	if !ok {
		return nil, nil, false
	}
	c, ok := lit.(*constNode)
	if !ok || c.isNull() {
		return nil, nil, false
	}
	src := cn.x.dataType()
	if unwrapLossyCast(src, cn.to) {
		return nil, nil, false
	}
	// CAST(int AS string) = '123' compares the integer when the text
	// round-trips.
	if isString(cn.to) && isInteger(src) && isString(c.dataType()) && (op == OpEq || op == OpNotEq) {
		if v, ok := b.exactLiteral(c, src); ok {
			return cn.x, v, true
		}
		return nil, nil, false
	}
	if !unwrapSupported(src) || !unwrapSupported(c.dataType()) || unwrapFamily(src) != unwrapFamily(c.dataType()) {
		return nil, nil, false
	}
	if v, ok := b.exactLiteral(c, src); ok {
		return cn.x, v, true
	}
	return nil, nil, false
}

// unwrapSupported reports the types DataFusion's rule handles.
func unwrapSupported(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.DATE32, arrow.DATE64, arrow.DECIMAL128, arrow.TIMESTAMP, arrow.STRING, arrow.LARGE_STRING, arrow.BINARY:
		return true
	}
	return false
}

// unwrapFamily groups the supported types whose literals convert into
// one another exactly: numbers and temporal values, strings, binaries.
func unwrapFamily(t arrow.DataType) int {
	switch {
	case isString(t):
		return 1
	case isBinary(t):
		return 2
	}
	return 0
}

// unwrapLossyCast reports casts the rule leaves alone: a timestamp to a
// coarser unit, and between dates and other temporal types.
func unwrapLossyCast(from, to arrow.DataType) bool {
	fts, fok := from.(*arrow.TimestampType)
	tts, tok := to.(*arrow.TimestampType)
	if fok && tok && fts.Unit > tts.Unit {
		return true
	}
	isDate := func(t arrow.DataType) bool { return t.ID() == arrow.DATE32 || t.ID() == arrow.DATE64 }
	return (isDate(from) && isTemporal(to) && !isDate(to)) || (isDate(to) && isTemporal(from) && !isDate(from)) ||
		(isDate(from) && isDate(to) && from.ID() != to.ID())
}

// exactLiteral converts the constant c to type t when the conversion is
// exact (it converts back to the same value), as the constant it gives.
func (b *binder) exactLiteral(c *constNode, t arrow.DataType) (*constNode, bool) {
	if arrow.TypeEqual(c.dataType(), t) {
		return c, true
	}
	if isFloat(c.dataType()) || isFloat(t) {
		return nil, false
	}
	k := castKernelFor(c.dataType(), t)
	if k == nil {
		return nil, false
	}
	v, err := k(&castCtx{mem: b.mem, to: t, try: true}, c.val)
	if err != nil {
		return nil, false
	}
	if v.IsNull(0) {
		v.Release()
		return nil, false
	}
	back := castKernelFor(t, c.dataType())
	if back == nil {
		v.Release()
		return nil, false
	}
	rt, err := back(&castCtx{mem: b.mem, to: c.dataType(), try: true}, v)
	if err != nil {
		v.Release()
		return nil, false
	}
	defer rt.Release()
	if rt.IsNull(0) || !sameScalar(rt, c.val) {
		v.Release()
		return nil, false
	}
	return &constNode{val: v}, true
}

// sameScalar reports whether row 0 of two arrays of one type holds the
// same bytes (values of the fixed-width and binary types the rule sees).
func sameScalar(a, b arrow.Array) bool {
	if isString(a.DataType()) || isBinary(a.DataType()) {
		av, bv := bytesOf(a), bytesOf(b)
		return bytes.Equal(av.at(0), bv.at(0))
	}
	fw, ok := a.DataType().(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 {
		return false
	}
	w := fw.BitWidth() / 8
	ad, bd := a.Data(), b.Data()
	if ad.Buffers()[1] == nil || bd.Buffers()[1] == nil {
		return false
	}
	ab := ad.Buffers()[1].Bytes()[ad.Offset()*w:]
	bb := bd.Buffers()[1].Bytes()[bd.Offset()*w:]
	return len(ab) >= w && len(bb) >= w && bytes.Equal(ab[:w], bb[:w])
}
