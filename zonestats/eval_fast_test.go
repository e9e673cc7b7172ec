package zonestats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// fastCol is one column of the differential test: its type, a value
// drawn for row k, and a literal for it.
type fastCol struct {
	name string
	dt   arrow.DataType
	lit  func(r *rand.Rand) Literal
}

var fastCols = []fastCol{
	{"i8", arrow.PrimitiveTypes.Int8, func(r *rand.Rand) Literal { return Int64(r.Int64N(9) - 4) }},
	{"i32", arrow.PrimitiveTypes.Int32, func(r *rand.Rand) Literal { return Int64(r.Int64N(9) - 4) }},
	{"i64", arrow.PrimitiveTypes.Int64, func(r *rand.Rand) Literal { return Int64(r.Int64N(9) - 4) }},
	{"u8", arrow.PrimitiveTypes.Uint8, func(r *rand.Rand) Literal { return Uint64(r.Uint64N(9)) }},
	{"u64", arrow.PrimitiveTypes.Uint64, func(r *rand.Rand) Literal { return Uint64(r.Uint64N(9)) }},
	{"d32", arrow.FixedWidthTypes.Date32, func(r *rand.Rand) Literal { return Int64(r.Int64N(9) - 4) }},
	{"f32", arrow.PrimitiveTypes.Float32, func(r *rand.Rand) Literal {
		return Float32(math.Float32frombits(uint32(propFloatBits32[r.IntN(len(propFloatBits32))])))
	}},
	{"f64", arrow.PrimitiveTypes.Float64, func(r *rand.Rand) Literal {
		return Float64(math.Float64frombits(propFloats[r.IntN(len(propFloats))]))
	}},
	{"s", arrow.BinaryTypes.String, func(r *rand.Rand) Literal { return String(propStrings[r.IntN(len(propStrings))]) }},
	{"ls", arrow.BinaryTypes.LargeString, func(r *rand.Rand) Literal { return String(propStrings[r.IntN(len(propStrings))]) }},
	{"b", arrow.BinaryTypes.Binary, func(r *rand.Rand) Literal { return Binary([]byte(propStrings[r.IntN(len(propStrings))])) }},
}

// propFloatBits32 are float32 patterns: NaNs of both signs, infinities,
// both zeros, ±1 and 2.
var propFloatBits32 = []uint64{0x7fc00000, 0xffc00000, 0x7f800000, 0xff800000, 0, 0x80000000, 0x3f800000, 0xbf800000, 0x40000000}

// fastRecord builds rows random values (every column with nulls) and
// returns it sliced by one row, so that arrays have an offset.
func fastRecord(r *rand.Rand, mem memory.Allocator, rows int) arrow.RecordBatch {
	fields := make([]arrow.Field, len(fastCols))
	cols := make([]arrow.Array, len(fastCols))
	for k, c := range fastCols {
		fields[k] = arrow.Field{Name: c.name, Type: c.dt, Nullable: true}
		b := array.NewBuilder(mem, c.dt)
		for range rows + 1 {
			if r.IntN(6) == 0 {
				b.AppendNull()
				continue
			}
			appendRandom(r, b)
		}
		cols[k] = b.NewArray()
		b.Release()
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(rows+1))
	for _, c := range cols {
		c.Release()
	}
	defer rec.Release()
	return rec.NewSlice(1, int64(rows+1))
}

func appendRandom(r *rand.Rand, b array.Builder) {
	small := r.Int64N(9) - 4
	switch bb := b.(type) {
	case *array.Int8Builder:
		bb.Append(int8(small))
	case *array.Int32Builder:
		bb.Append(int32(small))
	case *array.Int64Builder:
		bb.Append(small)
	case *array.Uint8Builder:
		bb.Append(uint8(small + 4))
	case *array.Uint64Builder:
		bb.Append(uint64(small + 4))
	case *array.Date32Builder:
		bb.Append(arrow.Date32(small))
	case *array.Float32Builder:
		bb.Append(math.Float32frombits(uint32(propFloatBits32[r.IntN(len(propFloatBits32))])))
	case *array.Float64Builder:
		bb.Append(math.Float64frombits(propFloats[r.IntN(len(propFloats))]))
	case *array.StringBuilder:
		bb.Append(propStrings[r.IntN(len(propStrings))])
	case *array.LargeStringBuilder:
		bb.Append(propStrings[r.IntN(len(propStrings))])
	case *array.BinaryBuilder:
		bb.Append([]byte(propStrings[r.IntN(len(propStrings))]))
	}
}

// fastExpr draws a random filter over fastCols.
func fastExpr(r *rand.Rand, depth int) Expr {
	if depth > 0 && r.IntN(3) > 0 {
		switch r.IntN(3) {
		case 0:
			return And(fastExpr(r, depth-1), fastExpr(r, depth-1))
		case 1:
			return Or(fastExpr(r, depth-1), fastExpr(r, depth-1))
		}
		return Not(fastExpr(r, depth-1))
	}
	c := fastCols[r.IntN(len(fastCols))]
	switch r.IntN(10) {
	case 0:
		return Col(c.name).IsNull()
	case 1:
		return Col(c.name).IsNotNull()
	case 2:
		return Col(c.name).Cmp(Op(r.IntN(6)), Null())
	case 3:
		return Col(c.name).In(c.lit(r), c.lit(r))
	}
	return Col(c.name).Cmp(Op(r.IntN(6)), c.lit(r))
}

// TestFastEvaluateMatchesRowByRow checks the typed loops of Evaluate
// against its row-by-row path on random data and filters.
func TestFastEvaluateMatchesRowByRow(t *testing.T) {
	mem := newMem(t)
	r := rand.New(rand.NewPCG(7, 11))
	for round := range 40 {
		rec := fastRecord(r, mem, 200)
		for range 50 {
			e := fastExpr(r, 3)
			p, err := Bind(e, rec.Schema())
			if err != nil {
				t.Fatalf("Bind(%s): %v", e, err)
			}
			fast, err := p.Evaluate(rec)
			if err != nil {
				t.Fatal(err)
			}
			slowEval = true
			slow, err := p.Evaluate(rec)
			slowEval = false
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(fast) != fmt.Sprint(slow) {
				t.Fatalf("round %d: %s:\nfast %v\nslow %v", round, e, fast, slow)
			}
		}
		rec.Release()
	}
}
