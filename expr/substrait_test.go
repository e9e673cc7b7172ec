package expr_test

import (
	"encoding/base64"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/lancego/lancego/expr"
)

// TestFromSubstrait decodes the pyarrow-made Substrait filters of
// testdata/substrait-pylance-14.0.2.tsv and checks each keeps the rows
// pylance 14.0.2 kept with the same expression on the probe dataset.
// Where pylance refuses the expression (nested references, uint64 in its
// Substrait conversion) we answer anyway, and must agree with the SQL
// filter that says the same.
func TestFromSubstrait(t *testing.T) {
	sqlFor := map[string]string{
		"struct_field":     "st.x = 2.0",
		"struct_field_str": "st.y = 'a'",
		"f32_lit":          "st.x > 1.5",
		"u64":              "u > 9223372036854775807",
	}
	tb := readTable(t, "testdata/probe.lance", 0)
	data, err := os.ReadFile("testdata/substrait-pylance-14.0.2.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			t.Fatalf("bad line %q", line)
		}
		name := parts[0]
		t.Run(name, func(t *testing.T) {
			raw, err := base64.StdEncoding.DecodeString(parts[1])
			if err != nil {
				t.Fatal(err)
			}
			e, err := expr.FilterFromSubstrait(raw)
			if err != nil {
				t.Fatalf("FilterFromSubstrait: %v", err)
			}
			got := runExpr(t, tb, e)
			want := parts[2]
			if strings.HasPrefix(want, "ERR") {
				sql, ok := sqlFor[name]
				if !ok {
					t.Fatalf("pylance refused %s (%s) and the test names no SQL equivalent", name, want)
				}
				o := runFilter(tb, sql, "i64")
				if o.err != nil {
					t.Fatalf("SQL %q: %v", sql, o.err)
				}
				want = keyList(o.keys)
			}
			if keyList(got) != want {
				t.Errorf("%s (%s): kept %s, want %s", name, e, keyList(got), want)
			}
		})
	}
}

// runExpr binds e to the table and returns the i64 values it keeps.
func runExpr(t *testing.T, tb *table, e expr.Expr) []int64 {
	t.Helper()
	p, err := expr.Bind(e, tb.schema)
	if err != nil {
		t.Fatalf("Bind(%s): %v", e, err)
	}
	var keys []int64
	for _, rec := range tb.batches {
		keep, err := p.Evaluate(rec)
		if err != nil {
			t.Fatalf("Evaluate(%s): %v", e, err)
		}
		col := rec.Column(rec.Schema().FieldIndices("i64")[0])
		for i, k := range keep {
			if k {
				keys = append(keys, col.(interface{ Value(int) int64 }).Value(i))
			}
		}
	}
	if keys == nil {
		keys = []int64{}
	}
	return keys
}

// TestFromSubstraitBadInput: hostile bytes are errors, never panics.
func TestFromSubstraitBadInput(t *testing.T) {
	for _, in := range [][]byte{nil, {0xff}, {0x0a, 0x05, 0x01}, []byte("not a protobuf at all")} {
		if _, _, err := expr.FromSubstrait(in); err == nil {
			t.Errorf("FromSubstrait(%q): no error", in)
		} else if !errors.Is(err, expr.ErrSyntax) && !errors.Is(err, expr.ErrUnsupported) {
			t.Errorf("FromSubstrait(%q): %v, want ErrSyntax or ErrUnsupported", in, err)
		}
	}
}

// FuzzFromSubstrait: any bytes decode to an error or to expressions that
// bind or fail to bind without panicking.
func FuzzFromSubstrait(f *testing.F) {
	data, err := os.ReadFile("testdata/substrait-pylance-14.0.2.tsv")
	if err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if parts := strings.Split(line, "\t"); len(parts) == 3 {
				if raw, err := base64.StdEncoding.DecodeString(parts[1]); err == nil {
					f.Add(raw)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		es, _, err := expr.FromSubstrait(raw)
		if err != nil {
			return
		}
		for _, e := range es {
			_ = e.String()
		}
	})
}
