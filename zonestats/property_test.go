package zonestats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// propFloats are the float64 values the property test draws from.
var propFloats = []uint64{posNaN, negNaN, 0xfff8000000000001, posInf, negInf, 0, negZero, one, 0xbff0000000000000, 0x4000000000000000}

// propStrings are the strings the property test draws from.
var propStrings = []string{"", "a", "ab", "abc", "b", "ba", "\xff", "zz"}

// propRecord builds a random record with columns i (int64), f (float64),
// s (utf8) and u (uint64), with nulls; sorted clusters rows by value.
func propRecord(r *rand.Rand, mem memory.Allocator, rows int, sorted bool) arrow.RecordBatch {
	ints := make([]int64, rows)
	uints := make([]uint64, rows)
	for k := range ints {
		ints[k] = r.Int64N(100) - 50
		uints[k] = math.MaxUint64 - r.Uint64N(100)
		if r.IntN(2) == 0 {
			uints[k] = r.Uint64N(100)
		}
	}
	if sorted {
		slices.Sort(ints)
		slices.Sort(uints)
	}
	ib, fb, sb, ub := array.NewInt64Builder(mem), array.NewFloat64Builder(mem), array.NewStringBuilder(mem), array.NewUint64Builder(mem)
	defer ib.Release()
	defer fb.Release()
	defer sb.Release()
	defer ub.Release()
	for k := 0; k < rows; k++ {
		null := r.IntN(8) == 0
		appendOrNull(ib, null, func() { ib.Append(ints[k]) })
		appendOrNull(fb, r.IntN(8) == 0, func() { fb.Append(math.Float64frombits(propFloats[r.IntN(len(propFloats))])) })
		appendOrNull(sb, r.IntN(8) == 0, func() { sb.Append(propStrings[r.IntN(len(propStrings))]) })
		appendOrNull(ub, r.IntN(8) == 0, func() { ub.Append(uints[k]) })
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}, {Name: "u", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
	}, nil)
	cols := []arrow.Array{ib.NewArray(), fb.NewArray(), sb.NewArray(), ub.NewArray()}
	rec := array.NewRecordBatch(schema, cols, int64(rows))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

func appendOrNull(b array.Builder, null bool, add func()) {
	if null {
		b.AppendNull()
	} else {
		add()
	}
}

// randLiteral draws a literal for column col.
func randLiteral(r *rand.Rand, col string) Literal {
	if r.IntN(15) == 0 {
		return Null()
	}
	switch col {
	case "i":
		return Int64(r.Int64N(120) - 60)
	case "f":
		return Float64(math.Float64frombits(propFloats[r.IntN(len(propFloats))]))
	case "s":
		return String(propStrings[r.IntN(len(propStrings))])
	}
	if r.IntN(2) == 0 {
		return Uint64(r.Uint64N(110))
	}
	return Uint64(math.MaxUint64 - r.Uint64N(110))
}

// randExpr draws a random filter tree.
func randExpr(r *rand.Rand, depth int) Expr {
	cols := []string{"i", "f", "s", "u"}
	if depth > 0 && r.IntN(3) > 0 {
		switch r.IntN(3) {
		case 0:
			return And(randExpr(r, depth-1), randExpr(r, depth-1))
		case 1:
			return Or(randExpr(r, depth-1), randExpr(r, depth-1))
		}
		return Not(randExpr(r, depth-1))
	}
	c := cols[r.IntN(len(cols))]
	switch r.IntN(8) {
	case 0:
		return Col(c).IsNull()
	case 1:
		return Col(c).IsNotNull()
	case 2:
		if c == "f" {
			return Col(c).IsNaN()
		}
		return Col(c).In(randLiteral(r, c), randLiteral(r, c), randLiteral(r, c))
	}
	return Col(c).Cmp(Op(r.IntN(6)), randLiteral(r, c))
}

// seedsOf collects and parses seeds of every column of rec.
func seedsOf(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch, rpz uint64) map[string]*Seed {
	seeds := map[string]*Seed{}
	for k, f := range rec.Schema().Fields() {
		data := collect(t, mem, f.Type, rpz, true, rec.Column(k))
		s, err := ParseSeed(data, f.Type, rpz, uint64(rec.NumRows()), mem)
		if err != nil {
			t.Fatal(err)
		}
		seeds[f.Name] = s
	}
	return seeds
}

func TestPropertyNeverPrunesAMatch(t *testing.T) {
	mem := newMem(t)
	const rows, rpz = 300, 16
	pruned, total := 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		rec := propRecord(r, mem, rows, seed%2 == 0)
		seeds := seedsOf(t, mem, rec, rpz)
		for k := 0; k < 50; k++ {
			e := randExpr(r, 3)
			p, err := Bind(e, rec.Schema())
			if err != nil {
				t.Fatalf("Bind(%s): %v", e, err)
			}
			mask, err := p.MayMatch(seeds, rpz, rows)
			if err != nil {
				t.Fatal(err)
			}
			sel, err := p.Evaluate(rec)
			if err != nil {
				t.Fatal(err)
			}
			for row, ok := range sel {
				if ok && !mask[row/rpz] {
					t.Fatalf("seed %d: %s pruned zone %d holding matching row %d", seed, e, row/rpz, row)
				}
			}
			for _, m := range mask {
				total++
				if !m {
					pruned++
				}
			}
		}
		rec.Release()
	}
	t.Logf("pruned %d of %d zones", pruned, total)
}

func TestPruningSkipsClusteredZones(t *testing.T) {
	mem := newMem(t)
	const rows, rpz = 300, 16
	r := rand.New(rand.NewPCG(3, 3))
	rec := propRecord(r, mem, rows, true)
	defer rec.Release()
	seeds := seedsOf(t, mem, rec, rpz)
	for _, f := range []string{"i < -40", "i >= 45 AND i IS NOT NULL", "u > 200", "NOT (i > -40)"} {
		e, _ := ParseFilter(f)
		p, err := Bind(e, rec.Schema())
		if err != nil {
			t.Fatal(err)
		}
		mask, _ := p.MayMatch(seeds, rpz, rows)
		n := 0
		for _, m := range mask {
			if !m {
				n++
			}
		}
		if n < len(mask)/2 {
			t.Errorf("%s pruned only %d of %d zones of sorted data: %v", f, n, len(mask), fmt.Sprint(mask))
		}
	}
}
