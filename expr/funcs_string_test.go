package expr

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// strBatch is the 6-row table the string tests run on; the expected
// values of the tables below were computed by pylance 14.0.2 on the same
// table (ds.to_table(columns={"v": expr})), rendered as JSON with
// binaries as "x:<hex>".
func strBatch(t testing.TB, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	valid := []bool{true, true, true, true, true, true}
	str := func(typ arrow.DataType, vs []string, ok []bool) arrow.Array {
		b := array.NewBuilder(mem, typ)
		defer b.Release()
		for k, v := range vs {
			switch x := b.(type) {
			case *array.StringBuilder:
				if ok[k] {
					x.Append(v)
				} else {
					x.AppendNull()
				}
			case *array.LargeStringBuilder:
				if ok[k] {
					x.Append(v)
				} else {
					x.AppendNull()
				}
			case *array.BinaryBuilder:
				if ok[k] {
					x.Append([]byte(v))
				} else {
					x.AppendNull()
				}
			}
		}
		return b.NewArray()
	}
	sNulls := []bool{true, true, true, true, false, true}
	ib := array.NewInt32Builder(mem)
	defer ib.Release()
	ib.AppendValues([]int32{1, 2, 3, 4, 5, 0}, []bool{true, true, true, true, true, false})
	lb := array.NewInt64Builder(mem)
	defer lb.Release()
	lb.AppendValues([]int64{10, 20, 30, 40, 50, 60}, nil)
	fb := array.NewFloat64Builder(mem)
	defer fb.Release()
	fb.AppendValues([]float64{0.5, 1.5, 2.5, 0, 4.5, math.NaN()}, []bool{true, true, true, false, true, true})
	bb := array.NewBooleanBuilder(mem)
	defer bb.Release()
	bb.AppendValues([]bool{true, false, false, true, false, true}, []bool{true, true, false, true, true, true})
	db := array.NewDate32Builder(mem)
	defer db.Release()
	db.AppendValues([]arrow.Date32{18628, 18779, 18993, 0, 18262, 18629}, []bool{true, true, true, false, true, true})
	tb := array.NewListBuilder(mem, arrow.BinaryTypes.String)
	defer tb.Release()
	tv := tb.ValueBuilder().(*array.StringBuilder)
	for _, row := range [][]string{{"a", "b"}, {"b"}, {"c"}, {}, nil, {"a"}} {
		if row == nil {
			tb.AppendNull()
			continue
		}
		tb.Append(true)
		tv.AppendValues(row, nil)
	}
	cols := []arrow.Array{
		ib.NewArray(), lb.NewArray(), fb.NewArray(),
		str(arrow.BinaryTypes.String, []string{"apple", "Banana", "cherry", "a%b", "", "date_x"}, sNulls),
		str(arrow.BinaryTypes.LargeString, []string{"apple", "Banana", "cherry", "a%b", "", "date_x"}, sNulls),
		str(arrow.BinaryTypes.String, []string{"Émile", "éa", "ß", "İx", "ǅ", "ΣΑΣ"}, valid),
		str(arrow.BinaryTypes.String, []string{"Hello, World!", "a cat catch a fish", "café au lait", "ΣΑΣ ΑΣ", "x\ny", ""}, valid),
		str(arrow.BinaryTypes.String, []string{"a%", "B_%", "%rr%", "", "x", `%\_x`}, []bool{true, true, true, false, true, true}),
		bb.NewArray(), db.NewArray(),
		str(arrow.BinaryTypes.Binary, []string{"\x01", "\x02", "\xff", "", "ab", ""}, []bool{true, true, true, false, true, true}),
		tb.NewArray(),
	}
	names := []string{"i", "i64", "f", "s", "ls", "u", "w", "p", "b", "d", "bin", "tags"}
	fields := make([]arrow.Field, len(cols))
	for k, c := range cols {
		fields[k] = arrow.Field{Name: names[k], Type: c.DataType(), Nullable: true}
		defer c.Release()
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 6)
}

