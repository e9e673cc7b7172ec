package zonestats

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
)

// Expr is an unbound filter expression over named columns. Build one with
// Col and its methods, And, Or and Not, or parse one with ParseFilter; then
// Bind it to a schema to get a Predicate. Expr values are immutable.
type Expr interface {
	// String renders the expression in the syntax ParseFilter accepts.
	String() string
	expr()
}

// Op is a comparison operator.
type Op uint8

// Comparison operators.
const (
	OpEq    Op = iota // =
	OpNotEq           // != (also <>)
	OpLt              // <
	OpLtEq            // <=
	OpGt              // >
	OpGtEq            // >=
)

// String returns the operator's SQL spelling.
func (o Op) String() string {
	return [...]string{"=", "!=", "<", "<=", ">", ">="}[o]
}

// negate returns the operator that is true exactly when o is false (for
// two non-null values).
func (o Op) negate() Op {
	return [...]Op{OpNotEq, OpEq, OpGtEq, OpGt, OpLtEq, OpLt}[o]
}

// flip returns the operator with swapped operands (a o b ⇔ b flip(o) a).
func (o Op) flip() Op {
	return [...]Op{OpEq, OpNotEq, OpGt, OpGtEq, OpLt, OpLtEq}[o]
}

// ColumnRef names a column in an expression.
type ColumnRef struct{ name string }

// Col returns a reference to the column called name.
func Col(name string) ColumnRef { return ColumnRef{name} }

// Name returns the column name.
func (c ColumnRef) Name() string { return c.name }

// Eq returns c = v.
func (c ColumnRef) Eq(v Literal) Expr { return &cmpExpr{c.name, OpEq, v} }

// NotEq returns c != v.
func (c ColumnRef) NotEq(v Literal) Expr { return &cmpExpr{c.name, OpNotEq, v} }

// Lt returns c < v.
func (c ColumnRef) Lt(v Literal) Expr { return &cmpExpr{c.name, OpLt, v} }

// LtEq returns c <= v.
func (c ColumnRef) LtEq(v Literal) Expr { return &cmpExpr{c.name, OpLtEq, v} }

// Gt returns c > v.
func (c ColumnRef) Gt(v Literal) Expr { return &cmpExpr{c.name, OpGt, v} }

// GtEq returns c >= v.
func (c ColumnRef) GtEq(v Literal) Expr { return &cmpExpr{c.name, OpGtEq, v} }

// Cmp returns c op v.
func (c ColumnRef) Cmp(op Op, v Literal) Expr { return &cmpExpr{c.name, op, v} }

// In returns c IN (vs...).
func (c ColumnRef) In(vs ...Literal) Expr {
	return &inExpr{c.name, append([]Literal(nil), vs...)}
}

// IsNull returns c IS NULL.
func (c ColumnRef) IsNull() Expr { return &nullExpr{c.name, false} }

// IsNotNull returns c IS NOT NULL.
func (c ColumnRef) IsNotNull() Expr { return &nullExpr{c.name, true} }

// IsNaN returns c IS NAN (true for NaNs of either sign, NULL for null rows).
func (c ColumnRef) IsNaN() Expr { return &nanExpr{c.name} }

// And returns the conjunction of es (TRUE when es is empty).
func And(es ...Expr) Expr { return &logicExpr{and: true, kids: append([]Expr(nil), es...)} }

// Or returns the disjunction of es (FALSE when es is empty).
func Or(es ...Expr) Expr { return &logicExpr{and: false, kids: append([]Expr(nil), es...)} }

// Not returns the negation of e.
func Not(e Expr) Expr { return &notExpr{e} }

type cmpExpr struct {
	col string
	op  Op
	lit Literal
}

type inExpr struct {
	col  string
	list []Literal
}

type nullExpr struct {
	col string
	not bool
}

type nanExpr struct{ col string }

type logicExpr struct {
	and  bool
	kids []Expr
}

type notExpr struct{ e Expr }

func (*cmpExpr) expr()   {}
func (*inExpr) expr()    {}
func (*nullExpr) expr()  {}
func (*nanExpr) expr()   {}
func (*logicExpr) expr() {}
func (*notExpr) expr()   {}

