package expr

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Expr is an unbound expression: a tree of the node types of this file,
// produced by Parse or built with the constructors in build.go. Bind
// resolves it against a schema. Expr values are immutable once built.
type Expr interface {
	// String renders the expression in the SQL dialect Parse accepts, so
	// Parse(e.String()) gives an equal tree.
	String() string
	// Pos is the byte offset of the node in the parsed text, -1 for a
	// node built in Go.
	Pos() int
	isExpr()
}

// Column references a top-level column by name. A bare identifier
// matches a column case-insensitively (an exact match wins); a quoted
// one (backticks) must match exactly. _rowid, _rowaddr and _rowoffset
// are columns too where the scan provides them.
type Column struct {
	Name   string
	Quoted bool
	At     int
}

// Field selects a named child of a struct: st.x, st['x'], st["x"],
// get_field(st, 'x').
type Field struct {
	X    Expr
	Name string
	At   int
}

// FieldIndex selects the child of a struct by position (0-based), as
// Substrait references it; Bind turns it into a Field.
type FieldIndex struct {
	X     Expr
	Index int
	At    int
}

// Index selects an element of a list by a 1-based position: l[1]. Index
// 0 or one past the end is NULL.
type Index struct {
	X     Expr
	Index Expr
	At    int
}

// LitKind is the kind of a Literal.
type LitKind uint8

// Literal kinds. Parse produces LitInt for integers that fit int64,
// LitFloat for other numbers (Text keeps the digits for exact coercion),
// LitString for '…' and "…", LitBinary for X'…'.
const (
	LitNull LitKind = iota
	LitBool
	LitInt
	LitFloat
	LitString
	LitBinary
	// LitInterval is INTERVAL '…' (only accepted as a function argument,
	// as Lance does); Str holds the interval's text, e.g. "1 day".
	LitInterval
)

// Literal is a constant. Typed literals (date '…', timestamp(p) '…',
// decimal(p,s) '…') parse to a Cast of a LitString, as Lance plans them.
type Literal struct {
	Kind  LitKind
	Bool  bool
	Int   int64
	Float float64
	Str   string // LitString, LitBinary (raw bytes), LitInterval
	Text  string // LitInt/LitFloat: the number as written, sign included
	At    int
}

// Array is an array literal [a, b, …] of literals (optionally negated
// numbers); it compares with list and fixed-size-list columns.
type Array struct {
	Elems []Expr
	At    int
}

// BinaryOp is a binary operator.
type BinaryOp uint8

// Binary operators.
const (
	OpEq BinaryOp = iota
	OpNotEq
	OpLt
	OpLtEq
	OpGt
	OpGtEq
	OpIsDistinctFrom
	OpIsNotDistinctFrom
	OpAnd
	OpOr
	OpPlus
	OpMinus
	OpMul
	OpDiv
	OpMod
	OpConcat     // ||
	OpShiftLeft  // <<
	OpShiftRight // >>
)

var binaryOpText = [...]string{"=", "!=", "<", "<=", ">", ">=", "IS DISTINCT FROM", "IS NOT DISTINCT FROM",
	"AND", "OR", "+", "-", "*", "/", "%", "||", "<<", ">>"}

// String returns the operator's SQL spelling.
func (o BinaryOp) String() string {
	if int(o) < len(binaryOpText) {
		return binaryOpText[o]
	}
	return "?"
}

// IsComparison reports whether o is = != < <= > >= or IS [NOT] DISTINCT FROM.
func (o BinaryOp) IsComparison() bool { return o <= OpIsNotDistinctFrom }

// Binary is L op R.
type Binary struct {
	Op   BinaryOp
	L, R Expr
	At   int
}

// Not is NOT X.
type Not struct {
	X  Expr
	At int
}

// Neg is -X (a negated number literal parses to a Literal instead).
type Neg struct {
	X  Expr
	At int
}

// IsTest is the test of an Is node.
type IsTest uint8

// The IS tests.
const (
	IsNull IsTest = iota
	IsNotNull
	IsTrue
	IsNotTrue
	IsFalse
	IsNotFalse
)

var isTestText = [...]string{"IS NULL", "IS NOT NULL", "IS TRUE", "IS NOT TRUE", "IS FALSE", "IS NOT FALSE"}

// String returns the test's SQL spelling.
func (t IsTest) String() string {
	if int(t) < len(isTestText) {
		return isTestText[t]
	}
	return "IS ?"
}

// Is is X IS [NOT] NULL/TRUE/FALSE (never NULL itself).
type Is struct {
	X    Expr
	Test IsTest
	At   int
}

// InList is X [NOT] IN (List…).
type InList struct {
	X    Expr
	List []Expr
	Not  bool
	At   int
}

