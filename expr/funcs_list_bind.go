package expr

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Binders of the list functions that measure lists and build new ones
// (array_length … flatten); funcs_list.go has the table and the others.

func bindArrLength(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 1 && len(args) != 2 {
		return nil, argCountError(c, "1 or 2")
	}
	if err := nestWantList(c, args, 0, false); err != nil {
		return nil, err
	}
	ins := []node{args[0]}
	if len(args) == 2 {
		d, err := b.nestWantInt(c, args, 1)
		if err != nil {
			return nil, err
		}
		ins = append(ins, d)
	}
	return b.nestCall(c, ins, arrow.PrimitiveTypes.Uint64, arrLengthKernel)
}

func bindArrCardinality(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 1 {
		return nil, argCountError(c, "1")
	}
	if args[0].dataType().ID() != arrow.MAP {
		if err := nestWantList(c, args, 0, false); err != nil {
			return nil, err
		}
	}
	return b.nestCall(c, args, arrow.PrimitiveTypes.Uint64, arrCardinalityKernel)
}

func bindArrNdims(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 1 {
		return nil, argCountError(c, "1")
	}
	if err := nestWantList(c, args, 0, true); err != nil {
		return nil, err
	}
	if args[0].dataType().ID() == arrow.NULL {
		return b.nestNull(arrow.PrimitiveTypes.Uint64), nil
	}
	dims := uint64(0)
	for t := args[0].dataType(); isList(t); t = nestElem(t) {
		dims++
	}
	return b.nestCall(c, args, arrow.PrimitiveTypes.Uint64, func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		return nestPerRowUint(ec, a[0], func(lo, hi int) uint64 { return dims })
	})
}

func bindArrEmpty(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 1 {
		return nil, argCountError(c, "1")
	}
	if err := nestWantList(c, args, 0, false); err != nil {
		return nil, err
	}
	return b.nestCall(c, args, arrow.FixedWidthTypes.Boolean, arrEmptyKernel)
}

func bindArrElement(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 2 {
		return nil, argCountError(c, "2")
	}
	return b.elementAt(c.Name, args[0], args[1], c.Args[0], c.Args[1], c.At)
}

// bindArrMinMax binds array_max (dir 1) and array_min (dir -1).
func bindArrMinMax(dir int) func(b *binder, c *Call, args []node) (node, error) {
	return func(b *binder, c *Call, args []node) (node, error) {
		if len(args) != 1 {
			return nil, argCountError(c, "1")
		}
		if err := nestWantList(c, args, 0, false); err != nil {
			return nil, err
		}
		return b.nestCall(c, args, nestElem(args[0].dataType()), func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
			return arrMinMaxKernel(ec, a[0], dir)
		})
	}
}

func bindArrDistinct(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 1 {
		return nil, argCountError(c, "1")
	}
	if err := nestWantList(c, args, 0, true); err != nil {
		return nil, err
	}
	t := args[0].dataType()
	if t.ID() == arrow.NULL {
		return b.nestNull(arrow.Null), nil
	}
	return b.nestCall(c, args, nestVarList(t, nestElem(t)), arrDistinctKernel)
}

func bindArrSort(b *binder, c *Call, args []node) (node, error) {
	if len(args) < 1 || len(args) > 3 {
		return nil, argCountError(c, "1 to 3")
	}
	if err := nestWantList(c, args, 0, true); err != nil {
		return nil, err
	}
	t := args[0].dataType()
	if t.ID() == arrow.NULL {
		return b.nestNull(arrow.Null), nil
	}
	rt := nestVarList(t, nestElem(t))
	desc, nullsFirst := false, true
	for i := 1; i < len(args); i++ {
		s, null, ok := constNestStr(args[i])
		if !ok {
			return nil, argTypeError(c, i, args[i], "a constant string")
		}
		if null {
			return b.nestNull(rt), nil
		}
		s = strings.ToUpper(s)
		switch {
		case i == 1 && (s == "ASC" || s == "DESC"):
			desc = s == "DESC"
		case i == 2 && (s == "NULLS FIRST" || s == "NULLS LAST"):
			nullsFirst = s == "NULLS FIRST"
		case i == 1:
			return nil, fmt.Errorf("%w: the second parameter of array_sort expects DESC or ASC (at %d)", ErrBind, c.Args[i].Pos())
		default:
			return nil, fmt.Errorf("%w: the third parameter of array_sort expects NULLS FIRST or NULLS LAST (at %d)", ErrBind, c.Args[i].Pos())
		}
	}
	return b.nestCall(c, args[:1], rt, func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
		return arrSortKernel(ec, a[0], desc, nullsFirst)
	})
}

func bindArrSlice(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 3 && len(args) != 4 {
		return nil, argCountError(c, "3 or 4")
	}
	if err := nestWantList(c, args, 0, false); err != nil {
		return nil, err
	}
	ins := []node{args[0]}
	for i := 1; i < len(args); i++ {
		n, err := b.nestWantInt(c, args, i)
		if err != nil {
			return nil, err
		}
		ins = append(ins, n)
	}
	t := args[0].dataType()
	return b.nestCall(c, ins, nestVarList(t, nestElem(t)), arrSliceKernel)
}

