package zonestats

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestParseFilter(t *testing.T) {
	cases := []struct{ in, want string }{
		{"x > 5 AND name IS NOT NULL", "(x > 5) AND (name IS NOT NULL)"},
		{"x>5 and (y = 'it''s' or not z < -2.5e3)", "(x > 5) AND ((y = 'it''s') OR (NOT (z < -2.5e3)))"},
		{"5 <= x", "x >= 5"},
		{"x <> 1", "x != 1"},
		{"x IN (1, 'a', NULL, TRUE, X'00ff')", "x IN (1, 'a', NULL, TRUE, X'00ff')"},
		{"x NOT IN (1)", "NOT (x IN (1))"},
		{"f IS NAN OR f = -INF OR f = NaN", "(f IS NAN) OR (f = -INF) OR (f = NAN)"},
		{"flag", "flag = TRUE"},
		{`"my col" = 1 AND "and" IS NULL`, `("my col" = 1) AND ("and" IS NULL)`},
		{"x IN ()", "x IN ()"},
		{"TRUE", "TRUE"},
	}
	for _, tc := range cases {
		e, err := ParseFilter(tc.in)
		if err != nil {
			t.Errorf("ParseFilter(%q): %v", tc.in, err)
			continue
		}
		if got := e.String(); got != tc.want {
			t.Errorf("ParseFilter(%q) = %s, want %s", tc.in, got, tc.want)
		}
		again, err := ParseFilter(e.String())
		if err != nil || again.String() != e.String() {
			t.Errorf("round trip of %q: %v %v", e.String(), again, err)
		}
	}
	for _, bad := range []string{"", "x >", "x > > 5", "(x = 1", "x = 1)", "x IS 5", "x IN 1", "x IN (1,", "'a'", "x = 'open",
		"x = -'a'", "x = .", "5 = 6", "x = y", "x @ 1", "AND"} {
		if _, err := ParseFilter(bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseFilter(%q) error %v, want ErrSyntax", bad, err)
		}
	}
}

func TestBindCoercion(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8},
		{Name: "u", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "f", Type: arrow.PrimitiveTypes.Float32},
		{Name: "d", Type: &arrow.Decimal128Type{Precision: 5, Scale: 2}},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
		{Name: "ts", Type: arrow.FixedWidthTypes.Timestamp_ms},
	}, nil)
	ok := []string{"i8 = 127", "i8 = -128", "i8 = 5.0", "u = 18446744073709551615", "f = 0.1", "f = 5", "f IS NAN",
		"d = 123.45", "d = -999.99", "d = 1", "s = 'x'", "s = X'ff'", "b = TRUE", "b", "l IS NULL", "ts > 1700000000000", "i8 = NULL"}
	for _, s := range ok {
		e, err := ParseFilter(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Bind(e, schema); err != nil {
			t.Errorf("Bind(%s): %v", s, err)
		}
	}
	bad := map[string]error{
		"i8 = 128": ErrBind, "i8 = 1.5": ErrBind, "u = -1": ErrBind, "d = 1.234": ErrBind, "d = 1000": ErrBind,
		"s = 1": ErrBind, "b = 1": ErrBind, "missing = 1": ErrBind, "l = 1": ErrUnsupportedType,
		"s IS NAN": ErrUnsupportedType, "i8 = 'a'": ErrBind, "i8 = 1e999999999": ErrBind, "f = 'x'": ErrBind,
	}
	for s, want := range bad {
		e, err := ParseFilter(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Bind(e, schema); !errors.Is(err, want) {
			t.Errorf("Bind(%s) = %v, want %v", s, err, want)
		}
	}
	// Go-built literals.
	p, err := Bind(And(Col("u").Gt(Uint64(1<<63)), Col("f").Eq(Float32(0.1)), Not(Col("s").In(String("a"), Null()))), schema)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Columns(); len(got) != 3 || got[0] != "u" {
		t.Errorf("Columns = %v", got)
	}
}
