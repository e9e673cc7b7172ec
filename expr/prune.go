package expr

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/zonestats"
)

// Pruning runs the bound tree over a zone's statistics instead of its
// rows, in three-valued logic: for every boolean node it computes which
// of TRUE, FALSE and NULL some row of the zone may give (a tri), and for
// every value node a superset of the values its rows may take (an aval:
// intervals in the comparison order of the evaluator, plus whether NULL
// may occur). A zone is dropped only when the root cannot be TRUE. Any
// shape the pruner does not understand may be anything, so it never
// drops a row the evaluator selects: NOT, IS TRUE and IS NOT FALSE work
// because FALSE and NULL are tracked apart.
//
// Values compare as the evaluator compares them (cmp.go): floats by
// their total order (NaNs outside ±Inf by sign, -0.0 below 0.0 between
// two columns, equal to it against a constant),
// strings and binaries by bytes, decimals as integers.

// MayMatch returns, for each zone of rowsPerZone rows of a data file with
// rows rows, whether a row of that zone may satisfy the predicate. seeds
// maps top-level column names to the file's validated zone seeds; a
// referenced column without a seed cannot prune. A seed with another zone
// size is merged onto the requested zones. A false entry proves that no
// row of the zone is selected. A seed of another type than the bound
// column, or not covering rows rows, gives ErrMismatch.
func (p *Predicate) MayMatch(seeds map[string]*zonestats.Seed, rowsPerZone, rows uint64) ([]bool, error) {
	if rowsPerZone == 0 {
		return nil, fmt.Errorf("%w: rowsPerZone is 0", ErrMismatch)
	}
	n := rows / rowsPerZone
	if rows%rowsPerZone != 0 {
		n++
	}
	perSlot := make([][]zonestats.Stats, len(p.slots))
	for i, s := range p.slots {
		seed := seeds[s.name]
		if seed == nil {
			continue
		}
		if !arrow.TypeEqual(seed.Type(), s.typ) {
			return nil, fmt.Errorf("%w: the seed of column %q has type %s, the filter reads it as %s", ErrMismatch, s.name, seed.Type(), s.typ)
		}
		zs, err := seed.ZonesOf(rowsPerZone, rows)
		if err != nil {
			return nil, fmt.Errorf("%w: column %q: %w", ErrMismatch, s.name, err)
		}
		if uint64(len(zs)) != n {
			return nil, fmt.Errorf("%w: the seed of column %q has %d zones, not %d", ErrMismatch, s.name, len(zs), n)
		}
		perSlot[i] = zs
	}
	pr := newPruner(p)
	out := make([]bool, n)
	for k := range out {
		for i, zs := range perSlot {
			pr.zone[i] = nil
			if zs != nil {
				pr.zone[i] = &zs[k]
			}
		}
		pr.newZone()
		out[k] = pr.truth(p.root)&mayT != 0
	}
	return out, nil
}

// MayMatchStats reports whether a row summarized by stats (column name →
// statistics of the same rows) may satisfy the predicate; false proves
// that none does. A missing column, or statistics of another type than
// the bound column, cannot prune.
func (p *Predicate) MayMatchStats(stats map[string]zonestats.Stats) bool {
	pr := newPruner(p)
	for i, s := range p.slots {
		if st, ok := stats[s.name]; ok && st.Type() != nil && arrow.TypeEqual(st.Type(), s.typ) {
			pr.zone[i] = &st
		}
	}
	pr.newZone()
	return pr.truth(p.root)&mayT != 0
}

// tri is a set of the outcomes a boolean node may have on a zone's rows.
type tri uint8

const (
	mayT tri = 1 << iota
	mayF
	mayN
	triAll = mayT | mayF | mayN
)

// swapTF exchanges TRUE and FALSE (NOT).
func swapTF(t tri) tri { return t&mayN | (t&mayT)<<1 | (t&mayF)>>1 }

