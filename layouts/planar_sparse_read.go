package layouts

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
)

// Reads of sparse pages whose structure is a tree (SparsePage.Direct):
// AppendStructure appends the rows' slice of every layer, AppendValues one
// value per leaf slot they reach.

// valueSource gives an empty accumulator its shape and returns the block
// the values come from: inner's decoded values, the constant, or nil when
// every slot gets a placeholder.
func (p *SparsePage) valueSource(inner *Values, vals *Values, leaf arrow.DataType) (*codecs.Block, error) {
	if vals.Kind == 0 {
		switch {
		case inner != nil && inner.Kind != 0:
			b := inner.Block()
			vals.InitShape(&b)
		case p.Const != nil:
			vals.InitShape(p.Const)
		case leaf != nil:
			if err := appendNulls(vals, 0, leaf); err != nil {
				return nil, err
			}
		}
	}
	if inner != nil && inner.Kind != 0 {
		b := inner.Block()
		return &b, nil
	}
	return p.Const, nil
}

// treeValueRows is ValueRows for a tree page: the value rows of the leaf
// slots [t0, t1) rows [from, to) reach, when one is materialized.
func (p *SparsePage) treeValueRows(from, to uint64) (uint64, uint64, bool) {
	t := p.tree
	t0, t1 := t.slots(from, to)
	m0, m1 := t.matRank(t0), t.matRank(t1)
	if m0 == m1 {
		return 0, 0, false // nothing materialized: no value bytes
	}
	switch {
	case p.indices != nil:
		lo, hi := uint32(1<<32-1), uint32(0)
		for s := t0; s < t1; s++ {
			if t.materialized(s) {
				k := p.indices[t.rawSlot(s)]
				lo, hi = min(lo, k), max(hi, k)
			}
		}
		return uint64(lo), uint64(hi) + 1, true
	case p.Mini != nil:
		return t.rawSlot(t0), t.rawSlot(t1-1) + 1, true
	}
	return m0, m1, true
}

// AppendStructure appends the structure of rows [from, to) to dst (the
// structure of earlier rows of the column; nil starts one) and returns it.
// Pages without a tree unravel their levels.
func (p *SparsePage) AppendStructure(dst *PathNode, from, to uint64) (*PathNode, error) {
	if from > to || to > p.NumRows {
		return nil, fmt.Errorf("%w: rows [%d,%d) of a sparse page of %d", ErrCorrupt, from, to, p.NumRows)
	}
	if p.tree != nil {
		return p.tree.appendRows(dst, from, to)
	}
	var lv Levels
	if err := p.AppendLevels(from, to, &lv); err != nil {
		return nil, err
	}
	return UnravelAppend(dst, p.Set, lv)
}

// AppendValues appends one value per leaf slot rows [from, to) reach: the
// stored value where the slot is materialized, a placeholder elsewhere.
// inner holds the value reader's rows [lo, ValueRows' hi) (nil when
// ValueRows said none are needed). Pages without a tree use AppendRows.
func (p *SparsePage) AppendValues(from, to, lo uint64, inner *Values, vals *Values, leaf arrow.DataType) error {
	if p.tree == nil {
		var discard Levels
		return p.AppendRows(from, to, lo, inner, &discard, vals, leaf)
	}
	if from > to || to > p.NumRows {
		return fmt.Errorf("%w: rows [%d,%d) of a sparse page of %d", ErrCorrupt, from, to, p.NumRows)
	}
	src, err := p.valueSource(inner, vals, leaf)
	if err != nil {
		return err
	}
	t := p.tree
	t0, t1 := t.slots(from, to)
	if src == nil { // no values needed (null rows of a take): placeholders only
		return scatterPlaceholders(vals, int(t1-t0), leaf)
	}
	if p.Mini != nil && src != nil && inner != nil && t.raw == nil && lo == t0 && src.NumValues == t1-t0 {
		return vals.appendBlock(src, 0, src.NumValues, false) // one value per slot, nulls included
	}
	idx := make([]int32, 0, t1-t0) // per leaf slot: source value or -1
	rank := int32(t.matRank(t0)) - int32(lo)
	for s := t0; s < t1; s++ {
		m := t.materialized(s)
		switch {
		case src == nil || !m:
			idx = append(idx, -1)
		case p.Const != nil:
			idx = append(idx, 0)
		case p.Mini != nil:
			idx = append(idx, int32(t.rawSlot(s))-int32(lo))
		case p.indices != nil:
			idx = append(idx, int32(p.indices[t.rawSlot(s)])-int32(lo))
		default:
			idx = append(idx, rank)
		}
		if m {
			rank++
		}
	}
	return scatter(vals, src, idx, leaf)
}
