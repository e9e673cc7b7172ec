package expr

import (
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// coreBatch is x = [0.0, -0.0, 1.0, NaN, NULL, -NaN, -Inf] (float64),
// i = [1, 2, 3, 4, NULL, 6, 7] (int32), s = [a, b, NULL, B, é, "", a%] and
// b = [T, F, NULL, T, F, NULL, T]: filters.md's float example and its
// extensions, checked with pylance 14.0.2.
func coreBatch(t *testing.T) arrow.RecordBatch {
	t.Helper()
	mem := memory.DefaultAllocator
	fb := array.NewFloat64Builder(mem)
	defer fb.Release()
	negNaN := math.Float64frombits(0xfff8000000000000)
	fb.AppendValues([]float64{0, math.Copysign(0, -1), 1, math.NaN(), 0, negNaN, math.Inf(-1)}, []bool{true, true, true, true, false, true, true})
	ib := array.NewInt32Builder(mem)
	defer ib.Release()
	ib.AppendValues([]int32{1, 2, 3, 4, 0, 6, 7}, []bool{true, true, true, true, false, true, true})
	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	sb.AppendValues([]string{"a", "b", "", "B", "é", "", "a%"}, []bool{true, true, false, true, true, true, true})
	bb := array.NewBooleanBuilder(mem)
	defer bb.Release()
	bb.AppendValues([]bool{true, false, false, true, false, false, true}, []bool{true, true, false, true, true, false, true})
	x, i, s, b := fb.NewArray(), ib.NewArray(), sb.NewArray(), bb.NewArray()
	defer x.Release()
	defer i.Release()
	defer s.Release()
	defer b.Release()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{x, i, s, b}, 7)
}

// kept returns the 1-based positions e selects in rec.
func kept(t *testing.T, rec arrow.RecordBatch, e Expr) []int {
	t.Helper()
	p, err := Bind(e, rec.Schema())
	if err != nil {
		t.Errorf("Bind(%s): %v", e, err)
		return nil
	}
	keep, err := p.Evaluate(rec)
	if err != nil {
		t.Errorf("Evaluate(%s): %v", e, err)
		return nil
	}
	out := []int{}
	for i, k := range keep {
		if k {
			out = append(out, i+1)
		}
	}
	return out
}

func TestCoreSemantics(t *testing.T) {
	rec := coreBatch(t)
	defer rec.Release()
	x, i, s, b := &Column{Name: "x"}, &Column{Name: "I"}, Col("s"), Col("b")
	f := func(v float64) Expr { return &Literal{Kind: LitFloat, Float: v} }
	n := func(v int64) Expr { return &Literal{Kind: LitInt, Int: v} }
	str := func(v string) Expr { return &Literal{Kind: LitString, Str: v} }
	null := &Literal{Kind: LitNull}
	cases := []struct {
		name string
		e    Expr
		want []int
	}{
		// pylance 14.0.2 on the same data (filters.md's example extended)
		{"x = 0.0", Eq(x, f(0)), []int{1, 2}},
		{"x = -0.0", Eq(x, f(math.Copysign(0, -1))), []int{1, 2}},
		{"x < 0.0", Lt(x, f(0)), []int{6, 7}},
		{"x > 0.5", Gt(x, f(0.5)), []int{3, 4}},
		{"x != 1.0", NotEq(x, f(1)), []int{1, 2, 4, 6, 7}},
		{"x <= -0.0", Le(x, f(math.Copysign(0, -1))), []int{1, 2, 6, 7}},
		{"x >= 0.0", Ge(x, f(0)), []int{1, 2, 3, 4}},
		{"x = x", Eq(x, x), []int{1, 2, 3, 4, 6, 7}},
		{"x < 1e308", Lt(x, f(1e308)), []int{1, 2, 3, 6, 7}},
		{"x IN (-0.0)", In(x, f(math.Copysign(0, -1))), []int{1, 2}},
		{"x > 1e300", Gt(x, f(1e300)), []int{4}},
		{"x BETWEEN -0.0 AND 0.0", BetweenOf(x, f(math.Copysign(0, -1)), f(0)), []int{1, 2}},
		{"i = 3", Eq(i, n(3)), []int{3}},
		{"3 < i", Lt(n(3), i), []int{4, 6, 7}},
		{"i IN (1, NULL)", In(i, n(1), null), []int{1}},
		{"i NOT IN (1, NULL)", NotIn(i, n(1), null), []int{}},
		{"i NOT IN (1, 2)", NotIn(i, n(1), n(2)), []int{3, 4, 6, 7}},
		{"i = NULL", Eq(i, null), []int{}},
		{"i IS DISTINCT FROM 3", Op(OpIsDistinctFrom, i, n(3)), []int{1, 2, 4, 5, 6, 7}},
		{"i IS NOT DISTINCT FROM NULL", Op(OpIsNotDistinctFrom, i, null), []int{5}},
		{"NOT (i = 3)", NotOf(Eq(i, n(3))), []int{1, 2, 4, 6, 7}},
		{"i > 2 AND i < 7 AND i != 4", And(Gt(i, n(2)), Lt(i, n(7)), NotEq(i, n(4))), []int{3, 6}},
		{"i = 1 OR i IS NULL", Or(Eq(i, n(1)), IsNullOf(i)), []int{1, 5}},
		{"TRUE AND NULL", And(&Literal{Kind: LitBool, Bool: true}, null), []int{}},
		{"i = 3 OR NULL", Or(Eq(i, n(3)), null), []int{3}},
		{"b", b, []int{1, 4, 7}},
		{"NOT b", NotOf(b), []int{2, 5}},
		{"b IS NOT TRUE", &Is{X: b, Test: IsNotTrue}, []int{2, 3, 5, 6}},
		{"b IS FALSE", &Is{X: b, Test: IsFalse}, []int{2, 5}},
		{"b IS NOT FALSE", &Is{X: b, Test: IsNotFalse}, []int{1, 3, 4, 6, 7}},
		{"b = TRUE", Eq(b, &Literal{Kind: LitBool, Bool: true}), []int{1, 4, 7}},
		{"s > 'b'", Gt(s, str("b")), []int{5}},
		{"s >= 'a' AND s < 'b'", And(Ge(s, str("a")), Lt(s, str("b"))), []int{1, 7}},
		{"s IN ('a', '')", In(s, str("a"), str("")), []int{1, 6}},
		{"s = 'é'", Eq(s, str("é")), []int{5}},
		{"i < x (column against column, int32 vs float64; NaN is greatest)", Lt(i, x), []int{4}},
		{"i64 literal on the left", Eq(n(4), i), []int{4}},
	}
	for _, c := range cases {
		got := kept(t, rec, c.e)
		if !equalInts(got, c.want) {
			t.Errorf("%s (%s): kept %v, want %v", c.name, c.e, got, c.want)
		}
	}
}

