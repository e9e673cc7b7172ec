package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Nested values: struct fields (st.x, get_field), list subscripts (l[i],
// 1-based, negative from the end), array literals and comparisons of
// lists, as Lance (DataFusion) plans them.

// bindField binds st.x (st['x'], `st`.`x`): the child of that exact name.
func (b *binder) bindField(x *Field) (node, error) {
	base, err := b.bind(x.X)
	if err != nil {
		return nil, err
	}
	return b.fieldOf(base, x.X, x.Name, x.At)
}

// fieldOf selects the child name of the struct base (the expression be).
// A map is refused as Lance refuses m['k'] (element_at reads maps).
func (b *binder) fieldOf(base node, be Expr, name string, at int) (node, error) {
	switch t := base.dataType().(type) {
	case *arrow.StructType:
		for i, f := range t.Fields() {
			if f.Name == name {
				return &nestFieldNode{x: base, idx: i, typ: f.Type}, nil
			}
		}
		return nil, fmt.Errorf("%w: Field %s not found in struct (%s at %d; the fields are %s)", ErrBind, name, be, at, fieldNames(t.Fields()))
	case *arrow.MapType:
		return nil, fmt.Errorf("%w: Column %s.%s does not exist (at %d): read maps with element_at", ErrBind, be, name, at)
	case *arrow.NullType:
		return &constNode{val: arrowNullArray(1)}, nil
	}
	return nil, fmt.Errorf("%w: cannot access field %q of %s (at %d): type %s is not Struct, Map, or Null", ErrBind, name, be, at, base.dataType())
}

// nestFieldNode is a child of a struct: NULL where the struct row is NULL.
type nestFieldNode struct {
	x   node
	idx int
	typ arrow.DataType
}

func (f *nestFieldNode) dataType() arrow.DataType { return f.typ }
func (f *nestFieldNode) inputs() []node           { return []node{f.x} }

func (f *nestFieldNode) eval(ec *evalCtx) (arrow.Array, error) {
	a, err := f.x.eval(ec)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	s, ok := a.(*array.Struct)
	if !ok || f.idx >= s.NumField() {
		return nil, fmt.Errorf("%w: field %d of %s", ErrMismatch, f.idx, a.DataType())
	}
	child := s.Field(f.idx)
	if a.NullN() == 0 {
		child.Retain()
		return child, nil
	}
	return nestWithValidity(ec.mem, child, nullWords(a)), nil
}

// bindArrGetField binds get_field(st, 'x'[, 'y'…]): a path of struct fields.
func bindArrGetField(b *binder, c *Call, args []node) (node, error) {
	if len(args) < 2 {
		return nil, argCountError(c, "2 or more")
	}
	n := args[0]
	var be Expr = c.Args[0]
	for i := 1; i < len(args); i++ {
		k, ok := asConst(args[i])
		if !ok || k.isNull() || !isString(k.val.DataType()) {
			return nil, fmt.Errorf("%w: get_field: Field name must be a non-empty string (argument %d at %d)", ErrBind, i+1, c.Args[i].Pos())
		}
		v := bytesOf(k.val)
		name := string(v.at(0))
		if name == "" {
			return nil, fmt.Errorf("%w: get_field: Field name must be a non-empty string (argument %d at %d)", ErrBind, i+1, c.Args[i].Pos())
		}
		var err error
		if n, err = b.fieldOf(n, be, name, c.At); err != nil {
			return nil, err
		}
		if _, isConst := n.(*constNode); !isConst {
			if n, err = b.fold(n, nil); err != nil {
				return nil, err
			}
		}
		be = &Field{X: be, Name: name, At: c.At}
	}
	return n, nil
}

// bindIndex binds l[i] (1-based; 0 and out of range are NULL, negative
// counts from the end).
func (b *binder) bindIndex(x *Index) (node, error) {
	l, err := b.bind(x.X)
	if err != nil {
		return nil, err
	}
	i, err := b.bind(x.Index)
	if err != nil {
		return nil, err
	}
	return b.elementAt("array_element", l, i, x.X, x.Index, x.At)
}

// elementAt binds array_element(l, i).
func (b *binder) elementAt(name string, l, i node, le, ie Expr, at int) (node, error) {
	lt := l.dataType()
	var et arrow.DataType
	switch {
	case lt.ID() == arrow.NULL:
		et = arrow.Null
	case isList(lt):
		et = nestElem(lt)
	default:
		return nil, fmt.Errorf("%w: %s does not support type %s (%s at %d)", ErrBind, name, lt, le, at)
	}
	it := i.dataType()
	switch {
	case it.ID() == arrow.NULL:
		return &constNode{val: nullOf(b.mem, et)}, nil
	case isInteger(it) && it.ID() != arrow.UINT64:
	default:
		return nil, fmt.Errorf("%w: %s: the index %s (at %d) must be an integer, not %s", ErrBind, name, ie, ie.Pos(), it)
	}
	if lt.ID() == arrow.NULL {
		return &constNode{val: nullOf(b.mem, et)}, nil
	}
	if it.ID() != arrow.INT64 {
		var err error
		if i, err = b.castTo(i, arrow.PrimitiveTypes.Int64, at); err != nil {
			return nil, err
		}
	}
	return b.fold(&nestNode{name: name, args: []node{l, i}, typ: et, k: arrElementKernel}, nil)
}

// arrElementKernel picks element i (1-based) of every list.
func arrElementKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	v, ok := nestView(args[0])
	if !ok {
		return nil, fmt.Errorf("%w: array_element of %s", ErrMismatch, args[0].DataType())
	}
	ix := int64Values(args[1])
	im := nestMaskOf(args[1])
	st := nestSteps(args, ec.n)
	idx := make([]int64, ec.n)
	for r := 0; r < ec.n; r++ {
		li, ii := r*st[0], r*st[1]
		idx[r] = -1
		if v.null(li) || im.null(ii) || ii >= len(ix) {
			continue
		}
		lo, hi := v.bounds(li)
		k := ix[ii]
		switch {
		case k > 0 && k <= int64(hi-lo):
			idx[r] = int64(lo) + k - 1
		case k < 0 && -k <= int64(hi-lo):
			idx[r] = int64(hi) + k
		}
	}
	return nestGather(ec.mem, v.values, idx)
}