// pruner evaluates a predicate over the statistics of one zone at a time.
type pruner struct {
	p      *Predicate
	mem    memory.Allocator
	zone   []*zonestats.Stats // by slot; nil: unknown
	cols   []aval             // the zone's column values, by slot
	colOK  []bool             // cols[i] computed for this zone
	consts map[*constNode]aval
	sets   map[*inNode][]pkey // the sorted constant items of IN lists
}

func newPruner(p *Predicate) *pruner {
	n := len(p.slots)
	return &pruner{p: p, mem: p.mem, zone: make([]*zonestats.Stats, n), cols: make([]aval, n),
		colOK: make([]bool, n), consts: map[*constNode]aval{}, sets: map[*inNode][]pkey{}}
}

// newZone forgets the column values of the previous zone.
func (pr *pruner) newZone() { clear(pr.colOK) }

// truth is the tri of boolean node n.
func (pr *pruner) truth(n node) tri {
	if t, ok := pr.logic(n); ok {
		return t
	}
	v := pr.value(n)
	if n.dataType().ID() != arrow.BOOL || v.dom != pdUint {
		return triAll
	}
	var t tri
	if v.null {
		t |= mayN
	}
	one, zero := point(pkey{u: 1}), point(pkey{u: 0})
	for i := range v.ivs {
		if v.dom.sat(OpEq, &v.ivs[i], &one) {
			t |= mayT
		}
		if v.dom.sat(OpEq, &v.ivs[i], &zero) {
			t |= mayF
		}
	}
	return t
}

// logic computes the tri of the boolean node shapes the pruner knows.
func (pr *pruner) logic(n node) (tri, bool) {
	switch x := n.(type) {
	case *dictNode:
		return pr.truth(x.inner), true
	case *logicNode:
		return pr.andOr(x), true
	case *notNode:
		return swapTF(pr.truth(x.x)), true
	case *isNode:
		return pr.is(x), true
	case *cmpNode:
		_, lc := x.l.(*constNode)
		_, rc := x.r.(*constNode)
		return compareTri(x.op, pr.value(x.l), pr.value(x.r), lc || rc), true
	case *inNode:
		return pr.in(x), true
	case *likeNode:
		return pr.like(x)
	}
	if _, _, ok := funcCall(n); ok {
		return pr.call(n)
	}
	return 0, false
}

// andOr is the tri of AND or OR, in SQL's three-valued logic.
func (pr *pruner) andOr(x *logicNode) tri {
	// For AND (OR is the mirror image): TRUE needs every kid TRUE, FALSE
	// one kid FALSE, NULL no kid FALSE and one NULL.
	win, lose := mayF, mayT // the outcome one kid decides, and its opposite
	if !x.and {
		win, lose = mayT, mayF
	}
	allLose, anyWin, noneWin, anyN := true, false, true, false
	for _, k := range x.kids {
		t := pr.truth(k)
		allLose = allLose && t&lose != 0
		anyWin = anyWin || t&win != 0
		noneWin = noneWin && t&(lose|mayN) != 0
		anyN = anyN || t&mayN != 0
		if t == win { // this kid decides every row
			return win
		}
	}
	var out tri
	if allLose {
		out |= lose
	}
	if anyWin {
		out |= win
	}
	if noneWin && anyN {
		out |= mayN
	}
	return out
}

// is is the tri of x IS [NOT] NULL/TRUE/FALSE (never NULL).
func (pr *pruner) is(x *isNode) tri {
	var yes, no bool
	switch x.test {
	case IsNull, IsNotNull:
		v := pr.value(x.x)
		yes, no = v.null, len(v.ivs) > 0
		if x.test == IsNotNull {
			yes, no = no, yes
		}
	default:
		t := pr.truth(x.x)
		want := mayT
		if x.test == IsFalse || x.test == IsNotFalse {
			want = mayF
		}
		yes, no = t&want != 0, t&^want != 0
		if x.test == IsNotTrue || x.test == IsNotFalse {
			yes, no = no, yes
		}
	}
	var t tri
	if yes {
		t |= mayT
	}
	if no {
		t |= mayF
	}
	return t
}

