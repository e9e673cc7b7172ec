package zonestats

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Pruning works on "may" questions: may some row of a zone make the
// predicate TRUE (may it be FALSE)? An answer of false is a proof from the
// statistics; anything unknown answers true. AND may be TRUE only if every
// child may be TRUE (they must hold on the same row); OR if any child may.
// NOT asks the child whether it may be FALSE, which is how negation is
// pushed down with SQL's three-valued logic: a NULL stays NULL under NOT,
// so null rows satisfy neither x > 5 nor NOT (x > 5).

// interval is a closed range of possible non-null values of a zone.
// Unbounded ends are marked; float ranges are always bounded (±Inf and
// the NaN key ranges are ordinary keys).
type interval struct {
	lo, hi       value
	loInf, hiInf bool
}

// intervals returns the ranges that cover every non-null value of z.
func intervals(z *Stats) []interval {
	var out []interval
	t := z.info
	var l floatLayout
	if t.isFloat() {
		l = layoutFor(t.floatBits)
		if z.mayNegNaN() {
			out = append(out, interval{lo: value{u: 0}, hi: value{u: l.negInf - 1}})
		}
	}
	if z.OrdinaryCount() > 0 {
		iv := interval{lo: z.min, hi: z.max, loInf: !z.hasMin, hiInf: !z.hasMax}
		if t.isFloat() {
			if iv.loInf {
				iv.lo, iv.loInf = value{u: l.negInf}, false
			}
			if iv.hiInf {
				iv.hi, iv.hiInf = value{u: l.posInf}, false
			}
		}
		out = append(out, iv)
	}
	if t.isFloat() && z.mayPosNaN() {
		out = append(out, interval{lo: value{u: l.posInf + 1}, hi: value{u: l.mask}})
	}
	return out
}

// mayCmp reports whether some value in iv may satisfy "v op lit".
func mayCmp(iv *interval, op Op, lit *value, cmpf func(a, b *value) int) bool {
	loLE := func(strict bool) bool { // lo < lit (strict) or lo <= lit
		if iv.loInf {
			return true
		}
		c := cmpf(&iv.lo, lit)
		return c < 0 || (!strict && c == 0)
	}
	hiGE := func(strict bool) bool {
		if iv.hiInf {
			return true
		}
		c := cmpf(&iv.hi, lit)
		return c > 0 || (!strict && c == 0)
	}
	switch op {
	case OpEq:
		return loLE(false) && hiGE(false)
	case OpNotEq:
		return iv.loInf || iv.hiInf || cmpf(&iv.lo, lit) != 0 || cmpf(&iv.hi, lit) != 0
	case OpLt:
		return loLE(true)
	case OpLtEq:
		return loLE(false)
	case OpGt:
		return hiGE(true)
	}
	return hiGE(false)
}

// isPoint reports whether iv holds exactly one value.
func isPoint(iv *interval, cmpf func(a, b *value) int) bool {
	return !iv.loInf && !iv.hiInf && cmpf(&iv.lo, &iv.hi) == 0
}

// may answers whether n may evaluate to want on some row, given per-column
// statistics (nil = unknown).
func (p *Predicate) may(n *node, want bool, zs []*Stats) bool {
	switch n.kind {
	case nAnd, nOr:
		all := (n.kind == nAnd) == want // need every child, else any child
		for _, k := range n.kids {
			if m := p.may(k, want, zs); m != all {
				return m
			}
		}
		return all
	case nNot:
		return p.may(n.kids[0], !want, zs)
	}
	z := zs[n.col]
	if z == nil {
		return true
	}
	return p.mayLeaf(n, want, z)
}

// mayLeaf answers may for a leaf on known statistics.
func (p *Predicate) mayLeaf(n *node, want bool, z *Stats) bool {
	switch n.kind {
	case nIsNull:
		return (want && z.NullCount > 0) || (!want && z.ZoneLength > z.NullCount)
	case nIsNotNull:
		return (!want && z.NullCount > 0) || (want && z.ZoneLength > z.NullCount)
	case nIsNaN:
		return (want && z.NaNCount > 0) || (!want && z.OrdinaryCount() > 0)
	case nCmp:
		return p.mayCmpLeaf(n, want, z)
	}
	return p.mayIn(n, want, z)
}

// mayCmpLeaf answers may for "col op lit".
func (p *Predicate) mayCmpLeaf(n *node, want bool, z *Stats) bool {
	if n.null {
		return false // col op NULL is NULL on every row
	}
	op := n.op
	if !want {
		op = op.negate()
	}
	cmpf := p.cols[n.col].cmp
	for _, iv := range intervals(z) {
		if mayCmp(&iv, op, &n.lit, cmpf) {
			return true
		}
	}
	return false
}