func TestCoreRefusals(t *testing.T) {
	rec := coreBatch(t)
	defer rec.Release()
	i, b := Col("i"), Col("b")
	cases := []struct {
		name string
		e    Expr
	}{
		{"i = 3.0 (a float literal for an int column)", Eq(i, &Literal{Kind: LitFloat, Float: 3, Text: "3.0"})},
		{"i = '3'", Eq(i, &Literal{Kind: LitString, Str: "3"})},
		{"b = 1", Eq(b, &Literal{Kind: LitInt, Int: 1})},
		{"i IN (1, 2.5)", In(i, &Literal{Kind: LitInt, Int: 1}, &Literal{Kind: LitFloat, Float: 2.5})},
		{"i = 3000000000 (out of int32)", Eq(i, &Literal{Kind: LitInt, Int: 3000000000})},
		{"nope = 1", Eq(Col("nope"), &Literal{Kind: LitInt, Int: 1})},
		{"NULL", &Literal{Kind: LitNull}},
		{"i (not boolean)", i},
		{"unknown function", Fn("mod", i, &Literal{Kind: LitInt, Int: 2})},
	}
	for _, c := range cases {
		if _, err := Bind(c.e, rec.Schema()); err == nil {
			t.Errorf("%s: Bind(%s) succeeded, want an error", c.name, c.e)
		} else if !errors.Is(err, ErrBind) {
			t.Errorf("%s: %v does not wrap ErrBind", c.name, err)
		}
	}
}

// TestLongChains: a 1,000-term OR and a 5,000-item IN bind and evaluate.
func TestLongChains(t *testing.T) {
	rec := coreBatch(t)
	defer rec.Release()
	var terms, items []Expr
	for k := 0; k < 1000; k++ {
		terms = append(terms, Eq(Col("i"), &Literal{Kind: LitInt, Int: int64(k % 5)}))
	}
	for k := 0; k < 5000; k++ {
		items = append(items, &Literal{Kind: LitInt, Int: int64(k + 3)})
	}
	if got := kept(t, rec, Or(terms...)); !equalInts(got, []int{1, 2, 3, 4}) {
		t.Errorf("1,000-term OR kept %v", got)
	}
	if got := kept(t, rec, In(Col("i"), items...)); !equalInts(got, []int{3, 4, 6, 7}) {
		t.Errorf("5,000-item IN kept %v", got)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
