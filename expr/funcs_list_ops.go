package expr

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Kernels of the list functions that build lists: distinct, sort, slice,
// concat, append, remove, the set operations, flatten; and
// array_to_string.

// nestResultType is the list type of the values of v for a function result.
func nestResultType(a arrow.Array, values arrow.Array) arrow.DataType {
	return nestVarList(a.DataType(), values.DataType())
}

func arrDistinctKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	v, err := nestList(args[0])
	if err != nil {
		return nil, err
	}
	k, err := nestKeysOf(v.values)
	if err != nil {
		return nil, err
	}
	set := newNestSet(k)
	step := nestSteps(args, ec.n)[0]
	out := newNestOut(ec.n)
	for r := 0; r < ec.n; r++ {
		i := r * step
		if v.null(i) {
			out.end(false)
			continue
		}
		set.reset()
		lo, hi := v.bounds(i)
		for j := lo; j < hi; j++ {
			if set.add(j) {
				out.add(j)
			}
		}
		out.end(true)
	}
	return out.finish(ec.mem, v.values, nestResultType(args[0], v.values))
}

// arrSortKernel sorts every list (stable; NULL elements first or last).
func arrSortKernel(ec *evalCtx, l arrow.Array, desc, nullsFirst bool) (arrow.Array, error) {
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
	nullSide := 1 // a NULL sorts after a value
	if nullsFirst {
		nullSide = -1
	}
	order := func(x, y int) int {
		xn, yn := m.null(x), m.null(y)
		switch {
		case xn && yn:
			return 0
		case xn:
			return nullSide
		case yn:
			return -nullSide
		}
		if desc {
			return c(y, x)
		}
		return c(x, y)
	}
	out := newNestOut(ec.n)
	var row []int
	for r := 0; r < ec.n; r++ {
		i := r * step
		if v.null(i) {
			out.end(false)
			continue
		}
		lo, hi := v.bounds(i)
		row = row[:0]
		for j := lo; j < hi; j++ {
			row = append(row, j)
		}
		slices.SortStableFunc(row, order)
		for _, j := range row {
			out.add(j)
		}
		out.end(true)
	}
	return out.finish(ec.mem, v.values, nestResultType(l, v.values))
}

// arrSliceKernel is array_slice(l, from, to[, stride]) with DataFusion's
// (DuckDB's) index rules: 1-based and inclusive, 0 as 1, negative from
// the end, out-of-range bounds giving an empty list.
func arrSliceKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	v, err := nestList(args[0])
	if err != nil {
		return nil, err
	}
	ints := make([][]int64, len(args))
	masks := make([]nestMask, len(args))
	for i := 1; i < len(args); i++ {
		ints[i], masks[i] = int64Values(args[i]), nestMaskOf(args[i])
	}
	st := nestSteps(args, ec.n)
	out := newNestOut(ec.n)
	for r := 0; r < ec.n; r++ {
		li := r * st[0]
		null := v.null(li)
		vals := [4]int64{0, 0, 0, 1}
		for i := 1; i < len(args) && !null; i++ {
			j := r * st[i]
			if masks[i].null(j) || j >= len(ints[i]) {
				null = true
				break
			}
			vals[i] = ints[i][j]
		}
		if null {
			out.end(false)
			continue
		}
		lo, hi := v.bounds(li)
		n := int64(hi - lo)
		if n == 0 {
			out.end(true)
			continue
		}
		from, to, stride := vals[1], vals[2], vals[3]
		if from < 0 {
			if from < -n {
				from = 0
			} else {
				from += n
			}
		} else {
			from = max(from-1, 0)
		}
		if to < 0 {
			to += n
		} else {
			to = min(to-1, n-1)
		}
		if from < 0 || from >= n || to < 0 || to >= n {
			out.end(true)
			continue
		}
		switch {
		case stride == 0:
			return nil, fmt.Errorf("%w: array_slice got invalid stride: 0, it cannot be 0", ErrEval)
		case (from < to && stride < 0) || (from > to && stride > 0):
		case stride > 0:
			for k := from; k <= to; k += stride {
				out.add(lo + int(k))
			}
		default:
			for k := from; k >= to; k += stride {
				out.add(lo + int(k))
			}
		}
		out.end(true)
	}
	return out.finish(ec.mem, v.values, nestResultType(args[0], v.values))
}

