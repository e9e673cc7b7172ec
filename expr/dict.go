package expr

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// Dictionary-encoded input. Lance stores low-cardinality strings as
// dictionary pages, and a reader can hand them over as Arrow
// dictionary<int32, T> arrays (fileread.ScanOptions.Dictionary) instead
// of expanding every row's string. A boolean subtree of the filter that
// reads one string or binary column and nothing else (cat = 'red',
// lower(cat) = 'red', name LIKE 'a%', NOT (cat IN (...)), an AND/OR of
// those) is then evaluated once per dictionary entry, and each row's
// answer is looked up by its index: the string kernels run over a few
// entries, not over every row. The binder wraps such subtrees (the root,
// the kids of AND/OR, the operand of NOT) in a dictNode; a column every
// reference of which is inside a dictNode may come as a dictionary
// (Compiled.DictionaryColumns); any other dictionary column is expanded
// before evaluation.

// dictNode evaluates inner, a boolean expression of column slot alone,
// over the dictionary of a dictionary-encoded batch column and gathers
// the answers by index; over a plain column it is inner.
type dictNode struct {
	slot  int
	inner node
	// null is inner's answer for a NULL input: 0 FALSE, 1 TRUE, 2 NULL.
	null uint8
}

func (d *dictNode) dataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (d *dictNode) inputs() []node           { return []node{d.inner} }

func (d *dictNode) eval(ec *evalCtx) (arrow.Array, error) {
	da, ok := ec.cols[d.slot].(*array.Dictionary)
	if !ok {
		return d.inner.eval(ec)
	}
	idx, ok := da.Indices().(*array.Int32)
	dict := da.Dictionary()
	if !ok || dict.Len() > 2*ec.n+64 { // a dictionary larger than the batch: expand instead
		return d.evalExpanded(ec, da)
	}
	sub := &evalCtx{mem: ec.mem, n: dict.Len(), cols: make([]arrow.Array, len(ec.cols))}
	sub.cols[d.slot] = dict
	r, err := d.inner.eval(sub)
	if err != nil {
		// an entry no row of the batch holds may fail (a CAST): evaluate
		// the batch's own rows for the answer (or the error) they give
		return d.evalExpanded(ec, da)
	}
	w := words(r)
	r.Release()
	return d.gather(ec, idx, w, dict.Len())
}

// evalExpanded evaluates inner over the batch's column expanded from its
// dictionary.
func (d *dictNode) evalExpanded(ec *evalCtx, da *array.Dictionary) (arrow.Array, error) {
	plain, err := expandDictionary(ec, da)
	if err != nil {
		return nil, err
	}
	defer plain.Release()
	sub := &evalCtx{mem: ec.mem, n: ec.n, cols: make([]arrow.Array, len(ec.cols))}
	copy(sub.cols, ec.cols)
	sub.cols[d.slot] = plain
	return d.inner.eval(sub)
}

// gather builds the batch's answers from the entries' (w, over the
// dictionary) through the indices idx.
func (d *dictNode) gather(ec *evalCtx, idx *array.Int32, w boolWords, entries int) (arrow.Array, error) {
	n := ec.n
	if idx.Len() != n {
		return nil, fmt.Errorf("%w: dictionary column of %d rows in a batch of %d", ErrMismatch, idx.Len(), n)
	}
	keys := idx.Int32Values()
	nw := (n + 63) / 64
	t, valid := make([]uint64, nw), make([]uint64, nw)
	nullT, nullV := uint64(0), uint64(1)
	switch d.null {
	case 1:
		nullT = 1
	case 2:
		nullV = 0
	}
	for k := range nw {
		base := k * 64
		end := min(base+64, n)
		var tw, vw uint64
		for i := base; i < end; i++ {
			e := uint32(keys[i])
			if e >= uint32(entries) {
				if idx.IsValid(i) {
					return nil, fmt.Errorf("%w: dictionary index %d out of range", ErrMismatch, keys[i])
				}
				e = 0
			}
			bit := uint(i - base)
			tw |= (w.data[e/64] >> (e % 64) & 1) << bit
			vw |= (w.valid[e/64] >> (e % 64) & 1) << bit
		}
		t[k], valid[k] = tw, vw
	}
	if idx.NullN() > 0 {
		for i := range n {
			if idx.IsNull(i) {
				m := uint64(1) << (i % 64)
				t[i/64] = t[i/64]&^m | nullT*m
				valid[i/64] = valid[i/64]&^m | nullV*m
			}
		}
	}
	for i := range t {
		t[i] &= valid[i]
	}
	maskTail(valid, n)
	maskTail(t, n)
	return boolArrayFromWords(ec.mem, t, valid, n), nil
}

