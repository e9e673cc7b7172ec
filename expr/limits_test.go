package expr

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// limitsBatch is 1000 rows of x = row (Int64) and s = "v<row>".
func limitsBatch(t *testing.T) arrow.RecordBatch {
	t.Helper()
	mem := memory.DefaultAllocator
	xb, sb := array.NewInt64Builder(mem), array.NewStringBuilder(mem)
	defer xb.Release()
	defer sb.Release()
	for i := range 1000 {
		xb.Append(int64(i))
		sb.Append(fmt.Sprintf("v%d", i))
	}
	x, s := xb.NewArray(), sb.NewArray()
	defer x.Release()
	defer s.Release()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{x, s}, 1000)
}

// countSelected compiles sql over rec, evaluates it and counts the rows kept.
func countSelected(t *testing.T, rec arrow.RecordBatch, e Expr) int {
	t.Helper()
	p, err := Bind(e, rec.Schema())
	if err != nil {
		t.Fatalf("bind: %v", err)
	}
	sel, err := p.Evaluate(rec)
	if err != nil {
		t.Fatalf("evaluate: %v", err)
	}
	n := 0
	for _, k := range sel {
		if k {
			n++
		}
	}
	return n
}

// TestLongChainsAndLists: 1,000-term AND/OR chains and 5,000-item IN
// lists parse, bind and evaluate, from SQL and from the Go builder, in
// well under a second each; the expected counts follow from the data.
func TestLongChainsAndLists(t *testing.T) {
	rec := limitsBatch(t)
	defer rec.Release()
	var or, and, in, notIn []string
	var orB, andB, inB []Expr
	for i := range 1000 {
		or = append(or, fmt.Sprintf("x = %d", i*2))
		orB = append(orB, Eq(Col("x"), Lit(i*2)))
		and = append(and, fmt.Sprintf("x <> %d", i*3))
		andB = append(andB, NotEq(Col("x"), Lit(i*3)))
	}
	for i := range 5000 {
		in = append(in, fmt.Sprint(i*7))
		notIn = append(notIn, fmt.Sprintf("'v%d'", i*7))
		inB = append(inB, Lit(i*7))
	}
	for _, tc := range []struct {
		name string
		sql  string
		e    Expr
		want int
	}{
		{"or-1000", strings.Join(or, " OR "), Or(orB...), 500},
		{"and-1000", strings.Join(and, " AND "), And(andB...), 1000 - 334},
		{"in-5000", "x IN (" + strings.Join(in, ", ") + ")", In(Col("x"), inB...), 143},
		{"not-in-5000-strings", "s NOT IN (" + strings.Join(notIn, ", ") + ")", nil, 1000 - 143},
		{"mixed", "(" + strings.Join(or, " OR ") + ") AND (" + strings.Join(and, " AND ") + ")", And(Or(orB...), And(andB...)), 333},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			e, err := Parse(tc.sql)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if n := countSelected(t, rec, e); n != tc.want {
				t.Fatalf("SQL keeps %d rows, want %d", n, tc.want)
			}
			if tc.e != nil {
				if n := countSelected(t, rec, tc.e); n != tc.want {
					t.Fatalf("builder keeps %d rows, want %d", n, tc.want)
				}
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("took %v", d)
			}
		})
	}
}

// TestDeepBuilderTrees: trees built in Go (no parser to bound them) nest
// NOT, negation, parentheses-free arithmetic and casts 100,000 deep;
// binding refuses them with ErrBind instead of recursing without bound,
// and a tree within the bound binds and evaluates.
func TestDeepBuilderTrees(t *testing.T) {
	rec := limitsBatch(t)
	defer rec.Release()
	deep := map[string]func(Expr) Expr{
		"not":  func(e Expr) Expr { return NotOf(e) },
		"neg":  func(e Expr) Expr { return &Neg{X: e, At: -1} },
		"plus": func(e Expr) Expr { return Op(OpPlus, e, Lit(1)) },
		"cast": func(e Expr) Expr { return CastOf(e, arrow.PrimitiveTypes.Int64) },
		"fn":   func(e Expr) Expr { return Fn("abs", e) },
	}
	for name, wrap := range deep {
		t.Run(name, func(t *testing.T) {
			base := Expr(Col("x"))
			if name == "not" {
				base = Gt(Col("x"), Lit(10))
			}
			for _, n := range []int{100, 100_000} {
				e := base
				for range n {
					e = wrap(e)
				}
				if name != "not" {
					e = Gt(e, Lit(0))
				}
				_, err := Bind(e, rec.Schema())
				if n == 100 && err != nil {
					t.Fatalf("depth %d: %v", n, err)
				}
				if n == 100_000 && !errors.Is(err, ErrBind) {
					t.Fatalf("depth %d: err = %v, want ErrBind", n, err)
				}
			}
		})
	}
}

// TestBindErrorsName: a missing column, a type mismatch and an unknown
// function are ErrBind errors that name the column, the types and the
// function.
func TestBindErrorsName(t *testing.T) {
	rec := limitsBatch(t)
	defer rec.Release()
	for _, tc := range []struct {
		sql  string
		want []string
	}{
		{"nosuch > 1", []string{"nosuch"}},
		{"x > 1 AND other_col = 'a'", []string{"other_col"}},
		{"x = 'abc'", []string{"abc"}},
		{"x + s > 1", []string{"Int64", "Utf8"}},
		{"s > 1 AND s LIKE 5", []string{"s"}},
		{"frobnicate(x) = 1", []string{"frobnicate"}},
	} {
		e, err := Parse(tc.sql)
		if err != nil {
			t.Fatalf("%s: parse: %v", tc.sql, err)
		}
		_, err = Bind(e, rec.Schema())
		if !errors.Is(err, ErrBind) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("%s: err = %v, want ErrBind", tc.sql, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not name %q", tc.sql, err, w)
			}
		}
	}
}
