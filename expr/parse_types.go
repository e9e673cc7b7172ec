package expr

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// parseWord parses an expression starting with a bare word: a literal
// keyword, NOT, a special form (CAST, INTERVAL, typed strings, …), a
// function call or a column. A keyword is a column name where sqlparser
// reads it as one (CUBE = 10, cast = 1).
func (p *parser) parseWord() (Expr, error) {
	t := p.next()
	lw := strings.ToLower(t.text)
	n := p.peek()
	paren := p.isOp(n, "(")
	switch lw {
	case "null":
		return p.parsePostfix(&Literal{Kind: LitNull, At: t.pos})
	case "true", "false":
		return p.parsePostfix(&Literal{Kind: LitBool, Bool: lw == "true", At: t.pos})
	case "not":
		if p.isWord(n, "exists") {
			return nil, syntaxErr(n.pos, "EXISTS is not supported")
		}
		x, err := p.parseExpr(precNot)
		if err != nil {
			return nil, err
		}
		return &Not{X: x, At: t.pos}, nil
	case "exists":
		return nil, syntaxErr(t.pos, "EXISTS is not supported")
	case "trim":
		return nil, syntaxErr(t.pos, "TRIM(…) is not supported (btrim, ltrim and rtrim are)")
	case "interval":
		return p.parseInterval(t)
	case "case":
		if !p.continuesColumn(n) {
			return nil, syntaxErr(t.pos, "CASE is not supported")
		}
	case "cast", "try_cast", "safe_cast":
		if paren {
			return p.parseCast(t, lw != "cast")
		}
	case "extract", "ceil", "floor", "substr", "substring", "position", "overlay", "convert":
		if paren {
			return nil, syntaxErr(t.pos, "%s(…) is not supported", strings.ToUpper(t.text))
		}
	case "current_date", "current_time", "current_timestamp", "localtime", "localtimestamp",
		"current_user", "session_user", "user", "current_catalog":
		if !paren {
			return p.parsePostfix(&Call{Name: lw, At: t.pos})
		}
	case "array":
		if p.isOp(n, "[") {
			p.next()
			a, err := p.parseArray(t)
			if err != nil {
				return nil, err
			}
			return p.parsePostfix(a)
		}
		if paren && (p.isWord(p.peekAt(1), "select") || p.isWord(p.peekAt(1), "with")) {
			return nil, syntaxErr(t.pos, "subqueries are not supported")
		}
	default:
		if typeWords[lw] {
			e, ok, err := p.parseTypedString(t)
			if err != nil || ok {
				return e, err
			}
		}
	}
	if paren {
		return p.parseCall(t, lw)
	}
	return p.parsePostfix(&Column{Name: t.text, At: t.pos})
}

// continuesColumn reports whether n, following the keyword CASE, makes it
// a column name (case = 1) rather than the start of a CASE expression:
// the end, or an infix operator other than '-'.
func (p *parser) continuesColumn(n token) bool {
	switch n.kind {
	case tkEOF:
		return true
	case tkWord:
		switch strings.ToLower(n.text) {
		case "and", "or", "is", "in", "not", "between", "like", "ilike":
			return true
		}
	case tkOp:
		return n.text != "-" && n.text != "(" && n.text != "+"
	}
	return false
}

// parseArray parses the elements of [a, b, …] after the '['. Elements are
// literals (negated numbers included); nested arrays are accepted in
// function arguments (flatten([[1], [2]])), where DataFusion plans them.
func (p *parser) parseArray(open token) (Expr, error) {
	a := &Array{At: open.pos}
	if p.isOp(p.peek(), "]") {
		p.next()
		return a, nil
	}
	for {
		e, err := p.parseExpr(0)
		if err != nil {
			return nil, err
		}
		_, lit := e.(*Literal)
		if _, nested := e.(*Array); !lit && !(nested && p.inFunc > 0) {
			return nil, syntaxErr(e.Pos(), "expected a literal value in array, found %s at position %d", e, len(a.Elems))
		}
		a.Elems = append(a.Elems, e)
		if t := p.next(); !p.isOp(t, ",") {
			if !p.isOp(t, "]") {
				return nil, p.expectedAt(t, `"," or "]"`)
			}
			return a, nil
		}
	}
}

