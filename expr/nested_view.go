package expr

import (
	"bytes"
	"context"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/compute/exec"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Reading and building nested arrays: the row ranges of list-like arrays,
// NULL masks, the ordering of nested values (arrow-rs's: lexicographic,
// NULLs first, floats in IEEE total order), and the gathering of list
// results out of a values array.

// nestMask answers whether element i of an array is NULL without an
// interface call.
type nestMask struct {
	bm  []byte
	off int
	all bool // the NULL type: every element is NULL
}

// nestMaskOf returns the NULL mask of a. It only reads a: Array.NullN
// caches a count it computes in the array's data, a write that races
// when a constant (a literal list) is evaluated by several goroutines at
// once, so an unknown count here just means "use the bitmap".
func nestMaskOf(a arrow.Array) nestMask {
	if a.DataType().ID() == arrow.NULL {
		return nestMask{all: true}
	}
	if a.Data().NullN() == 0 {
		return nestMask{}
	}
	bufs := a.Data().Buffers()
	if len(bufs) == 0 || bufs[0] == nil {
		return nestMask{}
	}
	return nestMask{bm: bufs[0].Bytes(), off: a.Data().Offset()}
}

// null reports whether element i is NULL.
func (m nestMask) null(i int) bool {
	if m.all {
		return true
	}
	if m.bm == nil {
		return false
	}
	j := m.off + i
	if j>>3 >= len(m.bm) {
		return true
	}
	return !bitutil.BitIsSet(m.bm, j)
}

// none reports whether no element is NULL.
func (m nestMask) none() bool { return !m.all && m.bm == nil }

// nestListView reads the rows of a List, LargeList, FixedSizeList or Map array
// as ranges [start, end) of its values child.
type nestListView struct {
	n      int
	values arrow.Array
	off32  []int32
	off64  []int64
	size   int // FixedSizeList: the list size
	off    int // the array's offset, in rows
	mask   nestMask
}

// nestView returns the view of a list-like array (false for other types).
func nestView(a arrow.Array) (nestListView, bool) {
	v := nestListView{n: a.Len(), off: a.Data().Offset(), mask: nestMaskOf(a)}
	switch x := a.(type) {
	case *array.Map:
		v.values, v.off32 = x.ListValues(), x.Offsets()
	case *array.List:
		v.values, v.off32 = x.ListValues(), x.Offsets()
	case *array.LargeList:
		v.values, v.off64 = x.ListValues(), x.Offsets()
	case *array.FixedSizeList:
		v.values = x.ListValues()
		v.size = int(x.DataType().(*arrow.FixedSizeListType).Len())
	default:
		return nestListView{}, false
	}
	return v, true
}

// bounds returns the range of row i in values, empty when the offsets are
// out of range (never beyond the values array).
func (v *nestListView) bounds(i int) (int, int) {
	j := v.off + i
	var lo, hi int
	switch {
	case v.off32 != nil:
		if j < 0 || j+1 >= len(v.off32) {
			return 0, 0
		}
		lo, hi = int(v.off32[j]), int(v.off32[j+1])
	case v.off64 != nil:
		if j < 0 || j+1 >= len(v.off64) {
			return 0, 0
		}
		lo, hi = int(v.off64[j]), int(v.off64[j+1])
	case v.size > 0:
		lo, hi = j*v.size, (j+1)*v.size
	default:
		return 0, 0
	}
	if lo < 0 || hi > v.values.Len() || lo > hi {
		return 0, 0
	}
	return lo, hi
}

// null reports whether row i is NULL.
func (v *nestListView) null(i int) bool { return v.mask.null(i) }

// nestElem returns the element type of a list-like type (nil otherwise).
func nestElem(t arrow.DataType) arrow.DataType {
	switch x := t.(type) {
	case *arrow.MapType:
		return x.Elem()
	case *arrow.ListType:
		return x.Elem()
	case *arrow.LargeListType:
		return x.Elem()
	case *arrow.FixedSizeListType:
		return x.Elem()
	}
	return nil
}

// nestListOf returns a list type of t's kind (List, LargeList or
// FixedSizeList) with element type e.
func nestListOf(t, e arrow.DataType) arrow.DataType {
	switch x := t.(type) {
	case *arrow.LargeListType:
		return arrow.LargeListOf(e)
	case *arrow.FixedSizeListType:
		return arrow.FixedSizeListOf(x.Len(), e)
	}
	return arrow.ListOf(e)
}

// nestVarList returns the List (or LargeList) type a function over t
// returns: fixed-size lists become lists, as in DataFusion.
func nestVarList(t arrow.DataType, e arrow.DataType) arrow.DataType {
	if t != nil && t.ID() == arrow.LARGE_LIST {
		return arrow.LargeListOf(e)
	}
	return arrow.ListOf(e)
}

// nestRowCmp compares element i of one array with element j of another.
type nestRowCmp func(i, j int) int

// nestCmp returns the ordering of elements of a against elements of b
// (same type): NULLs first, lists lexicographically then by length,
// structs field by field, floats in IEEE total order (-0.0 < 0.0, NaN
// equal to itself and above +Inf), strings and binaries by bytes.
func nestCmp(a, b arrow.Array) (nestRowCmp, error) {
	v, err := nestValueCmp(a, b)
	if err != nil {
		return nil, err
	}
	na, nb := nestMaskOf(a), nestMaskOf(b)
	if na.none() && nb.none() {
		return v, nil
	}
	return func(i, j int) int {
		an, bn := na.null(i), nb.null(j)
		switch {
		case an && bn:
			return 0
		case an:
			return -1
		case bn:
			return 1
		}
		return v(i, j)
	}, nil
}

// nestCmpSlices orders two value slices (indexes outside them compare equal).
func nestCmpSlices[T ordered](x, y []T) nestRowCmp {
	return func(i, j int) int {
		if i >= len(x) || j >= len(y) {
			return 0
		}
		switch {
		case x[i] < y[j]:
			return -1
		case x[i] > y[j]:
			return 1
		}
		return 0
	}
}

// nestKey64 maps a float64 to an integer in IEEE total order.
func nestKey64(f float64) int64 {
	b := int64(math.Float64bits(f))
	return b ^ int64(uint64(b>>63)>>1)
}

// nestKey32 maps a float32 to an integer in IEEE total order.
func nestKey32(f float32) int32 {
	b := int32(math.Float32bits(f))
	return b ^ int32(uint32(b>>31)>>1)
}

// nestValueCmp orders the non-NULL elements of a and b.
func nestValueCmp(a, b arrow.Array) (nestRowCmp, error) {
	if ia, ib := a.DataType().ID(), b.DataType().ID(); ia != ib && !(isList(a.DataType()) && isList(b.DataType())) {
		return nil, fmt.Errorf("%w: cannot compare %s with %s", ErrBind, a.DataType(), b.DataType())
	}
	switch a.DataType().ID() {
	case arrow.NULL:
		return func(int, int) int { return 0 }, nil
	case arrow.INT8:
		return nestCmpSlices(a.(*array.Int8).Int8Values(), b.(*array.Int8).Int8Values()), nil
	case arrow.INT16:
		return nestCmpSlices(a.(*array.Int16).Int16Values(), b.(*array.Int16).Int16Values()), nil
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		return nestCmpSlices(int32Values(a), int32Values(b)), nil
	case arrow.INT64, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		return nestCmpSlices(int64Values(a), int64Values(b)), nil
	case arrow.UINT8:
		return nestCmpSlices(a.(*array.Uint8).Uint8Values(), b.(*array.Uint8).Uint8Values()), nil
	case arrow.UINT16:
		return nestCmpSlices(a.(*array.Uint16).Uint16Values(), b.(*array.Uint16).Uint16Values()), nil
	case arrow.UINT32:
		return nestCmpSlices(a.(*array.Uint32).Uint32Values(), b.(*array.Uint32).Uint32Values()), nil
	case arrow.UINT64:
		return nestCmpSlices(a.(*array.Uint64).Uint64Values(), b.(*array.Uint64).Uint64Values()), nil
	case arrow.FLOAT64:
		x, y := a.(*array.Float64).Float64Values(), b.(*array.Float64).Float64Values()
		return func(i, j int) int {
			if i >= len(x) || j >= len(y) {
				return 0
			}
			return nestCmpInt(nestKey64(x[i]), nestKey64(y[j]))
		}, nil
	case arrow.FLOAT32:
		x, y := a.(*array.Float32).Float32Values(), b.(*array.Float32).Float32Values()
		return func(i, j int) int {
			if i >= len(x) || j >= len(y) {
				return 0
			}
			return nestCmpInt(nestKey32(x[i]), nestKey32(y[j]))
		}, nil
	case arrow.FLOAT16:
		x, y := a.(*array.Float16).Values(), b.(*array.Float16).Values()
		return func(i, j int) int {
			if i >= len(x) || j >= len(y) {
				return 0
			}
			return nestCmpInt(nestKey32(x[i].Float32()), nestKey32(y[j].Float32()))
		}, nil
	case arrow.BOOL:
		x, y := a.(*array.Boolean), b.(*array.Boolean)
		return func(i, j int) int { return b2i(x.Value(i)) - b2i(y.Value(j)) }, nil
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY:
		x, y := bytesOf(a), bytesOf(b)
		return func(i, j int) int { return bytes.Compare(x.at(i), y.at(j)) }, nil
	case arrow.DECIMAL128:
		x, y := a.(*array.Decimal128).Values(), b.(*array.Decimal128).Values()
		return func(i, j int) int {
			if i >= len(x) || j >= len(y) {
				return 0
			}
			return x[i].Cmp(y[j])
		}, nil
	case arrow.DECIMAL256:
		x, y := a.(*array.Decimal256).Values(), b.(*array.Decimal256).Values()
		return func(i, j int) int {
			if i >= len(x) || j >= len(y) {
				return 0
			}
			return x[i].Cmp(y[j])
		}, nil
	case arrow.LIST, arrow.LARGE_LIST, arrow.FIXED_SIZE_LIST, arrow.MAP:
		va, _ := nestView(a)
		vb, _ := nestView(b)
		ec, err := nestCmp(va.values, vb.values)
		if err != nil {
			return nil, err
		}
		return func(i, j int) int {
			alo, ahi := va.bounds(i)
			blo, bhi := vb.bounds(j)
			for ; alo < ahi && blo < bhi; alo, blo = alo+1, blo+1 {
				if c := ec(alo, blo); c != 0 {
					return c
				}
			}
			return nestCmpInt(ahi-alo, bhi-blo)
		}, nil
	case arrow.STRUCT:
		sa, sb := a.(*array.Struct), b.(*array.Struct)
		if sa.NumField() != sb.NumField() {
			return nil, fmt.Errorf("%w: cannot compare %s with %s", ErrBind, a.DataType(), b.DataType())
		}
		fs := make([]nestRowCmp, sa.NumField())
		for k := range fs {
			c, err := nestCmp(sa.Field(k), sb.Field(k))
			if err != nil {
				return nil, err
			}
			fs[k] = c
		}
		return func(i, j int) int {
			for _, f := range fs {
				if c := f(i, j); c != 0 {
					return c
				}
			}
			return 0
		}, nil
	}
	return nil, fmt.Errorf("%w: cannot compare values of type %s", ErrBind, a.DataType())
}

func nestCmpInt[T ordered | ~int](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// nestOut accumulates a list result row by row: each row is a run of
// indices into a source array (-1 for a NULL element) or a NULL row.
type nestOut struct {
	idx   []int64
	offs  []int64
	valid []uint64
	n     int
}

func newNestOut(n int) *nestOut {
	o := &nestOut{offs: make([]int64, 1, n+1), valid: make([]uint64, (n+63)/64)}
	return o
}

// add appends element src[i] (-1: NULL) to the current row.
func (o *nestOut) add(i int) { o.idx = append(o.idx, int64(i)) }

// end closes the current row (valid or NULL).
func (o *nestOut) end(valid bool) {
	if valid {
		o.valid[o.n>>6] |= 1 << (o.n & 63)
	}
	o.n++
	o.offs = append(o.offs, int64(len(o.idx)))
}

// finish builds the list array of type typ (List or LargeList; a
// FixedSizeList needs every valid row of its size) from src's elements.
func (o *nestOut) finish(mem memory.Allocator, src arrow.Array, typ arrow.DataType) (arrow.Array, error) {
	child, err := nestGather(mem, src, o.idx)
	if err != nil {
		return nil, err
	}
	defer child.Release()
	if et := nestElem(typ); et != nil && !arrow.TypeEqual(et, child.DataType()) {
		return nil, fmt.Errorf("%w: list of %s built from %s", ErrEval, et, child.DataType())
	}
	nbytes := (o.n + 7) / 8
	vb := memory.NewResizableBuffer(mem)
	vb.Resize(nbytes)
	putWords(vb.Bytes(), o.valid)
	defer vb.Release()
	var bufs []*memory.Buffer
	switch typ.ID() {
	case arrow.LARGE_LIST:
		ob := memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(o.offs))
		bufs = []*memory.Buffer{vb, ob}
	case arrow.FIXED_SIZE_LIST:
		bufs = []*memory.Buffer{vb}
	default:
		o32 := make([]int32, len(o.offs))
		for i, v := range o.offs {
			if v > math.MaxInt32 {
				return nil, fmt.Errorf("%w: list result of more than 2^31 elements", ErrEval)
			}
			o32[i] = int32(v)
		}
		bufs = []*memory.Buffer{vb, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(o32))}
	}
	d := array.NewData(typ, o.n, bufs, []arrow.ArrayData{child.Data()}, array.UnknownNullCount, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// nestGather returns the elements idx of src (-1: NULL).
func nestGather(mem memory.Allocator, src arrow.Array, idx []int64) (arrow.Array, error) {
	if src.DataType().ID() == arrow.NULL {
		return array.NewNull(len(idx)), nil
	}
	ib := array.NewInt64Builder(mem)
	defer ib.Release()
	ib.Reserve(len(idx))
	for _, i := range idx {
		if i < 0 || i >= int64(src.Len()) {
			ib.AppendNull()
		} else {
			ib.Append(i)
		}
	}
	ia := ib.NewArray()
	defer ia.Release()
	out, err := compute.TakeArray(exec.WithAllocator(context.Background(), mem), src, ia)
	if err != nil {
		return nil, fmt.Errorf("%w: gathering %s elements: %w", ErrUnsupported, src.DataType(), err)
	}
	return out, nil
}

// nestConcat concatenates arrays of one type (a lone array is retained).
func nestConcat(mem memory.Allocator, as []arrow.Array) (arrow.Array, error) {
	if len(as) == 1 {
		as[0].Retain()
		return as[0], nil
	}
	out, err := array.Concatenate(as, mem)
	if err != nil {
		return nil, fmt.Errorf("%w: concatenating %s arrays: %w", ErrEval, as[0].DataType(), err)
	}
	return out, nil
}

// nestWithValidity returns a with its NULL mask ANDed with valid (aligned
// words over a's rows); a is retained when nothing changes.
func nestWithValidity(mem memory.Allocator, a arrow.Array, valid []uint64) arrow.Array {
	n := a.Len()
	if a.DataType().ID() == arrow.NULL {
		a.Retain()
		return a
	}
	own := nestMaskOf(a)
	off := a.Data().Offset()
	bm := memory.NewResizableBuffer(mem)
	bm.Resize((off + n + 7) / 8)
	defer bm.Release()
	bs := bm.Bytes()
	for i := range bs {
		bs[i] = 0
	}
	changed := false
	for i := 0; i < n; i++ {
		v := valid[i>>6]&(1<<(i&63)) != 0
		if v && !own.null(i) {
			bitutil.SetBit(bs, off+i)
		} else if !own.null(i) {
			changed = true
		}
	}
	if !changed {
		a.Retain()
		return a
	}
	src := a.Data()
	bufs := append([]*memory.Buffer{bm}, src.Buffers()[1:]...)
	var d *array.Data
	if dict := src.Dictionary(); dict != nil {
		d = array.NewDataWithDictionary(src.DataType(), n, bufs, array.UnknownNullCount, off, dict.(*array.Data))
	} else {
		d = array.NewData(src.DataType(), n, bufs, src.Children(), array.UnknownNullCount, off)
	}
	defer d.Release()
	return array.MakeFromData(d)
}

// nestSteps returns, per argument, the step from a row to its element: 0
// for a one-row constant, 1 for an array of the batch's rows.
func nestSteps(args []arrow.Array, n int) []int {
	steps := make([]int, len(args))
	for i, a := range args {
		if a.Len() == n {
			steps[i] = 1
		}
	}
	return steps
}