// strCase is an expression and pylance's answer: the JSON of its values,
// or "ERR …" when pylance refuses it.
type strCase struct{ expr, want string }

// evalJSON parses, binds (BindValue) and evaluates e on rec, rendering
// the values as JSON; it fails when evaluation leaks memory of mem.
func evalJSON(rec arrow.RecordBatch, e string, mem *memory.CheckedAllocator) (string, error) {
	x, err := Parse(e)
	if err != nil {
		return "", err
	}
	c, err := BindValue(x, rec.Schema(), Options{Mem: mem})
	if err != nil {
		return "", err
	}
	before := mem.CurrentAlloc()
	a, err := c.Eval(rec)
	if err != nil {
		if mem.CurrentAlloc() != before {
			return "", fmt.Errorf("a failed evaluation leaks %d bytes: %w", mem.CurrentAlloc()-before, err)
		}
		return "", err
	}
	defer func() {
		a.Release()
		if mem.CurrentAlloc() != before {
			panic(fmt.Sprintf("%s: evaluation leaks %d bytes", e, mem.CurrentAlloc()-before))
		}
	}()
	if a.Len() != int(rec.NumRows()) {
		return "", fmt.Errorf("%d rows for %d", a.Len(), rec.NumRows())
	}
	vals := make([]any, a.Len())
	for i := range vals {
		vals[i] = jsonValue(a, i)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(vals); err != nil {
		return "", err
	}
	return strings.TrimSpace(buf.String()), nil
}

// jsonValue renders row i of a as pylance's to_pylist does.
func jsonValue(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch x := a.(type) {
	case *array.String:
		return x.Value(i)
	case *array.LargeString:
		return x.Value(i)
	case *array.Binary:
		return "x:" + hex.EncodeToString(x.Value(i))
	case *array.LargeBinary:
		return "x:" + hex.EncodeToString(x.Value(i))
	case *array.Int32:
		return x.Value(i)
	case *array.Int64:
		return x.Value(i)
	case *array.Boolean:
		return x.Value(i)
	case *array.List:
		lo, hi := x.ValueOffsets(i)
		out := []any{}
		for k := lo; k < hi; k++ {
			out = append(out, jsonValue(x.ListValues(), int(k)))
		}
		return out
	}
	return fmt.Sprintf("?%s", a.DataType())
}

// runStrCases checks each case; refuse lists the expressions this engine
// may refuse with ErrUnsupported where pylance answers.
func runStrCases(t *testing.T, cases []strCase, refuse map[string]bool) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	rec := strBatch(t, mem)
	defer rec.Release()
	for _, c := range cases {
		got, err := evalJSON(rec, c.expr, mem)
		switch {
		case err != nil && refuse[c.expr] && errors.Is(err, ErrUnsupported):
		case strings.HasPrefix(c.want, "ERR"):
			if err == nil {
				t.Errorf("%s: got %s, pylance fails: %s", c.expr, got, c.want)
			}
		case err != nil:
			t.Errorf("%s: %v, pylance gives %s", c.expr, err, c.want)
		case got != c.want:
			t.Errorf("%s:\n\tgot  %s\n\twant %s", c.expr, got, c.want)
		}
	}
}

// TestStringFuncs checks the string functions against pylance 14.0.2.
func TestStringFuncs(t *testing.T) {
	runStrCases(t, stringCases, nil)
	runStrCases(t, stringCases2, nil)
}