// parseCall parses name(args…) after the name; is_valid(x) is X IS NOT
// NULL and arrow_cast(x, 'Type') a Cast, as in Lance.
func (p *parser) parseCall(name token, lw string) (Expr, error) {
	p.next() // (
	if lw == "is_valid" && name.text != lw {
		// DataFusion lower-cases function names and has no is_valid.
		return nil, syntaxErr(name.pos, "Invalid function 'is_valid' (write is_valid in lower case)")
	}
	// DataFusion plans the arguments of a function (INTERVAL is accepted
	// there), Lance those of is_valid and arrow_cast (a Cast here).
	if lw != "is_valid" && lw != "arrow_cast" {
		p.inFunc++
		defer func() { p.inFunc-- }()
	}
	var args []Expr
	if p.isOp(p.peek(), ")") {
		p.next()
	} else {
		for {
			e, err := p.parseExpr(0)
			if err != nil {
				return nil, err
			}
			args = append(args, e)
			if t := p.next(); !p.isOp(t, ",") {
				if !p.isOp(t, ")") {
					return nil, p.expectedAt(t, `"," or ")"`)
				}
				break
			}
		}
	}
	var e Expr = &Call{Name: lw, Args: args, At: name.pos}
	switch lw {
	case "is_valid":
		if len(args) == 0 {
			return nil, syntaxErr(name.pos, "is_valid takes one argument")
		}
		e = &Is{X: args[0], Test: IsNotNull, At: name.pos} // Lance ignores any other
	case "arrow_cast":
		if len(args) != 2 {
			return nil, syntaxErr(name.pos, "arrow_cast takes two arguments, not %d", len(args))
		}
		l, ok := args[1].(*Literal)
		if !ok || l.Kind != LitString {
			return nil, syntaxErr(args[1].Pos(), "the type of arrow_cast must be a string literal")
		}
		typ, msg := arrowTypeNamed(l.Str)
		if typ == nil {
			return nil, syntaxErr(l.At, "%s", msg)
		}
		e = &Cast{X: args[0], Type: typ, At: name.pos}
	}
	return p.parsePostfix(e)
}

// parseCast parses (x AS type) after CAST, TRY_CAST or SAFE_CAST.
func (p *parser) parseCast(kw token, try bool) (Expr, error) {
	p.next() // (
	x, err := p.parseExpr(0)
	if err != nil {
		return nil, err
	}
	if !p.isWord(p.peek(), "as") {
		return nil, p.expected("AS")
	}
	p.next()
	typ, err := p.parseCastType()
	if err != nil {
		return nil, err
	}
	if _, err := p.expectOp(")"); err != nil {
		return nil, err
	}
	return p.parsePostfix(&Cast{X: x, Type: typ, Try: try, At: kw.pos})
}

// parseInterval parses INTERVAL '…' [unit] after INTERVAL; Lance accepts
// it only inside function arguments (date_bin(INTERVAL '1 day', ts)).
func (p *parser) parseInterval(kw token) (Expr, error) {
	if p.inFunc == 0 {
		return nil, syntaxErr(kw.pos, "INTERVAL is not supported outside a function argument")
	}
	s := p.next()
	if s.kind != tkString && s.kind != tkDString {
		return nil, p.expectedAt(s, "a quoted interval after INTERVAL")
	}
	text := s.text
	if u := p.peek(); u.kind == tkWord && intervalUnits[strings.ToLower(u.text)] {
		p.next()
		text += " " + u.text
	}
	return p.parsePostfix(&Literal{Kind: LitInterval, Str: text, At: kw.pos})
}

var intervalUnits = map[string]bool{
	"year": true, "years": true, "month": true, "months": true, "week": true, "weeks": true,
	"day": true, "days": true, "hour": true, "hours": true, "minute": true, "minutes": true,
	"second": true, "seconds": true, "millisecond": true, "milliseconds": true,
	"microsecond": true, "microseconds": true, "nanosecond": true, "nanoseconds": true,
	"decade": true, "century": true, "millennium": true, "quarter": true,
}