func (e *cmpExpr) String() string {
	return quoteIdent(e.col) + " " + e.op.String() + " " + e.lit.String()
}

func (e *inExpr) String() string {
	parts := make([]string, len(e.list))
	for i, l := range e.list {
		parts[i] = l.String()
	}
	return quoteIdent(e.col) + " IN (" + strings.Join(parts, ", ") + ")"
}

func (e *nullExpr) String() string {
	if e.not {
		return quoteIdent(e.col) + " IS NOT NULL"
	}
	return quoteIdent(e.col) + " IS NULL"
}

func (e *nanExpr) String() string { return quoteIdent(e.col) + " IS NAN" }

func (e *logicExpr) String() string {
	if len(e.kids) == 0 {
		if e.and {
			return "TRUE"
		}
		return "FALSE"
	}
	parts := make([]string, len(e.kids))
	for i, k := range e.kids {
		parts[i] = "(" + k.String() + ")"
	}
	if e.and {
		return strings.Join(parts, " AND ")
	}
	return strings.Join(parts, " OR ")
}

func (e *notExpr) String() string { return "NOT (" + e.e.String() + ")" }

// quoteIdent renders a column name, double-quoted unless it is a plain
// identifier that is not a keyword.
func quoteIdent(s string) string {
	if isPlainIdent(s) && !isKeyword(s) {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// litKind is the kind of an unbound literal.
type litKind uint8

const (
	litNull litKind = iota
	litBool
	litInt
	litUint
	litFloat64
	litFloat32
	litString
	litBinary
	litNumber // exact numeric text from the parser or Number
)

// Literal is an untyped constant of a filter. Bind coerces it to the
// compared column's type.
type Literal struct {
	kind litKind
	i    int64
	u    uint64
	f    float64
	s    string
}

// Null returns the NULL literal.
func Null() Literal { return Literal{kind: litNull} }

// Bool returns a boolean literal.
func Bool(b bool) Literal { return Literal{kind: litBool, u: boolKey(b)} }

// Int64 returns an integer literal.
func Int64(v int64) Literal { return Literal{kind: litInt, i: v} }

// Uint64 returns an unsigned integer literal.
func Uint64(v uint64) Literal { return Literal{kind: litUint, u: v} }

// Float64 returns a float literal (NaN and infinities allowed).
func Float64(v float64) Literal { return Literal{kind: litFloat64, f: v} }

// Float32 returns a float literal whose float32 bit pattern is kept exactly
// when compared with a float32 column.
func Float32(v float32) Literal {
	return Literal{kind: litFloat32, f: float64(v), u: uint64(math.Float32bits(v))}
}

// String returns a string literal.
func String(s string) Literal { return Literal{kind: litString, s: s} }

// Binary returns a byte-string literal.
func Binary(b []byte) Literal { return Literal{kind: litBinary, s: string(b)} }

// Number returns a numeric literal given as decimal text ("-12", "3.25",
// "1e3"); Bind converts it exactly (integers, decimals) or rounds it to
// the nearest value (floats).
func Number(text string) Literal { return Literal{kind: litNumber, s: text} }

// IsNull reports whether l is the NULL literal.
func (l Literal) IsNull() bool { return l.kind == litNull }

// String renders the literal in ParseFilter syntax.
func (l Literal) String() string {
	switch l.kind {
	case litNull:
		return "NULL"
	case litBool:
		return strings.ToUpper(strconv.FormatBool(l.u != 0))
	case litInt:
		return strconv.FormatInt(l.i, 10)
	case litUint:
		return strconv.FormatUint(l.u, 10)
	case litFloat64, litFloat32:
		return formatFloat(l.f)
	case litString:
		return "'" + strings.ReplaceAll(l.s, "'", "''") + "'"
	case litBinary:
		return "X'" + hex.EncodeToString([]byte(l.s)) + "'"
	}
	return l.s
}

// formatFloat renders a float literal, using the NAN/INF keywords.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-NAN"
		}
		return "NAN"
	case math.IsInf(f, 1):
		return "INF"
	case math.IsInf(f, -1):
		return "-INF"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}
