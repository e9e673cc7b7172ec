package expr

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// fuzzBindSchema has a column of most types a Lance dataset holds.
var fuzzBindSchema = arrow.NewSchema([]arrow.Field{
	{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
	{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "u", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
	{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "g", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "ls", Type: arrow.BinaryTypes.LargeString, Nullable: true},
	{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
	{Name: "dec", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
	{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	{Name: "st", Type: arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "t", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
}, nil)

// fuzzBindRows is the small batch every bound filter is evaluated over:
// extremes, zeros, NaN, empty strings, nulls.
const fuzzBindRows = `[
{"i8": -128, "i": 2147483647, "i64": -9223372036854775808, "u": 18446744073709551615, "f": "NaN", "g": -0.0,
 "s": "", "ls": "abc", "bin": "AAE=", "b": true, "d": 0, "ts": 0, "dec": "12.34", "l": [1, null, 3], "st": {"a": 1, "t": "x"}},
{"i8": 0, "i": 0, "i64": 0, "u": 0, "f": 0, "g": 1.5, "s": "Ünï", "ls": "", "bin": "", "b": false,
 "d": -719162, "ts": -62135596800000000, "dec": "-99999999.99", "l": [], "st": {"a": null, "t": null}},
{"i8": null, "i": null, "i64": null, "u": null, "f": null, "g": null, "s": null, "ls": null, "bin": null,
 "b": null, "d": null, "ts": null, "dec": null, "l": null, "st": null},
{"i8": 127, "i": -5, "i64": 9223372036854775807, "u": 5, "f": "-Inf", "g": "Inf", "s": "a%_\\", "ls": "zz",
 "bin": "/w==", "b": true, "d": 2932896, "ts": 253402300799999999, "dec": "0.01", "l": [null], "st": {"a": -7, "t": ""}}
]`

// FuzzBind parses random text, binds it to fuzzBindSchema and evaluates
// it over fuzzBindRows: nothing may panic, errors wrap expr's sentinels,
// and a bound predicate yields one answer per row.
func FuzzBind(f *testing.F) {
	for _, s := range []string{
		"i = 3 AND s LIKE 'c%' OR b IS FALSE AND NOT (i64 BETWEEN 10 AND 20)", "u > 18446744073709551614",
		"f = 'NaN' OR g < -0.0", "i8 + 1 > 127", "i64 - 1 < 0", "i / 0 = 1", "i % 0 = 1", "-i64 > 0",
		"dec * dec > 1", "dec = 12.34", "CAST(s AS int) = 1", "ts > timestamp '2021-01-01 00:00:00'",
		"d = date '1970-01-01'", "date_part('year', ts) = 1970", "array_has(l, 3)", "array_length(l) > 1",
		"l[1] = 1", "st.a = 1", "st['t'] IS NULL", "lower(s) = upper(ls)", "regexp_match(s, '(') IS NULL",
		"s || ls = 'abc'", "bin = X'0001'", "coalesce(i, i64, u) > 0", "abs(i8) > 0", "b IS NOT TRUE",
		"i IS DISTINCT FROM i64", "s IN ('', 'a', NULL)", "starts_with(ls, s)", "nosuch = 1", "frob(i)",
		"i = 'x'", "CAST(f AS bigint) > 0", "substr(s, -1, 2) = ''", "date_trunc('month', ts) = ts",
		"to_char(d, '%Y') = '1970'", "i << 70 > 0", "round(f, 400) = f", "repeat(s, 1000000000) = s",
	} {
		f.Add(s)
	}
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, fuzzBindSchema, strings.NewReader(fuzzBindRows))
	if err != nil {
		f.Fatal(err)
	}
	defer rec.Release()
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Parse(src)
		if err != nil {
			return // FuzzParse covers the parser's errors
		}
		p, err := Bind(e, fuzzBindSchema)
		if err != nil {
			checkSentinel(t, "Bind", src, err)
			return
		}
		sel, err := p.Evaluate(rec)
		if err != nil {
			checkSentinel(t, "Evaluate", src, err)
			return
		}
		if len(sel) != int(rec.NumRows()) {
			t.Fatalf("Evaluate(%q): %d answers for %d rows", src, len(sel), rec.NumRows())
		}
		_ = p.MayMatchStats(nil)
	})
}

// checkSentinel fails unless err wraps one of expr's sentinel errors.
func checkSentinel(t *testing.T, op, src string, err error) {
	t.Helper()
	for _, s := range []error{ErrSyntax, ErrBind, ErrUnsupported, ErrEval, ErrMismatch} {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("%s(%q): %v wraps none of expr's sentinels", op, src, err)
}