// value is the aval of node n.
func (pr *pruner) value(n node) aval {
	switch x := n.(type) {
	case *constNode:
		return pr.constant(x)
	case *colNode:
		return pr.column(x)
	}
	if n.dataType().ID() == arrow.BOOL {
		if t, ok := pr.logic(n); ok {
			v := aval{dom: pdUint, null: t&mayN != 0}
			if t&mayF != 0 {
				v.ivs = append(v.ivs, point(pkey{u: 0}))
			}
			if t&mayT != 0 {
				v.ivs = append(v.ivs, point(pkey{u: 1}))
			}
			return v
		}
	}
	if v, ok := pr.derived(n); ok {
		return v
	}
	return unknown(n.dataType())
}

// constant is the aval of a constant (cached: it is the same every zone).
func (pr *pruner) constant(c *constNode) aval {
	if v, ok := pr.consts[c]; ok {
		return v
	}
	d := domOf(c.dataType())
	v := aval{dom: d, null: true}
	if !nullConst(c) {
		v = unknown(c.dataType())
		if k, ok := keyAt(d, c.val, 0); ok {
			v = aval{dom: d, ivs: []ival{point(k)}}
		}
	}
	pr.consts[c] = v
	return v
}

// column is the aval of a column on the current zone.
func (pr *pruner) column(c *colNode) aval {
	if c.slot < 0 || c.slot >= len(pr.zone) {
		return unknown(c.typ)
	}
	if pr.colOK[c.slot] {
		return pr.cols[c.slot]
	}
	v := unknown(c.typ)
	if z := pr.zone[c.slot]; z != nil && arrow.TypeEqual(z.Type(), c.typ) {
		v = statsValue(pr.mem, z, c.typ)
	}
	pr.cols[c.slot], pr.colOK[c.slot] = v, true
	return v
}

// in is the tri of x [NOT] IN (items): TRUE when x equals an item, else
// NULL when x or an item is NULL, else FALSE (swapped for NOT IN).
func (pr *pruner) in(x *inNode) tri {
	a := pr.value(x.x)
	if a.dom == pdNone {
		return triAll
	}
	keys := pr.inKeys(x, a.dom)
	ka := a // the set holds floats with the zeros equal (floatKey64)
	if a.dom == pdFloat {
		ka = mergeZeros(a)
	}
	found, allFound := false, len(x.others) == 0
	for i := range ka.ivs {
		iv := &ka.ivs[i]
		j, _ := slices.BinarySearchFunc(keys, iv.lo, func(k pkey, e end) int { return a.dom.cmpEnd(&end{k: k}, &e) })
		inside := j < len(keys) && a.dom.cmpEnd(&end{k: keys[j]}, &iv.hi) <= 0
		found = found || inside
		allFound = allFound && inside && a.dom.isPoint(iv)
	}
	itemNull := x.hasNull
	for _, o := range x.others {
		ov := pr.value(o)
		found = found || compareTri(OpEq, a, ov, false)&mayT != 0
		itemNull = itemNull || ov.null
	}
	missed := len(a.ivs) > 0 && !allFound // a non-null x may equal no item
	var t tri
	if found {
		t |= mayT
	}
	if missed && !x.hasNull {
		t |= mayF
	}
	if a.null || (missed && itemNull) {
		t |= mayN
	}
	if x.not {
		t = swapTF(t)
	}
	return t
}

// inKeys returns the constant items of x's set as sorted keys of domain
// d (cached for all zones).
func (pr *pruner) inKeys(x *inNode, d pdom) []pkey {
	if keys, ok := pr.sets[x]; ok {
		return keys
	}
	var keys []pkey
	switch d {
	case pdInt:
		for k := range x.set.ints {
			keys = append(keys, pkey{i: k})
		}
	case pdUint:
		for k := range x.set.uints {
			keys = append(keys, pkey{u: k})
		}
	case pdFloat:
		for k := range x.set.uints {
			keys = append(keys, pkey{i: int64(k)})
		}
	case pdBytes:
		for k := range x.set.strs {
			keys = append(keys, pkey{b: []byte(k)})
		}
	}
	slices.SortFunc(keys, func(a, b pkey) int { return d.cmpKey(&a, &b) })
	pr.sets[x] = keys
	return keys
}