// mayIn answers may for "col IN (list)". With a NULL in the list the
// result is never FALSE (it is TRUE or NULL).
func (p *Predicate) mayIn(n *node, want bool, z *Stats) bool {
	cmpf := p.cols[n.col].cmp
	ivs := intervals(z)
	if want {
		for i := range ivs {
			for k := range n.list {
				if mayCmp(&ivs[i], OpEq, &n.list[k], cmpf) {
					return true
				}
			}
		}
		return false
	}
	if n.null {
		return false
	}
	for i := range ivs {
		if !isPoint(&ivs[i], cmpf) || !p.inList(n, &ivs[i].lo) {
			return true
		}
	}
	return false
}

// inList reports whether v equals an element of n's list.
func (p *Predicate) inList(n *node, v *value) bool {
	for k := range n.list {
		if p.cols[n.col].cmp(v, &n.list[k]) == 0 {
			return true
		}
	}
	return false
}

// MayMatchStats reports whether a row summarized by stats may satisfy the
// predicate. stats maps column names to statistics of the same rows (one
// zone, a file summary, or a multi-file summary); a missing column, or
// statistics of another type, cannot prune. A false result proves that no
// row satisfies the predicate.
func (p *Predicate) MayMatchStats(stats map[string]Stats) bool {
	zs := make([]*Stats, len(p.cols))
	for i, c := range p.cols {
		if s, ok := stats[c.name]; ok && s.info != nil && arrow.TypeEqual(s.info.dt, c.info.dt) {
			zs[i] = &s
		}
	}
	return p.may(p.root, true, zs)
}

// MayMatch returns, for each zone of rowsPerZone rows of a data file with
// rows rows, whether a row of that zone may satisfy the predicate. seeds
// maps column names to the data file's validated seeds; a referenced
// column without a seed cannot prune. A seed with another zone size is
// mapped onto the requested zones by merging the zones that overlap each
// one. Seeds that do not cover rows rows or have another type than the
// bound column give ErrMismatch.
func (p *Predicate) MayMatch(seeds map[string]*Seed, rowsPerZone, rows uint64) ([]bool, error) {
	if rowsPerZone == 0 {
		return nil, fmt.Errorf("%w: rowsPerZone is 0", ErrInvalidConfig)
	}
	n := int(rows / rowsPerZone)
	if rows%rowsPerZone != 0 {
		n++
	}
	perCol := make([][]Stats, len(p.cols))
	for i, c := range p.cols {
		s, ok := seeds[c.name]
		if !ok || s == nil {
			continue
		}
		zones, err := alignZones(s, c, rowsPerZone, rows)
		if err != nil {
			return nil, err
		}
		perCol[i] = zones
	}
	return p.mask(perCol, n), nil
}

// mask evaluates the predicate zone by zone.
func (p *Predicate) mask(perCol [][]Stats, n int) []bool {
	out := make([]bool, n)
	zs := make([]*Stats, len(p.cols))
	for k := range out {
		for i := range zs {
			zs[i] = nil
			if perCol[i] != nil {
				zs[i] = &perCol[i][k]
			}
		}
		out[k] = p.may(p.root, true, zs)
	}
	return out
}

// alignZones returns the statistics of s for zones of rowsPerZone rows.
func alignZones(s *Seed, c boundCol, rowsPerZone, rows uint64) ([]Stats, error) {
	if !arrow.TypeEqual(s.info.dt, c.info.dt) {
		return nil, fmt.Errorf("%w: seed of column %q has type %s, predicate bound to %s", ErrMismatch, c.name, s.info.dt, c.info.dt)
	}
	if got := s.Rows(); got != rows {
		return nil, fmt.Errorf("%w: seed of column %q covers %d rows, not %d", ErrMismatch, c.name, got, rows)
	}
	if s.RowsPerZone == rowsPerZone {
		return s.Zones, nil
	}
	return regroup(s.Zones, rowsPerZone, rows)
}

// regroup merges zones into groups of rowsPerZone rows: each output zone
// merges every input zone that overlaps its row range.
func regroup(zones []Stats, rowsPerZone, rows uint64) ([]Stats, error) {
	var out []Stats
	var zStart uint64 // first row of zones[j]
	j := 0
	for start := uint64(0); start < rows; start += min(rowsPerZone, rows-start) {
		end := start + min(rowsPerZone, rows-start)
		for j < len(zones) && zStart+zones[j].ZoneLength <= start {
			zStart += zones[j].ZoneLength
			j++
		}
		var acc Stats
		for k, ks := j, zStart; k < len(zones) && ks < end; ks, k = ks+zones[k].ZoneLength, k+1 {
			var err error
			if acc, err = Merge(acc, zones[k]); err != nil {
				return nil, err
			}
		}
		out = append(out, acc)
	}
	return out, nil
}