// expandDictionary returns the plain array of a dictionary array's rows.
func expandDictionary(ec *evalCtx, da *array.Dictionary) (arrow.Array, error) {
	ctx := compute.WithAllocator(context.Background(), ec.mem)
	out, err := compute.TakeArray(ctx, da.Dictionary(), da.Indices())
	if err != nil {
		return nil, fmt.Errorf("%w: expanding a dictionary column: %w", ErrMismatch, err)
	}
	return out, nil
}

// dictValueType reports whether the binder may evaluate expressions of a
// column of type t over its dictionary.
func dictValueType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		return true
	}
	return false
}

// volatileRef is the slot the binder records for a volatile call: an
// expression holding one is never evaluated per dictionary entry.
const volatileRef = -1

// dictWrap wraps n, bound from the column references b.refs[start:], in
// a dictNode when they all name one string or binary column and n is a
// boolean expression of it (not the bare column, not a constant).
func (b *binder) dictWrap(n node, start int) node {
	refs := b.refs[start:]
	if len(refs) == 0 || n.dataType().ID() != arrow.BOOL {
		return n
	}
	switch n.(type) {
	case *colNode, *constNode, *dictNode:
		return n
	}
	s := refs[0]
	for _, r := range refs {
		if r != s || r == volatileRef {
			return n
		}
	}
	if !dictValueType(b.slots[s].typ) {
		return n
	}
	null, ok := b.nullAnswer(n, s)
	if !ok {
		return n
	}
	for i := start; i < len(b.covered); i++ {
		b.covered[i] = true
	}
	return &dictNode{slot: s, inner: n, null: null}
}

// nullAnswer evaluates n, an expression of slot s alone, for a NULL s.
func (b *binder) nullAnswer(n node, s int) (uint8, bool) {
	ec := &evalCtx{mem: b.mem, n: 1, cols: make([]arrow.Array, len(b.slots))}
	ec.cols[s] = array.MakeArrayOfNull(b.mem, b.slots[s].typ, 1)
	defer ec.cols[s].Release()
	r, err := n.eval(ec)
	if err != nil {
		return 0, false
	}
	defer r.Release()
	switch {
	case r.Len() != 1:
		return 0, false
	case r.IsNull(0):
		return 2, true
	}
	bo, ok := r.(*array.Boolean)
	if !ok {
		return 0, false
	}
	if bo.Value(0) {
		return 1, true
	}
	return 0, true
}

// dictColumns reports, per slot, whether every reference to it is inside
// a dictNode.
func (b *binder) dictColumns() []bool {
	out := make([]bool, len(b.slots))
	for s := range out {
		out[s] = dictValueType(b.slots[s].typ)
	}
	for i, r := range b.refs {
		if r >= 0 && !b.covered[i] {
			out[r] = false
		}
	}
	return out
}

// DictionaryColumns returns the names of the columns a batch may hold as
// dictionary<int32, T> arrays of their bound type T: those the
// expression reads only through parts it evaluates once per dictionary
// entry. Other columns may be dictionaries too (they are expanded before
// evaluation), only at the cost of expanding them.
func (c *Compiled) DictionaryColumns() []string {
	var out []string
	for i, s := range c.slots {
		if i < len(c.dictOK) && c.dictOK[i] {
			out = append(out, s.name)
		}
	}
	return out
}