// funcCall returns the name and arguments of a function node.
func funcCall(n node) (string, []node, bool) {
	switch x := n.(type) {
	case *callNode:
		return x.name, x.args, true
	case *strFuncNode:
		return x.name, x.args, true
	}
	return "", nil, false
}

// call is the tri of the boolean functions the pruner knows: isnan(x)
// and starts_with(x, 'prefix').
func (pr *pruner) call(n node) (tri, bool) {
	name, args, ok := funcCall(n)
	switch {
	case !ok:
	case name == "isnan" && len(args) == 1:
		return isNaNTri(pr.value(args[0])), true
	case name == "starts_with" && len(args) == 2:
		pc, ok := asConst(args[1])
		if !ok {
			break
		}
		if nullConst(pc) {
			return mayN, true
		}
		if !isString(pc.dataType()) {
			break
		}
		bv := bytesOf(pc.val)
		return prefixTri(pr.value(args[0]), bv.at(0), true), true
	}
	return 0, false
}

// isNaNTri is the tri of isnan over the values of a.
func isNaNTri(a aval) tri {
	var t tri
	if a.null {
		t |= mayN
	}
	switch a.dom {
	case pdFloat:
		for _, iv := range a.ivs {
			if iv.lo.k.i < keyNegInf || iv.hi.k.i > keyPosInf {
				t |= mayT
			}
			if iv.lo.k.i <= keyPosInf && iv.hi.k.i >= keyNegInf {
				t |= mayF
			}
		}
	case pdInt, pdUint, pdDec:
		if len(a.ivs) > 0 {
			t |= mayF
		}
	default:
		return triAll
	}
	return t
}

// like is the tri of x [NOT] LIKE with a constant pattern matched
// bytewise: '%' matches every value, an exact pattern is =, 'p%' is
// starts_with(x, 'p'), and any other pattern needs its literal head.
func (pr *pruner) like(l *likeNode) (tri, bool) {
	m := l.m
	if m == nil || m.fold {
		return 0, false
	}
	a := pr.value(l.x)
	var t tri
	switch m.kind {
	case likeAll:
		if a.dom != pdBytes {
			return 0, false
		}
		t = prefixTri(a, nil, true)
	case likeExact:
		t = compareTri(OpEq, a, aval{dom: pdBytes, ivs: []ival{point(pkey{b: m.lit})}}, false)
	case likeStartsWith:
		t = prefixTri(a, m.lit, true)
	case likeBytes:
		if len(m.bparts) == 0 {
			return 0, false
		}
		t = prefixTri(a, m.bparts[0], false)
	case likeRunes:
		var head []rune
		if len(m.parts) > 0 {
			head = m.parts[0]
		}
		if k := slices.Index(head, anyRune); k >= 0 {
			head = head[:k]
		}
		t = prefixTri(a, []byte(string(head)), false)
	default:
		return 0, false
	}
	if l.not {
		t = swapTF(t)
	}
	return t, true
}

// derived is the aval of arithmetic with a constant and of casts that
// keep the order, computed from their operand's; false for other nodes.
func (pr *pruner) derived(n node) (aval, bool) {
	switch x := n.(type) {
	case *castNode:
		v, ok := castValue(pr.value(x.x), x.x.dataType(), x.to)
		v.null = v.null || x.try
		return v, ok
	case *negNode:
		return negValue(pr.value(x.x), x.dataType())
	case *arithNode:
		t := x.typ
		if !arrow.TypeEqual(x.l.dataType(), t) || !arrow.TypeEqual(x.r.dataType(), t) {
			return aval{}, false
		}
		if c, ok := asConst(x.r); ok {
			return arithValue(x.op, pr.value(x.l), c, false, t)
		}
		if c, ok := asConst(x.l); ok {
			return arithValue(x.op, pr.value(x.r), c, true, t)
		}
	}
	return aval{}, false
}
