package expr

import (
	"bytes"
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

// cmpNode compares two operands of the same type. Floats compare in
// Arrow's total order with the two zeros equal, as Lance's filters do:
// -NaN < -Inf < … < -0.0 = +0.0 < … < +Inf < +NaN, NaN = NaN. Strings and
// binaries compare by bytes. NULL on either side gives NULL; with
// distinct set (IS [NOT] DISTINCT FROM) NULLs compare as values and the
// result is never NULL.
type cmpNode struct {
	op   BinaryOp
	l, r node
}

func (c *cmpNode) dataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (c *cmpNode) inputs() []node           { return []node{c.l, c.r} }

func (c *cmpNode) eval(ec *evalCtx) (arrow.Array, error) {
	if k, ok := c.r.(*constNode); ok {
		if _, lconst := c.l.(*constNode); !lconst {
			if out, ok, err := c.evalConst(ec, c.l, k, c.op); ok || err != nil {
				return out, err
			}
		}
	} else if k, ok := c.l.(*constNode); ok {
		if out, ok, err := c.evalConst(ec, c.r, k, flipOp(c.op)); ok || err != nil {
			return out, err
		}
	}
	l, err := c.l.eval(ec)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	r, err := c.r.eval(ec)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	_, lc := c.l.(*constNode)
	_, rc := c.r.(*constNode)
	return compareArraysZeros(ec, c.op, l, r, lc || rc)
}

// evalConst evaluates x op k through the constant kernels; ok is false
// when none applies.
func (c *cmpNode) evalConst(ec *evalCtx, x node, k *constNode, op BinaryOp) (arrow.Array, bool, error) {
	if k.isNull() || op == OpIsDistinctFrom || op == OpIsNotDistinctFrom {
		return nil, false, nil
	}
	a, err := x.eval(ec)
	if err != nil {
		return nil, false, err
	}
	defer a.Release()
	out, ok := compareConst(ec, op, a, k.val)
	if !ok {
		return nil, false, nil
	}
	return out, true, nil
}

// compareArrays compares l and r (same type, same length) row by row,
// floats in the total order that tells -0.0 from 0.0 (as DataFusion
// compares two columns).
func compareArrays(ec *evalCtx, op BinaryOp, l, r arrow.Array) (arrow.Array, error) {
	return compareArraysZeros(ec, op, l, r, false)
}

// compareArraysZeros is compareArrays; with eqZeros the zeros are equal
// (a comparison with a constant, as DataFusion's literal comparisons).
func compareArraysZeros(ec *evalCtx, op BinaryOp, l, r arrow.Array, eqZeros bool) (arrow.Array, error) {
	n := l.Len()
	nw := (n + 63) / 64
	data := make([]uint64, nw)
	var ord []int8 // -1, 0, 1 per row, for types compared through a slice
	switch l.DataType().ID() {
	case arrow.INT8:
		cmpOrdered(op, l.(*array.Int8).Int8Values(), r.(*array.Int8).Int8Values(), data)
	case arrow.INT16:
		cmpOrdered(op, l.(*array.Int16).Int16Values(), r.(*array.Int16).Int16Values(), data)
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		cmpOrdered(op, int32Values(l), int32Values(r), data)
	case arrow.INT64, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		cmpOrdered(op, int64Values(l), int64Values(r), data)
	case arrow.UINT8:
		cmpOrdered(op, l.(*array.Uint8).Uint8Values(), r.(*array.Uint8).Uint8Values(), data)
	case arrow.UINT16:
		cmpOrdered(op, l.(*array.Uint16).Uint16Values(), r.(*array.Uint16).Uint16Values(), data)
	case arrow.UINT32:
		cmpOrdered(op, l.(*array.Uint32).Uint32Values(), r.(*array.Uint32).Uint32Values(), data)
	case arrow.UINT64:
		cmpOrdered(op, l.(*array.Uint64).Uint64Values(), r.(*array.Uint64).Uint64Values(), data)
	case arrow.FLOAT32:
		cmpFloat32(op, l.(*array.Float32).Float32Values(), r.(*array.Float32).Float32Values(), data, eqZeros)
	case arrow.FLOAT64:
		cmpFloat64(op, l.(*array.Float64).Float64Values(), r.(*array.Float64).Float64Values(), data, eqZeros)
	case arrow.FLOAT16:
		a, b := l.(*array.Float16).Values(), r.(*array.Float16).Values()
		ord = make([]int8, n)
		for i := range ord {
			ord[i] = int8(cmpRaw64(float64(a[i].Float32()), float64(b[i].Float32())))
		}
	case arrow.BOOL:
		a, b := l.(*array.Boolean), r.(*array.Boolean)
		ord = make([]int8, n)
		for i := range ord {
			ord[i] = int8(b2i(a.Value(i)) - b2i(b.Value(i)))
		}
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY:
		a, b := bytesOf(l), bytesOf(r)
		ord = make([]int8, n)
		for i := range ord {
			ord[i] = int8(bytes.Compare(a.at(i), b.at(i)))
		}
	case arrow.DECIMAL128:
		a, b := l.(*array.Decimal128).Values(), r.(*array.Decimal128).Values()
		ord = make([]int8, n)
		for i := range ord {
			ord[i] = int8(a[i].Cmp(b[i]))
		}
	default:
		return nil, fmt.Errorf("%w: cannot compare values of type %s", ErrBind, l.DataType())
	}
	if ord != nil {
		setFromOrder(op, ord, data)
	}
	lw, rw := nullWords(l), nullWords(r)
	if op == OpIsDistinctFrom || op == OpIsNotDistinctFrom {
		return distinctResult(ec, op, data, lw, rw, n), nil
	}
	var valid []uint64
	switch {
	case lw == nil:
		valid = rw
	case rw == nil:
		valid = lw
	default:
		valid = make([]uint64, nw)
		for i := range valid {
			valid[i] = lw[i] & rw[i]
		}
	}
	if valid != nil {
		for i := range data {
			data[i] &= valid[i]
		}
	}
	return boolArrayFromWords(ec.mem, data, valid, n), nil
}

// distinctResult turns equality bits into IS [NOT] DISTINCT FROM: two
// NULLs are not distinct, a NULL and a value are.
func distinctResult(ec *evalCtx, op BinaryOp, eq, lw, rw []uint64, n int) arrow.Array {
	// data holds l = r (OpIsNotDistinctFrom was computed as =; OpIsDistinctFrom as !=).
	for i := range eq {
		lv, rv := ^uint64(0), ^uint64(0)
		if lw != nil {
			lv = lw[i]
		}
		if rw != nil {
			rv = rw[i]
		}
		both, neither := lv&rv, ^lv&^rv
		if op == OpIsNotDistinctFrom {
			eq[i] = (eq[i] & both) | neither
		} else {
			eq[i] = (eq[i] & both) | (lv ^ rv)
		}
	}
	maskTail(eq, n)
	return boolArrayFromWords(ec.mem, eq, nil, n)
}

// nullWords returns the validity of a as aligned words, nil when a has
// no NULL.
func nullWords(a arrow.Array) []uint64 {
	if a.NullN() == 0 {
		return nil
	}
	n := a.Len()
	w := make([]uint64, (n+63)/64)
	if a.DataType().ID() == arrow.NULL {
		return w
	}
	bm := a.Data().Buffers()[0]
	if bm == nil {
		return nil
	}
	copyBits(w, bm.Bytes(), a.Data().Offset(), n)
	return w
}

// ordered is the integer types compared directly.
type ordered interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// cmpOrdered sets bit i of out when a[i] op b[i], 64 rows a word.
func cmpOrdered[T ordered](op BinaryOp, a, b []T, out []uint64) {
	n := min(len(a), len(b))
	a, b = a[:n], b[:n]
	switch op {
	case OpEq, OpIsNotDistinctFrom:
		for base := 0; base < n; base += 64 {
			var w uint64
			end := min(base+64, n)
			bb := b[base:end]
			for j, v := range a[base:end] {
				w |= b2u(v == bb[j]) << uint(j)
			}
			out[base>>6] = w
		}
	case OpNotEq, OpIsDistinctFrom:
		for base := 0; base < n; base += 64 {
			var w uint64
			end := min(base+64, n)
			bb := b[base:end]
			for j, v := range a[base:end] {
				w |= b2u(v != bb[j]) << uint(j)
			}
			out[base>>6] = w
		}
	case OpLt:
		for base := 0; base < n; base += 64 {
			var w uint64
			end := min(base+64, n)
			bb := b[base:end]
			for j, v := range a[base:end] {
				w |= b2u(v < bb[j]) << uint(j)
			}
			out[base>>6] = w
		}
	case OpLtEq:
		for base := 0; base < n; base += 64 {
			var w uint64
			end := min(base+64, n)
			bb := b[base:end]
			for j, v := range a[base:end] {
				w |= b2u(v <= bb[j]) << uint(j)
			}
			out[base>>6] = w
		}
	case OpGt:
		for base := 0; base < n; base += 64 {
			var w uint64
			end := min(base+64, n)
			bb := b[base:end]
			for j, v := range a[base:end] {
				w |= b2u(v > bb[j]) << uint(j)
			}
			out[base>>6] = w
		}
	case OpGtEq:
		for base := 0; base < n; base += 64 {
			var w uint64
			end := min(base+64, n)
			bb := b[base:end]
			for j, v := range a[base:end] {
				w |= b2u(v >= bb[j]) << uint(j)
			}
			out[base>>6] = w
		}
	}
}

// floatKey64 maps a float64 to an integer of the same total order, with
// -0.0 mapped like +0.0.
func floatKey64(f float64) int64 {
	if f == 0 {
		f = 0
	}
	b := int64(math.Float64bits(f))
	return b ^ int64(uint64(b>>63)>>1)
}

// floatKey32 is floatKey64 for float32.
func floatKey32(f float32) int32 {
	if f == 0 {
		f = 0
	}
	b := int32(math.Float32bits(f))
	return b ^ int32(uint32(b>>31)>>1)
}

// rawKey64 is floatKey64 without equating the zeros: DataFusion's order
// between two float columns (f = -f keeps no zero; a constant operand
// compares as floatKey64).
func rawKey64(f float64) int64 {
	b := int64(math.Float64bits(f))
	return b ^ int64(uint64(b>>63)>>1)
}

// rawKey32 is rawKey64 for float32.
func rawKey32(f float32) int32 {
	b := int32(math.Float32bits(f))
	return b ^ int32(uint32(b>>31)>>1)
}

// cmpTotal64 compares two floats in the total order of floatKey64.
func cmpTotal64(a, b float64) int {
	ka, kb := floatKey64(a), floatKey64(b)
	switch {
	case ka < kb:
		return -1
	case ka > kb:
		return 1
	}
	return 0
}

func cmpFloat64(op BinaryOp, a, b []float64, out []uint64, eqZeros bool) {
	key := rawKey64
	if eqZeros {
		key = floatKey64
	}
	ka, kb := make([]int64, len(a)), make([]int64, len(b))
	for i, v := range a {
		ka[i] = key(v)
	}
	for i, v := range b {
		kb[i] = key(v)
	}
	cmpOrdered(op, ka, kb, out)
}

func cmpFloat32(op BinaryOp, a, b []float32, out []uint64, eqZeros bool) {
	key := rawKey32
	if eqZeros {
		key = floatKey32
	}
	ka, kb := make([]int32, len(a)), make([]int32, len(b))
	for i, v := range a {
		ka[i] = key(v)
	}
	for i, v := range b {
		kb[i] = key(v)
	}
	cmpOrdered(op, ka, kb, out)
}

// cmpRaw64 compares two floats in the order of rawKey64.
func cmpRaw64(a, b float64) int {
	ka, kb := rawKey64(a), rawKey64(b)
	switch {
	case ka < kb:
		return -1
	case ka > kb:
		return 1
	}
	return 0
}

// setFromOrder sets the bits of out from per-row orderings.
func setFromOrder(op BinaryOp, ord []int8, out []uint64) {
	for i, o := range ord {
		var t bool
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
		out[i>>6] |= b2u(t) << (i & 63)
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// int32Values returns the 32-bit values of an array of a 32-bit type.
func int32Values(a arrow.Array) []int32 {
	buf := a.Data().Buffers()[1]
	if buf == nil || a.Len() == 0 {
		return nil
	}
	v := arrow.Int32Traits.CastFromBytes(buf.Bytes())
	off := a.Data().Offset()
	return v[off : off+a.Len()]
}

// int64Values returns the 64-bit values of an array of a 64-bit type.
func int64Values(a arrow.Array) []int64 {
	buf := a.Data().Buffers()[1]
	if buf == nil || a.Len() == 0 {
		return nil
	}
	v := arrow.Int64Traits.CastFromBytes(buf.Bytes())
	off := a.Data().Offset()
	return v[off : off+a.Len()]
}

// bytesView reads the values of a string or binary array without an
// interface call per row.
type bytesView struct {
	off32 []int32
	off64 []int64
	data  []byte
	width int // fixed-size binary
	start int // the array's offset, for fixed-size binary
}

// bytesOf returns the view of a string, binary or fixed-size binary array.
// Offsets index the whole values buffer (arrow-go's ValueBytes is cut to
// a sliced array's range, its ValueOffsets are not), so the view reads
// that buffer.
func bytesOf(a arrow.Array) bytesView {
	d := a.Data()
	var data []byte
	if bufs := d.Buffers(); len(bufs) > 2 && bufs[2] != nil {
		data = bufs[2].Bytes()
	}
	switch x := a.(type) {
	case *array.String:
		return bytesView{off32: x.ValueOffsets(), data: data}
	case *array.LargeString:
		return bytesView{off64: x.ValueOffsets(), data: data}
	case *array.Binary:
		return bytesView{off32: x.ValueOffsets(), data: data}
	case *array.LargeBinary:
		return bytesView{off64: x.ValueOffsets(), data: data}
	case *array.FixedSizeBinary:
		w := x.DataType().(*arrow.FixedSizeBinaryType).ByteWidth
		buf := d.Buffers()[1]
		var fixed []byte
		if buf != nil {
			fixed = buf.Bytes()
		}
		return bytesView{width: w, data: fixed, start: d.Offset()}
	}
	return bytesView{}
}

// at returns value i (its bytes; garbage-free but unspecified for NULLs).
func (v *bytesView) at(i int) []byte {
	switch {
	case v.off32 != nil:
		lo, hi := int(v.off32[i]), int(v.off32[i+1])
		if lo < 0 || hi > len(v.data) || lo > hi {
			return nil
		}
		return v.data[lo:hi]
	case v.off64 != nil:
		lo, hi := v.off64[i], v.off64[i+1]
		if lo < 0 || hi > int64(len(v.data)) || lo > hi {
			return nil
		}
		return v.data[lo:hi]
	case v.width > 0:
		lo := (v.start + i) * v.width
		if lo+v.width > len(v.data) {
			return nil
		}
		return v.data[lo : lo+v.width]
	}
	return nil
}

// str returns value i as a string without copying.
func (v *bytesView) str(i int) string {
	b := v.at(i)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

var (
	_ = decimal128.Num{}
	_ = float16.Num{}
)
