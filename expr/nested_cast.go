package expr

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Type unification and casts of nested values: the element types list
// functions and list comparisons coerce their operands to, and the casts
// that bring a list (or struct) to such a type element by element.

// nestUnify is the type values of a and b are both converted to where
// DataFusion unifies them (make_array's arguments, the element types of
// compared lists, a list and the element added to it); false when there
// is none.
func nestUnify(a, b arrow.DataType) (arrow.DataType, bool) {
	switch {
	case a.ID() == arrow.NULL:
		return b, true
	case b.ID() == arrow.NULL:
		return a, true
	case arrow.TypeEqual(a, b):
		return a, true
	case isNumeric(a) && isNumeric(b):
		return nestNumeric(a, b)
	case isString(a) && isString(b):
		if a.ID() == arrow.LARGE_STRING || b.ID() == arrow.LARGE_STRING {
			return arrow.BinaryTypes.LargeString, true
		}
		return arrow.BinaryTypes.String, true
	case isBinary(a) && isBinary(b):
		if a.ID() == arrow.LARGE_BINARY || b.ID() == arrow.LARGE_BINARY {
			return arrow.BinaryTypes.LargeBinary, true
		}
		return arrow.BinaryTypes.Binary, true
	case isString(a) && isNumeric(b):
		return b, true
	case isNumeric(a) && isString(b):
		return a, true
	case isTemporal(a) && isTemporal(b):
		return temporalCommonType(a, b)
	case isList(a) && isList(b):
		ea, eb := nestElem(a), nestElem(b)
		e, ok := nestUnify(ea, eb)
		if !ok {
			return nil, false
		}
		fa, aok := a.(*arrow.FixedSizeListType)
		fb, bok := b.(*arrow.FixedSizeListType)
		switch {
		case aok && bok && fa.Len() == fb.Len():
			return arrow.FixedSizeListOf(fa.Len(), e), true
		case a.ID() == arrow.LARGE_LIST || b.ID() == arrow.LARGE_LIST:
			return arrow.LargeListOf(e), true
		}
		return arrow.ListOf(e), true
	case a.ID() == arrow.STRUCT && b.ID() == arrow.STRUCT:
		sa, sb := a.(*arrow.StructType), b.(*arrow.StructType)
		if sa.NumFields() != sb.NumFields() {
			return nil, false
		}
		fs := make([]arrow.Field, sa.NumFields())
		for i := range fs {
			fa, fb := sa.Field(i), sb.Field(i)
			if fa.Name != fb.Name {
				return nil, false
			}
			t, ok := nestUnify(fa.Type, fb.Type)
			if !ok {
				return nil, false
			}
			fs[i] = arrow.Field{Name: fa.Name, Type: t, Nullable: true}
		}
		return arrow.StructOf(fs...), true
	}
	return nil, false
}

// nestNumeric is DataFusion's union of two numeric types: a float64
// wins over integers, a float32 too (int64 and float32 unify to float32),
// a float with a decimal gives a decimal (float32 as decimal(14, 7),
// float64 as decimal(30, 15)), integers widen to the integer (or
// decimal(20, 0)) holding both.
func nestNumeric(a, b arrow.DataType) (arrow.DataType, bool) {
	switch {
	case isDecimal(a) && isFloat(b):
		return nestNumeric(a, floatAsDecimal(b))
	case isFloat(a) && isDecimal(b):
		return nestNumeric(floatAsDecimal(a), b)
	case a.ID() == arrow.FLOAT64 || b.ID() == arrow.FLOAT64:
		return arrow.PrimitiveTypes.Float64, true
	case isFloat(a) || isFloat(b):
		return arrow.PrimitiveTypes.Float32, true
	case isDecimal(a) || isDecimal(b):
		return decimalCommonType(a, b)
	}
	return integerCommonType(a, b), true
}

// floatAsDecimal is the decimal DataFusion converts a float to when it
// unifies it with a decimal.
func floatAsDecimal(t arrow.DataType) arrow.DataType {
	if t.ID() == arrow.FLOAT64 {
		return &arrow.Decimal128Type{Precision: 30, Scale: 15}
	}
	return &arrow.Decimal128Type{Precision: 14, Scale: 7}
}

// nestCast converts a to type to: lists and structs element by element
// (a fixed-size list target makes rows of another length NULL), other
// types with the core's casts (arrow-rs's; a value that does not convert
// fails).
func nestCast(mem memory.Allocator, a arrow.Array, to arrow.DataType) (arrow.Array, error) {
	from := a.DataType()
	if arrow.TypeEqual(from, to) {
		a.Retain()
		return a, nil
	}
	if from.ID() == arrow.NULL {
		return array.MakeArrayOfNull(mem, to, a.Len()), nil
	}
	if isList(to) {
		v, ok := nestView(a)
		if !ok {
			return nil, fmt.Errorf("%w: cannot cast %s to %s", ErrBind, from, to)
		}
		vals, err := nestCast(mem, v.values, nestElem(to))
		if err != nil {
			return nil, err
		}
		defer vals.Release()
		return nestRelist(mem, &v, vals, to)
	}
	if to.ID() == arrow.STRUCT {
		return nestCastStruct(mem, a, to.(*arrow.StructType))
	}
	if isList(from) || from.ID() == arrow.STRUCT || from.ID() == arrow.MAP {
		return nil, fmt.Errorf("%w: cannot cast %s to %s", ErrBind, from, to)
	}
	k := castKernelFor(from, to)
	if k == nil {
		return nil, fmt.Errorf("%w: Unsupported CAST from %s to %s", ErrBind, from, to)
	}
	out, err := k(&castCtx{mem: mem, to: to}, a)
	if err != nil {
		if errors.Is(err, ErrEval) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: Cast error: %w (cast from %s to %s)", ErrEval, err, from, to)
	}
	return out, nil
}