// typeWords are the type names sqlparser reads before a string as a typed
// string (DATE '2021-01-01'); Lance plans it as a CAST of the string.
var typeWords = map[string]bool{
	"string": true, "binary": true, "float": true, "double": true, "boolean": true, "tinyint": true,
	"smallint": true, "int": true, "integer": true, "bigint": true, "date": true, "timestamp": true,
	"timestamptz": true, "datetime": true, "decimal": true,
	// Refused by Lance ("Unsupported data type").
	"varchar": true, "char": true, "character": true, "text": true, "real": true, "numeric": true,
	"dec": true, "bool": true, "time": true, "uuid": true, "json": true, "bytea": true, "blob": true,
	"varbinary": true, "int2": true, "int4": true, "int8": true, "float4": true, "float8": true,
	"float32": true, "float64": true, "int16": true, "int32": true, "int64": true, "uint8": true,
	"uint16": true, "uint32": true, "uint64": true, "date32": true, "timestamp_ntz": true,
	"signed": true, "unsigned": true,
}

// parseTypedString parses type '…' at a type word t (already consumed).
// When no string follows the type, it rewinds and reports !ok: the word
// is then a column or function name (date(ts), float = 1).
func (p *parser) parseTypedString(t token) (Expr, bool, error) {
	save := p.i
	p.i-- // back to the type word
	spec, ok := p.parseTypeSpec()
	s := p.peek()
	switch {
	case !ok:
	case s.kind == tkString || s.kind == tkDString || s.kind == tkHex:
		p.next()
		typ, err := spec.arrowType()
		if err != nil {
			return nil, false, err
		}
		// A hex literal stands for its digits here (int X'01' is int '01').
		e, err := p.parsePostfix(&Cast{X: &Literal{Kind: LitString, Str: s.text, At: s.pos}, Type: typ, At: t.pos})
		return e, true, err
	case s.kind == tkNumber || s.kind == tkPrefixed || p.isOp(s, "?") || p.isOp(s, "$") ||
		p.isWord(s, "true") || p.isWord(s, "false") || p.isWord(s, "null"):
		// sqlparser reads int 5 as a typed literal too, which Lance fails on.
		return nil, false, p.expectedAt(s, "a quoted string after the type "+spec.name)
	}
	p.i = save
	return nil, false, nil
}

// typeSpec is a data type as written: name (lower case), its numeric
// parameters and modifiers.
type typeSpec struct {
	pos       int
	name      string
	args      []uint64
	unsigned  bool
	tz        bool // WITH/WITHOUT TIME ZONE, timestamptz
	precision bool // DOUBLE PRECISION
}

// parseCastType parses the type of CAST(x AS type) or x::type as Lance
// converts it.
func (p *parser) parseCastType() (arrow.DataType, error) {
	t := p.peek()
	if t.kind == tkIdent {
		return nil, syntaxErr(t.pos, "Unsupported data type: `%s`. Supported types: %s", t.text, supportedTypes)
	}
	spec, ok := p.parseTypeSpec()
	if !ok {
		return nil, p.expectedAt(t, "a data type")
	}
	return spec.arrowType()
}

// parseTypeSpec reads a type name and its parameters and modifiers:
// timestamp(3), int unsigned, decimal(8,3), timestamp with time zone.
func (p *parser) parseTypeSpec() (typeSpec, bool) {
	t := p.next()
	if t.kind != tkWord {
		return typeSpec{}, false
	}
	s := typeSpec{pos: t.pos, name: strings.ToLower(t.text)}
	if s.name == "double" && p.isWord(p.peek(), "precision") {
		p.next()
		s.precision = true
	}
	if s.name != "date" && s.name != "boolean" && s.name != "bool" && p.isOp(p.peek(), "(") {
		p.next()
		for {
			n := p.next()
			v, err := strconv.ParseUint(n.text, 10, 64)
			if n.kind != tkNumber || err != nil {
				return s, false
			}
			s.args = append(s.args, v)
			if c := p.next(); !p.isOp(c, ",") {
				if !p.isOp(c, ")") {
					return s, false
				}
				break
			}
		}
	}
	if p.isWord(p.peek(), "unsigned") {
		p.next()
		s.unsigned = true
	}
	switch s.name {
	case "timestamp":
		if (p.isWord(p.peek(), "with") || p.isWord(p.peek(), "without")) && p.isWord(p.peekAt(1), "time") {
			if !p.isWord(p.peekAt(2), "zone") {
				return s, false
			}
			p.i += 3
			s.tz = true
		}
	case "timestamptz":
		s.tz = true
	}
	return s, true
}