// stringCases: pylance's answers (the comment is pylance's type; where
// it is string_view this engine answers Utf8).
var stringCases = []strCase{
	{"length(s)", "[5,6,6,3,null,6]"},            // int32
	{"length(ls)", "[5,6,6,3,null,6]"},           // int64
	{"length(u)", "[5,2,1,2,1,3]"},               // int32
	{"length(w)", "[13,18,12,6,3,0]"},            // int32
	{"length(i)", "[1,1,1,1,1,null]"},            // int32
	{"length(f)", "[3,3,3,null,3,3]"},            // int32
	{"length(d)", "[10,10,10,null,10,10]"},       // int32
	{"length(b)", "[4,5,null,4,5,4]"},            // int32
	{"char_length(s)", "[5,6,6,3,null,6]"},       // int32
	{"character_length(ls)", "[5,6,6,3,null,6]"}, // int64
	{"length(bin)", "ERR External error: LanceError(Arrow): Invalid argument error: Encountered non UTF-8 data: invalid utf-8"}, //
	{"octet_length(u)", "[6,3,2,3,2,6]"},     // int32
	{"octet_length(ls)", "[5,6,6,3,null,6]"}, // int64
	{"octet_length(i)", "ERR Invalid user input: Error during planning: Function 'octet_length' requires String, but received Int"},   //
	{"octet_length(bin)", "ERR Invalid user input: Error during planning: Function 'octet_length' requires String, but received Bin"}, //
	{"bit_length(u)", "[48,24,16,24,16,48]"},                                                                                 // int32
	{"lower(s)", "[\"apple\",\"banana\",\"cherry\",\"a%b\",null,\"date_x\"]"},                                                // string
	{"lower(u)", "[\"émile\",\"éa\",\"ß\",\"i̇x\",\"ǆ\",\"σας\"]"},                                                           // string
	{"lower(w)", "[\"hello, world!\",\"a cat catch a fish\",\"café au lait\",\"σας ας\",\"x\\ny\",\"\"]"},                    // string
	{"lower(ls)", "[\"apple\",\"banana\",\"cherry\",\"a%b\",null,\"date_x\"]"},                                               // large_string
	{"lower(i)", "ERR Invalid user input: Error during planning: Function 'lower' requires String, but received Int32 (Dat"}, //
	{"upper(s)", "[\"APPLE\",\"BANANA\",\"CHERRY\",\"A%B\",null,\"DATE_X\"]"},                                                // string
	{"upper(u)", "[\"ÉMILE\",\"ÉA\",\"SS\",\"İX\",\"Ǆ\",\"ΣΑΣ\"]"},                                                           // string
	{"upper(w)", "[\"HELLO, WORLD!\",\"A CAT CATCH A FISH\",\"CAFÉ AU LAIT\",\"ΣΑΣ ΑΣ\",\"X\\nY\",\"\"]"},                    // string
	{"upper('ßŉǰﬀ')", "[\"SSʼNJ̌FF\",\"SSʼNJ̌FF\",\"SSʼNJ̌FF\",\"SSʼNJ̌FF\",\"SSʼNJ̌FF\",\"SSʼNJ̌FF\"]"},                     // string
	{"lower('İΣΑΣ ΑΣ Σ')", "[\"i̇σας ας σ\",\"i̇σας ας σ\",\"i̇σας ας σ\",\"i̇σας ας σ\",\"i̇σας ας σ\",\"i̇σας ας σ\"]"},    // string
	{"lower('ΑΣ.')", "[\"ας.\",\"ας.\",\"ας.\",\"ας.\",\"ας.\",\"ας.\"]"},                                                    // string
	{"lower('ΑΣ''Α')", "[\"ασ'α\",\"ασ'α\",\"ασ'α\",\"ασ'α\",\"ασ'α\",\"ασ'α\"]"},                                            // string
	{"lower('ΑΣΑ')", "[\"ασα\",\"ασα\",\"ασα\",\"ασα\",\"ασα\",\"ασα\"]"},                                                    // string
	{"lower('.Σ')", "[\".σ\",\".σ\",\".σ\",\".σ\",\".σ\",\".σ\"]"},                                                           // string
	{"upper(NULL)", "[null,null,null,null,null,null]"},                                                                       // string_view
	{"initcap(s)", "[\"Apple\",\"Banana\",\"Cherry\",\"A%B\",null,\"Date_X\"]"},                                              // string
	{"initcap(u)", "[\"Émile\",\"Éa\",\"SS\",\"İx\",\"Ǆ\",\"Σασ\"]"},                                                         // string
	{"initcap(w)", "[\"Hello, World!\",\"A Cat Catch A Fish\",\"Café Au Lait\",\"Σασ Ασ\",\"X\\nY\",\"\"]"},                  // string
	{"initcap('hello wORLD foo_bar 1abc a-b éa ñu')", "[\"Hello World Foo_Bar 1abc A-B Éa Ñu\",\"Hello World Foo_Bar 1abc A-B Éa Ñu\",\"Hello World Foo_Bar 1abc A-B Éa Ñu\",\"Hello World Foo_Bar 1abc A-B Éa Ñu\",\"Hello World Foo_Bar 1abc A-B Éa Ñu\",\"Hello World Foo_Bar 1abc A-B Éa Ñu\"]"}, // string
	{"initcap('ßa ǆa ŉa 1a a1b ⅷa ²a ΣΑΣ ǅX İX')", "[\"SSa Ǆa ʼNa 1a A1b Ⅷa ²a Σασ Ǆx İx\",\"SSa Ǆa ʼNa 1a A1b Ⅷa ²a Σασ Ǆx İx\",\"SSa Ǆa ʼNa 1a A1b Ⅷa ²a Σασ Ǆx İx\",\"SSa Ǆa ʼNa 1a A1b Ⅷa ²a Σασ Ǆx İx\",\"SSa Ǆa ʼNa 1a A1b Ⅷa ²a Σασ Ǆx İx\",\"SSa Ǆa ʼNa 1a A1b Ⅷa ²a Σασ Ǆx İx\"]"},          // string
	{"initcap('aİ')", "[\"Ai̇\",\"Ai̇\",\"Ai̇\",\"Ai̇\",\"Ai̇\",\"Ai̇\"]"},                                                               // string
	{"initcap(ls)", "[\"Apple\",\"Banana\",\"Cherry\",\"A%B\",null,\"Date_X\"]"},                                                         // large_string
	{"starts_with(s, 'a')", "[true,false,false,true,null,false]"},                                                                        // bool
	{"starts_with(s, '')", "[true,true,true,true,null,true]"},                                                                            // bool
	{"starts_with(s, NULL)", "[null,null,null,null,null,null]"},                                                                          // bool
	{"starts_with(s, s)", "[true,true,true,true,null,true]"},                                                                             // bool
	{"starts_with(ls, 'a')", "[true,false,false,true,null,false]"},                                                                       // bool
	{"starts_with(s, p)", "[false,false,false,null,null,false]"},                                                                         // bool
	{"ends_with(s, 'y')", "[false,false,true,false,null,false]"},                                                                         // bool
	{"ends_with(u, 'a')", "[false,true,false,false,false,false]"},                                                                        // bool
	{"contains(s, 'an')", "[false,true,false,false,null,false]"},                                                                         // bool
	{"contains(w, 'a')", "[false,true,true,false,false,false]"},                                                                          // bool
	{"contains(s, '')", "[true,true,true,true,null,true]"},                                                                               // bool
	{"contains(ls, 'a')", "[true,true,false,true,null,true]"},                                                                            // bool
	{"starts_with(i, '1')", "ERR Invalid user input: Error during planning: Function 'starts_with' requires String, but received Int3"},  //
	{"strpos(s, 'an')", "[0,2,0,0,null,0]"},                                                                                              // int32
	{"strpos(s, 'a')", "[1,2,0,1,null,2]"},                                                                                               // int32
	{"strpos(u, 'a')", "[0,2,0,0,0,0]"},                                                                                                  // int32
	{"strpos(w, 'a')", "[0,1,2,0,0,0]"},                                                                                                  // int32
	{"strpos(ls, 'a')", "[1,2,0,1,null,2]"},                                                                                              // int64
	{"strpos(s, '')", "[1,1,1,1,null,1]"},                                                                                                // int32
	{"strpos(s, ls)", "[1,1,1,1,null,1]"},                                                                                                // int32
	{"strpos('ééab', 'ab')", "[3,3,3,3,3,3]"},                                                                                            // int32
	{"instr(s, 'a')", "[1,2,0,1,null,2]"},                                                                                                // int32
	{"strpos(i, '1')", "ERR Invalid user input: Error during planning: Function 'strpos' requires String, but received Int32 (Da"},       //
	{"ascii(s)", "[97,66,99,97,null,100]"},                                                                                               // int32
	{"ascii(u)", "[201,233,223,304,453,931]"},                                                                                            // int32
	{"ascii(w)", "[72,97,99,931,120,0]"},                                                                                                 // int32
	{"ascii('')", "[0,0,0,0,0,0]"},                                                                                                       // int32
	{"ascii(ls)", "[97,66,99,97,null,100]"},                                                                                              // int32
	{"concat(s, 'x')", "[\"applex\",\"Bananax\",\"cherryx\",\"a%bx\",\"x\",\"date_xx\"]"},                                                // string
	{"concat(s, NULL, 'x')", "[\"applex\",\"Bananax\",\"cherryx\",\"a%bx\",\"x\",\"date_xx\"]"},                                          // string_view
	{"concat(i, s)", "[\"1apple\",\"2Banana\",\"3cherry\",\"4a%b\",\"5\",\"date_x\"]"},                                                   // string
	{"concat(i, f)", "[\"10.5\",\"21.5\",\"32.5\",\"4\",\"54.5\",\"NaN\"]"},                                                              // string
	{"concat(b, d)", "[\"true2021-01-01\",\"false2021-06-01\",\"2022-01-01\",\"true\",\"false2020-01-01\",\"true2021-01-02\"]"},          // string
	{"concat(s, ls)", "[\"appleapple\",\"BananaBanana\",\"cherrycherry\",\"a%ba%b\",\"\",\"date_xdate_x\"]"},                             // string_view
	{"concat(s)", "[\"apple\",\"Banana\",\"cherry\",\"a%b\",\"\",\"date_x\"]"},                                                           // string
	{"concat('a', 1, 2.5, true, NULL)", "[\"a12.5true\",\"a12.5true\",\"a12.5true\",\"a12.5true\",\"a12.5true\",\"a12.5true\"]"},         // string
	{"concat(bin, s)", "ERR External error: LanceError(Arrow): Invalid argument error: Encountered non UTF-8 data: invalid utf-8"},       //
	{"concat_ws(',', s, i)", "[\"apple,1\",\"Banana,2\",\"cherry,3\",\"a%b,4\",\"5\",\"date_x\"]"},                                       // string
	{"concat_ws(NULL, s)", "[null,null,null,null,null,null]"},                                                                            // string_view
	{"concat_ws(',', s, NULL, 'b')", "[\"apple,b\",\"Banana,b\",\"cherry,b\",\"a%b,b\",\"b\",\"date_x,b\"]"},                             // string_view
	{"concat_ws(s, s, 'x')", "[\"appleapplex\",\"BananaBananax\",\"cherrycherryx\",\"a%ba%bx\",null,\"date_xdate_xx\"]"},                 // string
	{"replace(s, 'a', 'A')", "[\"Apple\",\"BAnAnA\",\"cherry\",\"A%b\",null,\"dAte_x\"]"},                                                // string
	{"replace(s, 'a', '')", "[\"pple\",\"Bnn\",\"cherry\",\"%b\",null,\"dte_x\"]"},                                                       // string
	{"replace(s, '', 'x')", "[\"xaxpxpxlxex\",\"xBxaxnxaxnxax\",\"xcxhxexrxrxyx\",\"xax%xbx\",null,\"xdxaxtxex_xxx\"]"},                  // string
	{"replace(s, 'an', 'AN')", "[\"apple\",\"BANANa\",\"cherry\",\"a%b\",null,\"date_x\"]"},                                              // string
	{"replace(ls, 'a', 'A')", "[\"Apple\",\"BAnAnA\",\"cherry\",\"A%b\",null,\"dAte_x\"]"},                                               // large_string
	{"replace(s, ls, 'x')", "[\"x\",\"x\",\"x\",\"x\",null,\"x\"]"},                                                                      // large_string
	{"replace(s, 'a', NULL)", "[null,null,null,null,null,null]"},                                                                         // string
	{"replace(u, 'a', 'é')", "[\"Émile\",\"éé\",\"ß\",\"İx\",\"ǅ\",\"ΣΑΣ\"]"},                                                            // string
	{"replace(i, 'a', 'b')", "ERR Invalid user input: Error during planning: Function 'replace' requires String, but received Int32 (D"}, //
}