// nestLists views every argument as a list and concatenates their values
// (bases[i] is where argument i's values start).
func nestLists(ec *evalCtx, args []arrow.Array) ([]nestListView, arrow.Array, []int, error) {
	views := make([]nestListView, len(args))
	vals := make([]arrow.Array, len(args))
	bases := make([]int, len(args))
	for i, a := range args {
		v, err := nestList(a)
		if err != nil {
			return nil, nil, nil, err
		}
		views[i], vals[i] = v, v.values
		if i > 0 {
			bases[i] = bases[i-1] + vals[i-1].Len()
		}
	}
	all, err := nestWithElems(ec.mem, vals[0], vals[1:]...)
	if err != nil {
		return nil, nil, nil, err
	}
	return views, all, bases, nil
}

// arrConcatKernel concatenates lists, skipping NULL ones (NULL when all are).
func arrConcatKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	views, all, bases, err := nestLists(ec, args)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	st := nestSteps(args, ec.n)
	out := newNestOut(ec.n)
	for r := 0; r < ec.n; r++ {
		valid := false
		for i := range views {
			li := r * st[i]
			if views[i].null(li) {
				continue
			}
			valid = true
			lo, hi := views[i].bounds(li)
			for j := lo; j < hi; j++ {
				out.add(bases[i] + j)
			}
		}
		out.end(valid)
	}
	var t arrow.DataType = arrow.ListOf(all.DataType())
	for _, a := range args {
		if a.DataType().ID() == arrow.LARGE_LIST {
			t = arrow.LargeListOf(all.DataType())
		}
	}
	return out.finish(ec.mem, all, t)
}

// arrAppendKernel adds x at the end (or, prepend, the start) of every list;
// a NULL list counts as empty.
func arrAppendKernel(ec *evalCtx, l, x arrow.Array, prepend bool) (arrow.Array, error) {
	v, err := nestList(l)
	if err != nil {
		return nil, err
	}
	all, err := nestWithElems(ec.mem, v.values, x)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	base := v.values.Len()
	st := nestSteps([]arrow.Array{l, x}, ec.n)
	out := newNestOut(ec.n)
	for r := 0; r < ec.n; r++ {
		li, xi := r*st[0], base+r*st[1]
		if prepend {
			out.add(xi)
		}
		if !v.null(li) {
			lo, hi := v.bounds(li)
			for j := lo; j < hi; j++ {
				out.add(j)
			}
		}
		if !prepend {
			out.add(xi)
		}
		out.end(true)
	}
	return out.finish(ec.mem, all, nestResultType(l, all))
}

// arrRemoveKernel removes the first (arrRemoveFirst), the first n (arrRemoveN) or
// every (arrRemoveAll) element equal to x.
func arrRemoveKernel(ec *evalCtx, args []arrow.Array, mode int) (arrow.Array, error) {
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
	var ns []int64
	var nm nestMask
	if mode == arrRemoveN {
		ns, nm = int64Values(args[2]), nestMaskOf(args[2])
	}
	st := nestSteps(args, ec.n)
	out := newNestOut(ec.n)
	for r := 0; r < ec.n; r++ {
		li, xi := r*st[0], r*st[1]
		if v.null(li) || xm.null(xi) {
			out.end(false)
			continue
		}
		left := int64(1)
		switch mode {
		case arrRemoveAll:
			left = math.MaxInt64
		case arrRemoveN:
			left = 0
			if ni := r * st[2]; !nm.null(ni) && ni < len(ns) {
				left = ns[ni]
			}
		}
		lo, hi := v.bounds(li)
		for j := lo; j < hi; j++ {
			if left > 0 && eq(j, xi) {
				left--
				continue
			}
			out.add(j)
		}
		out.end(true)
	}
	return out.finish(ec.mem, v.values, nestResultType(args[0], v.values))
}

