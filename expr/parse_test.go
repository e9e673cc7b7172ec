package expr

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// parserLevelRefusal reports whether pylance's message for a refused filter shows
// a refusal by the parser or Lance's conversion of its tree (rather than
// by binding or evaluation), which Parse must reproduce.
func parserLevelRefusal(msg string) bool {
	for _, s := range []string{"sql parser error", "is not supported SQL in lance", "Timezone not supported",
		"Unsupported data type: ", "Unary operator", "Task was aborted"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return strings.Contains(msg, "Operator ") && strings.Contains(msg, " is not supported")
}

// refusedEarly are filters Lance refuses when binding or evaluating that
// Parse refuses already.
var refusedEarly = map[string]bool{
	"arrow_cast(i32, 'Nope') = 1": true, // an unknown arrow_cast type fails at run time in Lance
	"id = @x":                     true, // sqlparser reads @x as a column name
}

// TestParseProbes parses every filter of the golden files: an OK line
// must parse (and its String() re-parse to the same text); an ERR line
// whose message is a parser-level refusal must fail with ErrSyntax, any
// other ERR line (binding or evaluation fails in Lance) must parse.
func TestParseProbes(t *testing.T) {
	files := []string{"testdata/probes-pylance-14.0.2.tsv", "testdata/conform-pylance-14.0.2.tsv"}
	for i, path := range files {
		f, err := os.Open(path)
		if err != nil {
			if i > 0 && errors.Is(err, os.ErrNotExist) {
				continue // the conformance file is optional here
			}
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		n, ok, refused := 0, 0, 0
		for line := 1; sc.Scan(); line++ {
			parts := strings.Split(sc.Text(), "\t")
			if len(parts) != 3 {
				continue
			}
			n++
			filter := parts[1]
			e, err := Parse(filter)
			switch {
			case parts[0] == "ERR" && refusedEarly[filter] && errors.Is(err, ErrSyntax):
				refused++
			case parts[0] == "OK" || !parserLevelRefusal(parts[2]):
				if err != nil {
					t.Errorf("%s:%d: Parse(%q): %v (pylance: %s %.80s)", path, line, filter, err, parts[0], parts[2])
					continue
				}
				ok++
				checkParseRoundTrip(t, filter, e)
			case err == nil:
				t.Errorf("%s:%d: Parse(%q) = %v, want a syntax error (pylance: %.100s)", path, line, filter, e, parts[2])
			case !errors.Is(err, ErrSyntax):
				t.Errorf("%s:%d: Parse(%q): %v does not wrap ErrSyntax", path, line, filter, err)
			default:
				refused++
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		if i == 0 && n != 314 {
			t.Errorf("%s: %d lines, want 314", path, n)
		}
		t.Logf("%s: %d filters, %d parsed, %d refused", path, n, ok, refused)
	}
}

// TestParseTrees checks the trees of filters by their String().
func TestParseTrees(t *testing.T) {
	tests := []struct{ in, want string }{
		// Precedence and associativity.
		{"NOT i = 3 AND i = 4", "((NOT (i = 3)) AND (i = 4))"},
		{"a OR b AND c", "(a OR (b AND c))"},
		{"a AND b OR c AND d", "((a AND b) OR (c AND d))"},
		{"s || 'x' = 'applex'", "((s || 'x') = 'applex')"},
		{"-i = -3", "((- i) = -3)"},
		{"-i * 2", "((- i) * 2)"},
		{"-i::int", "(- CAST(i AS int))"},
		{"-l[1]", "(- l[1])"},
		{"1 + 2 * 3 - 4", "((1 + (2 * 3)) - 4)"},
		{"1 - 2 - 3", "((1 - 2) - 3)"},
		{"a || b * c", "((a || b) * c)"},
		{"1 + 2 << 3", "((1 + 2) << 3)"},
		{"a << 1 = b >> 2", "((a << 1) = (b >> 2))"},
		{"a = b = c", "((a = b) = c)"},
		{"a = b IS NULL", "((a = b) IS NULL)"},
		{"a = b LIKE c", "((a = b) LIKE c)"},
		{"NOT a IS NULL", "(NOT (a IS NULL))"},
		{"NOT NOT b", "(NOT (NOT b))"},
		{"x NOT NULL", "(x IS NOT NULL)"},
		{"~b", "(NOT b)"},
		{"~ b = b", "((NOT b) = b)"},
		{"~ b IS NULL", "((NOT b) IS NULL)"},
		{"~ i + 1", "((NOT i) + 1)"},
		{"~ i * 2", "(NOT (i * 2))"},
		{"int X'01'", "CAST('01' AS int)"},
		{"NOT x = 5 NOT NULL AND b", "((NOT ((x = 5) IS NOT NULL)) AND b)"},
		{"x BETWEEN 1 AND 2 + 3", "(x BETWEEN 1 AND (2 + 3))"},
		{"x BETWEEN 1 AND 2 AND y", "((x BETWEEN 1 AND 2) AND y)"},
		{"x BETWEEN 1 AND 2 = TRUE", "((x BETWEEN 1 AND 2) = TRUE)"},
		{"x NOT BETWEEN a AND b OR c", "((x NOT BETWEEN a AND b) OR c)"},
		{"x IN (1, 2) = b", "((x IN (1, 2)) = b)"},
		{"s LIKE 'a' || 'b'", "(s LIKE ('a' || 'b'))"},
		{"s NOT ILIKE 'a%' ESCAPE '\\' AND b", "((s NOT ILIKE 'a%' ESCAPE '\\') AND b)"},
		// sqlparser reads the right side of IS DISTINCT FROM as a whole expression.
		{"i IS DISTINCT FROM 3 AND b", "(i IS DISTINCT FROM (3 AND b))"},
		{"i IS NOT DISTINCT FROM j", "(i IS NOT DISTINCT FROM j)"},
		{"i::bigint::string", "CAST(CAST(i AS bigint) AS string)"},
		{"i == 3", "(i = 3)"},
		{"i <> 3", "(i != 3)"},
		// Literals.
		{"9223372036854775807", "9223372036854775807"},
		{"9223372036854775808", "9223372036854775808"},
		{"-9223372036854775808", "-9223372036854775808"},
		{"- -3", "3"},
		{"-(-3)", "3"},
		{"-(3)", "-3"},
		{"- - i", "(- (- i))"},
		{"1e1 + 1.5e0 + .5 + 5. + 1E+3", "((((1e1 + 1.5e0) + .5) + 5.) + 1E+3)"},
		{"'it''s' || \"a\"\"b\"", "('it''s' || 'a\"b')"},
		{"'a\\b'", "'a\\b'"},
		{"X'01' = x'FF'", "(X'01' = X'ff')"},
		{"0x03", "X'03'"},
		{"0x3", "X'03'"},
		{"X''", "X''"},
		{"TRUE AND false OR Null", "((TRUE AND FALSE) OR NULL)"},
		{"[1, -2, 3.5]", "[1, -2, 3.5]"},
		{"['a', NULL, \"b\"]", "['a', NULL, 'b']"},
		{"[]", "[]"},
		{"ARRAY[1, 2]", "[1, 2]"},
		{"flatten([[1], [2]])", "flatten([[1], [2]])"},
		// Typed strings and casts.
		{"date '2021-01-01'", "CAST('2021-01-01' AS date)"},
		{"DATE \"2021-01-01\"", "CAST('2021-01-01' AS date)"},
		{"timestamp '2021-01-01'", "CAST('2021-01-01' AS timestamp(6))"},
		{"timestamp(0) 'x'", "CAST('x' AS timestamp(0))"},
		{"TIMESTAMP (9) 'x'", "CAST('x' AS timestamp(9))"},
		{"datetime(3) 'x'", "CAST('x' AS timestamp(3))"},
		{"decimal(8,3) '1.000'", "CAST('1.000' AS decimal(8,3))"},
		{"int '5' + bigint unsigned '6'", "(CAST('5' AS int) + CAST('6' AS bigint unsigned))"},
		{"CAST(x AS tinyint unsigned)", "CAST(x AS tinyint unsigned)"},
		{"CAST(x AS INTEGER UNSIGNED)", "CAST(x AS int unsigned)"},
		{"CAST(x AS smallint(5))", "CAST(x AS smallint)"},
		{"CAST(x AS float)", "CAST(x AS float)"},
		{"CAST(x AS double)", "CAST(x AS double)"},
		{"CAST(x AS string)", "CAST(x AS string)"},
		{"CAST(x AS binary)", "CAST(x AS binary)"},
		{"CAST(x AS boolean)", "CAST(x AS boolean)"},
		{"CAST(x AS datetime)", "CAST(x AS timestamp(6))"},
		{"TRY_CAST(x AS date)", "TRY_CAST(x AS date)"},
		{"SAFE_CAST(x AS date)", "TRY_CAST(x AS date)"},
		{"arrow_cast(i, 'Int64')", "CAST(i AS bigint)"},
		{"arrow_cast(i, 'Timestamp(Nanosecond, None)')", "CAST(i AS timestamp(9))"},
		{"arrow_cast(i, 'Decimal128(10, 2)')", "CAST(i AS decimal(10,2))"},
		{"arrow_cast(i, 'UInt8')", "CAST(i AS tinyint unsigned)"},
		// Identifiers, fields, subscripts.
		{"CUBE = 10", "(CUBE = 10)"},
		{"MixedCase", "MixedCase"},
		{"`MixedCase`", "`MixedCase`"},
		{"`col with space`", "`col with space`"},
		{"case = 1", "(`case` = 1)"},
		{"cast = 1", "(`cast` = 1)"},
		{"floor + 1", "(floor + 1)"},
		{"date = 1", "(`date` = 1)"},
		{"date(ts)", "date(ts)"},
		{"timestamp(ts)", "timestamp(ts)"},
		{"float(5) = 1", "(float(5) = 1)"},
		{"left(s, 2)", "left(s, 2)"},
		{"a.b.c", "a['b']['c']"},
		{"`st`.`x`", "st['x']"},
		{"st['x']", "st['x']"},
		{"st[\"x\"]", "st['x']"},
		{"st.'x'", "st['x']"},
		{"m['k1']", "m['k1']"},
		{"l[1]", "l[1]"},
		{"l[i + 1]", "l[(i + 1)]"},
		{"l[1][2]", "l[1][2]"},
		{"st.l[1].x", "st['l'][1]['x']"},
		{"f(x).y", "f(x)['y']"},
		{"(st).x", "st['x']"},
		{"'s'['x']", "'s'['x']"},
		// Functions.
		{"LOWER(s)", "lower(s)"},
		{"now()", "now()"},
		{"current_date", "current_date()"},
		{"CURRENT_TIMESTAMP", "current_timestamp()"},
		{"current_date()", "current_date()"},
		{"is_valid(x)", "(x IS NOT NULL)"},
		{"get_field(st, 'x')", "get_field(st, 'x')"},
		{"mod(i, 2)", "mod(i, 2)"},
		{"date_bin(interval '1 day', ts)", "date_bin(INTERVAL '1 day', ts)"},
		{"date_bin(INTERVAL '1' DAY, ts)", "date_bin(INTERVAL '1 DAY', ts)"},
		{"f(now() - interval '1 hour')", "f((now() - INTERVAL '1 hour'))"},
		{"struct(i, s)", "struct(i, s)"},
		// Trailing text.
		{"i = 3 -- comment", "(i = 3)"},
		{"i = 3; DROP TABLE x", "(i = 3)"},
		{"i = 3 /* c */ AND b", "((i = 3) AND b)"},
		{"i = 3 -- c\nAND b", "((i = 3) AND b)"},
		{"id = 5 LIMIT 1", "(id = 5)"},
		{"id = 5)", "(id = 5)"},
		{"id = 1_000", "(id = 1)"},
		{"col with space = 1", "col"},
		{"s = E'apple'", "(s = E)"},
		{"i = 3 ; DROP `x`", "(i = 3)"},
		{"id = 5 LIMIT 1, 2", "(id = 5)"},
		{"id = 5 LIMIT ALL OFFSET 3 ORDER", "(id = 5)"},
		{"id = 5 GROUP BY id HAVING id > 1 ORDER BY id", "(id = 5)"},
		{"id = 5 : 3", "(id = 5)"},
		{"id = 5 ?x", "(id = 5)"},
		{"id = 5 NOT b", "(id = 5)"},
		{"bin = X'zz'", "(bin = CAST(NULL AS binary))"},
		{"is_valid(a, b)", "(a IS NOT NULL)"},
		{"arrow_cast(i, 'Timestamp(ns)')", "CAST(i AS timestamp(9))"},
		{"arrow_cast(i, ' Int64 ')", "CAST(i AS bigint)"},
		{"s LIKE 'a' ESCAPE 'é'", "(s LIKE 'a' ESCAPE 'é')"},
	}
	for _, tt := range tests {
		e, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := e.String(); got != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.in, got, tt.want)
		}
		checkParseRoundTrip(t, tt.in, e)
	}
}

// TestParseNodes checks node fields String() does not show.
func TestParseNodes(t *testing.T) {
	e, err := Parse("u = 9223372036854775808 AND i64 = 1e1 AND a = 7")
	if err != nil {
		t.Fatal(err)
	}
	and := e.(*Binary).L.(*Binary)
	u := and.L.(*Binary).R.(*Literal)
	if u.Kind != LitFloat || u.Text != "9223372036854775808" || u.Float != 9223372036854775808 {
		t.Errorf("u64 literal: %+v", u)
	}
	if f := and.R.(*Binary).R.(*Literal); f.Kind != LitFloat || f.Float != 10 || f.Text != "1e1" {
		t.Errorf("1e1: %+v", f)
	}
	if i := e.(*Binary).R.(*Binary).R.(*Literal); i.Kind != LitInt || i.Int != 7 || i.Text != "7" || i.At != 46 {
		t.Errorf("7: %+v", i)
	}
	if n, _ := Parse("-9223372036854775807"); n.(*Literal).Int != -9223372036854775807 {
		t.Errorf("-9223372036854775807: %+v", n)
	}
	if c, _ := Parse("MixedCase"); !reflect.DeepEqual(c, &Column{Name: "MixedCase"}) {
		t.Errorf("MixedCase: %#v", c)
	}
	if c, _ := Parse(" `MixedCase`"); !reflect.DeepEqual(c, &Column{Name: "MixedCase", Quoted: true, At: 1}) {
		t.Errorf("`MixedCase`: %#v", c)
	}
	f, _ := Parse("`st`.`x`")
	if want := (&Field{X: &Column{Name: "st", Quoted: true}, Name: "x", At: 5}); !reflect.DeepEqual(f, want) {
		t.Errorf("`st`.`x`: %#v", f)
	}
	b, _ := Parse("bin = X'01ff'")
	if l := b.(*Binary).R.(*Literal); l.Kind != LitBinary || l.Str != "\x01\xff" {
		t.Errorf("X'01ff': %+v", l)
	}
	ts, _ := Parse("timestamp(3) '2021-01-01'")
	c := ts.(*Cast)
	if typ, ok := c.Type.(*arrow.TimestampType); !ok || typ.Unit != arrow.Millisecond || typ.TimeZone != "" || c.Try {
		t.Errorf("timestamp(3): %#v", c.Type)
	}
	if l := c.X.(*Literal); l.Kind != LitString || l.Str != "2021-01-01" || l.At != 13 {
		t.Errorf("timestamp(3) string: %+v", l)
	}
	d, _ := Parse("decimal(8,3) '1.000'")
	if typ, ok := d.(*Cast).Type.(*arrow.Decimal128Type); !ok || typ.Precision != 8 || typ.Scale != 3 {
		t.Errorf("decimal(8,3): %#v", d.(*Cast).Type)
	}
	l, _ := Parse("s LIKE 'a!%' ESCAPE '!'")
	if l.(*Like).Escape != '!' {
		t.Errorf("ESCAPE: %+v", l)
	}
	iv, _ := Parse("f(INTERVAL '1' day)")
	if lit := iv.(*Call).Args[0].(*Literal); lit.Kind != LitInterval || lit.Str != "1 day" {
		t.Errorf("INTERVAL: %+v", lit)
	}
	cd, _ := Parse("d < current_date")
	if call := cd.(*Binary).R.(*Call); call.Name != "current_date" || len(call.Args) != 0 || call.At != 4 {
		t.Errorf("current_date: %+v", call)
	}
}

// TestParseErrors checks refused and malformed filters: the error wraps
// ErrSyntax, names the position and says what is wrong.
func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "syntax error at 0: expected an expression, found end of input"},
		{"  -- only a comment", "at 19: expected an expression, found end of input"},
		{";", "at 0: expected an expression"},
		{"i > 3 AND", "syntax error at 9: expected an expression, found end of input"},
		{"i =", "at 3: expected an expression, found end of input"},
		{"(i = 5", `at 6: expected ")", found end of input`},
		{"i === 3", `at 4: expected an expression, found "="`},
		{"i = = 3", `at 4: expected an expression, found "="`},
		{"i IN [1, 2]", `at 5: expected "(", found "["`},
		{"i IN ()", `at 6: expected an expression, found ")"`},
		{"i IN (1,2,3,)", `at 12: expected an expression, found ")"`},
		{"i IN 5", `expected "(", found number 5`},
		{"b IS 1", "at 5: expected NULL, TRUE, FALSE or DISTINCT FROM after IS, found number 1"},
		{"b IS UNKNOWN", "at 5: IS [NOT] UNKNOWN is not supported"},
		{"b IS NOT UNKNOWN", "IS [NOT] UNKNOWN is not supported"},
		{"s SIMILAR TO 'a.*'", "at 2: SIMILAR TO is not supported"},
		{"s NOT SIMILAR TO 'a.*'", "NOT SIMILAR is not supported"},
		{"s REGEXP 'a'", "REGEXP is not supported"},
		{"s ~ '^a'", "at 2: operator ~ is not supported"},
		{"s ~* '^a'", "operator ~* is not supported"},
		{"s !~ '^a'", "operator !~ is not supported"},
		{"i & 1 = 1", "at 2: operator & is not supported"},
		{"i | 1 = 1", "operator | is not supported"},
		{"i ^ 1 = 1", "operator ^ is not supported"},
		{"i <=> 3", "operator <=> is not supported"},
		{"i // 2", "operator // is not supported"},
		{"id = 5 # x", "at 7: operator # is not supported"},
		{"i XOR b", "XOR is not supported"},
		{"int 5 = i", `at 4: expected a quoted string after the type int, found number 5`},
		{"date NULL IS NULL", "expected a quoted string after the type date, found \"NULL\""},
		{"unsigned 'x'", "Unsupported data type: unsigned"},
		{"CAST(x AS float unsigned)", "Unsupported data type: float unsigned"},
		{"decimal ? 'x'", "expected a quoted string after the type decimal, found \"?\""},
		{"id = +5", "at 5: unary operator + is not supported"},
		{"substr(s, 1, 2) = 'ap'", "at 0: SUBSTR(…) is not supported"},
		{"SUBSTRING(s FROM 1 FOR 2)", "SUBSTRING(…) is not supported"},
		{"trim(s) = 'a'", "TRIM(…) is not supported"},
		{"floor(f) = 1", "FLOOR(…) is not supported"},
		{"ceil(f) = 1", "CEIL(…) is not supported"},
		{"extract(year FROM ts) = 2021", "EXTRACT(…) is not supported"},
		{"position('a' IN s) = 1", "POSITION(…) is not supported"},
		{"CASE WHEN i > 3 THEN true ELSE false END", "at 0: CASE is not supported"},
		{"CASE i WHEN 1 THEN true END", "CASE is not supported"},
		{"1 = ANY(l)", "at 4: = ANY(…) is not supported"},
		{"1 < all(l)", "< ALL(…) is not supported"},
		{"s LIKE ANY ('a')", "LIKE ANY is not supported"},
		{"i IN (SELECT 1)", "at 6: subqueries are not supported"},
		{"EXISTS (SELECT 1)", "at 0: EXISTS is not supported"},
		{"NOT EXISTS (SELECT 1)", "at 4: EXISTS is not supported"},
		{"(SELECT 1) = 1", "subqueries are not supported"},
		{"(1, 2) = x", "tuples (a, b, …) are not supported"},
		{"id = 5 UNION SELECT 1", "UNION is not supported in a filter"},
		{"CAST(i AS varchar) = '3'", "at 10: Unsupported data type: varchar"},
		{"CAST(i AS text)", "Unsupported data type: text"},
		{"CAST(i AS bool)", "Unsupported data type: bool"},
		{"CAST(i AS nope)", "Unsupported data type: nope"},
		{"CAST(i AS `int`)", "Unsupported data type: `int`"},
		{"CAST(i AS double precision)", "Unsupported data type: double precision"},
		{"CAST(i AS decimal)", "Must provide precision and scale for decimal"},
		{"CAST(i AS decimal(8))", "Must provide precision and scale for decimal"},
		{"CAST(i AS decimal(39,2))", "the precision must be 1 to 38"},
		{"CAST(i AS timestamp(4))", "Unsupported datetime resolution: 4"},
		{"CAST(i AS timestamp with time zone)", "Timezone not supported in timestamp"},
		{"CAST(i AS timestamp(3) without time zone)", "Timezone not supported in timestamp"},
		{"ts = timestamptz '2021-01-01 00:00:00+00:00'", "at 5: Timezone not supported in timestamp"},
		{"ts = timestamp(4) '2021-01-01'", "Unsupported datetime resolution: 4"},
		{"dec = decimal '1.0'", "Must provide precision and scale for decimal"},
		{"x = varchar 'a'", "Unsupported data type: varchar"},
		{"CAST(i AS)", `expected a data type, found ")"`},
		{"CAST(i int)", `expected AS, found "int"`},
		{"CAST(i AS int", `expected ")", found end of input`},
		{"i::", "expected a data type, found end of input"},
		{"arrow_cast(i, 'Nope')", "at 14: Unsupported type 'Nope' for arrow_cast"},
		{"arrow_cast(i, 'int64')", "Unsupported type 'int64'"},
		{"arrow_cast(i, 'Time32(Second)')", "Unsupported type"},
		{"arrow_cast(i, 'Timestamp(Second, Some(UTC))')", "Unsupported type"},
		{"arrow_cast(interval '1 day', 'Utf8')", "INTERVAL is not supported outside a function argument"},
		{"IS_VALID(s)", "Invalid function 'is_valid'"},
		{"i = 3 ; 'unterminated", "at 8: unterminated string literal"},
		{"i = 3 ; /* x", "unterminated /* comment"},
		{"id = 5 LIMIT", "at 12: expected an expression, found end of input"},
		{"id = 5 LIMIT 1 OFFSET", "expected an expression, found end of input"},
		{"id = 5 ORDER BY", "expected an expression, found end of input"},
		{"id = 5 EXCEPT SELECT 1", "EXCEPT is not supported in a filter"},
		{"s LIKE 'a' ESCAPE ''", "expected a single character in single quotes after ESCAPE, found string ''"},
		{"s LIKE 'a' ESCAPE 'ab'", "expected a single character in single quotes after ESCAPE"},
		{"arrow_cast(i, s)", "the type of arrow_cast must be a string literal"},
		{"arrow_cast(i)", "arrow_cast takes two arguments, not 1"},
		{"is_valid()", "is_valid takes one argument"},
		{"ts > now() - interval '1 day'", "at 13: INTERVAL is not supported outside a function argument"},
		{"interval '1 day' IS NOT NULL", "at 0: INTERVAL is not supported outside a function argument"},
		{"f(interval 1)", "expected a quoted interval after INTERVAL, found number 1"},
		{"l[1:2] = [1]", "at 3: slices are not supported"},
		{"l[:2] = [1]", "slices are not supported"},
		{"l[i:] = [1]", "slices are not supported"},
		{"x:y", "at 1: JSON access (:) is not supported"},
		{"l = [i]", "expected a literal value in array, found i at position 0"},
		{"array_has_any(l, [i, 1])", "at 18: expected a literal value in array, found i"},
		{"l = [1, 1 + 1]", "at 10: expected a literal value in array, found (1 + 1) at position 1"},
		{"l = [[1], [2]]", "expected a literal value in array, found [1]"},
		{"l = [1, 2,]", `expected an expression, found "]"`},
		{"l = [1 2]", `expected "," or "]", found number 2`},
		{"f(1,)", `expected an expression, found ")"`},
		{"f(1 2)", `expected "," or ")", found number 2`},
		{"f(*)", `expected an expression, found "*"`},
		{"`f`(x)", "quoted function names are not supported"},
		{"s = 'apple' COLLATE \"C\"", "at 12: COLLATE is not supported"},
		{"ts AT TIME ZONE 'UTC'", "AT TIME ZONE is not supported"},
		{"id = $1", `at 5: expected an expression, found "$"`},
		{"id = ?", `expected an expression, found "?"`},
		{"id = @x", `expected an expression, found "@"`},
		{"s = b'ab'", "at 4: b'…' strings are not supported"},
		{"s = N'ab'", "N'…' strings are not supported"},
		{"s = r\"ab\"", "r'…' strings are not supported"},
		{"s = 'abc", "at 4: unterminated string literal"},
		{`s = "abc`, "at 4: unterminated double-quoted string"},
		{"`abc = 1", "at 0: unterminated quoted identifier"},
		{"`a``b` = 1", "a backtick inside a quoted identifier is not supported"},
		{"`` = 1", "empty quoted identifier"},
		{"i = 1 /* x", "at 6: unterminated /* comment"},
		{"s = '\xff'", "at 5: the filter is not valid UTF-8"},
		{"(-3)['x']", "a number has no fields or elements"},
		{"st. 1", `expected a field name after ".", found number 1`},
		{"st.\"x\"", `expected a field name after ".", found string "x"`},
		{"x::int[1]", "a subscript here needs parentheses"},
		{"i BETWEEN 1 OR 2", "expected AND of BETWEEN, found \"OR\""},
		{"s LIKE 'a' ESCAPE \"!\"", "expected a single character in single quotes after ESCAPE, found string \"!\""},
		{"i IS DISTINCT 3", "expected FROM after IS DISTINCT, found number 3"},
	}
	for _, tt := range tests {
		e, err := Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tt.in, e, tt.want)
			continue
		}
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q): %v does not wrap ErrSyntax", tt.in, err)
		}
		if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "expr: syntax error at ") {
			t.Errorf("Parse(%q): %v, want %q", tt.in, err, tt.want)
		}
	}
}

