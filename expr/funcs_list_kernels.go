package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Kernels of the list, struct and map functions: struct building, map
// lookups, make_array, searching and measuring lists. Arguments arrive as
// arrays of the batch's rows or, for constants, of one row (nestSteps).

// nestMaxResult bounds the elements one list result may hold (a guard
// against array_repeat(x, 1e12)).
const nestMaxResult = 1 << 24

// nestRepeatRow returns n copies of row 0 of a (a itself, retained, when it
// has n rows).
func nestRepeatRow(mem memory.Allocator, a arrow.Array, n int) (arrow.Array, error) {
	if a.Len() == n {
		a.Retain()
		return a, nil
	}
	return nestGather(mem, a, make([]int64, n))
}

// nestUints builds a UInt64 result row by row.
type nestUints struct {
	b *array.Uint64Builder
}

func newNestUints(mem memory.Allocator, n int) nestUints {
	b := array.NewUint64Builder(mem)
	b.Reserve(n)
	return nestUints{b: b}
}

func (o nestUints) finish() arrow.Array { return o.b.NewArray() }

func (o nestUints) release() { o.b.Release() }

// nestBools builds a boolean result from words.
type nestBools struct {
	data, valid []uint64
}

func newNestBools(n int) nestBools {
	nw := (n + 63) / 64
	return nestBools{data: make([]uint64, nw), valid: make([]uint64, nw)}
}

func (o nestBools) set(i int, v bool) {
	o.valid[i>>6] |= 1 << (i & 63)
	if v {
		o.data[i>>6] |= 1 << (i & 63)
	}
}

func (o nestBools) finish(mem memory.Allocator, n int) arrow.Array {
	return boolArrayFromWords(mem, o.data, o.valid, n)
}

// nestList views argument a as a list.
func nestList(a arrow.Array) (nestListView, error) {
	v, ok := nestView(a)
	if !ok {
		return v, fmt.Errorf("%w: a list argument of type %s", ErrMismatch, a.DataType())
	}
	return v, nil
}

// nestWithElems concatenates a list's values with more elements (cast to the
// values' type): the keys of the whole compare elements of both.
func nestWithElems(mem memory.Allocator, values arrow.Array, more ...arrow.Array) (arrow.Array, error) {
	all := []arrow.Array{values}
	for _, m := range more {
		c, err := nestCast(mem, m, values.DataType())
		if err != nil {
			releaseArrays(all[1:])
			return nil, err
		}
		all = append(all, c)
	}
	defer releaseArrays(all[1:])
	return nestConcat(mem, all)
}

// nestStructOf builds the struct of type t from its field arguments.
func nestStructOf(ec *evalCtx, t *arrow.StructType, args []arrow.Array) (arrow.Array, error) {
	kids := make([]arrow.Array, len(args))
	defer releaseArrays(kids)
	for i, a := range args {
		k, err := nestRepeatRow(ec.mem, a, ec.n)
		if err != nil {
			return nil, err
		}
		kids[i] = k
	}
	return nestStruct(ec.mem, t, kids, nil, ec.n)
}

func arrMapExtractKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	m, ok := args[0].(*array.Map)
	if !ok {
		return nil, fmt.Errorf("%w: element_at of %s", ErrMismatch, args[0].DataType())
	}
	v, _ := nestView(m)
	key, err := nestCast(ec.mem, args[1], m.Keys().DataType())
	if err != nil {
		return nil, err
	}
	defer key.Release()
	eq, err := nestCrossEq(m.Keys(), key)
	if err != nil {
		return nil, err
	}
	km := nestMaskOf(key)
	st := nestSteps(args, ec.n)
	out := newNestOut(ec.n)
	for r := 0; r < ec.n; r++ {
		mi, ki := r*st[0], r*st[1]
		found := -1
		if !v.null(mi) && !km.null(ki) {
			lo, hi := v.bounds(mi)
			for j := lo; j < hi; j++ {
				if eq(j, ki) {
					found = j
					break
				}
			}
		}
		out.add(found)
		out.end(true)
	}
	return out.finish(ec.mem, m.Items(), arrow.ListOf(m.Items().DataType()))
}

