package expr

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Casts to strings, formatted as arrow-rs formats values: integers in
// decimal, floats in ryu's shortest form ("1.5", "1e16", "NaN", "inf"),
// booleans "true"/"false", decimals with all their scale's digits, dates
// "2021-01-01", timestamps "2021-01-01T01:02:03.456789" (fraction in 3,
// 6 or 9 digits, none when zero).

// castStrOut accumulates string values: offsets and bytes.
type castStrOut struct {
	offs []int64
	data []byte
}

func newCastStrOut(n int) *castStrOut {
	s := &castStrOut{offs: make([]int64, 1, n+1)}
	return s
}

// end closes the current row.
func (s *castStrOut) end() { s.offs = append(s.offs, int64(len(s.data))) }

// finish builds the string (or large string, binary) array of type t.
func (s *castStrOut) finish(mem memory.Allocator, t arrow.DataType, valid *memory.Buffer, nulls int) (arrow.Array, error) {
	n := len(s.offs) - 1
	var ob *memory.Buffer
	switch t.ID() {
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		var o []int64
		ob, o = newPrimValues[int64](mem, n+1)
		copy(o, s.offs)
	default:
		if len(s.data) > math.MaxInt32 {
			if valid != nil {
				valid.Release()
			}
			return nil, fmt.Errorf("string data of %d bytes overflows %s offsets", len(s.data), dfTypeName(t))
		}
		var o []int32
		ob, o = newPrimValues[int32](mem, n+1)
		for i, v := range s.offs {
			o[i] = int32(v)
		}
	}
	db := memory.NewResizableBuffer(mem)
	db.Resize(len(s.data))
	copy(db.Bytes(), s.data)
	return makeVarBinary(t, n, ob, db, valid, nulls), nil
}

// castToString formats every value of a as a string.
func castToString(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	n := a.Len()
	from := a.DataType()
	if isString(from) || isBinary(from) {
		return castBinaryToBinary(cc, a)
	}
	out := newCastStrOut(n)
	bm, off, has := validBits(a)
	var err error
	switch castClass(from) {
	case clsInt:
		err = castFormatInts(out, a, bm, off, has)
	case clsFloat:
		f32 := from.ID() == arrow.FLOAT32
		var f64s []float64
		var f32s []float32
		if f32 {
			f32s = primValues[float32](a)
		} else {
			f64s = primValues[float64](a)
		}
		for i := 0; i < n; i++ {
			if isValidAt(bm, off, has, i) {
				if f32 {
					out.data = appendRyuFloat(out.data, float64(f32s[i]), true)
				} else {
					out.data = appendRyuFloat(out.data, f64s[i], false)
				}
			}
			out.end()
		}
	case clsBool:
		w := words(a)
		for i := 0; i < n; i++ {
			if isValidAt(bm, off, has, i) {
				out.data = strconv.AppendBool(out.data, (w.data[i>>6]>>(i&63))&1 == 1)
			}
			out.end()
		}
	case clsDecimal:
		scale := from.(*arrow.Decimal128Type).Scale
		vals := primValues[decimal128Num](a)
		for i := 0; i < n; i++ {
			if isValidAt(bm, off, has, i) {
				out.data = appendDecimalText(out.data, vals[i], scale)
			}
			out.end()
		}
	case clsDate32:
		vals := primValues[int32](a)
		for i := 0; i < n; i++ {
			if isValidAt(bm, off, has, i) {
				var ok bool
				if out.data, ok = castAppendDate(out.data, int64(vals[i])); !ok {
					return nil, fmt.Errorf("failed to convert %d to temporal for Date32", vals[i])
				}
			}
			out.end()
		}
	case clsDate64:
		vals := primValues[int64](a)
		for i := 0; i < n; i++ {
			if isValidAt(bm, off, has, i) {
				var ok bool
				if out.data, ok = castAppendDateTime(out.data, vals[i], arrow.Millisecond); !ok {
					return nil, fmt.Errorf("failed to convert %d to temporal for Date64", vals[i])
				}
			}
			out.end()
		}
	case clsTimestamp:
		unit := from.(*arrow.TimestampType).Unit
		vals := primValues[int64](a)
		for i := 0; i < n; i++ {
			if isValidAt(bm, off, has, i) {
				var ok bool
				if out.data, ok = castAppendDateTime(out.data, vals[i], unit); !ok {
					return nil, fmt.Errorf("failed to convert %d to datetime for %s", vals[i], dfTypeName(from))
				}
			}
			out.end()
		}
	default:
		return nil, fmt.Errorf("cannot cast %s to %s", from, cc.to)
	}
	if err != nil {
		return nil, err
	}
	valid, nulls := copyValid(cc.mem, a)
	return out.finish(cc.mem, cc.to, valid, nulls)
}

