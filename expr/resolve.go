package expr

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Lance coerces a filter's literals itself before DataFusion plans it
// (lance-datafusion's resolve_expr): where one side of a comparison or
// arithmetic operator is a column (or a struct field of one) and the
// other a literal, the literal must convert losslessly to the column's
// type, else the filter is refused ("could not convert"). Only the top
// of the filter and the operands of AND/OR are resolved so; literals
// anywhere else are typed by DataFusion's ordinary coercion (bind.go,
// coerce.go). resolve reproduces that pass on the Expr tree, replacing
// the literals it converts with Const nodes.

// resolve applies Lance's literal resolution to a filter's top level.
func (b *binder) resolve(e Expr) (Expr, error) {
	switch x := e.(type) {
	case *Binary:
		if x.Op == OpAnd || x.Op == OpOr {
			l, err := b.resolve(x.L)
			if err != nil {
				return nil, err
			}
			r, err := b.resolve(x.R)
			if err != nil {
				return nil, err
			}
			return &Binary{Op: x.Op, L: l, R: r, At: x.At}, nil
		}
		if t, ok := b.columnType(x.L); ok {
			switch r := x.R.(type) {
			case *Literal, *Array:
				v, err := b.coerceLiteral(r, t, x)
				if err != nil {
					return nil, err
				}
				return &Binary{Op: x.Op, L: x.L, R: v, At: x.At}, nil
			case *Binary:
				if !isArithmetic(r.Op) {
					return e, nil // pylance 14: b = (i32 > 0) is typed by DataFusion
				}
				rl, err := b.coerceLiterals(r.L, t, x)
				if err != nil {
					return nil, err
				}
				rr, err := b.coerceLiterals(r.R, t, x)
				if err != nil {
					return nil, err
				}
				return &Binary{Op: x.Op, L: x.L, R: &Binary{Op: r.Op, L: rl, R: rr, At: r.At}, At: x.At}, nil
			}
			return e, nil
		}
		if t, ok := b.columnType(x.R); ok {
			switch l := x.L.(type) {
			case *Literal, *Array:
				v, err := b.coerceLiteral(l, t, x)
				if err != nil {
					return nil, err
				}
				return &Binary{Op: x.Op, L: v, R: x.R, At: x.At}, nil
			}
		}
		return e, nil
	case *InList:
		c, isCol := x.X.(*Column)
		if !isCol {
			return e, nil
		}
		t, ok := b.columnType(c)
		if !ok {
			return e, nil
		}
		list := make([]Expr, len(x.List))
		for i, item := range x.List {
			v, err := b.coerceLiterals(item, t, x)
			if err != nil {
				return nil, err
			}
			list[i] = v
		}
		return &InList{X: x.X, List: list, Not: x.Not, At: x.At}, nil
	case *Between:
		t, ok := b.columnType(x.X)
		if !ok {
			return e, nil
		}
		lo, err := b.coerceLiterals(x.Lo, t, x)
		if err != nil {
			return nil, err
		}
		hi, err := b.coerceLiterals(x.Hi, t, x)
		if err != nil {
			return nil, err
		}
		return &Between{X: x.X, Lo: lo, Hi: hi, Not: x.Not, At: x.At}, nil
	}
	return e, nil
}

// isArithmetic reports whether op is + - * / %.
func isArithmetic(op BinaryOp) bool {
	switch op {
	case OpPlus, OpMinus, OpMul, OpDiv, OpMod:
		return true
	}
	return false
}

// coerceLiterals converts the literals of e (through arithmetic) to t.
func (b *binder) coerceLiterals(e Expr, t arrow.DataType, ctx Expr) (Expr, error) {
	switch x := e.(type) {
	case *Literal, *Array:
		return b.coerceLiteral(x, t, ctx)
	case *Binary:
		l, err := b.coerceLiterals(x.L, t, ctx)
		if err != nil {
			return nil, err
		}
		r, err := b.coerceLiterals(x.R, t, ctx)
		if err != nil {
			return nil, err
		}
		return &Binary{Op: x.Op, L: l, R: r, At: x.At}, nil
	}
	return e, nil
}

// coerceLiteral converts one literal (or array literal) to t, losslessly.
func (b *binder) coerceLiteral(e Expr, t arrow.DataType, ctx Expr) (Expr, error) {
	if a, ok := e.(*Array); ok {
		n, err := b.bindArray(a, t)
		if err != nil {
			return nil, fmt.Errorf("%w: resolving filter expression %s: could not convert %s to %s: %w", ErrBind, ctx, a, t, err)
		}
		c, ok := n.(*constNode)
		if !ok {
			return e, nil
		}
		return &Const{Value: c.val, src: e, At: e.Pos()}, nil
	}
	l := e.(*Literal)
	v, ok := coerceScalar(b.mem, l, t)
	if !ok {
		return nil, fmt.Errorf("%w: resolving filter expression %s: literal %s (at %d) could not convert to a literal of type %s", ErrBind, ctx, l, l.At, t)
	}
	return &Const{Value: v, src: l, At: l.At}, nil
}