func arrMapPartKernel(ec *evalCtx, args []arrow.Array, part int, t arrow.DataType) (arrow.Array, error) {
	m, ok := args[0].(*array.Map)
	if !ok {
		return nil, fmt.Errorf("%w: map function of %s", ErrMismatch, args[0].DataType())
	}
	v, _ := nestView(m)
	src := []arrow.Array{m.Keys(), m.Items(), m.ListValues()}[part]
	st := nestSteps(args, ec.n)
	out := newNestOut(ec.n)
	for r := 0; r < ec.n; r++ {
		mi := r * st[0]
		lo, hi := v.bounds(mi)
		for j := lo; j < hi && !v.null(mi); j++ {
			out.add(j)
		}
		out.end(!v.null(mi))
	}
	return out.finish(ec.mem, src, t)
}

func arrMakeArrayKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	out := newNestOut(ec.n)
	if len(args) == 0 {
		for r := 0; r < ec.n; r++ {
			out.end(true)
		}
		return out.finish(ec.mem, array.NewNull(0), arrow.ListOf(arrow.Null))
	}
	all, err := nestConcat(ec.mem, args)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	bases := make([]int, len(args))
	for i := 1; i < len(args); i++ {
		bases[i] = bases[i-1] + args[i-1].Len()
	}
	st := nestSteps(args, ec.n)
	for r := 0; r < ec.n; r++ {
		for j := range args {
			out.add(bases[j] + r*st[j])
		}
		out.end(true)
	}
	return out.finish(ec.mem, all, arrow.ListOf(all.DataType()))
}

func arrRepeatKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	x, n := args[0], args[1]
	cnt, cm := int64Values(n), nestMaskOf(n)
	st := nestSteps(args, ec.n)
	out := newNestOut(ec.n)
	total := 0
	for r := 0; r < ec.n; r++ {
		xi, ni := r*st[0], r*st[1]
		if cm.null(ni) || ni >= len(cnt) {
			out.end(false)
			continue
		}
		c := cnt[ni]
		if c > 0 {
			if total += int(min(c, nestMaxResult+1)); total > nestMaxResult {
				return nil, fmt.Errorf("%w: array_repeat result of more than %d elements", ErrEval, nestMaxResult)
			}
		}
		for k := int64(0); k < c; k++ {
			out.add(xi)
		}
		out.end(true)
	}
	return out.finish(ec.mem, x, arrow.ListOf(x.DataType()))
}

func arrHasKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	v, err := nestList(args[0])
	if err != nil {
		return nil, err
	}
	x, err := nestCast(ec.mem, args[1], v.values.DataType())
	if err != nil {
		return nil, err
	}
	defer x.Release()
	eq, err := nestCrossEq(v.values, x)
	if err != nil {
		return nil, err
	}
	xm := nestMaskOf(x)
	st := nestSteps(args, ec.n)
	out := newNestBools(ec.n)
	for r := 0; r < ec.n; r++ {
		li, xi := r*st[0], r*st[1]
		if v.null(li) || xm.null(xi) {
			continue
		}
		lo, hi := v.bounds(li)
		found := false
		for j := lo; j < hi && !found; j++ {
			found = eq(j, xi)
		}
		out.set(r, found)
	}
	return out.finish(ec.mem, ec.n), nil
}