// castFormatInts formats an integer array.
func castFormatInts(out *castStrOut, a arrow.Array, bm []byte, off int, has bool) error {
	switch a.DataType().ID() {
	case arrow.INT8:
		castAppendInts(out, primValues[int8](a), bm, off, has)
	case arrow.INT16:
		castAppendInts(out, primValues[int16](a), bm, off, has)
	case arrow.INT32:
		castAppendInts(out, primValues[int32](a), bm, off, has)
	case arrow.INT64:
		castAppendInts(out, primValues[int64](a), bm, off, has)
	case arrow.UINT8:
		castAppendUints(out, primValues[uint8](a), bm, off, has)
	case arrow.UINT16:
		castAppendUints(out, primValues[uint16](a), bm, off, has)
	case arrow.UINT32:
		castAppendUints(out, primValues[uint32](a), bm, off, has)
	case arrow.UINT64:
		castAppendUints(out, primValues[uint64](a), bm, off, has)
	default:
		return fmt.Errorf("cannot format %s", a.DataType())
	}
	return nil
}

func castAppendInts[T int8 | int16 | int32 | int64](out *castStrOut, v []T, bm []byte, off int, has bool) {
	for i, x := range v {
		if isValidAt(bm, off, has, i) {
			out.data = strconv.AppendInt(out.data, int64(x), 10)
		}
		out.end()
	}
}

func castAppendUints[T uint8 | uint16 | uint32 | uint64](out *castStrOut, v []T, bm []byte, off int, has bool) {
	for i, x := range v {
		if isValidAt(bm, off, has, i) {
			out.data = strconv.AppendUint(out.data, uint64(x), 10)
		}
		out.end()
	}
}

