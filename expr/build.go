package expr

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
)

// Building expressions in Go. Query engines that push typed predicates
// build trees with these constructors (or import Substrait, see
// FromSubstrait) instead of rendering SQL:
//
//	e := expr.And(
//		expr.Ge(expr.Col("id"), expr.Lit(1000)),
//		expr.Fn("starts_with", expr.Col("name"), expr.Lit("ab")),
//	)
//
// Lit makes an untyped literal that Bind converts to the compared
// column's type as Lance does (refusing lossy conversions); Typed makes a
// constant of an exact Arrow type (a float32 stays that float32).

// Const is a constant of an exact Arrow type: a one-row array. Bind uses
// its type as is (DataFusion's coercion applies, Lance's literal
// resolution does not). Build one with Typed or TypedScalar.
type Const struct {
	Value arrow.Array
	At    int
	src   Expr // the literal it was resolved from, for String
}

func (*Const) isExpr()    {}
func (c *Const) Pos() int { return c.At }

// String renders the constant as a typed SQL literal where the dialect
// has one (a CAST of its text), else as arrow_cast text.
func (c *Const) String() string {
	if c.src != nil {
		return c.src.String()
	}
	if c.Value == nil || c.Value.Len() != 1 {
		return "NULL"
	}
	if c.Value.IsNull(0) {
		return "CAST(NULL AS " + SQLTypeName(c.Value.DataType()) + ")"
	}
	s, err := scalar.GetScalar(c.Value, 0)
	if err != nil {
		return "NULL"
	}
	text := s.String()
	switch c.Value.DataType().ID() {
	case arrow.BOOL:
		return strings.ToUpper(text)
	case arrow.FLOAT32, arrow.FLOAT64, arrow.FLOAT16:
		if strings.Contains(text, "NaN") || strings.Contains(text, "Inf") {
			return "CAST('" + text + "' AS " + SQLTypeName(c.Value.DataType()) + ")"
		}
	}
	return "CAST('" + strings.ReplaceAll(text, "'", "''") + "' AS " + SQLTypeName(c.Value.DataType()) + ")"
}

// Col references the column called name exactly (no case folding). For
// a struct field use Path.
func Col(name string) *Column { return &Column{Name: name, Quoted: true, At: -1} }

// Path references a struct field: Path("st", "x") is st.x.
func Path(names ...string) Expr {
	if len(names) == 0 {
		return &Column{At: -1}
	}
	var e Expr = Col(names[0])
	for _, n := range names[1:] {
		e = &Field{X: e, Name: n, At: -1}
	}
	return e
}

// Lit returns an untyped literal of a Go value: nil (NULL), bool, any
// integer, float32/float64, string, []byte, or time.Time (a
// timestamp(µs) constant). It panics on other types, as a constructor
// misuse; LitOf returns an error instead.
func Lit(v any) Expr {
	e, err := LitOf(v)
	if err != nil {
		panic(err)
	}
	return e
}

// LitOf is Lit returning an error for an unsupported Go type.
func LitOf(v any) (Expr, error) {
	switch x := v.(type) {
	case nil:
		return &Literal{Kind: LitNull, At: -1}, nil
	case bool:
		return &Literal{Kind: LitBool, Bool: x, At: -1}, nil
	case int:
		return intLit(int64(x)), nil
	case int8:
		return intLit(int64(x)), nil
	case int16:
		return intLit(int64(x)), nil
	case int32:
		return intLit(int64(x)), nil
	case int64:
		return intLit(x), nil
	case uint8:
		return intLit(int64(x)), nil
	case uint16:
		return intLit(int64(x)), nil
	case uint32:
		return intLit(int64(x)), nil
	case uint:
		return uintLit(uint64(x)), nil
	case uint64:
		return uintLit(x), nil
	case float32:
		return Typed(floatTo(memory.DefaultAllocator, float64(x), arrow.PrimitiveTypes.Float32)), nil
	case float64:
		return &Literal{Kind: LitFloat, Float: x, At: -1}, nil
	case string:
		return &Literal{Kind: LitString, Str: x, At: -1}, nil
	case []byte:
		return &Literal{Kind: LitBinary, Str: string(x), At: -1}, nil
	case time.Time:
		t := &arrow.TimestampType{Unit: arrow.Microsecond}
		s := scalar.NewTimestampScalar(arrow.Timestamp(x.UnixMicro()), t)
		a, err := scalar.MakeArrayFromScalar(s, 1, memory.DefaultAllocator)
		if err != nil {
			return nil, err
		}
		return Typed(a), nil
	}
	return nil, fmt.Errorf("%w: no literal for Go type %T", ErrBind, v)
}