const supportedTypes = "int [unsigned], tinyint [unsigned], smallint [unsigned], bigint [unsigned], float, double, " +
	"string, binary, date, timestamp(precision), datetime(precision), decimal(precision,scale), boolean"

// arrowType converts a type as Lance's parse_type does.
func (s typeSpec) arrowType() (arrow.DataType, error) {
	if len(s.args) > 1 && s.name != "decimal" && s.name != "double" || len(s.args) > 2 {
		return nil, syntaxErr(s.pos, "too many parameters for type %s", s.name)
	}
	name := s.name
	if s.precision {
		name = "double precision"
	}
	if s.unsigned {
		switch name {
		case "tinyint", "smallint", "int", "integer", "bigint":
		default:
			name += " unsigned" // float unsigned …: unsupported
		}
	}
	switch name {
	case "string":
		return arrow.BinaryTypes.String, nil
	case "binary":
		return arrow.BinaryTypes.Binary, nil
	case "float":
		return arrow.PrimitiveTypes.Float32, nil
	case "double":
		if !s.precision {
			return arrow.PrimitiveTypes.Float64, nil
		}
	case "boolean":
		return arrow.FixedWidthTypes.Boolean, nil
	case "tinyint", "smallint", "int", "integer", "bigint":
		return intType(s.name, s.unsigned), nil
	case "date":
		return arrow.FixedWidthTypes.Date32, nil
	case "timestamp", "timestamptz", "datetime":
		if s.tz {
			return nil, syntaxErr(s.pos, "Timezone not supported in timestamp")
		}
		unit := arrow.Microsecond
		if len(s.args) == 1 {
			switch s.args[0] {
			case 0:
				unit = arrow.Second
			case 3:
				unit = arrow.Millisecond
			case 6:
			case 9:
				unit = arrow.Nanosecond
			default:
				return nil, syntaxErr(s.pos, "Unsupported datetime resolution: %d", s.args[0])
			}
		}
		return &arrow.TimestampType{Unit: unit}, nil
	case "decimal":
		if len(s.args) != 2 {
			return nil, syntaxErr(s.pos, "Must provide precision and scale for decimal")
		}
		t, msg := decimalType(s.args[0], s.args[1])
		if t == nil {
			return nil, syntaxErr(s.pos, "%s", msg)
		}
		return t, nil
	}
	return nil, syntaxErr(s.pos, "Unsupported data type: %s. Supported types: %s", name, supportedTypes)
}

func intType(name string, unsigned bool) arrow.DataType {
	types := [2][4]arrow.DataType{
		{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64},
		{arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64},
	}
	u := 0
	if unsigned {
		u = 1
	}
	switch name {
	case "tinyint":
		return types[u][0]
	case "smallint":
		return types[u][1]
	case "bigint":
		return types[u][3]
	}
	return types[u][2]
}

// decimalType returns decimal(prec, scale), or nil and why not.
func decimalType(prec, scale uint64) (arrow.DataType, string) {
	if prec < 1 || prec > 38 || scale > prec {
		return nil, fmt.Sprintf("decimal(%d,%d): the precision must be 1 to 38 and the scale at most the precision", prec, scale)
	}
	return &arrow.Decimal128Type{Precision: int32(prec), Scale: int32(scale)}, ""
}