// TestStringFuncsSliced runs every case on a slice of the batch (rows 2
// to 5, so arrays have offsets) and expects the same values for those
// rows.
func TestStringFuncsSliced(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	rec := strBatch(t, mem)
	defer rec.Release()
	sl := rec.NewSlice(2, 6)
	defer sl.Release()
	for _, cases := range [][]strCase{stringCases, stringCases2, likeCases, regexpCases} {
		for _, c := range cases {
			if strings.HasPrefix(c.want, "ERR") || strings.HasPrefix(c.expr, "contains_tokens(") || regexpRefused[c.expr] {
				continue // contains_tokens reads its query from the first row
			}
			var want []any
			if err := json.Unmarshal([]byte(c.want), &want); err != nil {
				t.Fatalf("%s: %v", c.expr, err)
			}
			got, err := evalJSON(sl, c.expr, mem)
			if err != nil {
				t.Errorf("%s on a slice: %v", c.expr, err)
				continue
			}
			w, _ := json.Marshal(want[2:])
			var g []any
			_ = json.Unmarshal([]byte(got), &g)
			gm, _ := json.Marshal(g)
			if string(gm) != string(w) {
				t.Errorf("%s on a slice:\n\tgot  %s\n\twant %s", c.expr, gm, w)
			}
		}
	}
}