// Between is X [NOT] BETWEEN Lo AND Hi (inclusive).
type Between struct {
	X, Lo, Hi Expr
	Not       bool
	At        int
}

// Like is X [NOT] LIKE|ILIKE Pattern [ESCAPE 'c']. Escape is 0 when no
// ESCAPE clause was given (backslash escapes then, as in Lance).
type Like struct {
	X, Pattern      Expr
	Not             bool
	CaseInsensitive bool
	Escape          rune
	At              int
}

// Cast is CAST(X AS Type), X::Type, TRY_CAST(X AS Type) (Try: NULL
// instead of an error when a value does not convert), arrow_cast(X, 'T').
type Cast struct {
	X    Expr
	Type arrow.DataType
	Try  bool
	At   int
}

// Call is a function call; Name is lower-case.
type Call struct {
	Name string
	Args []Expr
	At   int
}

func (*Column) isExpr()     {}
func (*Field) isExpr()      {}
func (*Index) isExpr()      {}
func (*FieldIndex) isExpr() {}
func (*Literal) isExpr()    {}
func (*Array) isExpr()      {}
func (*Binary) isExpr()     {}
func (*Not) isExpr()        {}
func (*Neg) isExpr()        {}
func (*Is) isExpr()         {}
func (*InList) isExpr()     {}
func (*Between) isExpr()    {}
func (*Like) isExpr()       {}
func (*Cast) isExpr()       {}
func (*Call) isExpr()       {}

func (e *Column) Pos() int     { return e.At }
func (e *Field) Pos() int      { return e.At }
func (e *Index) Pos() int      { return e.At }
func (e *FieldIndex) Pos() int { return e.At }
func (e *Literal) Pos() int    { return e.At }
func (e *Array) Pos() int      { return e.At }
func (e *Binary) Pos() int     { return e.At }
func (e *Not) Pos() int        { return e.At }
func (e *Neg) Pos() int        { return e.At }
func (e *Is) Pos() int         { return e.At }
func (e *InList) Pos() int     { return e.At }
func (e *Between) Pos() int    { return e.At }
func (e *Like) Pos() int       { return e.At }
func (e *Cast) Pos() int       { return e.At }
func (e *Call) Pos() int       { return e.At }

// String renders the column name, in backticks unless it is a plain
// lower-case identifier that is not a keyword.
func (e *Column) String() string { return QuoteIdent(e.Name, e.Quoted) }

func (e *Field) String() string {
	return e.X.String() + "['" + strings.ReplaceAll(e.Name, "'", "''") + "']"
}

func (e *FieldIndex) String() string {
	return "get_field(" + e.X.String() + ", " + strconv.Itoa(e.Index) + ")"
}

func (e *Index) String() string { return e.X.String() + "[" + e.Index.String() + "]" }

func (e *Literal) String() string {
	switch e.Kind {
	case LitNull:
		return "NULL"
	case LitBool:
		if e.Bool {
			return "TRUE"
		}
		return "FALSE"
	case LitInt:
		if e.Text != "" {
			return e.Text
		}
		return strconv.FormatInt(e.Int, 10)
	case LitFloat:
		if e.Text != "" {
			return e.Text
		}
		s := strconv.FormatFloat(e.Float, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEnN") {
			s += ".0"
		}
		return s
	case LitString:
		return "'" + strings.ReplaceAll(e.Str, "'", "''") + "'"
	case LitBinary:
		const hexdig = "0123456789abcdef"
		b := make([]byte, 0, 3+2*len(e.Str))
		b = append(b, "X'"...)
		for i := 0; i < len(e.Str); i++ {
			b = append(b, hexdig[e.Str[i]>>4], hexdig[e.Str[i]&15])
		}
		return string(append(b, '\''))
	case LitInterval:
		return "INTERVAL '" + strings.ReplaceAll(e.Str, "'", "''") + "'"
	}
	return "?"
}

func (e *Array) String() string { return "[" + joinExprs(e.Elems) + "]" }

func (e *Binary) String() string {
	return "(" + e.L.String() + " " + e.Op.String() + " " + e.R.String() + ")"
}

func (e *Not) String() string { return "(NOT " + e.X.String() + ")" }

func (e *Neg) String() string { return "(- " + e.X.String() + ")" }

func (e *Is) String() string { return "(" + e.X.String() + " " + e.Test.String() + ")" }

func (e *InList) String() string {
	not := ""
	if e.Not {
		not = " NOT"
	}
	return "(" + e.X.String() + not + " IN (" + joinExprs(e.List) + "))"
}

func (e *Between) String() string {
	not := ""
	if e.Not {
		not = " NOT"
	}
	return "(" + e.X.String() + not + " BETWEEN " + e.Lo.String() + " AND " + e.Hi.String() + ")"
}