// arrSetOpKernel is array_intersect, array_union and array_except: distinct
// elements in order of first appearance; NULL when either list is.
func arrSetOpKernel(ec *evalCtx, a, b arrow.Array, op int) (arrow.Array, error) {
	views, all, bases, err := nestLists(ec, []arrow.Array{a, b})
	if err != nil {
		return nil, err
	}
	defer all.Release()
	k, err := nestKeysOf(all)
	if err != nil {
		return nil, err
	}
	seen, other := newNestSet(k), newNestSet(k)
	st := nestSteps([]arrow.Array{a, b}, ec.n)
	out := newNestOut(ec.n)
	for r := 0; r < ec.n; r++ {
		ai, bi := r*st[0], r*st[1]
		if views[0].null(ai) || views[1].null(bi) {
			out.end(false)
			continue
		}
		seen.reset()
		other.reset()
		alo, ahi := views[0].bounds(ai)
		blo, bhi := views[1].bounds(bi)
		if op != arrSetUnion {
			for j := blo; j < bhi; j++ {
				other.add(bases[1] + j)
			}
		}
		for j := alo; j < ahi; j++ {
			keep := op == arrSetUnion || other.has(j) == (op == arrSetIntersect)
			if keep && seen.add(j) {
				out.add(j)
			}
		}
		if op == arrSetUnion {
			for j := blo; j < bhi; j++ {
				if seen.add(bases[1] + j) {
					out.add(bases[1] + j)
				}
			}
		}
		out.end(true)
	}
	return out.finish(ec.mem, all, nestResultType(a, all))
}

// arrFlattenKernel removes one level of nesting (NULL inner lists are
// skipped); a list of non-lists is returned as it is.
func arrFlattenKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	v, err := nestList(args[0])
	if err != nil {
		return nil, err
	}
	step := nestSteps(args, ec.n)[0]
	out := newNestOut(ec.n)
	iv, nestCall := nestView(v.values)
	src := v.values
	if nestCall {
		src = iv.values
	}
	for r := 0; r < ec.n; r++ {
		i := r * step
		if v.null(i) {
			out.end(false)
			continue
		}
		lo, hi := v.bounds(i)
		for j := lo; j < hi; j++ {
			if !nestCall {
				out.add(j)
				continue
			}
			if iv.null(j) {
				continue
			}
			ilo, ihi := iv.bounds(j)
			for k := ilo; k < ihi; k++ {
				out.add(k)
			}
		}
		out.end(true)
	}
	return out.finish(ec.mem, src, nestResultType(args[0], src))
}

// nestElemFormatter appends element i of an array as array_to_string writes
// it (NULLs are handled by the caller).
type nestElemFormatter func(dst []byte, i int) []byte

