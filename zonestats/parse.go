package zonestats

import (
	"fmt"
	"math"
	"strings"
)

// canonicalNaN is the bit pattern of the NAN keyword: the quiet NaN of
// Rust's f64::NAN, so x = NAN matches the usual NaN by bit equality.
const canonicalNaN = 0x7ff8000000000000

// maxParseDepth bounds the nesting of parentheses and NOT.
const maxParseDepth = 200

// ParseFilter parses a filter string, for example
//
//	x > 5 AND name IS NOT NULL
//	NOT (price <= 9.99 OR tag IN ('a', 'b', NULL)) AND f IS NAN
//
// Syntax: comparisons =, !=, <>, <, <=, >, >= between a column and a
// literal (either side); col [NOT] IN (literals); col IS [NOT] NULL;
// col IS NAN; AND, OR, NOT and parentheses (NOT binds tighter than AND,
// AND tighter than OR); a bare column means col = TRUE. Keywords are
// case-insensitive. Literals: numbers (12, -3.5, 1e9), 'strings' (”
// escapes a quote), X'hex' bytes, TRUE, FALSE, NULL, NAN, INF and -INF.
// Column names that are not plain identifiers or are keywords are written
// in double quotes ("my col", "" escapes a quote).
func ParseFilter(s string) (Expr, error) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	e, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, p.errAt(t, "unexpected %q", t.text)
	}
	return e, nil
}

// parser is a recursive-descent parser over tokens.
type parser struct {
	toks []token
	pos  int
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tokEOF {
		p.pos++
	}
	return t
}

// keyword consumes the keyword kw if it is next.
func (p *parser) keyword(kw string) bool {
	if t := p.peek(); t.kind == tokKeyword && t.text == kw {
		p.pos++
		return true
	}
	return false
}

func (p *parser) errAt(t token, format string, args ...any) error {
	return fmt.Errorf("%w: at %d: %s", ErrSyntax, t.pos, fmt.Sprintf(format, args...))
}

// or parses a disjunction.
func (p *parser) or(depth int) (Expr, error) {
	return p.chain(depth, "OR", p.and, Or)
}

// and parses a conjunction.
func (p *parser) and(depth int) (Expr, error) {
	return p.chain(depth, "AND", p.not, And)
}

// chain parses sub (kw sub)* and combines several terms with join.
func (p *parser) chain(depth int, kw string, sub func(int) (Expr, error), join func(...Expr) Expr) (Expr, error) {
	first, err := sub(depth)
	if err != nil {
		return nil, err
	}
	terms := []Expr{first}
	for p.keyword(kw) {
		e, err := sub(depth)
		if err != nil {
			return nil, err
		}
		terms = append(terms, e)
	}
	if len(terms) == 1 {
		return first, nil
	}
	return join(terms...), nil
}

// not parses NOT* primary.
func (p *parser) not(depth int) (Expr, error) {
	if depth > maxParseDepth {
		return nil, p.errAt(p.peek(), "nesting deeper than %d", maxParseDepth)
	}
	if p.keyword("NOT") {
		e, err := p.not(depth + 1)
		if err != nil {
			return nil, err
		}
		return Not(e), nil
	}
	return p.primary(depth)
}

// primary parses a parenthesized expression, TRUE/FALSE or a predicate.
func (p *parser) primary(depth int) (Expr, error) {
	t := p.peek()
	if t.kind == tokLParen {
		p.next()
		e, err := p.or(depth + 1)
		if err != nil {
			return nil, err
		}
		if r := p.next(); r.kind != tokRParen {
			return nil, p.errAt(r, "expected ')'")
		}
		return e, nil
	}
	if t.kind == tokIdent {
		p.next()
		return p.predicate(t.text)
	}
	return p.literalFirst()
}

// literalFirst parses "literal op column" or a bare TRUE/FALSE.
func (p *parser) literalFirst() (Expr, error) {
	start := p.peek()
	lit, err := p.literal()
	if err != nil {
		return nil, err
	}
	op := p.peek()
	if op.kind != tokOp {
		if start.kind == tokKeyword && (start.text == "TRUE" || start.text == "FALSE") {
			if lit.u != 0 {
				return And(), nil
			}
			return Or(), nil
		}
		return nil, p.errAt(op, "expected a comparison after literal")
	}
	p.next()
	col := p.next()
	if col.kind != tokIdent {
		return nil, p.errAt(col, "expected a column name")
	}
	return Col(col.text).Cmp(parseOp(op.text).flip(), lit), nil
}

