package zonestats

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// slowEval disables the typed loops of fastLeaf (tests compare both).
var slowEval = false

// Three-valued truth of one row.
const (
	triFalse uint8 = iota
	triTrue
	triNull
)

// colAccess reads one referenced column of a record batch.
type colAccess struct {
	arr    arrow.Array
	isNull nullFunc
	get    getter
	layout floatLayout
}

// Evaluate returns, for each row of rec, whether the row satisfies the
// predicate under SQL semantics (a NULL result is not selected). rec must
// have each referenced column by name with the bound type. Comparisons
// follow the same order as the seeds (IEEE totalOrder for floats), so a
// zone MayMatch prunes never holds a row Evaluate selects.
func (p *Predicate) Evaluate(rec arrow.RecordBatch) ([]bool, error) {
	cols, err := p.access(rec)
	if err != nil {
		return nil, err
	}
	n := int(rec.NumRows())
	tri := p.eval(p.root, cols, n)
	out := make([]bool, n)
	for i, t := range tri {
		out[i] = t == triTrue
	}
	return out, nil
}

// access resolves the referenced columns of rec.
func (p *Predicate) access(rec arrow.RecordBatch) ([]colAccess, error) {
	out := make([]colAccess, len(p.cols))
	schema := rec.Schema()
	for i, c := range p.cols {
		idx := schema.FieldIndices(c.name)
		if len(idx) != 1 {
			return nil, fmt.Errorf("%w: record has %d columns named %q", ErrMismatch, len(idx), c.name)
		}
		arr := rec.Column(idx[0])
		if !arrow.TypeEqual(arr.DataType(), c.info.dt) {
			return nil, fmt.Errorf("%w: column %q has type %s, predicate bound to %s", ErrMismatch, c.name, arr.DataType(), c.info.dt)
		}
		out[i].arr = arr
		out[i].isNull, out[i].get = accessor(arr)
		if c.info.isFloat() {
			out[i].layout = layoutFor(c.info.floatBits)
		}
	}
	return out, nil
}

// eval computes the three-valued result of n for all rows.
func (p *Predicate) eval(n *node, cols []colAccess, rows int) []uint8 {
	switch n.kind {
	case nAnd, nOr:
		return p.evalLogic(n, cols, rows)
	case nNot:
		out := p.eval(n.kids[0], cols, rows)
		for i, t := range out {
			if t != triNull {
				out[i] = 1 - t
			}
		}
		return out
	}
	return p.evalLeaf(n, &cols[n.col], rows)
}

// kleene holds Kleene AND (first 9) and OR (last 9) of two three-valued
// results, at index 3*a+b.
var kleene = [18]uint8{
	triFalse, triFalse, triFalse, triFalse, triTrue, triNull, triFalse, triNull, triNull,
	triFalse, triTrue, triNull, triTrue, triTrue, triTrue, triNull, triTrue, triNull,
}

// evalLogic combines children with Kleene AND or OR.
func (p *Predicate) evalLogic(n *node, cols []colAccess, rows int) []uint8 {
	var out []uint8
	tab := kleene[:9]
	if n.kind == nOr {
		tab = kleene[9:]
	}
	for _, k := range n.kids {
		kid := p.eval(k, cols, rows)
		if out == nil {
			out = kid
			continue
		}
		for i, t := range kid[:len(out)] {
			out[i] = tab[3*int(out[i])+int(t)]
		}
	}
	if out == nil { // no children: the identity
		out = make([]uint8, rows)
		if n.kind == nAnd {
			for i := range out {
				out[i] = triTrue
			}
		}
	}
	return out
}

// evalLeaf evaluates a leaf over all rows; null rows give NULL except for
// IS [NOT] NULL.
func (p *Predicate) evalLeaf(n *node, c *colAccess, rows int) []uint8 {
	out := make([]uint8, rows)
	if !slowEval && c.arr != nil && p.fastLeaf(n, c.arr, out) {
		return out
	}
	test := p.leafTest(n, c)
	for i := range out {
		isNull := c.isNull(i)
		switch n.kind {
		case nIsNull:
			out[i] = boolTri(isNull)
		case nIsNotNull:
			out[i] = boolTri(!isNull)
		default:
			if isNull {
				out[i] = triNull
			} else {
				out[i] = test(i)
			}
		}
	}
	return out
}

// leafTest returns the per-row test of a value leaf.
func (p *Predicate) leafTest(n *node, c *colAccess) func(i int) uint8 {
	cmpf := p.cols[n.col].cmp
	switch {
	case n.kind == nIsNaN:
		return func(i int) uint8 { nan, _ := c.layout.isNaN(c.get(i).u); return boolTri(nan) }
	case n.kind == nCmp && n.null:
		return func(int) uint8 { return triNull }
	case n.kind == nCmp:
		holds := opHolds(n.op)
		// one v per test (evalLeaf calls it sequentially): a v per row
		// escapes through cmpf and cost an allocation per value
		var v value
		return func(i int) uint8 { v = c.get(i); return boolTri(holds(cmpf(&v, &n.lit))) }
	case n.kind == nIn:
		miss := triFalse
		if n.null {
			miss = triNull
		}
		var v value
		return func(i int) uint8 {
			v = c.get(i)
			if p.inList(n, &v) {
				return triTrue
			}
			return miss
		}
	}
	return func(int) uint8 { return triNull }
}

// opHolds returns the test of a three-way comparison result for op.
func opHolds(op Op) func(c int) bool {
	switch op {
	case OpEq:
		return func(c int) bool { return c == 0 }
	case OpNotEq:
		return func(c int) bool { return c != 0 }
	case OpLt:
		return func(c int) bool { return c < 0 }
	case OpLtEq:
		return func(c int) bool { return c <= 0 }
	case OpGt:
		return func(c int) bool { return c > 0 }
	}
	return func(c int) bool { return c >= 0 }
}

// boolTri converts a bool to TRUE/FALSE.
func boolTri(b bool) uint8 {
	if b {
		return triTrue
	}
	return triFalse
}
