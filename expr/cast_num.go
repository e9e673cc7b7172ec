package expr

import (
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// Numeric casts between the integer and float types (and the integer
// storage of dates and timestamps, cast as raw values like arrow-rs):
// integers convert exactly or fail, floats truncate toward zero and fail
// on NaN, infinities and values out of the target's range.

// numInt is the Go integer types of Arrow's integer columns.
type numInt interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64
}

// numAny is the integer and float types.
type numAny interface {
	numInt | float32 | float64
}

// numStorageID maps a type to the ID of the primitive type of its values.
func numStorageID(t arrow.DataType) arrow.Type {
	switch t.ID() {
	case arrow.DATE32, arrow.TIME32:
		return arrow.INT32
	case arrow.TIMESTAMP, arrow.DATE64, arrow.TIME64, arrow.DURATION:
		return arrow.INT64
	}
	return t.ID()
}

// castNumeric casts between numeric storage types.
func castNumeric(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	switch numStorageID(a.DataType()) {
	case arrow.INT8:
		return castNumFrom[int8](cc, a)
	case arrow.INT16:
		return castNumFrom[int16](cc, a)
	case arrow.INT32:
		return castNumFrom[int32](cc, a)
	case arrow.INT64:
		return castNumFrom[int64](cc, a)
	case arrow.UINT8:
		return castNumFrom[uint8](cc, a)
	case arrow.UINT16:
		return castNumFrom[uint16](cc, a)
	case arrow.UINT32:
		return castNumFrom[uint32](cc, a)
	case arrow.UINT64:
		return castNumFrom[uint64](cc, a)
	case arrow.FLOAT32:
		return castNumFrom[float32](cc, a)
	case arrow.FLOAT64:
		return castNumFrom[float64](cc, a)
	}
	return nil, fmt.Errorf("cannot cast %s to %s", a.DataType(), cc.to)
}

func castNumFrom[S numAny](cc *castCtx, a arrow.Array) (arrow.Array, error) {
	src := primValues[S](a)
	switch numStorageID(cc.to) {
	case arrow.INT8:
		return castNumTo[S, int8](cc, a, src)
	case arrow.INT16:
		return castNumTo[S, int16](cc, a, src)
	case arrow.INT32:
		return castNumTo[S, int32](cc, a, src)
	case arrow.INT64:
		return castNumTo[S, int64](cc, a, src)
	case arrow.UINT8:
		return castNumTo[S, uint8](cc, a, src)
	case arrow.UINT16:
		return castNumTo[S, uint16](cc, a, src)
	case arrow.UINT32:
		return castNumTo[S, uint32](cc, a, src)
	case arrow.UINT64:
		return castNumTo[S, uint64](cc, a, src)
	case arrow.FLOAT32:
		return castNumTo[S, float32](cc, a, src)
	case arrow.FLOAT64:
		return castNumTo[S, float64](cc, a, src)
	}
	return nil, fmt.Errorf("cannot cast %s to %s", a.DataType(), cc.to)
}

// numIsFloat reports whether T is float32 or float64.
func numIsFloat[T numAny]() bool {
	var z T
	switch any(z).(type) {
	case float32, float64:
		return true
	}
	return false
}

// numIntInfo returns the bit width and signedness of integer type T.
func numIntInfo[T numAny]() (int, bool) {
	var z T
	switch any(z).(type) {
	case int8:
		return 8, true
	case int16:
		return 16, true
	case int32:
		return 32, true
	case int64:
		return 64, true
	case uint8:
		return 8, false
	case uint16:
		return 16, false
	case uint32:
		return 32, false
	}
	return 64, false
}

// castFloatBounds returns [lo, hi) of the floats whose truncation fits
// numInt type T.
func castFloatBounds[T numAny]() (float64, float64) {
	w, signed := numIntInfo[T]()
	if signed {
		return -math.Ldexp(1, w-1), math.Ldexp(1, w-1)
	}
	return 0, math.Ldexp(1, w)
}

// castLossless reports whether every S converts exactly to D.
func castLossless[S, D numAny]() bool {
	if numIsFloat[D]() {
		return false
	}
	sw, ss := numIntInfo[S]()
	dw, ds := numIntInfo[D]()
	return (ss == ds && dw >= sw) || (!ss && ds && dw > sw)
}

func castNumTo[S, D numAny](cc *castCtx, a arrow.Array, src []S) (arrow.Array, error) {
	n := a.Len()
	buf, dst := newPrimValues[D](cc.mem, n)
	ns := nullSetter{mem: cc.mem, n: n, base: a}
	bm, off, has := validBits(a)
	switch {
	case numIsFloat[D]() && !numIsFloat[S]():
		for i, v := range src {
			dst[i] = D(v)
		}
	case numIsFloat[D]():
		for i, v := range src {
			dst[i] = D(v)
		}
	case numIsFloat[S]():
		lo, hi := castFloatBounds[D]()
		for i, v := range src {
			f := math.Trunc(float64(v))
			if f >= lo && f < hi {
				dst[i] = D(f)
				continue
			}
			if !isValidAt(bm, off, has, i) {
				continue
			}
			if err := cc.failValue(&ns, i, "Can't cast value %s to type %s", castFmtFloat(float64(v), numIsF32[S]()), dfTypeName(cc.to)); err != nil {
				buf.Release()
				return nil, err
			}
		}
	case castLossless[S, D]():
		for i, v := range src {
			dst[i] = D(v)
		}
	default:
		for i, v := range src {
			d := D(v)
			if S(d) == v && (v < 0) == (d < 0) {
				dst[i] = d
				continue
			}
			if !isValidAt(bm, off, has, i) {
				continue
			}
			if err := cc.failValue(&ns, i, "Can't cast value %s to type %s", castFmtInt(v), dfTypeName(cc.to)); err != nil {
				buf.Release()
				return nil, err
			}
		}
	}
	valid, nulls := ns.result()
	return makePrimArray(cc.to, n, buf, valid, nulls), nil
}