// predicate parses what follows a column name.
func (p *parser) predicate(col string) (Expr, error) {
	c := Col(col)
	t := p.peek()
	switch {
	case t.kind == tokOp:
		p.next()
		lit, err := p.literal()
		if err != nil {
			return nil, err
		}
		return c.Cmp(parseOp(t.text), lit), nil
	case p.keyword("IS"):
		return p.isPredicate(c)
	case p.keyword("IN"):
		return p.inList(c)
	case t.kind == tokKeyword && t.text == "NOT" && p.toks[p.pos+1].kind == tokKeyword && p.toks[p.pos+1].text == "IN":
		p.pos += 2
		e, err := p.inList(c)
		if err != nil {
			return nil, err
		}
		return Not(e), nil
	}
	return c.Eq(Bool(true)), nil
}

// isPredicate parses NULL, NOT NULL or NAN after IS.
func (p *parser) isPredicate(c ColumnRef) (Expr, error) {
	switch {
	case p.keyword("NULL"):
		return c.IsNull(), nil
	case p.keyword("NAN"):
		return c.IsNaN(), nil
	case p.keyword("NOT"):
		if p.keyword("NULL") {
			return c.IsNotNull(), nil
		}
	}
	return nil, p.errAt(p.peek(), "expected NULL, NOT NULL or NAN after IS")
}

// inList parses "(lit, lit, ...)".
func (p *parser) inList(c ColumnRef) (Expr, error) {
	if t := p.next(); t.kind != tokLParen {
		return nil, p.errAt(t, "expected '(' after IN")
	}
	var list []Literal
	if p.peek().kind == tokRParen {
		p.next()
		return c.In(), nil
	}
	for {
		lit, err := p.literal()
		if err != nil {
			return nil, err
		}
		list = append(list, lit)
		switch t := p.next(); t.kind {
		case tokComma:
			continue
		case tokRParen:
			return c.In(list...), nil
		default:
			return nil, p.errAt(t, "expected ',' or ')' in IN list")
		}
	}
}

// literal parses one literal, with an optional leading minus for numbers,
// NAN and INF.
func (p *parser) literal() (Literal, error) {
	neg := false
	if p.peek().kind == tokMinus {
		p.next()
		neg = true
	}
	t := p.next()
	switch {
	case t.kind == tokNumber:
		if !strings.ContainsAny(t.text, "0123456789") {
			return Literal{}, p.errAt(t, "malformed number %q", t.text)
		}
		if neg {
			return Number("-" + t.text), nil
		}
		return Number(t.text), nil
	case t.kind == tokKeyword && (t.text == "NAN" || t.text == "INF" || t.text == "INFINITY"):
		f := math.Inf(1)
		if t.text == "NAN" {
			f = math.Float64frombits(canonicalNaN) // math.NaN() has a payload bit
		}
		if neg {
			f = -f
		}
		return Float64(f), nil
	case neg:
		return Literal{}, p.errAt(t, "expected a number after '-'")
	}
	return p.plainLiteral(t)
}

// plainLiteral parses strings, bytes, booleans and NULL.
func (p *parser) plainLiteral(t token) (Literal, error) {
	switch {
	case t.kind == tokString:
		return String(t.text), nil
	case t.kind == tokBytes:
		return Binary([]byte(t.text)), nil
	case t.kind == tokKeyword && t.text == "NULL":
		return Null(), nil
	case t.kind == tokKeyword && (t.text == "TRUE" || t.text == "FALSE"):
		return Bool(t.text == "TRUE"), nil
	}
	return Literal{}, p.errAt(t, "expected a literal, got %q", t.text)
}

// parseOp maps an operator token to an Op.
func parseOp(s string) Op {
	switch s {
	case "=":
		return OpEq
	case "!=":
		return OpNotEq
	case "<":
		return OpLt
	case "<=":
		return OpLtEq
	case ">":
		return OpGt
	}
	return OpGtEq
}