// TestStringFuncTypes checks result types (DataFusion's, with Utf8 where
// DataFusion answers Utf8View).
func TestStringFuncTypes(t *testing.T) {
	cases := []struct{ expr, typ string }{
		{"length(s)", "int32"}, {"length(ls)", "int64"}, {"length(i)", "int32"},
		{"octet_length(ls)", "int64"}, {"strpos(s, ls)", "int32"}, {"strpos(ls, s)", "int64"},
		{"lower(ls)", "large_utf8"}, {"upper(s)", "utf8"}, {"replace(s, ls, 'x')", "large_utf8"},
		{"split_part(ls, 'a', 1)", "large_utf8"}, {"lpad(ls, 3)", "large_utf8"}, {"left(s, 1)", "utf8"},
		{"md5(s)", "utf8"}, {"digest(s, 'md5')", "binary"}, {"encode(bin, 'hex')", "utf8"},
		{"decode(s, 'hex')", "binary"}, {"string_to_array(s, ',')", "list<item: utf8, nullable>"},
		{"string_to_array(ls, ',')", "list<item: large_utf8, nullable>"}, {"regexp_match(s, 'a')", "list<item: utf8, nullable>"},
		{"regexp_count(s, 'a')", "int64"}, {"regexp_like(s, 'a')", "bool"}, {"ascii(ls)", "int32"},
		{"chr(i)", "utf8"}, {"to_hex(i)", "utf8"}, {"concat(s, ls)", "large_utf8"}, {"contains_tokens(s, 'a')", "bool"},
	}
	rec := strBatch(t, memory.DefaultAllocator)
	defer rec.Release()
	for _, c := range cases {
		x, err := Parse(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		cv, err := BindValue(x, rec.Schema(), Options{})
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if got := cv.Type().String(); got != c.typ {
			t.Errorf("%s: type %s, want %s", c.expr, got, c.typ)
		}
	}
}