// numIsF32 reports whether T is float32.
func numIsF32[T numAny]() bool {
	var z T
	_, ok := any(z).(float32)
	return ok
}

// castFmtInt formats an integer value for an error message.
func castFmtInt[T numAny](v T) string {
	if _, signed := numIntInfo[T](); signed {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatUint(uint64(v), 10)
}

// castFmtFloat formats a float as Rust's Display does in error messages.
func castFmtFloat(f float64, f32 bool) string {
	bits := 64
	if f32 {
		bits = 32
	}
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'f', -1, bits)
}

// castNumberToBool: zero is false, anything else (NaN too) true.
func castNumberToBool(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	n := a.Len()
	data := make([]uint64, (n+63)/64)
	switch a.DataType().ID() {
	case arrow.INT8:
		castSetNonZero(primValues[int8](a), data)
	case arrow.INT16:
		castSetNonZero(primValues[int16](a), data)
	case arrow.INT32:
		castSetNonZero(primValues[int32](a), data)
	case arrow.INT64:
		castSetNonZero(primValues[int64](a), data)
	case arrow.UINT8:
		castSetNonZero(primValues[uint8](a), data)
	case arrow.UINT16:
		castSetNonZero(primValues[uint16](a), data)
	case arrow.UINT32:
		castSetNonZero(primValues[uint32](a), data)
	case arrow.UINT64:
		castSetNonZero(primValues[uint64](a), data)
	case arrow.FLOAT32:
		castSetNonZero(primValues[float32](a), data)
	case arrow.FLOAT64:
		castSetNonZero(primValues[float64](a), data)
	default:
		return nil, fmt.Errorf("cannot cast %s to Boolean", a.DataType())
	}
	valid := nullWords(a)
	if valid != nil {
		for i := range data {
			data[i] &= valid[i]
		}
	}
	return boolArrayFromWords(cc.mem, data, valid, n), nil
}

func castSetNonZero[T numAny](v []T, out []uint64) {
	for i, x := range v {
		out[i>>6] |= b2u(x != 0) << (i & 63)
	}
}

// castBoolToNumber: true is 1, false 0.
func castBoolToNumber(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	n := a.Len()
	w := words(a)
	tmpBuf, tmp := newPrimValues[int64](cc.mem, n)
	for i := range tmp {
		tmp[i] = int64((w.data[i>>6] >> (i & 63)) & 1)
	}
	valid, nulls := copyValid(cc.mem, a)
	ints := makePrimArray(arrow.PrimitiveTypes.Int64, n, tmpBuf, valid, nulls)
	defer ints.Release()
	if cc.to.ID() == arrow.INT64 {
		ints.Retain()
		return ints, nil
	}
	return castNumeric(cc, ints)
}

// dfTypeName is DataFusion's spelling of a type (arrow-rs Display), as
// arrow_typeof returns it.
func dfTypeName(t arrow.DataType) string {
	switch t.ID() {
	case arrow.NULL:
		return "Null"
	case arrow.BOOL:
		return "Boolean"
	case arrow.INT8:
		return "Int8"
	case arrow.INT16:
		return "Int16"
	case arrow.INT32:
		return "Int32"
	case arrow.INT64:
		return "Int64"
	case arrow.UINT8:
		return "UInt8"
	case arrow.UINT16:
		return "UInt16"
	case arrow.UINT32:
		return "UInt32"
	case arrow.UINT64:
		return "UInt64"
	case arrow.FLOAT16:
		return "Float16"
	case arrow.FLOAT32:
		return "Float32"
	case arrow.FLOAT64:
		return "Float64"
	case arrow.STRING:
		return "Utf8"
	case arrow.LARGE_STRING:
		return "LargeUtf8"
	case arrow.STRING_VIEW:
		return "Utf8View"
	case arrow.BINARY:
		return "Binary"
	case arrow.LARGE_BINARY:
		return "LargeBinary"
	case arrow.BINARY_VIEW:
		return "BinaryView"
	case arrow.FIXED_SIZE_BINARY:
		return fmt.Sprintf("FixedSizeBinary(%d)", t.(*arrow.FixedSizeBinaryType).ByteWidth)
	case arrow.DATE32:
		return "Date32"
	case arrow.DATE64:
		return "Date64"
	case arrow.TIMESTAMP:
		ts := t.(*arrow.TimestampType)
		u := [...]string{"s", "ms", "µs", "ns"}[ts.Unit&3]
		if ts.TimeZone != "" {
			return fmt.Sprintf("Timestamp(%s, %q)", u, ts.TimeZone)
		}
		return "Timestamp(" + u + ")"
	case arrow.DECIMAL128:
		d := t.(*arrow.Decimal128Type)
		return fmt.Sprintf("Decimal128(%d, %d)", d.Precision, d.Scale)
	case arrow.DECIMAL256:
		d := t.(*arrow.Decimal256Type)
		return fmt.Sprintf("Decimal256(%d, %d)", d.Precision, d.Scale)
	case arrow.LIST:
		return "List(" + dfTypeName(t.(*arrow.ListType).Elem()) + ")"
	case arrow.LARGE_LIST:
		return "LargeList(" + dfTypeName(t.(*arrow.LargeListType).Elem()) + ")"
	case arrow.FIXED_SIZE_LIST:
		fl := t.(*arrow.FixedSizeListType)
		return fmt.Sprintf("FixedSizeList(%d x %s)", fl.Len(), dfTypeName(fl.Elem()))
	}
	return t.String()
}