// TestParseLong parses a 1,000-term OR chain and a 5,000-item IN list
// quickly, without deep recursion, and refuses nesting past maxDepth.
func TestParseLong(t *testing.T) {
	var terms, items []string
	for i := range 1000 {
		terms = append(terms, fmt.Sprintf("i = %d", i))
	}
	for i := range 5000 {
		items = append(items, fmt.Sprint(i))
	}
	for _, src := range []string{strings.Join(terms, " OR "), strings.Join(terms, " AND "),
		"i IN (" + strings.Join(items, ", ") + ")", "s NOT IN ('" + strings.Join(items, "', '") + "')"} {
		start := time.Now()
		e, err := Parse(src)
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("Parse of %d bytes took %v", len(src), d)
		}
		if err != nil {
			t.Fatalf("Parse(%.40q…): %v", src, err)
		}
		switch x := e.(type) {
		case *Binary: // left-deep: the last term is the right operand of the root
			if x.R.String() != "(i = 999)" || x.L.(*Binary).R.String() != "(i = 998)" {
				t.Errorf("chain root: %v / %v", x.L.(*Binary).R, x.R)
			}
		case *InList:
			if len(x.List) != 5000 {
				t.Errorf("IN list of %d items", len(x.List))
			}
		}
	}
	for _, n := range []int{maxDepth - 1, maxDepth} {
		src := strings.Repeat("(", n) + "1" + strings.Repeat(")", n)
		_, err := Parse(src)
		if n < maxDepth && err != nil {
			t.Errorf("%d parentheses: %v", n, err)
		}
		if n == maxDepth && (err == nil || !strings.Contains(err.Error(), "nested too deeply")) {
			t.Errorf("%d parentheses: %v, want a nesting error", n, err)
		}
	}
	for _, open := range []string{"NOT ", "- ", "f(", "g([", "i = (", "x IN (", "CAST("} {
		for _, n := range []int{maxDepth / 4, 10 * maxDepth} {
			src := strings.Repeat(open, n) + "1"
			_, err := Parse(src)
			if n > maxDepth && (err == nil || !strings.Contains(err.Error(), "nested too deeply")) {
				t.Errorf("%d × %q: %v, want a nesting error", n, open, err)
			}
			if n < maxDepth && err != nil && strings.Contains(err.Error(), "nested too deeply") {
				t.Errorf("%d × %q: %v", n, open, err)
			}
		}
	}
	if _, err := Parse(strings.Repeat("(", 1_000_000)); err == nil || !errors.Is(err, ErrSyntax) {
		t.Errorf("a million '(': %v", err)
	}
}

func TestParseAssignments(t *testing.T) {
	as, err := ParseAssignments("x = x * 2, `My Col` = 'u', s=lower(s) -- done")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range as {
		got = append(got, a.Column+" := "+a.Value.String())
	}
	want := []string{"x := (x * 2)", "My Col := 'u'", "s := lower(s)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseAssignments: %q, want %q", got, want)
	}
	for in, msg := range map[string]string{
		"":              "at 0: expected a column name, found end of input",
		"x":             `at 1: expected "=", found end of input`,
		"x = ":          "expected an expression",
		"x = 1,":        "at 6: expected a column name, found end of input",
		"x = 1 y = 2":   `at 6: expected "," or end of input, found "y"`,
		"x = 1, x = 2":  "at 7: column x is assigned twice",
		"st.x = 1":      `expected "=", found "."`,
		"1 = 2":         "expected a column name, found number 1",
		"x = CASE WHEN": "CASE is not supported",
	} {
		if _, err := ParseAssignments(in); err == nil || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseAssignments(%q): %v, want %q", in, err, msg)
		}
	}
}