func (e *Like) String() string {
	var b strings.Builder
	b.WriteString("(" + e.X.String())
	if e.Not {
		b.WriteString(" NOT")
	}
	if e.CaseInsensitive {
		b.WriteString(" ILIKE ")
	} else {
		b.WriteString(" LIKE ")
	}
	b.WriteString(e.Pattern.String())
	if e.Escape != 0 {
		b.WriteString(" ESCAPE '" + strings.ReplaceAll(string(e.Escape), "'", "''") + "'")
	}
	return b.String() + ")"
}

func (e *Cast) String() string {
	name, ok := sqlTypeName(e.Type)
	if !ok && !e.Try {
		return "arrow_cast(" + e.X.String() + ", '" + name + "')"
	}
	fn := "CAST"
	if e.Try {
		fn = "TRY_CAST"
	}
	return fn + "(" + e.X.String() + " AS " + name + ")"
}

func (e *Call) String() string { return e.Name + "(" + joinExprs(e.Args) + ")" }

func joinExprs(es []Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

// QuoteIdent renders a column name for the dialect: bare when it is a
// plain identifier (letters, digits, underscores, not starting with a
// digit) that is not a keyword and, when quoted is set, is all lower-case;
// else in backticks. Backticks inside a name cannot be written.
func QuoteIdent(name string, quoted bool) string {
	plain := name != ""
	for i := 0; i < len(name) && plain; i++ {
		c := name[i]
		switch {
		case c == '_', c >= 'a' && c <= 'z':
		case c >= 'A' && c <= 'Z':
			plain = !quoted
		case c >= '0' && c <= '9':
			plain = i > 0
		default:
			plain = false
		}
	}
	if plain && !IsKeyword(name) {
		return name
	}
	return "`" + name + "`"
}

// SQLTypeName returns the dialect's name of a cast target type, or
// arrow_cast's spelling of it where the dialect has no name.
func SQLTypeName(t arrow.DataType) string {
	name, _ := sqlTypeName(t)
	return name
}

// sqlTypeName returns the dialect's name of t and true, or arrow_cast's
// (DataFusion's) spelling of it and false.
func sqlTypeName(t arrow.DataType) (string, bool) {
	switch t.ID() {
	case arrow.BOOL:
		return "boolean", true
	case arrow.INT8:
		return "tinyint", true
	case arrow.INT16:
		return "smallint", true
	case arrow.INT32:
		return "int", true
	case arrow.INT64:
		return "bigint", true
	case arrow.UINT8:
		return "tinyint unsigned", true
	case arrow.UINT16:
		return "smallint unsigned", true
	case arrow.UINT32:
		return "int unsigned", true
	case arrow.UINT64:
		return "bigint unsigned", true
	case arrow.FLOAT32:
		return "float", true
	case arrow.FLOAT64:
		return "double", true
	case arrow.STRING:
		return "string", true
	case arrow.BINARY:
		return "binary", true
	case arrow.DATE32:
		return "date", true
	case arrow.TIMESTAMP:
		if tz := t.(*arrow.TimestampType).TimeZone; tz != "" {
			return arrowCastName(t), false
		}
		switch t.(*arrow.TimestampType).Unit {
		case arrow.Second:
			return "timestamp(0)", true
		case arrow.Millisecond:
			return "timestamp(3)", true
		case arrow.Nanosecond:
			return "timestamp(9)", true
		}
		return "timestamp(6)", true
	case arrow.DECIMAL128:
		d := t.(*arrow.Decimal128Type)
		if d.Scale < 0 {
			return "Decimal128(" + strconv.Itoa(int(d.Precision)) + ", " + strconv.Itoa(int(d.Scale)) + ")", false
		}
		return "decimal(" + strconv.Itoa(int(d.Precision)) + "," + strconv.Itoa(int(d.Scale)) + ")", true
	}
	return arrowCastName(t), false
}

// arrowCastName spells t as DataFusion's arrow_cast reads it.
func arrowCastName(t arrow.DataType) string {
	switch t.ID() {
	case arrow.FLOAT16:
		return "Float16"
	case arrow.LARGE_STRING:
		return "LargeUtf8"
	case arrow.LARGE_BINARY:
		return "LargeBinary"
	case arrow.DATE64:
		return "Date64"
	case arrow.STRING_VIEW:
		return "Utf8View"
	case arrow.BINARY_VIEW:
		return "BinaryView"
	case arrow.TIMESTAMP:
		ts := t.(*arrow.TimestampType)
		unit := [...]string{"Second", "Millisecond", "Microsecond", "Nanosecond"}[ts.Unit]
		if ts.TimeZone == "" {
			return "Timestamp(" + unit + ", None)"
		}
		return "Timestamp(" + unit + ", Some(\"" + ts.TimeZone + "\"))"
	}
	return t.String()
}