// arrHasSetKernel is array_has_all (all) and array_has_any: an empty second
// list makes has_all TRUE and has_any FALSE whatever the first, an empty
// first list makes has_any FALSE, as DataFusion answers.
func arrHasSetKernel(ec *evalCtx, args []arrow.Array, all bool) (arrow.Array, error) {
	va, err := nestList(args[0])
	if err != nil {
		return nil, err
	}
	vb, err := nestList(args[1])
	if err != nil {
		return nil, err
	}
	eq, err := nestCrossEq(va.values, vb.values)
	if err != nil {
		return nil, err
	}
	// Rows with many elements on both sides go through a set over both
	// lists' values, built the first time one is met.
	var set *nestSet
	base := va.values.Len()
	defer func() {
		if set != nil {
			set.release()
		}
	}()
	st := nestSteps(args, ec.n)
	out := newNestBools(ec.n)
	for r := 0; r < ec.n; r++ {
		ai, bi := r*st[0], r*st[1]
		alo, ahi := va.bounds(ai)
		blo, bhi := vb.bounds(bi)
		an, bn := va.null(ai), vb.null(bi)
		switch {
		case all && !bn && blo == bhi:
			out.set(r, true)
			continue
		case !all && ((!an && alo == ahi) || (!bn && blo == bhi)):
			out.set(r, false)
			continue
		case an || bn:
			continue
		}
		res := all
		if (ahi-alo)*(bhi-blo) <= 64 {
			for k := blo; k < bhi && res == all; k++ {
				found := false
				for j := alo; j < ahi && !found; j++ {
					found = eq(j, k)
				}
				if found != all {
					res = !all
				}
			}
			out.set(r, res)
			continue
		}
		if set == nil {
			if set, err = newNestSetOver(ec.mem, va.values, vb.values); err != nil {
				return nil, err
			}
		}
		set.reset()
		for j := alo; j < ahi; j++ {
			set.add(j)
		}
		for j := blo; j < bhi; j++ {
			if set.has(base+j) != all {
				res = !all
				break
			}
		}
		out.set(r, res)
	}
	return out.finish(ec.mem, ec.n), nil
}

func arrPositionKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	v, err := nestList(args[0])
	if err != nil {
		return nil, err
	}
	x, err := nestCast(ec.mem, args[1], v.values.DataType())
	if err != nil {
		return nil, err
	}
	defer x.Release()
	eq, err := nestCrossEq(v.values, x)
	if err != nil {
		return nil, err
	}
	var from []int64
	var fm nestMask
	if len(args) == 3 {
		from, fm = int64Values(args[2]), nestMaskOf(args[2])
	}
	st := nestSteps(args, ec.n)
	out := newNestUints(ec.mem, ec.n)
	defer out.release()
	for r := 0; r < ec.n; r++ {
		li, xi := r*st[0], r*st[1]
		if v.null(li) {
			out.b.AppendNull()
			continue
		}
		lo, hi := v.bounds(li)
		start := int64(0)
		if from != nil {
			fi := r * st[2]
			if fm.null(fi) || fi >= len(from) {
				return nil, fmt.Errorf("%w: array_position expected Int64 for start_from, got NULL", ErrEval)
			}
			start = from[fi] - 1
			if start < 0 || start > int64(hi-lo) {
				return nil, fmt.Errorf("%w: start_from out of bounds: %d", ErrEval, from[fi])
			}
		}
		pos := -1
		for j := lo + int(start); j < hi; j++ {
			if eq(j, xi) {
				pos = j - lo + 1
				break
			}
		}
		if pos < 0 {
			out.b.AppendNull()
		} else {
			out.b.Append(uint64(pos))
		}
	}
	return out.finish(), nil
}

// nestPerRowUint computes a UInt64 per non-NULL list row from its bounds.
func nestPerRowUint(ec *evalCtx, l arrow.Array, f func(lo, hi int) uint64) (arrow.Array, error) {
	v, err := nestList(l)
	if err != nil {
		return nil, err
	}
	step := 0
	if l.Len() == ec.n {
		step = 1
	}
	out := newNestUints(ec.mem, ec.n)
	defer out.release()
	for r := 0; r < ec.n; r++ {
		i := r * step
		if v.null(i) {
			out.b.AppendNull()
			continue
		}
		out.b.Append(f(v.bounds(i)))
	}
	return out.finish(), nil
}

