package expr

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// maxDepth bounds the nesting of the parser's recursion (parentheses,
// function calls, unary operators, array literals): deeper input is a
// syntax error rather than a deep stack.
const maxDepth = 256

// Operator precedences, as sqlparser-rs (0.58) ranks them; a higher one
// binds tighter. Unary minus binds as * / %; prefix NOT at precNot.
const (
	precOr    = 5
	precAnd   = 10
	precNot   = 15
	precIs    = 17
	precLike  = 19
	precCmp   = 20 // = != < … IN BETWEEN
	precShift = 22 // << >>
	precPlus  = 30
	precMul   = 40 // * / % ||
	precCast  = 50 // ::
)

// Assignment is one column = value of an update's SET list.
type Assignment struct {
	Column string // as written; backticks removed
	Value  Expr
}

// Parse parses a filter in the dialect Lance (pylance 14.0.2) accepts:
// the WHERE clause of sqlparser-rs's generic dialect as Lance's planner
// converts it. Constructs Lance refuses are refused here with ErrSyntax:
// CASE, EXTRACT, SUBSTRING, TRIM, FLOOR, CEIL, subqueries, EXISTS,
// ANY/ALL, SIMILAR TO, IS UNKNOWN, bitwise and regex operators, INTERVAL
// outside function arguments, slices, casts to other types than Lance's
// (with their messages). As in Lance comments are ignored, so is the text
// after the first ';' (it must still lex: no unterminated string), and so
// is the text after a complete expression that cannot continue it
// (sqlparser stops there, so "i = 5 LIMIT 1" is "i = 5"), but for a set
// operation (UNION …) or a clause without its expression (LIMIT).
//
// Node positions are byte offsets in sql: of the operator for binary
// operators and IS/IN/BETWEEN/LIKE (of NOT for NOT IN …), of the name for
// st.name, of the '[' for subscripts, of the first token otherwise.
func Parse(sql string) (Expr, error) {
	p, err := newParser(sql)
	if err != nil {
		return nil, err
	}
	e, err := p.parseExpr(0)
	if err != nil {
		return nil, err
	}
	if err := p.skipClauses(); err != nil {
		return nil, err
	}
	return e, nil
}