// nestFormatter returns the formatter of a's elements; nested lists are
// written element by element through sub.
func nestFormatter(a arrow.Array) (nestElemFormatter, error) {
	switch x := a.(type) {
	case *array.Int8:
		return func(d []byte, i int) []byte { return strconv.AppendInt(d, int64(x.Value(i)), 10) }, nil
	case *array.Int16:
		return func(d []byte, i int) []byte { return strconv.AppendInt(d, int64(x.Value(i)), 10) }, nil
	case *array.Int32:
		return func(d []byte, i int) []byte { return strconv.AppendInt(d, int64(x.Value(i)), 10) }, nil
	case *array.Int64:
		return func(d []byte, i int) []byte { return strconv.AppendInt(d, x.Value(i), 10) }, nil
	case *array.Uint8:
		return func(d []byte, i int) []byte { return strconv.AppendUint(d, uint64(x.Value(i)), 10) }, nil
	case *array.Uint16:
		return func(d []byte, i int) []byte { return strconv.AppendUint(d, uint64(x.Value(i)), 10) }, nil
	case *array.Uint32:
		return func(d []byte, i int) []byte { return strconv.AppendUint(d, uint64(x.Value(i)), 10) }, nil
	case *array.Uint64:
		return func(d []byte, i int) []byte { return strconv.AppendUint(d, x.Value(i), 10) }, nil
	case *array.Float64:
		return func(d []byte, i int) []byte { return nestDisplayFloat(d, x.Value(i), 64) }, nil
	case *array.Float32:
		return func(d []byte, i int) []byte { return nestDisplayFloat(d, float64(x.Value(i)), 32) }, nil
	case *array.Boolean:
		return func(d []byte, i int) []byte { return strconv.AppendBool(d, x.Value(i)) }, nil
	case *array.Date32:
		return func(d []byte, i int) []byte {
			return time.Unix(int64(x.Value(i))*86400, 0).UTC().AppendFormat(d, "2006-01-02")
		}, nil
	case *array.Decimal128:
		scale := x.DataType().(*arrow.Decimal128Type).Scale
		return func(d []byte, i int) []byte { return append(d, nestDecimalText(x.Value(i), scale)...) }, nil
	}
	switch a.DataType().ID() {
	case arrow.NULL:
		return func(d []byte, _ int) []byte { return d }, nil
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY:
		v := bytesOf(a)
		return func(d []byte, i int) []byte { return append(d, v.at(i)...) }, nil
	}
	return nil, fmt.Errorf("%w: array_to_string of %s elements", ErrUnsupported, a.DataType())
}

// nestDecimalText renders a decimal with its scale's digits.
func nestDecimalText(n decimal128.Num, scale int32) string {
	return n.ToString(scale)
}

// nestDisplayFloat writes f as Rust's Display does: plain digits, no
// exponent, "-0", "NaN", "inf".
func nestDisplayFloat(d []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(d, "NaN"...)
	case math.IsInf(f, 1):
		return append(d, "inf"...)
	case math.IsInf(f, -1):
		return append(d, "-inf"...)
	}
	return strconv.AppendFloat(d, f, 'f', -1, bits)
}

// arrToStringKernel is array_to_string(l, delim[, null_str]): the elements
// (nested lists flattened) joined by delim; NULL elements skipped, or
// written as null_str when it is given and not NULL.
func arrToStringKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	v, err := nestList(args[0])
	if err != nil {
		return nil, err
	}
	chain := nestChain(v)
	leaf := chain[len(chain)-1].values
	format, err := nestFormatter(leaf)
	if err != nil {
		return nil, err
	}
	leafMask := nestMaskOf(leaf)
	delims := bytesOf(args[1])
	dm := nestMaskOf(args[1])
	var nulls bytesView
	var nm nestMask
	hasNullStr := len(args) == 3
	if hasNullStr {
		nulls, nm = bytesOf(args[2]), nestMaskOf(args[2])
	}
	st := nestSteps(args, ec.n)
	b := array.NewStringBuilder(ec.mem)
	defer b.Release()
	var buf, delim, nullStr []byte
	first, useNull := true, false
	sep := func() {
		if !first {
			buf = append(buf, delim...)
		}
		first = false
	}
	var walk func(level, lo, hi int)
	walk = func(level, lo, hi int) {
		for j := lo; j < hi; j++ {
			isNull := leafMask.null(j)
			if level+1 < len(chain) {
				isNull = chain[level+1].null(j)
			}
			switch {
			case isNull:
				if useNull {
					sep()
					buf = append(buf, nullStr...)
				}
			case level+1 < len(chain):
				ilo, ihi := chain[level+1].bounds(j)
				walk(level+1, ilo, ihi)
			default:
				sep()
				buf = format(buf, j)
			}
		}
	}
	for r := 0; r < ec.n; r++ {
		li, di := r*st[0], r*st[1]
		if v.null(li) || dm.null(di) {
			b.AppendNull()
			continue
		}
		delim, nullStr, useNull = delims.at(di), nil, false
		if hasNullStr {
			if ni := r * st[2]; !nm.null(ni) {
				nullStr, useNull = nulls.at(ni), true
			}
		}
		buf, first = buf[:0], true
		lo, hi := v.bounds(li)
		walk(0, lo, hi)
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
}