// columnType returns the type of e when e is a column, a struct field of
// one, or get_field of one (Lance's resolve_column_type).
func (b *binder) columnType(e Expr) (arrow.DataType, bool) {
	switch x := e.(type) {
	case *Column:
		i, err := lookupField(b.schema.Fields(), x.Name, x.Quoted)
		if err != nil || i < 0 {
			return nil, false
		}
		return b.schema.Field(i).Type, true
	case *Field:
		t, ok := b.columnType(x.X)
		if !ok {
			return nil, false
		}
		return structChild(t, x.Name)
	case *Call:
		if x.Name != "get_field" || len(x.Args) != 2 {
			return nil, false
		}
		name, ok := x.Args[1].(*Literal)
		if !ok || name.Kind != LitString {
			return nil, false
		}
		t, ok := b.columnType(x.Args[0])
		if !ok {
			return nil, false
		}
		return structChild(t, name.Str)
	}
	return nil, false
}

// structChild returns the type of the child called name of struct type t.
func structChild(t arrow.DataType, name string) (arrow.DataType, bool) {
	st, ok := t.(*arrow.StructType)
	if !ok {
		return nil, false
	}
	for _, f := range st.Fields() {
		if f.Name == name {
			return f.Type, true
		}
	}
	return nil, false
}

// coerceScalar converts literal l to a one-row array of type t when Lance
// converts it (safe_coerce_scalar): integers within the target's range
// (to floats with rounding), floats only to floats, strings to strings,
// booleans to booleans, binary to binary, integers to decimals exactly;
// NULL to a NULL of t.
func coerceScalar(mem memory.Allocator, l *Literal, t arrow.DataType) (arrow.Array, bool) {
	if l.Kind == LitNull {
		return nullOf(mem, t), true
	}
	switch l.Kind {
	case LitInt:
		return intTo(mem, l.Int, t)
	case LitFloat:
		if u, err := strconv.ParseUint(strings.TrimPrefix(l.Text, "+"), 10, 64); err == nil && l.Text != "" {
			return uintTo(mem, u, t)
		}
		switch t.ID() {
		case arrow.FLOAT32, arrow.FLOAT64, arrow.FLOAT16:
			return floatTo(mem, l.Float, t), true
		}
	case LitString:
		switch t.ID() {
		case arrow.STRING, arrow.LARGE_STRING:
			return stringArray(mem, t, l.Str), true
		}
	case LitBinary:
		switch t.ID() {
		case arrow.BINARY, arrow.LARGE_BINARY:
			return binaryArray(mem, t, []byte(l.Str)), true
		case arrow.FIXED_SIZE_BINARY:
			if t.(*arrow.FixedSizeBinaryType).ByteWidth == len(l.Str) {
				return binaryArray(mem, t, []byte(l.Str)), true
			}
		}
	case LitBool:
		if t.ID() == arrow.BOOL {
			return boolArray(mem, l.Bool), true
		}
	}
	return nil, false
}

// intTo converts a signed integer literal to t.
func intTo(mem memory.Allocator, v int64, t arrow.DataType) (arrow.Array, bool) {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		lo, hi := intRange(t)
		if v < lo || v > hi {
			return nil, false
		}
		return intArray(mem, t, v), true
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		if v < 0 {
			return nil, false
		}
		return uintTo(mem, uint64(v), t)
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return floatTo(mem, float64(v), t), true
	case arrow.DECIMAL128:
		d := t.(*arrow.Decimal128Type)
		r := new(big.Int).SetInt64(v)
		r.Mul(r, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale)), nil))
		if d.Scale < 0 || r.CmpAbs(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Precision)), nil)) >= 0 {
			return nil, false
		}
		b := array.NewDecimal128Builder(mem, d)
		defer b.Release()
		b.Append(decimal128.FromBigInt(r))
		return b.NewArray(), true
	}
	return nil, false
}

// uintTo converts an unsigned integer literal to t.
func uintTo(mem memory.Allocator, v uint64, t arrow.DataType) (arrow.Array, bool) {
	switch t.ID() {
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		if v > uintMax(t) {
			return nil, false
		}
		return uintArray(mem, t, v), true
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DECIMAL128:
		if v > math.MaxInt64 {
			return nil, false
		}
		return intTo(mem, int64(v), t)
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return floatTo(mem, float64(v), t), true
	}
	return nil, false
}