// skipClauses checks the text after a filter as sqlparser does after the
// WHERE clause of "SELECT 1 FROM t WHERE <filter>": a set operation is an
// error, clauses such as LIMIT or ORDER BY need their expression, any
// other text is ignored.
func (p *parser) skipClauses() error {
	for {
		t := p.peek()
		if t.kind != tkWord {
			return nil
		}
		switch kw := strings.ToLower(t.text); kw {
		case "union", "except", "intersect", "minus":
			return syntaxErr(t.pos, "%s is not supported in a filter", strings.ToUpper(kw))
		case "limit", "offset", "having", "qualify", "group", "order", "cluster", "sort", "distribute", "connect", "start":
			p.next()
			switch kw {
			case "group", "order", "cluster", "sort", "distribute", "connect":
				if !p.isWord(p.peek(), "by") {
					return nil
				}
				p.next()
			case "start":
				if !p.isWord(p.peek(), "with") {
					return nil
				}
				p.next()
			case "limit":
				if p.isWord(p.peek(), "all") {
					p.next()
					continue
				}
			}
			p.inFunc++ // lenient: this expression is never planned
			_, err := p.parseExpr(0)
			p.inFunc--
			if err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// ParseAssignments parses an update's SET list: column = value pairs
// separated by commas, e.g. "x = x * 2, s = 'u'". Column names are bare
// or in backticks; values are expressions of the dialect of Parse. Unlike
// Parse it accepts nothing after the last value.
func ParseAssignments(text string) ([]Assignment, error) {
	p, err := newParser(text)
	if err != nil {
		return nil, err
	}
	var out []Assignment
	seen := map[string]bool{}
	for {
		t := p.next()
		if t.kind != tkWord && t.kind != tkIdent {
			return nil, p.expectedAt(t, "a column name")
		}
		if seen[t.text] {
			return nil, syntaxErr(t.pos, "column %s is assigned twice", QuoteIdent(t.text, t.kind == tkIdent))
		}
		seen[t.text] = true
		if !p.isOp(p.peek(), "=") {
			return nil, p.expected(`"="`)
		}
		p.next()
		v, err := p.parseExpr(0)
		if err != nil {
			return nil, err
		}
		out = append(out, Assignment{Column: t.text, Value: v})
		switch n := p.peek(); {
		case n.kind == tkEOF:
			return out, nil
		case p.isOp(n, ","):
			p.next()
		default:
			return nil, p.expected(`"," or end of input`)
		}
	}
}

// parser is a precedence-climbing parser over the tokens of one text.
type parser struct {
	toks    []token
	i       int
	depth   int // current recursion depth of parseExpr
	inFunc  int // > 0 inside the arguments of a function call
	inIndex int // > 0 inside a subscript, where ':' is a slice
}

func newParser(src string) (*parser, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	return &parser{toks: toks}, nil
}

func (p *parser) peek() token { return p.toks[p.i] }

// peekAt returns the token n after the next one (tkEOF past the end).
func (p *parser) peekAt(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) isOp(t token, op string) bool { return t.kind == tkOp && t.text == op }

// isWord reports whether t is the bare keyword kw (lower case).
func (p *parser) isWord(t token, kw string) bool {
	return t.kind == tkWord && len(t.text) == len(kw) && strings.EqualFold(t.text, kw)
}

func (p *parser) expected(what string) error { return p.expectedAt(p.peek(), what) }

func (p *parser) expectedAt(t token, what string) error {
	return syntaxErr(t.pos, "expected %s, found %s", what, describe(t))
}

func (p *parser) expectOp(op string) (token, error) {
	if t := p.peek(); !p.isOp(t, op) {
		return t, p.expected(strconv.Quote(op))
	}
	return p.next(), nil
}

// parseExpr parses an expression whose infix operators all bind tighter
// than min. Operators of one precedence are read in a loop (left
// associative), so long AND/OR chains do not recurse.
func (p *parser) parseExpr(min int) (Expr, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, syntaxErr(p.peek().pos, "expression nested too deeply (more than %d levels)", maxDepth)
	}
	left, err := p.parsePrefix()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		prec, err := p.infixPrec(t)
		if err != nil {
			return nil, err
		}
		if prec <= min {
			return left, nil
		}
		if left, err = p.parseInfix(left, prec); err != nil {
			return nil, err
		}
	}
}

// infixPrec returns the precedence of t as an infix operator, 0 when it
// cannot continue an expression, or the error of an operator Lance refuses.
func (p *parser) infixPrec(t token) (int, error) {
	switch t.kind {
	case tkOp:
		switch t.text {
		case "=", "==", "!=", "<>", "<", "<=", ">", ">=":
			return precCmp, nil
		case "<<", ">>":
			return precShift, nil
		case "+", "-":
			return precPlus, nil
		case "*", "/", "%", "||":
			return precMul, nil
		case "::":
			return precCast, nil
		case "&", "|", "^", "#", "~", "~*", "~~", "~~*", "!~", "!~*", "!~~", "!~~*", "<=>", "->", "->>",
			"#>", "#>>", "@>", "<@", "@", "@@", "//", "!", "!!", "^@", "&&", ":=":
			return 0, syntaxErr(t.pos, "operator %s is not supported", t.text)
		case ":":
			// sqlparser reads x:y as JSON access, but not a ':' before a
			// number or string (nor the one of a slice, refused there).
			if n := p.peekAt(1); p.inIndex == 0 && n.kind != tkNumber && n.kind != tkString {
				return 0, syntaxErr(t.pos, "JSON access (:) is not supported")
			}
		case "[":
			return 0, syntaxErr(t.pos, "a subscript here needs parentheses around the expression")
		}
	case tkWord:
		switch strings.ToLower(t.text) {
		case "or":
			return precOr, nil
		case "and":
			return precAnd, nil
		case "is":
			return precIs, nil
		case "in", "between":
			return precCmp, nil
		case "like", "ilike":
			return precLike, nil
		case "not":
			n := p.peekAt(1)
			switch {
			case p.isWord(n, "in") || p.isWord(n, "between"):
				return precCmp, nil
			case p.isWord(n, "like") || p.isWord(n, "ilike"):
				return precLike, nil
			case n.kind == tkWord && refusedInfixWord(n.text):
				return 0, syntaxErr(n.pos, "NOT %s is not supported", strings.ToUpper(n.text))
			case p.isWord(n, "null"): // x NOT NULL is x IS NOT NULL
				return precIs, nil
			}
		case "at":
			if p.isWord(p.peekAt(1), "time") {
				return 0, syntaxErr(t.pos, "AT TIME ZONE is not supported")
			}
		default:
			if refusedInfixWord(t.text) {
				kw := strings.ToUpper(t.text)
				if kw == "SIMILAR" {
					kw = "SIMILAR TO"
				}
				return 0, syntaxErr(t.pos, "%s is not supported", kw)
			}
		}
	}
	return 0, nil
}

// refusedInfixWord reports whether w is a keyword sqlparser reads as an
// infix operator that Lance does not support.
func refusedInfixWord(w string) bool {
	switch strings.ToLower(w) {
	case "similar", "regexp", "rlike", "glob", "match", "member", "xor", "overlaps", "div", "operator":
		return true
	}
	return false
}

var binaryOps = map[string]BinaryOp{
	"=": OpEq, "==": OpEq, "!=": OpNotEq, "<>": OpNotEq, "<": OpLt, "<=": OpLtEq, ">": OpGt, ">=": OpGtEq,
	"+": OpPlus, "-": OpMinus, "*": OpMul, "/": OpDiv, "%": OpMod, "||": OpConcat, "<<": OpShiftLeft,
	">>": OpShiftRight, "and": OpAnd, "or": OpOr,
}

// parseInfix parses the operator at the next token (of precedence prec)
// and its right operand, with left as the left operand.
func (p *parser) parseInfix(left Expr, prec int) (Expr, error) {
	t := p.next()
	key := t.text
	if t.kind == tkWord {
		key = strings.ToLower(key)
	}
	if key == "::" {
		typ, err := p.parseCastType()
		if err != nil {
			return nil, err
		}
		return &Cast{X: left, Type: typ, At: t.pos}, nil
	}
	if op, ok := binaryOps[key]; ok {
		if n := p.peek(); p.isWord(n, "any") || p.isWord(n, "all") || p.isWord(n, "some") {
			return nil, syntaxErr(n.pos, "%s %s(…) is not supported", t.text, strings.ToUpper(n.text))
		}
		right, err := p.parseExpr(prec)
		if err != nil {
			return nil, err
		}
		return &Binary{Op: op, L: left, R: right, At: t.pos}, nil
	}
	if key == "is" {
		return p.parseIs(left, t)
	}
	not := false
	if key == "not" {
		not = true
		key = strings.ToLower(p.next().text)
		if key == "null" {
			return &Is{X: left, Test: IsNotNull, At: t.pos}, nil
		}
	}
	switch key {
	case "in":
		return p.parseIn(left, t, not)
	case "between":
		lo, err := p.parseExpr(precCmp)
		if err != nil {
			return nil, err
		}
		if !p.isWord(p.peek(), "and") {
			return nil, p.expected("AND of BETWEEN")
		}
		p.next()
		hi, err := p.parseExpr(precCmp)
		if err != nil {
			return nil, err
		}
		return &Between{X: left, Lo: lo, Hi: hi, Not: not, At: t.pos}, nil
	default: // like, ilike
		if n := p.peek(); p.isWord(n, "any") {
			return nil, syntaxErr(n.pos, "LIKE ANY is not supported")
		}
		pat, err := p.parseExpr(precLike)
		if err != nil {
			return nil, err
		}
		l := &Like{X: left, Pattern: pat, Not: not, CaseInsensitive: key == "ilike", At: t.pos}
		if p.isWord(p.peek(), "escape") {
			p.next()
			e := p.next()
			r, n := utf8.DecodeRuneInString(e.text)
			if e.kind != tkString || n == 0 || n != len(e.text) {
				return nil, p.expectedAt(e, "a single character in single quotes after ESCAPE")
			}
			l.Escape = r
		}
		return l, nil
	}
}

// parseIs parses the rest of X IS [NOT] NULL/TRUE/FALSE/DISTINCT FROM Y.
func (p *parser) parseIs(left Expr, is token) (Expr, error) {
	not := p.isWord(p.peek(), "not")
	if not {
		p.next()
	}
	t := p.next()
	var test IsTest
	switch {
	case p.isWord(t, "null"):
		test = IsNull
	case p.isWord(t, "true"):
		test = IsTrue
	case p.isWord(t, "false"):
		test = IsFalse
	case p.isWord(t, "unknown"):
		return nil, syntaxErr(t.pos, "IS [NOT] UNKNOWN is not supported")
	case p.isWord(t, "distinct"):
		if f := p.next(); !p.isWord(f, "from") {
			return nil, p.expectedAt(f, "FROM after IS DISTINCT")
		}
		// sqlparser reads the right side as a whole expression.
		right, err := p.parseExpr(0)
		if err != nil {
			return nil, err
		}
		op := OpIsDistinctFrom
		if not {
			op = OpIsNotDistinctFrom
		}
		return &Binary{Op: op, L: left, R: right, At: is.pos}, nil
	default:
		return nil, p.expectedAt(t, "NULL, TRUE, FALSE or DISTINCT FROM after IS")
	}
	if not {
		test++ // IsNotNull, IsNotTrue, IsNotFalse follow their positive tests
	}
	return &Is{X: left, Test: test, At: is.pos}, nil
}

// parseIn parses the parenthesized list of X [NOT] IN (…).
func (p *parser) parseIn(left Expr, at token, not bool) (Expr, error) {
	if _, err := p.expectOp("("); err != nil {
		return nil, err
	}
	if n := p.peek(); p.isWord(n, "select") || p.isWord(n, "with") {
		return nil, syntaxErr(n.pos, "subqueries are not supported")
	}
	in := &InList{X: left, Not: not, At: at.pos}
	for {
		e, err := p.parseExpr(0)
		if err != nil {
			return nil, err
		}
		in.List = append(in.List, e)
		if t := p.next(); !p.isOp(t, ",") {
			if !p.isOp(t, ")") {
				return nil, p.expectedAt(t, `"," or ")"`)
			}
			return in, nil
		}
	}
}

// parsePrefix parses a primary expression with its field accesses and
// subscripts, or a prefix operator (-, NOT) and its operand.
func (p *parser) parsePrefix() (Expr, error) {
	t := p.peek()
	switch t.kind {
	case tkOp:
		switch t.text {
		case "-":
			p.next()
			x, err := p.parseExpr(precMul)
			if err != nil {
				return nil, err
			}
			if l, ok := x.(*Literal); ok && (l.Kind == LitInt || l.Kind == LitFloat) {
				text := "-" + l.Text
				if strings.HasPrefix(l.Text, "-") {
					text = l.Text[1:]
				}
				return numberLit(text, t.pos)
			}
			return &Neg{X: x, At: t.pos}, nil
		case "+":
			return nil, syntaxErr(t.pos, "unary operator + is not supported")
		case "~": // sqlparser's bitwise NOT, which Lance plans as NOT
			p.next()
			x, err := p.parseExpr(precPlus)
			if err != nil {
				return nil, err
			}
			return &Not{X: x, At: t.pos}, nil
		case "(":
			p.next()
			if n := p.peek(); p.isWord(n, "select") || p.isWord(n, "with") {
				return nil, syntaxErr(n.pos, "subqueries are not supported")
			}
			x, err := p.parseExpr(0)
			if err != nil {
				return nil, err
			}
			if n := p.peek(); p.isOp(n, ",") {
				return nil, syntaxErr(t.pos, "tuples (a, b, …) are not supported")
			}
			if _, err := p.expectOp(")"); err != nil {
				return nil, err
			}
			return p.parsePostfix(x)
		case "[":
			p.next()
			a, err := p.parseArray(t)
			if err != nil {
				return nil, err
			}
			return p.parsePostfix(a)
		}
	case tkNumber:
		p.next()
		l, err := numberLit(t.text, t.pos)
		if err != nil {
			return nil, err
		}
		return p.parsePostfix(l)
	case tkString, tkDString:
		p.next()
		return p.parsePostfix(&Literal{Kind: LitString, Str: t.text, At: t.pos})
	case tkHex:
		p.next()
		b, ok := decodeHex(t.text)
		if !ok { // DataFusion makes a NULL binary of a bad hex string
			return p.parsePostfix(&Cast{X: &Literal{Kind: LitNull, At: t.pos}, Type: arrow.BinaryTypes.Binary, At: t.pos})
		}
		return p.parsePostfix(&Literal{Kind: LitBinary, Str: b, At: t.pos})
	case tkPrefixed:
		return nil, syntaxErr(t.pos, "%s'…' strings are not supported", t.text)
	case tkIdent:
		p.next()
		if p.isOp(p.peek(), "(") {
			return nil, syntaxErr(t.pos, "quoted function names are not supported")
		}
		return p.parsePostfix(&Column{Name: t.text, Quoted: true, At: t.pos})
	case tkWord:
		return p.parseWord()
	}
	return nil, p.expected("an expression")
}

// parsePostfix applies the field accesses (.name, ['name']) and
// subscripts ([i]) that follow the primary x.
func (p *parser) parsePostfix(x Expr) (Expr, error) {
	for {
		t := p.peek()
		switch {
		case p.isOp(t, "."):
			if err := noSubscript(x, t); err != nil {
				return nil, err
			}
			p.next()
			n := p.next()
			if n.kind != tkWord && n.kind != tkIdent && n.kind != tkString {
				return nil, p.expectedAt(n, "a field name after \".\"")
			}
			x = &Field{X: x, Name: n.text, At: n.pos}
		case p.isOp(t, "["):
			if err := noSubscript(x, t); err != nil {
				return nil, err
			}
			p.next()
			if p.isOp(p.peek(), ":") {
				return nil, syntaxErr(p.peek().pos, "slices are not supported")
			}
			p.inIndex++
			idx, err := p.parseExpr(0)
			p.inIndex--
			if err != nil {
				return nil, err
			}
			if p.isOp(p.peek(), ":") {
				return nil, syntaxErr(p.peek().pos, "slices are not supported")
			}
			if _, err := p.expectOp("]"); err != nil {
				return nil, err
			}
			if l, ok := idx.(*Literal); ok && l.Kind == LitString {
				x = &Field{X: x, Name: l.Str, At: t.pos}
			} else {
				x = &Index{X: x, Index: idx, At: t.pos}
			}
		case p.isWord(t, "collate"):
			return nil, syntaxErr(t.pos, "COLLATE is not supported")
		default:
			return x, nil
		}
	}
}

// noSubscript refuses a field access or subscript on a number literal.
func noSubscript(x Expr, t token) error {
	if l, ok := x.(*Literal); ok && (l.Kind == LitInt || l.Kind == LitFloat) {
		return syntaxErr(t.pos, "a number has no fields or elements")
	}
	return nil
}