// nestRelist builds a list of type to with the rows of v over the (cast)
// values vals.
func nestRelist(mem memory.Allocator, v *nestListView, vals arrow.Array, to arrow.DataType) (arrow.Array, error) {
	out := newNestOut(v.n)
	size := -1
	if f, ok := to.(*arrow.FixedSizeListType); ok {
		size = int(f.Len())
	}
	for i := 0; i < v.n; i++ {
		lo, hi := v.bounds(i)
		valid := !v.null(i) && (size < 0 || hi-lo == size)
		if !valid && size >= 0 {
			for k := 0; k < size; k++ {
				out.add(-1)
			}
			out.end(false)
			continue
		}
		for k := lo; k < hi; k++ {
			out.add(k)
		}
		out.end(valid)
	}
	return out.finish(mem, vals, to)
}

// nestCastStruct casts the fields of a struct array by position.
func nestCastStruct(mem memory.Allocator, a arrow.Array, to *arrow.StructType) (arrow.Array, error) {
	s, ok := a.(*array.Struct)
	if !ok || s.NumField() != to.NumFields() {
		return nil, fmt.Errorf("%w: cannot cast %s to %s", ErrBind, a.DataType(), to)
	}
	kids := make([]arrow.Array, s.NumField())
	defer releaseArrays(kids)
	for i := range kids {
		k, err := nestCast(mem, s.Field(i), to.Field(i).Type)
		if err != nil {
			return nil, err
		}
		kids[i] = k
	}
	return nestStruct(mem, to, kids, nullWords(a), a.Len())
}

// nestStruct assembles a struct array of type t from its fields (each of
// n rows) and its validity (nil: every row valid).
func nestStruct(mem memory.Allocator, t *arrow.StructType, kids []arrow.Array, valid []uint64, n int) (arrow.Array, error) {
	var vb *memory.Buffer
	nulls := 0
	if valid != nil {
		nulls = array.UnknownNullCount
		vb = memory.NewResizableBuffer(mem)
		vb.Resize((n + 7) / 8)
		putWords(vb.Bytes(), valid)
		defer vb.Release()
	}
	children := make([]arrow.ArrayData, len(kids))
	for i, k := range kids {
		if k.Len() != n {
			return nil, fmt.Errorf("%w: struct field of %d rows, want %d", ErrEval, k.Len(), n)
		}
		children[i] = k.Data()
	}
	d := array.NewData(t, n, []*memory.Buffer{vb}, children, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// nestCastNode casts its operand to a nested type with nestCast.
type nestCastNode struct {
	x  node
	to arrow.DataType
}

func (c *nestCastNode) dataType() arrow.DataType { return c.to }
func (c *nestCastNode) inputs() []node           { return []node{c.x} }

func (c *nestCastNode) eval(ec *evalCtx) (arrow.Array, error) {
	a, err := c.x.eval(ec)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return nestCast(ec.mem, a, c.to)
}

// nestCastTo returns n converted to t (n itself when it has that type).
func nestCastTo(n node, t arrow.DataType) node {
	if arrow.TypeEqual(n.dataType(), t) {
		return n
	}
	return &nestCastNode{x: n, to: t}
}

// foldCast returns n converted to t, converted at once when n is a
// constant (a constant of type t is returned as it is).
func (b *binder) foldCast(n node, t arrow.DataType) (node, error) {
	c := nestCastTo(n, t)
	if _, ok := c.(*constNode); ok {
		return c, nil
	}
	return b.fold(c, nil)
}

// nestNode applies a kernel to its arguments, passing constants as
// their one row (kernels step through an argument of one row by 0), so
// a constant list is never repeated for every row of the batch.
type nestNode struct {
	name string
	args []node
	typ  arrow.DataType
	k    kernel
}

func (c *nestNode) dataType() arrow.DataType { return c.typ }
func (c *nestNode) inputs() []node           { return c.args }

func (c *nestNode) eval(ec *evalCtx) (arrow.Array, error) {
	args := make([]arrow.Array, len(c.args))
	defer releaseArrays(args)
	for i, n := range c.args {
		if k, ok := n.(*constNode); ok {
			k.val.Retain()
			args[i] = k.val
			continue
		}
		a, err := n.eval(ec)
		if err != nil {
			return nil, err
		}
		args[i] = a
	}
	for _, a := range args {
		if a.Len() != ec.n && a.Len() != 1 {
			return nil, fmt.Errorf("%w: %s: argument of %d rows in a batch of %d", ErrEval, c.name, a.Len(), ec.n)
		}
	}
	out, err := c.k(ec, args)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.name, err)
	}
	if out.Len() != ec.n {
		out.Release()
		return nil, fmt.Errorf("%w: %s returned %d rows for %d", ErrEval, c.name, out.Len(), ec.n)
	}
	return out, nil
}