// arrowTypeNamed parses a type in arrow-rs's spelling (arrow_cast's
// second argument): Int8 … UInt64, Float16/32/64, Utf8, LargeUtf8,
// Utf8View, Binary, LargeBinary, BinaryView, Boolean, Date32, Date64,
// Timestamp(unit[, tz]) with unit Second|Millisecond|Microsecond|
// Nanosecond|s|ms|us|µs|ns and tz None, Some("…") or "…", Decimal128(p, s).
// It returns nil and why not for any other.
func arrowTypeNamed(s string) (arrow.DataType, string) {
	unsupported := "Unsupported type '" + s + "' for arrow_cast (supported: Int8…Int64, UInt8…UInt64, " +
		"Float16/32/64, Utf8, LargeUtf8, Utf8View, Binary, LargeBinary, BinaryView, Boolean, Date32, Date64, " +
		"Timestamp(unit[, time zone]), Decimal128(p, s))"
	name, params, hasParams := strings.Cut(strings.TrimSpace(s), "(")
	name = strings.TrimSpace(name)
	if !hasParams {
		if t, ok := arrowNames[name]; ok {
			return t, ""
		}
		return nil, unsupported
	}
	body, ok := strings.CutSuffix(strings.TrimSpace(params), ")")
	if !ok {
		return nil, unsupported
	}
	arg0, arg1, two := strings.Cut(body, ",")
	arg0, arg1 = strings.TrimSpace(arg0), strings.TrimSpace(arg1)
	switch name {
	case "Timestamp":
		units := map[string]arrow.TimeUnit{"Second": arrow.Second, "s": arrow.Second, "Millisecond": arrow.Millisecond,
			"ms": arrow.Millisecond, "Microsecond": arrow.Microsecond, "us": arrow.Microsecond, "µs": arrow.Microsecond,
			"Nanosecond": arrow.Nanosecond, "ns": arrow.Nanosecond}
		unit, ok := units[arg0]
		tz := ""
		if two && arg1 != "None" {
			q, _ := strings.CutSuffix(strings.TrimPrefix(arg1, "Some("), ")")
			var err error
			if tz, err = strconv.Unquote(q); err != nil || tz == "" || strings.ContainsAny(q, "'`") {
				ok = false
			}
		}
		if ok {
			return &arrow.TimestampType{Unit: unit, TimeZone: tz}, ""
		}
	case "Decimal128":
		p, err1 := strconv.ParseUint(arg0, 10, 8)
		sc, err2 := strconv.ParseInt(arg1, 10, 8)
		if two && err1 == nil && err2 == nil {
			if sc < 0 && p >= 1 && p <= 38 {
				return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(sc)}, ""
			}
			return decimalType(p, uint64(max(sc, 0)))
		}
	}
	return nil, unsupported
}

var arrowNames = map[string]arrow.DataType{
	"Int8": arrow.PrimitiveTypes.Int8, "Int16": arrow.PrimitiveTypes.Int16,
	"Int32": arrow.PrimitiveTypes.Int32, "Int64": arrow.PrimitiveTypes.Int64,
	"UInt8": arrow.PrimitiveTypes.Uint8, "UInt16": arrow.PrimitiveTypes.Uint16,
	"UInt32": arrow.PrimitiveTypes.Uint32, "UInt64": arrow.PrimitiveTypes.Uint64,
	"Float16": arrow.FixedWidthTypes.Float16, "Float32": arrow.PrimitiveTypes.Float32,
	"Float64": arrow.PrimitiveTypes.Float64, "Utf8": arrow.BinaryTypes.String,
	"LargeUtf8": arrow.BinaryTypes.LargeString, "Utf8View": arrow.BinaryTypes.StringView,
	"Binary": arrow.BinaryTypes.Binary, "LargeBinary": arrow.BinaryTypes.LargeBinary,
	"BinaryView": arrow.BinaryTypes.BinaryView, "Boolean": arrow.FixedWidthTypes.Boolean,
	"Date32": arrow.FixedWidthTypes.Date32, "Date64": arrow.FixedWidthTypes.Date64,
}