// nestChain returns the views of a list's nested levels (level 0 is a).
func nestChain(v nestListView) []nestListView {
	chain := []nestListView{v}
	for {
		next, ok := nestView(chain[len(chain)-1].values)
		if !ok {
			return chain
		}
		chain = append(chain, next)
	}
}

// nestFirstDims returns the length of row i at the last of the first
// levels of chain, and the product of those lengths, descending through
// the first element (a NULL or missing first element has length 0).
func nestFirstDims(chain []nestListView, i int, levels int) (last, product uint64) {
	lo, hi := chain[0].bounds(i)
	last = uint64(hi - lo)
	product = last
	for d := 1; d < levels && d < len(chain); d++ {
		if lo == hi || chain[d].null(lo) {
			lo, hi = 0, 0
		} else {
			lo, hi = chain[d].bounds(lo)
		}
		last = uint64(hi - lo)
		product *= last
	}
	return last, product
}

func arrLengthKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	v, err := nestList(args[0])
	if err != nil {
		return nil, err
	}
	chain := nestChain(v)
	var dim []int64
	var dm nestMask
	if len(args) == 2 {
		dim, dm = int64Values(args[1]), nestMaskOf(args[1])
	}
	st := nestSteps(args, ec.n)
	out := newNestUints(ec.mem, ec.n)
	defer out.release()
	for r := 0; r < ec.n; r++ {
		li := r * st[0]
		d := int64(1)
		if dim != nil {
			di := r * st[1]
			if dm.null(di) || di >= len(dim) {
				out.b.AppendNull()
				continue
			}
			d = dim[di]
		}
		if v.null(li) || d < 1 || d > int64(len(chain)) {
			out.b.AppendNull()
			continue
		}
		last, _ := nestFirstDims(chain, li, int(d))
		out.b.Append(last)
	}
	return out.finish(), nil
}

func arrCardinalityKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	v, err := nestList(args[0])
	if err != nil {
		return nil, err
	}
	if args[0].DataType().ID() == arrow.MAP {
		return nestPerRowUint(ec, args[0], func(lo, hi int) uint64 { return uint64(hi - lo) })
	}
	chain := nestChain(v)
	step := 0
	if args[0].Len() == ec.n {
		step = 1
	}
	out := newNestUints(ec.mem, ec.n)
	defer out.release()
	for r := 0; r < ec.n; r++ {
		i := r * step
		if v.null(i) {
			out.b.AppendNull()
			continue
		}
		_, p := nestFirstDims(chain, i, len(chain))
		out.b.Append(p)
	}
	return out.finish(), nil
}

func arrEmptyKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	v, err := nestList(args[0])
	if err != nil {
		return nil, err
	}
	step := 0
	if args[0].Len() == ec.n {
		step = 1
	}
	out := newNestBools(ec.n)
	for r := 0; r < ec.n; r++ {
		i := r * step
		if v.null(i) {
			continue
		}
		lo, hi := v.bounds(i)
		out.set(r, lo == hi)
	}
	return out.finish(ec.mem, ec.n), nil
}

// arrMinMaxKernel picks the largest (dir 1) or smallest (dir -1) non-NULL
// element of every list (NULL when there is none).
func arrMinMaxKernel(ec *evalCtx, l arrow.Array, dir int) (arrow.Array, error) {
	v, err := nestList(l)
	if err != nil {
		return nil, err
	}
	c, err := nestValueCmp(v.values, v.values)
	if err != nil {
		return nil, err
	}
	m := nestMaskOf(v.values)
	step := 0
	if l.Len() == ec.n {
		step = 1
	}
	idx := make([]int64, ec.n)
	for r := 0; r < ec.n; r++ {
		i := r * step
		best := -1
		if !v.null(i) {
			lo, hi := v.bounds(i)
			for j := lo; j < hi; j++ {
				if !m.null(j) && (best < 0 || c(j, best)*dir > 0) {
					best = j
				}
			}
		}
		idx[r] = int64(best)
	}
	return nestGather(ec.mem, v.values, idx)
}