// bindArray binds an array literal; want is the list type to convert it
// to (nil: infer from the elements). With want (Lance's resolution of a
// literal compared with a column) the elements must be literals of one
// type, as Lance's planner requires, and are cast to want's element type
// as arrow-rs casts (a value that does not convert becomes NULL, a fixed
// size list of another length a NULL list). Without want the array is
// make_array of its elements (DataFusion's typing: the elements unify to
// one type, nested arrays and expressions are allowed).
func (b *binder) bindArray(x *Array, want arrow.DataType) (node, error) {
	if want != nil {
		v, err := arrLitList(b.mem, x, want)
		if err != nil {
			return nil, err
		}
		return &constNode{val: v}, nil
	}
	elems := make([]node, len(x.Elems))
	for i, e := range x.Elems {
		n, err := b.bind(e)
		if err != nil {
			return nil, err
		}
		elems[i] = n
	}
	return b.fold(nestMakeArray(elems, x, x.At))
}

// compareNested compares operands of which one at least is a list (or a
// struct): both must be lists (of any kind), their elements are unified
// to one type (structs: their fields, by name and position),
// and rows compare lexicographically (then by length) with NULL elements
// first and equal to each other; a NULL list gives NULL (IS [NOT]
// DISTINCT FROM treats it as a value).
func (b *binder) compareNested(op BinaryOp, l, r node, at int) (node, error) {
	lt, rt := l.dataType(), r.dataType()
	refuse := fmt.Errorf("%w: Cannot infer common argument type for comparison operation %s %s %s (at %d)", ErrBind, lt, op, rt, at)
	var err error
	switch {
	case isList(lt) && isList(rt):
		et, ok := nestUnify(nestElem(lt), nestElem(rt))
		if !ok {
			return nil, refuse
		}
		if l, err = b.foldCast(l, nestListOf(lt, et)); err != nil {
			return nil, err
		}
		if r, err = b.foldCast(r, nestListOf(rt, et)); err != nil {
			return nil, err
		}
	case lt.ID() == arrow.STRUCT && rt.ID() == arrow.STRUCT:
		t, ok := nestUnify(lt, rt)
		if !ok {
			return nil, refuse
		}
		if l, err = b.foldCast(l, t); err != nil {
			return nil, err
		}
		if r, err = b.foldCast(r, t); err != nil {
			return nil, err
		}
	default:
		return nil, refuse
	}
	return &nestNode{name: "comparison " + op.String(), args: []node{l, r}, typ: arrow.FixedWidthTypes.Boolean,
		k: func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
			return nestCompareLists(ec, op, args[0], args[1])
		}}, nil
}

// nestCompareLists compares two list-like (or struct) arrays (one row
// each for a constant) row by row.
func nestCompareLists(ec *evalCtx, op BinaryOp, l, r arrow.Array) (arrow.Array, error) {
	c, err := nestValueCmp(l, r)
	if err != nil {
		return nil, err
	}
	lm, rm := nestMaskOf(l), nestMaskOf(r)
	st := nestSteps([]arrow.Array{l, r}, ec.n)
	nw := (ec.n + 63) / 64
	data, valid := make([]uint64, nw), make([]uint64, nw)
	distinct := op == OpIsDistinctFrom || op == OpIsNotDistinctFrom
	for i := 0; i < ec.n; i++ {
		li, ri := i*st[0], i*st[1]
		ln, rn := lm.null(li), rm.null(ri)
		var t bool
		switch {
		case ln || rn:
			if !distinct {
				continue
			}
			t = (ln && rn) == (op == OpIsNotDistinctFrom)
		default:
			o := c(li, ri)
			switch op {
			case OpEq, OpIsNotDistinctFrom:
				t = o == 0
			case OpNotEq, OpIsDistinctFrom:
				t = o != 0
			case OpLt:
				t = o < 0
			case OpLtEq:
				t = o <= 0
			case OpGt:
				t = o > 0
			case OpGtEq:
				t = o >= 0
			}
		}
		valid[i>>6] |= 1 << (i & 63)
		if t {
			data[i>>6] |= 1 << (i & 63)
		}
	}
	return boolArrayFromWords(ec.mem, data, valid, ec.n), nil
}