func intLit(v int64) *Literal {
	return &Literal{Kind: LitInt, Int: v, At: -1}
}

func uintLit(v uint64) *Literal {
	if v <= math.MaxInt64 {
		return intLit(int64(v))
	}
	return &Literal{Kind: LitFloat, Float: float64(v), Text: fmt.Sprint(v), At: -1}
}

// Typed returns a constant of exactly the type of a (row 0 of a).
func Typed(a arrow.Array) *Const {
	switch {
	case a.Len() == 0:
		return &Const{Value: nullOf(memory.DefaultAllocator, a.DataType()), At: -1}
	case a.Len() != 1:
		a = sliceOne(a)
	default:
		a.Retain()
	}
	return &Const{Value: a, At: -1}
}

// TypedScalar returns a constant of an Arrow scalar.
func TypedScalar(s scalar.Scalar) (*Const, error) {
	a, err := scalar.MakeArrayFromScalar(s, 1, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("%w: constant %s: %w", ErrBind, s, err)
	}
	return &Const{Value: a, At: -1}, nil
}

// Comparisons.

// Eq returns l = r.
func Eq(l, r Expr) Expr { return &Binary{Op: OpEq, L: l, R: r, At: -1} }

// NotEq returns l != r.
func NotEq(l, r Expr) Expr { return &Binary{Op: OpNotEq, L: l, R: r, At: -1} }

// Lt returns l < r.
func Lt(l, r Expr) Expr { return &Binary{Op: OpLt, L: l, R: r, At: -1} }

// Le returns l <= r.
func Le(l, r Expr) Expr { return &Binary{Op: OpLtEq, L: l, R: r, At: -1} }

// Gt returns l > r.
func Gt(l, r Expr) Expr { return &Binary{Op: OpGt, L: l, R: r, At: -1} }

// Ge returns l >= r.
func Ge(l, r Expr) Expr { return &Binary{Op: OpGtEq, L: l, R: r, At: -1} }

// Op returns l op r for any binary operator.
func Op(op BinaryOp, l, r Expr) Expr { return &Binary{Op: op, L: l, R: r, At: -1} }

// And returns the conjunction of es (TRUE when empty).
func And(es ...Expr) Expr { return chain(OpAnd, es, true) }

// Or returns the disjunction of es (FALSE when empty).
func Or(es ...Expr) Expr { return chain(OpOr, es, false) }

func chain(op BinaryOp, es []Expr, empty bool) Expr {
	if len(es) == 0 {
		return &Literal{Kind: LitBool, Bool: empty, At: -1}
	}
	e := es[0]
	for _, k := range es[1:] {
		e = &Binary{Op: op, L: e, R: k, At: -1}
	}
	return e
}

// NotOf returns NOT x.
func NotOf(x Expr) Expr { return &Not{X: x, At: -1} }

// In returns x IN (items…).
func In(x Expr, items ...Expr) Expr { return &InList{X: x, List: items, At: -1} }

// NotIn returns x NOT IN (items…).
func NotIn(x Expr, items ...Expr) Expr { return &InList{X: x, List: items, Not: true, At: -1} }

// BetweenOf returns x BETWEEN lo AND hi.
func BetweenOf(x, lo, hi Expr) Expr { return &Between{X: x, Lo: lo, Hi: hi, At: -1} }

// IsNullOf returns x IS NULL.
func IsNullOf(x Expr) Expr { return &Is{X: x, Test: IsNull, At: -1} }

// IsNotNullOf returns x IS NOT NULL.
func IsNotNullOf(x Expr) Expr { return &Is{X: x, Test: IsNotNull, At: -1} }

// LikeOf returns x LIKE pattern (backslash escapes).
func LikeOf(x Expr, pattern string) Expr {
	return &Like{X: x, Pattern: &Literal{Kind: LitString, Str: pattern, At: -1}, At: -1}
}

// Fn returns the call name(args…); name is matched case-insensitively.
func Fn(name string, args ...Expr) Expr {
	return &Call{Name: strings.ToLower(name), Args: args, At: -1}
}

// CastOf returns CAST(x AS t).
func CastOf(x Expr, t arrow.DataType) Expr { return &Cast{X: x, Type: t, At: -1} }

// Conjuncts splits e into its top-level AND terms (e itself when it is
// not an AND), left to right.
func Conjuncts(e Expr) []Expr { return flattenChain(e, OpAnd) }