func bindArrConcat(b *binder, c *Call, args []node) (node, error) {
	if len(args) == 0 {
		return nil, argCountError(c, "1 or more")
	}
	for i := range args {
		if err := nestWantList(c, args, i, false); err != nil {
			return nil, err
		}
	}
	ls, t, err := b.nestUnifyLists(c, args)
	if err != nil {
		return nil, err
	}
	var rt arrow.DataType = arrow.ListOf(t)
	for _, a := range args {
		if a.dataType().ID() == arrow.LARGE_LIST {
			rt = arrow.LargeListOf(t)
		}
	}
	return b.nestCall(c, ls, rt, arrConcatKernel)
}

// bindArrAppend binds array_append(l, x) and (prepend) array_prepend(x, l).
func bindArrAppend(prepend bool) func(b *binder, c *Call, args []node) (node, error) {
	return func(b *binder, c *Call, args []node) (node, error) {
		if len(args) != 2 {
			return nil, argCountError(c, "2")
		}
		li, xi := 0, 1
		if prepend {
			li, xi = 1, 0
		}
		if err := nestWantList(c, args, li, true); err != nil {
			return nil, err
		}
		l := args[li]
		if l.dataType().ID() == arrow.NULL {
			l = b.nestNull(arrow.ListOf(args[xi].dataType()))
		}
		ln, xn, err := b.nestUnifyElem(c, l, args[xi], li, xi, false)
		if err != nil {
			return nil, err
		}
		t := ln.dataType()
		return b.nestCall(c, []node{ln, xn}, nestVarList(t, nestElem(t)), func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
			return arrAppendKernel(ec, a[0], a[1], prepend)
		})
	}
}

// The array_remove variants.
const (
	arrRemoveFirst = iota
	arrRemoveN
	arrRemoveAll
)

func bindArrRemove(mode int) func(b *binder, c *Call, args []node) (node, error) {
	return func(b *binder, c *Call, args []node) (node, error) {
		want := 2
		if mode == arrRemoveN {
			want = 3
		}
		if len(args) != want {
			return nil, argCountError(c, fmt.Sprint(want))
		}
		if err := nestWantList(c, args, 0, false); err != nil {
			return nil, err
		}
		t := args[0].dataType()
		if args[1].dataType().ID() == arrow.NULL {
			return b.nestNull(nestVarList(t, nestElem(t))), nil
		}
		l, x, err := b.nestUnifyElem(c, args[0], args[1], 0, 1, true)
		if err != nil {
			return nil, err
		}
		ins := []node{l, x}
		if mode == arrRemoveN {
			n, err := b.nestWantInt(c, args, 2)
			if err != nil {
				return nil, err
			}
			ins = append(ins, n)
		}
		t = l.dataType()
		return b.nestCall(c, ins, nestVarList(t, nestElem(t)), func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
			return arrRemoveKernel(ec, a, mode)
		})
	}
}

// The set operations on two lists.
const (
	arrSetIntersect = iota
	arrSetUnion
	arrSetExcept
)

func bindArrSetOp(op int) func(b *binder, c *Call, args []node) (node, error) {
	return func(b *binder, c *Call, args []node) (node, error) {
		if len(args) != 2 {
			return nil, argCountError(c, "2")
		}
		for i := range args {
			if err := nestWantList(c, args, i, true); err != nil {
				return nil, err
			}
		}
		for i := range args {
			if args[i].dataType().ID() == arrow.NULL {
				o := args[1-i].dataType()
				if o.ID() == arrow.NULL {
					return b.nestNull(arrow.Null), nil
				}
				return b.nestNull(nestVarList(o, nestElem(o))), nil
			}
		}
		ls, t, err := b.nestUnifyLists(c, args)
		if err != nil {
			return nil, err
		}
		return b.nestCall(c, ls, nestVarList(args[0].dataType(), t), func(ec *evalCtx, a []arrow.Array) (arrow.Array, error) {
			return arrSetOpKernel(ec, a[0], a[1], op)
		})
	}
}

func bindArrToString(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 2 && len(args) != 3 {
		return nil, argCountError(c, "2 or 3")
	}
	if !isList(args[0].dataType()) {
		return nil, fmt.Errorf("%w: %s expects list as first argument, got %s (at %d)", ErrBind, c.Name, args[0].dataType(), c.Args[0].Pos())
	}
	ins := []node{args[0]}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch t := a.dataType(); {
		case t.ID() == arrow.NULL:
			a = b.nestNull(arrow.BinaryTypes.String)
		case isString(t):
		default:
			if _, ok := nestUnify(t, arrow.BinaryTypes.String); !ok && !isNumeric(t) && t.ID() != arrow.BOOL {
				return nil, argTypeError(c, i, a, "a string")
			}
			a = nestCastTo(a, arrow.BinaryTypes.String)
		}
		ins = append(ins, a)
	}
	return b.nestCall(c, ins, arrow.BinaryTypes.String, arrToStringKernel)
}

func bindArrFlatten(b *binder, c *Call, args []node) (node, error) {
	if len(args) != 1 {
		return nil, argCountError(c, "1")
	}
	if err := nestWantList(c, args, 0, true); err != nil {
		return nil, err
	}
	t := args[0].dataType()
	if t.ID() == arrow.NULL {
		return b.nestNull(arrow.Null), nil
	}
	et := nestElem(t)
	if !isList(et) {
		return b.nestCall(c, args, nestVarList(t, et), arrFlattenKernel)
	}
	return b.nestCall(c, args, nestVarList(t, nestElem(et)), arrFlattenKernel)
}
