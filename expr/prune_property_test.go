package expr

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/zonestats"
)

// The pruning property: for random data, zone sizes and filters, every
// row the evaluator selects lies in a zone MayMatch keeps (so a pruned
// scan returns what an unpruned one does), MayMatchStats of a file
// summary keeps any file with a selected row, and pruning does drop a
// fair share of the zones holding no selected row.

// propSchema is the schema of the random batches.
var propSchema = arrow.NewSchema([]arrow.Field{
	{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "l", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "u", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
	{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "g", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
}, nil)

// Special floats: NaNs of both signs and two payloads, zeros, infinities.
var propFloats = []float64{
	math.NaN(), math.Float64frombits(0xFFF8000000000000), math.Float64frombits(0x7FF0000000000001),
	math.Float64frombits(0xFFF0000000000001), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1),
	-2.5, -1, -0.5, 0.5, 1, 1.5, 2, 3.25, 1e300, -1e300,
}

// propStrings are the strings the batches and the filters draw from.
var propStrings = []string{"", "a", "aa", "ab", "abc", "b", "ba", "bab", "bb", "c", "ca", "cz", "d", "\xff", "\xffa", "\xff\xff"}

// orderMode picks how a column's values follow the row number: sorted
// columns (the case zone maps are for) prune, random ones rarely do.
type orderMode int

const (
	ordAsc orderMode = iota
	ordDesc
	ordRandom
	ordRuns
)

// propGen generates values of one column: a sorted draw from a pool.
type propGen struct {
	rng  *rand.Rand
	mode orderMode
	n    int
	null float64 // probability of NULL
}

// positions returns, for n rows, indexes into a pool of size m in the
// order of the mode.
func (g *propGen) positions(m int) []int {
	idx := make([]int, g.n)
	for i := range idx {
		idx[i] = g.rng.IntN(m)
	}
	switch g.mode {
	case ordAsc:
		slices.Sort(idx)
	case ordDesc:
		slices.Sort(idx)
		slices.Reverse(idx)
	case ordRuns:
		for i := range idx {
			if i > 0 && g.rng.IntN(8) != 0 {
				idx[i] = idx[i-1]
			}
		}
	}
	return idx
}

func (g *propGen) valid() []bool {
	v := make([]bool, g.n)
	for i := range v {
		v[i] = g.rng.Float64() >= g.null
	}
	return v
}

// propBatch builds a random batch of n rows.
func propBatch(rng *rand.Rand, n int) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	gen := func() *propGen {
		nulls := []float64{0, 0, 0.05, 0.3, 1}[rng.IntN(5)]
		return &propGen{rng: rng, mode: orderMode(rng.IntN(4)), n: n, null: nulls}
	}
	cols := make([]arrow.Array, 0, 8)
	ints := make([]int64, 0, 140)
	for v := int64(-60); v <= 60; v++ {
		ints = append(ints, v)
	}
	ints = append(ints, math.MinInt32, math.MaxInt32, math.MinInt32+1, math.MaxInt32-3)
	slices.Sort(ints)
	{
		g := gen()
		b := array.NewInt32Builder(mem)
		pos, valid := g.positions(len(ints)), g.valid()
		for k, p := range pos {
			if valid[k] {
				b.Append(int32(ints[p]))
			} else {
				b.AppendNull()
			}
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	{
		g := gen()
		longs := append(slices.Clone(ints), math.MinInt64, math.MaxInt64, math.MaxInt64-1)
		slices.Sort(longs)
		b := array.NewInt64Builder(mem)
		pos, valid := g.positions(len(longs)), g.valid()
		for k, p := range pos {
			if valid[k] {
				b.Append(longs[p])
			} else {
				b.AppendNull()
			}
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	{
		g := gen()
		b := array.NewUint16Builder(mem)
		pos, valid := g.positions(130), g.valid()
		for k, p := range pos {
			v := uint16(p)
			if p >= 125 {
				v = math.MaxUint16 - uint16(p-125)
			}
			if valid[k] {
				b.Append(v)
			} else {
				b.AppendNull()
			}
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	floats := slices.Clone(propFloats)
	slices.SortFunc(floats, func(a, b float64) int { return cmpTotal64(a, b) })
	for _, w := range []int{64, 32} {
		g := gen()
		pos, valid := g.positions(len(floats)), g.valid()
		if w == 64 {
			b := array.NewFloat64Builder(mem)
			for k, p := range pos {
				if valid[k] {
					b.Append(floats[p])
				} else {
					b.AppendNull()
				}
			}
			cols = append(cols, b.NewArray())
			b.Release()
			continue
		}
		b := array.NewFloat32Builder(mem)
		for k, p := range pos {
			if valid[k] {
				b.Append(float32(floats[p]))
			} else {
				b.AppendNull()
			}
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	{
		g := gen()
		b := array.NewStringBuilder(mem)
		pos, valid := g.positions(len(propStrings)), g.valid()
		for k, p := range pos {
			if valid[k] {
				b.Append(propStrings[p])
			} else {
				b.AppendNull()
			}
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	{
		g := gen()
		b := array.NewBooleanBuilder(mem)
		pos, valid := g.positions(2), g.valid()
		for k, p := range pos {
			if valid[k] {
				b.Append(p == 1)
			} else {
				b.AppendNull()
			}
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	{
		g := gen()
		b := array.NewDate32Builder(mem)
		pos, valid := g.positions(len(ints)), g.valid()
		for k, p := range pos {
			if valid[k] {
				b.Append(arrow.Date32(ints[p]))
			} else {
				b.AppendNull()
			}
		}
		cols = append(cols, b.NewArray())
		b.Release()
	}
	rec := array.NewRecordBatch(propSchema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// filterGen builds random filters over propSchema.
type filterGen struct{ rng *rand.Rand }

func (g *filterGen) pick(n int) int { return g.rng.IntN(n) }

// numCol returns a numeric column and a literal of a fitting value.
func (g *filterGen) numCol() (Expr, func() Expr) {
	switch g.pick(5) {
	case 0:
		return Col("i"), g.intLit
	case 1:
		return Col("l"), g.intLit
	case 2:
		return Col("u"), func() Expr { return Lit(g.pick(140)) }
	case 3:
		return Col("f"), g.floatLit64
	}
	return Col("g"), g.floatLit32
}

func (g *filterGen) intLit() Expr {
	if g.pick(20) == 0 {
		return Lit([]int64{math.MinInt32, math.MaxInt32, math.MinInt64, math.MaxInt64}[g.pick(4)])
	}
	return Lit(g.pick(131) - 65)
}

func (g *filterGen) floatLit64() Expr {
	if g.pick(3) == 0 {
		return Typed(floatTo(memory.DefaultAllocator, propFloats[g.pick(len(propFloats))], arrow.PrimitiveTypes.Float64))
	}
	return Lit(float64(g.pick(13)-6) / 2)
}

func (g *filterGen) floatLit32() Expr {
	if g.pick(3) == 0 {
		return Typed(floatTo(memory.DefaultAllocator, propFloats[g.pick(len(propFloats))], arrow.PrimitiveTypes.Float32))
	}
	return Lit(float64(g.pick(13)-6) / 2)
}

func (g *filterGen) strLit() Expr { return Lit(propStrings[g.pick(len(propStrings))]) }

// value returns a value expression and a literal generator of its type:
// a column, or arithmetic of a column with a constant.
func (g *filterGen) value() (Expr, func() Expr) {
	if g.pick(5) == 0 {
		return Col("s"), g.strLit
	}
	c, lit := g.numCol()
	for k := g.pick(2); k >= 0; k-- {
		switch g.pick(9) {
		case 0:
			c = Op([]BinaryOp{OpPlus, OpMinus, OpMul}[g.pick(3)], c, lit())
		case 1:
			c = Op([]BinaryOp{OpPlus, OpMinus, OpMul}[g.pick(3)], lit(), c)
		case 2:
			c = &Neg{X: c, At: -1}
		case 3:
			d := lit()
			if l, ok := d.(*Literal); ok && (l.Kind == LitInt && l.Int == 0 || l.Kind == LitFloat && l.Float == 0) {
				d = Lit(3)
			}
			c = Op(OpDiv, c, d)
		case 4:
			c = &Cast{X: c, Type: arrow.PrimitiveTypes.Int64, Try: g.pick(2) == 0, At: -1}
			lit = g.intLit
		case 5:
			c = &Cast{X: c, Type: arrow.PrimitiveTypes.Float64, Try: g.pick(2) == 0, At: -1}
			lit = g.floatLit64
		}
	}
	return c, lit
}

// likePatterns are the LIKE patterns of the filters: prefixes, exact
// strings, _ and inner %, escapes.
var likePatterns = []string{"%", "%%", "a%", "ab%", "b%", "a_%", "a%b", "_", "ab", "", "%a", "%a%", "b_", "\\%%", "\xff%", "c%a%"}

var propCmpOps = []BinaryOp{OpEq, OpNotEq, OpLt, OpLtEq, OpGt, OpGtEq, OpIsDistinctFrom, OpIsNotDistinctFrom}

// leaf returns a random predicate without AND/OR/NOT.
func (g *filterGen) leaf() Expr {
	switch g.pick(13) {
	case 0, 1, 2:
		v, lit := g.value()
		l, r := v, lit()
		if g.pick(8) == 0 {
			r = Lit(nil)
		}
		if g.pick(2) == 0 {
			l, r = r, l
		}
		return Op(propCmpOps[g.pick(len(propCmpOps))], l, r)
	case 3:
		v, lit := g.value()
		return &Between{X: v, Lo: lit(), Hi: lit(), Not: g.pick(3) == 0, At: -1}
	case 4:
		v, lit := g.value()
		items := make([]Expr, 1+g.pick(4))
		for k := range items {
			items[k] = lit()
			if g.pick(6) == 0 {
				items[k] = Lit(nil)
			}
		}
		if g.pick(6) == 0 {
			items = append(items, Col("i"))
		}
		return &InList{X: v, List: items, Not: g.pick(2) == 0, At: -1}
	case 5:
		v, _ := g.value()
		return &Is{X: v, Test: []IsTest{IsNull, IsNotNull}[g.pick(2)], At: -1}
	case 6:
		p := propStrings[g.pick(len(propStrings))] + "%"
		if g.pick(2) == 0 {
			p = likePatterns[g.pick(len(likePatterns))]
		}
		return &Like{X: Col("s"), Pattern: Lit(p), Not: g.pick(3) == 0, CaseInsensitive: g.pick(6) == 0, At: -1}
	case 7:
		return Fn("starts_with", Col("s"), Lit(propStrings[g.pick(len(propStrings))]))
	case 8:
		return Fn("isnan", Col([]string{"f", "g"}[g.pick(2)]))
	case 9:
		b := Col("b")
		if g.pick(2) == 0 {
			return b
		}
		return Eq(b, Lit(g.pick(2) == 0))
	case 11:
		unit := arrow.TimeUnit(g.pick(4))
		ups := [...]int64{1, 1e3, 1e6, 1e9}[unit]
		v := (int64(g.pick(131)-65)*86400 + int64(g.pick(3)-1)*3600) * ups
		tb := array.NewTimestampBuilder(memory.DefaultAllocator, &arrow.TimestampType{Unit: unit})
		defer tb.Release()
		tb.Append(arrow.Timestamp(v))
		c := Typed(tb.NewArray())
		if g.pick(2) == 0 {
			return Op(propCmpOps[g.pick(len(propCmpOps))], c, Col("d"))
		}
		return Op(propCmpOps[g.pick(len(propCmpOps))], Col("d"), c)
	case 10:
		a, _ := g.numCol()
		c, _ := g.numCol()
		return Op(propCmpOps[g.pick(6)], a, c)
	}
	return Lt(Col("i"), Col("l"))
}

// filter returns a random predicate of the given depth.
func (g *filterGen) filter(depth int) Expr {
	if depth == 0 || g.pick(3) == 0 {
		return g.leaf()
	}
	switch g.pick(6) {
	case 0, 1:
		return And(g.filter(depth-1), g.filter(depth-1))
	case 2, 3:
		return Or(g.filter(depth-1), g.filter(depth-1))
	case 4:
		return NotOf(g.filter(depth - 1))
	}
	return &Is{X: g.filter(depth - 1), Test: IsTest(2 + g.pick(4)), At: -1}
}

func TestPruneProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	batches, perBatch := 120, 40
	if testing.Short() {
		batches = 30
	}
	var bound, refused, evalErr, emptyZones, prunedZones, simpleEmpty, simplePruned int
	refusedBy := map[string]int{}
	fg := &filterGen{rng: rng}
	for it := 0; it < batches; it++ {
		n := 1 + rng.IntN(400)
		rec := propBatch(rng, n)
		seedZone := uint64(1 + rng.IntN(64))
		askZone := seedZone
		if rng.IntN(4) == 0 {
			askZone = uint64(1 + rng.IntN(64))
		}
		seeds := map[string]*zonestats.Seed{}
		summary := map[string]zonestats.Stats{}
		zoned := map[string][]zonestats.Stats{} // the seeds' zones at askZone
		for c, f := range propSchema.Fields() {
			if rng.IntN(10) == 0 {
				continue // a column without a seed
			}
			s := seedOf(t, rec.Column(c), seedZone)
			seeds[f.Name] = s
			sum, err := s.Summary()
			if err != nil {
				t.Fatal(err)
			}
			summary[f.Name] = sum
			if zoned[f.Name], err = s.ZonesOf(askZone, uint64(n)); err != nil {
				t.Fatal(err)
			}
		}
		for k := 0; k < perBatch; k++ {
			depth := rng.IntN(4)
			e := fg.filter(depth)
			p, err := Bind(e, propSchema)
			if err != nil {
				if !errors.Is(err, ErrBind) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrEval) {
					t.Fatalf("%s: bind: %v", e, err)
				}
				refused++
				msg := err.Error()
				if i := strings.Index(msg, "(at"); i > 0 {
					msg = msg[:i]
				}
				refusedBy[msg]++
				continue
			}
			sel, err := p.Evaluate(rec)
			if err != nil {
				evalErr++
				continue
			}
			bound++
			keep, err := p.MayMatch(seeds, askZone, uint64(n))
			if err != nil {
				t.Fatalf("%s: MayMatch: %v", e, err)
			}
			any := make([]bool, len(keep))
			for r, s := range sel {
				z := uint64(r) / askZone
				if z >= uint64(len(keep)) {
					t.Fatalf("%s: %d zones for %d rows of %d", e, len(keep), n, askZone)
				}
				if s {
					any[z] = true
					if !keep[z] {
						t.Fatalf("%s: row %d (of %d, zones of %d, seed zones of %d) is selected but zone %d is pruned\n%v",
							e, r, n, askZone, seedZone, z, rec)
					}
				}
			}
			if len(zoned) > 0 {
				z := rng.IntN(len(keep))
				one := map[string]zonestats.Stats{}
				for name, zs := range zoned {
					one[name] = zs[z]
				}
				if got := p.MayMatchStats(one); got != keep[z] {
					t.Fatalf("%s: MayMatchStats of zone %d is %v, MayMatch %v", e, z, got, keep[z])
				}
			}
			if slices.Contains(sel, true) && !p.MayMatchStats(summary) {
				t.Fatalf("%s: rows selected but the file summary is pruned", e)
			}
			for z := range keep {
				if !any[z] {
					emptyZones++
					if !keep[z] {
						prunedZones++
					}
					if depth == 0 && seedZone == askZone {
						simpleEmpty++
						if !keep[z] {
							simplePruned++
						}
					}
				}
			}
		}
		rec.Release()
	}
	t.Logf("%d filters checked, %d refused by Bind, %d failed to evaluate; pruned %d of %d zones without a selected row (simple filters: %d of %d)",
		bound, refused, evalErr, prunedZones, emptyZones, simplePruned, simpleEmpty)
	for msg, c := range refusedBy {
		if c > 20 {
			t.Logf("refused %d times: %s", c, msg)
		}
	}
	if bound < batches*perBatch/3 {
		t.Errorf("only %d of %d filters bound", bound, batches*perBatch)
	}
	if emptyZones == 0 || float64(prunedZones) < 0.3*float64(emptyZones) {
		t.Errorf("pruned %d of %d zones without a selected row; want at least 30%%", prunedZones, emptyZones)
	}
	if simpleEmpty == 0 || float64(simplePruned) < 0.5*float64(simpleEmpty) {
		t.Errorf("simple filters pruned %d of %d zones without a selected row; want at least 50%%", simplePruned, simpleEmpty)
	}
}