// appendRyuFloat appends f as Rust's ryu crate formats it: the shortest digits
// that round-trip, in positional form for moderate exponents (up to 16
// digits before the point for float64, 13 for float32; down to 1e-5 /
// 1e-6), else d.ddde±x; integral values end in ".0".
func appendRyuFloat(dst []byte, f float64, f32 bool) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	if f == 0 {
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	bitSize := 64
	if f32 {
		bitSize = 32
	}
	var scratch [40]byte
	e := strconv.AppendFloat(scratch[:0], f, 'e', -1, bitSize)
	if e[0] == '-' {
		dst = append(dst, '-')
		e = e[1:]
	}
	// e is d[.ddd]e±xx: collect the digits and the exponent.
	var digits [24]byte
	nd := 0
	i := 0
	for ; i < len(e) && e[i] != 'e'; i++ {
		if e[i] != '.' && nd < len(digits) {
			digits[nd] = e[i]
			nd++
		}
	}
	exp, _ := strconv.Atoi(string(e[i+1:]))
	kk := exp + 1 // position of the decimal point after the first digit
	hi, lo := 16, -5
	if f32 {
		hi, lo = 13, -6
	}
	d := digits[:nd]
	switch {
	case nd <= kk && kk <= hi:
		dst = append(dst, d...)
		for j := nd; j < kk; j++ {
			dst = append(dst, '0')
		}
		return append(dst, ".0"...)
	case 0 < kk && kk <= hi:
		dst = append(dst, d[:kk]...)
		dst = append(dst, '.')
		return append(dst, d[kk:]...)
	case lo < kk && kk <= 0:
		dst = append(dst, "0."...)
		for j := kk; j < 0; j++ {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	case nd == 1:
		dst = append(dst, d[0], 'e')
		return strconv.AppendInt(dst, int64(kk-1), 10)
	}
	dst = append(dst, d[0], '.')
	dst = append(dst, d[1:]...)
	dst = append(dst, 'e')
	return strconv.AppendInt(dst, int64(kk-1), 10)
}

// appendDecimalText appends an unscaled decimal with scale digits after the
// point ("-0.001"; a negative scale appends zeros).
func appendDecimalText(dst []byte, v decimal128Num, scale int32) []byte {
	var scratch [48]byte
	var s []byte
	if x, ok := fits64(v); ok {
		s = strconv.AppendInt(scratch[:0], x, 10)
	} else {
		s = v.BigInt().Append(scratch[:0], 10)
	}
	if s[0] == '-' {
		dst = append(dst, '-')
		s = s[1:]
	}
	if scale <= 0 {
		dst = append(dst, s...)
		if len(s) > 1 || s[0] != '0' {
			for j := int32(0); j < -scale; j++ {
				dst = append(dst, '0')
			}
		}
		return dst
	}
	sc := int(scale)
	if len(s) <= sc {
		dst = append(dst, "0."...)
		for j := len(s); j < sc; j++ {
			dst = append(dst, '0')
		}
		return append(dst, s...)
	}
	dst = append(dst, s[:len(s)-sc]...)
	dst = append(dst, '.')
	return append(dst, s[len(s)-sc:]...)
}

// castBinaryToBinary converts between string and binary types: the bytes
// stay; a cast to a string type checks that they are UTF-8.
func castBinaryToBinary(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	n := a.Len()
	ns := nullSetter{mem: cc.mem, n: n, base: a}
	bm, off, has := validBits(a)
	v := bytesOf(a)
	if isString(cc.to) && !isString(a.DataType()) {
		for i := 0; i < n; i++ {
			if !isValidAt(bm, off, has, i) || utf8.Valid(v.at(i)) {
				continue
			}
			if err := cc.failValue(&ns, i, "Invalid argument error: Encountered non UTF-8 data"); err != nil {
				return nil, err
			}
		}
	}
	valid, nulls := ns.result()
	large := func(t arrow.DataType) bool { return t.ID() == arrow.LARGE_STRING || t.ID() == arrow.LARGE_BINARY }
	if large(a.DataType()) == large(cc.to) && a.DataType().ID() != arrow.FIXED_SIZE_BINARY {
		// Same offset width: share the buffers.
		d := a.Data()
		bufs := d.Buffers()
		ob, db := bufs[1], bufs[2]
		if d.Offset() == 0 {
			ob.Retain()
			if db != nil {
				db.Retain()
			} else {
				db = memory.NewResizableBuffer(cc.mem)
			}
			return makeVarBinary(cc.to, n, ob, db, valid, nulls), nil
		}
	}
	out := newCastStrOut(n)
	for i := 0; i < n; i++ {
		if isValidAt(bm, off, has, i) {
			out.data = append(out.data, v.at(i)...)
		}
		out.end()
	}
	return out.finish(cc.mem, cc.to, valid, nulls)
}

// castListToString formats lists as arrow-rs does: "[1, 2]", elements
// formatted as by their own cast to string, NULL elements empty.
func castListToString(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	var child arrow.Array
	var offs []int64
	switch x := a.(type) {
	case *array.List:
		child = x.ListValues()
		o := x.Offsets()
		offs = make([]int64, len(o))
		for i, v := range o {
			offs[i] = int64(v)
		}
	case *array.LargeList:
		child, offs = x.ListValues(), x.Offsets()
	default:
		return nil, fmt.Errorf("cannot format %s", a.DataType())
	}
	k := castKernelFor(child.DataType(), arrow.BinaryTypes.String)
	if k == nil {
		return nil, fmt.Errorf("cannot format %s", a.DataType())
	}
	var strs arrow.Array
	if child.DataType().ID() == arrow.STRING {
		child.Retain()
		strs = child
	} else {
		var err error
		if strs, err = k(&castCtx{mem: cc.mem, to: arrow.BinaryTypes.String}, child); err != nil {
			return nil, err
		}
	}
	defer strs.Release()
	sv := bytesOf(strs)
	sbm, soff, shas := validBits(strs)
	n := a.Len()
	bm, off, has := validBits(a)
	out := newCastStrOut(n)
	for i := 0; i < n; i++ {
		if isValidAt(bm, off, has, i) && i+1 < len(offs) {
			out.data = append(out.data, '[')
			lo, hi := int(offs[i]), int(offs[i+1])
			for j := lo; j < hi && j < strs.Len(); j++ {
				if j > lo {
					out.data = append(out.data, ", "...)
				}
				if isValidAt(sbm, soff, shas, j) {
					out.data = append(out.data, sv.at(j)...)
				}
			}
			out.data = append(out.data, ']')
		}
		out.end()
	}
	valid, nulls := copyValid(cc.mem, a)
	return out.finish(cc.mem, cc.to, valid, nulls)
}
