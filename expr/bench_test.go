package expr

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// benchBatch is 64Ki rows: id int64 sequential, x float64 uniform in
// [0, 1) with 1% NULL, cat string of 8 values, name string of 20-byte
// random text, k int32 uniform in [0, 1000).
func benchBatch(b *testing.B) arrow.RecordBatch {
	b.Helper()
	const n = 1 << 16
	mem := memory.DefaultAllocator
	r := rand.New(rand.NewPCG(1, 2))
	ib := array.NewInt64Builder(mem)
	xb := array.NewFloat64Builder(mem)
	cb := array.NewStringBuilder(mem)
	nb := array.NewStringBuilder(mem)
	kb := array.NewInt32Builder(mem)
	cats := []string{"red", "green", "blue", "cyan", "magenta", "yellow", "black", "white"}
	buf := make([]byte, 20)
	for i := 0; i < n; i++ {
		ib.Append(int64(i))
		if r.IntN(100) == 0 {
			xb.AppendNull()
		} else {
			xb.Append(r.Float64())
		}
		cb.Append(cats[r.IntN(len(cats))])
		for j := range buf {
			buf[j] = byte('a' + r.IntN(26))
		}
		nb.Append(string(buf))
		kb.Append(int32(r.IntN(1000)))
	}
	cols := []arrow.Array{ib.NewArray(), xb.NewArray(), cb.NewArray(), nb.NewArray(), kb.NewArray()}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "cat", Type: arrow.BinaryTypes.String},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "k", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	rec := array.NewRecordBatch(schema, cols, n)
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// BenchmarkEvaluate measures evaluation throughput per filter kind
// (rows/s, reported as Mrows/s), over a 64Ki-row batch.
func BenchmarkEvaluate(b *testing.B) {
	rec := benchBatch(b)
	defer rec.Release()
	lit := func(v any) Expr { return Lit(v) }
	items := make([]Expr, 100)
	for i := range items {
		items[i] = lit(i * 7)
	}
	kinds := []struct {
		name string
		e    Expr
	}{
		{"int64_eq_0.002%", Eq(&Column{Name: "id"}, lit(4242))},
		{"int64_range_12%", And(Ge(&Column{Name: "id"}, lit(1000)), Lt(&Column{Name: "id"}, lit(1000+7864)))},
		{"float64_gt_50%", Gt(&Column{Name: "x"}, lit(0.5))},
		{"string_eq_12%", Eq(&Column{Name: "cat"}, lit("red"))},
		{"int32_in_100_10%", In(&Column{Name: "k"}, items...)},
		{"string_in_2_25%", In(&Column{Name: "cat"}, lit("red"), lit("blue"))},
		{"conjunction_3", And(Gt(&Column{Name: "x"}, lit(0.25)), Eq(&Column{Name: "cat"}, lit("red")), Lt(&Column{Name: "k"}, lit(500)))},
		{"or_not_null", Or(IsNullOf(&Column{Name: "x"}), NotOf(Lt(&Column{Name: "k"}, lit(10))))},
		{"like_prefix", LikeOf(&Column{Name: "name"}, "ab%")},
		{"starts_with", Fn("starts_with", &Column{Name: "name"}, lit("ab"))},
		{"arith_mod", Eq(&Binary{Op: OpMod, L: &Column{Name: "id"}, R: lit(5)}, lit(0))},
		{"lower_eq", Eq(Fn("lower", &Column{Name: "cat"}), lit("red"))},
	}
	for _, k := range kinds {
		p, err := Bind(k.e, rec.Schema())
		if err != nil {
			b.Run(k.name, func(b *testing.B) { b.Skipf("not bound yet: %v", err) })
			continue
		}
		b.Run(k.name, func(b *testing.B) {
			var keep []bool
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if keep, err = p.EvaluateInto(keep, rec); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rec.NumRows())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
}

// ExampleCompile shows a filter compiled once and evaluated per batch.
func ExampleCompile() {
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues([]int64{1, 5, 10, 15}, nil)
	ids := b.NewArray()
	rec := array.NewRecordBatch(schema, []arrow.Array{ids}, 4)
	p, err := Compile("id >= 5 AND id < 15", schema)
	if err != nil {
		fmt.Println(err)
		return
	}
	keep, _ := p.Evaluate(rec)
	fmt.Println(keep)
	// Output: [false true true false]
}
