package expr

import (
	"fmt"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Decimal casts, as arrow-rs: an integer is scaled up exactly (it must
// fit the precision), a float is scaled and rounded half away from zero,
// a decimal is rescaled (rounding half away from zero when the scale
// shrinks); to integers the fraction is truncated, to floats the value is
// divided in float64.

// makeVarBinary builds a string or binary array from offsets and data
// buffers, consuming the references.
func makeVarBinary(t arrow.DataType, n int, offs, data, valid *memory.Buffer, nulls int) arrow.Array {
	if nulls == 0 && valid != nil {
		valid.Release()
		valid = nil
	}
	d := array.NewData(t, n, []*memory.Buffer{valid, offs, data}, nil, nulls, 0)
	offs.Release()
	data.Release()
	if valid != nil {
		valid.Release()
	}
	defer d.Release()
	return array.MakeFromData(d)
}

// decimalOutOfRange is arrow-rs's message for a value over the precision.
func decimalOutOfRange(v decimal128Num, t *arrow.Decimal128Type) string {
	mx := decimal128.FromI64(0)
	if t.Precision >= 1 && t.Precision <= 38 {
		mx = pow10i128[t.Precision].Sub(decimal128.FromI64(1))
	}
	return fmt.Sprintf("Invalid argument error: %s is too large to store in a Decimal128 of precision %d. Max is %s",
		string(appendDecimalText(nil, v, t.Scale)), t.Precision, string(appendDecimalText(nil, mx, t.Scale)))
}

// castToDecimal casts integers and floats to a decimal.
func castToDecimal(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	dt := cc.to.(*arrow.Decimal128Type)
	if dt.Scale > 38 || dt.Scale < -38 || dt.Precision < 1 || dt.Precision > 38 {
		return nil, fmt.Errorf("invalid decimal type %s", cc.to)
	}
	n := a.Len()
	buf, dst := newPrimValues[decimal128Num](cc.mem, n)
	ns := nullSetter{mem: cc.mem, n: n, base: a}
	bm, off, has := validBits(a)
	var sc i128Scratch
	mulF := math.Pow(10, float64(dt.Scale))
	var conv func(i int) (decimal128Num, bool)
	switch a.DataType().ID() {
	case arrow.FLOAT32:
		v := primValues[float32](a)
		conv = func(i int) (decimal128Num, bool) { return floatToDecimal(float64(v[i]), mulF) }
	case arrow.FLOAT64:
		v := primValues[float64](a)
		conv = func(i int) (decimal128Num, bool) { return floatToDecimal(v[i], mulF) }
	default:
		ints, err := asInt128s(a)
		if err != nil {
			buf.Release()
			return nil, err
		}
		conv = func(i int) (decimal128Num, bool) { return scaleDecimal(&sc, ints[i], dt.Scale) }
	}
	for i := 0; i < n; i++ {
		if !isValidAt(bm, off, has, i) {
			continue
		}
		x, ok := conv(i)
		if ok && fitsPrecision(x, dt.Precision) {
			dst[i] = x
			continue
		}
		msg := "Cannot cast to " + dfTypeName(cc.to) + ". Overflowing on a value"
		if ok {
			msg = decimalOutOfRange(x, dt)
		}
		if err := cc.failValue(&ns, i, "%s", msg); err != nil {
			buf.Release()
			return nil, err
		}
	}
	valid, nulls := ns.result()
	return makePrimArray(cc.to, n, buf, valid, nulls), nil
}

// asInt128s returns the values of an integer array as 128-bit numbers.
func asInt128s(a arrow.Array) ([]decimal128Num, error) {
	out := make([]decimal128Num, a.Len())
	switch a.DataType().ID() {
	case arrow.INT8:
		fillI128(out, primValues[int8](a))
	case arrow.INT16:
		fillI128(out, primValues[int16](a))
	case arrow.INT32:
		fillI128(out, primValues[int32](a))
	case arrow.INT64:
		fillI128(out, primValues[int64](a))
	case arrow.UINT8:
		fillU128(out, primValues[uint8](a))
	case arrow.UINT16:
		fillU128(out, primValues[uint16](a))
	case arrow.UINT32:
		fillU128(out, primValues[uint32](a))
	case arrow.UINT64:
		fillU128(out, primValues[uint64](a))
	case arrow.DECIMAL128:
		copy(out, primValues[decimal128Num](a))
	default:
		return nil, fmt.Errorf("cannot cast %s to a decimal", a.DataType())
	}
	return out, nil
}

func fillI128[T int8 | int16 | int32 | int64](out []decimal128Num, v []T) {
	for i, x := range v {
		out[i] = decimal128.FromI64(int64(x))
	}
}

func fillU128[T uint8 | uint16 | uint32 | uint64](out []decimal128Num, v []T) {
	for i, x := range v {
		out[i] = decimal128.FromU64(uint64(x))
	}
}

// scaleDecimal multiplies v by 10^scale (divides, rounding half away
// from zero, for a negative scale); false on overflow.
func scaleDecimal(sc *i128Scratch, v decimal128Num, scale int32) (decimal128Num, bool) {
	if scale >= 0 {
		return sc.mul128(v, pow10i128[scale])
	}
	return roundDiv128(sc, v, pow10i128[-scale])
}

// roundDiv128 divides, rounding half away from zero.
func roundDiv128(sc *i128Scratch, v, d decimal128Num) (decimal128Num, bool) {
	q, r, ok := sc.quoRem128(v, d)
	if !ok {
		return q, false
	}
	// |r| * 2 >= |d| rounds away from zero.
	ar, ad := r, d
	if ar.Sign() < 0 {
		ar = ar.Negate()
	}
	if ad.Sign() < 0 {
		ad = ad.Negate()
	}
	twice, ok := add128(ar, ar)
	if !ok || !twice.Less(ad) {
		if (v.Sign() < 0) != (d.Sign() < 0) {
			q, ok = sub128(q, decimal128.FromI64(1))
		} else {
			q, ok = add128(q, decimal128.FromI64(1))
		}
	}
	return q, ok
}

// floatToDecimal is arrow-rs's single_float_to_decimal: round(v*mul).
func floatToDecimal(v, mul float64) (decimal128Num, bool) {
	r := math.Round(v * mul)
	if math.IsNaN(r) || math.IsInf(r, 0) || r >= 0x1p127 || r < -0x1p127 {
		return decimal128Num{}, false
	}
	if r >= -0x1p63 && r < 0x1p63 {
		return decimal128.FromI64(int64(r)), true
	}
	bf := new(big.Float).SetFloat64(r)
	bi, _ := bf.Int(nil)
	return fromBig(bi)
}

// castDecimalToDecimal rescales a decimal.
func castDecimalToDecimal(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	from := a.DataType().(*arrow.Decimal128Type)
	dt := cc.to.(*arrow.Decimal128Type)
	if dt.Precision < 1 || dt.Precision > 38 || dt.Scale > 38 || dt.Scale < -38 {
		return nil, fmt.Errorf("invalid decimal type %s", cc.to)
	}
	n := a.Len()
	src := primValues[decimal128Num](a)
	buf, dst := newPrimValues[decimal128Num](cc.mem, n)
	ns := nullSetter{mem: cc.mem, n: n, base: a}
	bm, off, has := validBits(a)
	var sc i128Scratch
	delta := dt.Scale - from.Scale
	for i, v := range src {
		if !isValidAt(bm, off, has, i) {
			continue
		}
		var x decimal128Num
		ok := true
		switch {
		case delta > 38:
			ok = v.Sign() == 0
		case delta >= 0:
			x, ok = sc.mul128(v, pow10i128[delta])
		case delta < -38:
			x = decimal128Num{}
		default:
			x, ok = roundDiv128(&sc, v, pow10i128[-delta])
		}
		if ok && fitsPrecision(x, dt.Precision) {
			dst[i] = x
			continue
		}
		msg := fmt.Sprintf("Cannot cast to %s. Overflowing on %s", dfTypeName(cc.to), string(appendDecimalText(nil, v, 0)))
		if ok {
			msg = decimalOutOfRange(x, dt)
		}
		if err := cc.failValue(&ns, i, "%s", msg); err != nil {
			buf.Release()
			return nil, err
		}
	}
	valid, nulls := ns.result()
	return makePrimArray(cc.to, n, buf, valid, nulls), nil
}

// castDecimalToInt truncates a decimal toward zero into an integer type.
func castDecimalToInt(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	from := a.DataType().(*arrow.Decimal128Type)
	n := a.Len()
	src := primValues[decimal128Num](a)
	tmpBuf, tmp := newPrimValues[int64](cc.mem, n)
	ns := nullSetter{mem: cc.mem, n: n, base: a}
	bm, off, has := validBits(a)
	var sc i128Scratch
	// Values go through int64 (uint64 targets through the 128-bit value).
	unsigned64 := cc.to.ID() == arrow.UINT64
	var ubuf *memory.Buffer
	var u []uint64
	if unsigned64 {
		ubuf, u = newPrimValues[uint64](cc.mem, n)
	}
	lo, hi := intTargetRange(cc.to)
	for i, v := range src {
		if !isValidAt(bm, off, has, i) {
			continue
		}
		q := v
		if from.Scale > 0 {
			if from.Scale > 38 {
				q = decimal128Num{}
			} else {
				q, _, _ = sc.quoRem128(v, pow10i128[from.Scale])
			}
		} else if from.Scale < 0 {
			var ok bool
			if q, ok = scaleDecimal(&sc, v, -from.Scale); !ok {
				q = maxI128
			}
		}
		if unsigned64 {
			if q.Sign() >= 0 && q.HighBits() == 0 {
				u[i] = q.LowBits()
				continue
			}
		} else if x, ok := fits64(q); ok && x >= lo && x <= hi {
			tmp[i] = x
			continue
		}
		if err := cc.failValue(&ns, i, "value of %s is out of range %s", string(appendDecimalText(nil, q, 0)), dfTypeName(cc.to)); err != nil {
			tmpBuf.Release()
			if ubuf != nil {
				ubuf.Release()
			}
			return nil, err
		}
	}
	valid, nulls := ns.result()
	if unsigned64 {
		tmpBuf.Release()
		return makePrimArray(cc.to, n, ubuf, valid, nulls), nil
	}
	ints := makePrimArray(arrow.PrimitiveTypes.Int64, n, tmpBuf, valid, nulls)
	defer ints.Release()
	if cc.to.ID() == arrow.INT64 {
		ints.Retain()
		return ints, nil
	}
	// In range by construction: the narrowing cannot fail.
	return castNumeric(cc, ints)
}

// intTargetRange returns the int64 range of an integer type (uint64 is
// handled apart).
func intTargetRange(t arrow.DataType) (int64, int64) {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return intRange(t)
	}
	return 0, int64(min(uintMax(t), math.MaxInt64))
}

// castDecimalToFloat divides the unscaled value by 10^scale in float64.
func castDecimalToFloat(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	from := a.DataType().(*arrow.Decimal128Type)
	n := a.Len()
	src := primValues[decimal128Num](a)
	div := math.Pow(10, float64(from.Scale))
	valid, nulls := copyValid(cc.mem, a)
	if cc.to.ID() == arrow.FLOAT32 {
		buf, dst := newPrimValues[float32](cc.mem, n)
		for i, v := range src {
			dst[i] = float32(i128ToFloat64(v) / div)
		}
		return makePrimArray(cc.to, n, buf, valid, nulls), nil
	}
	buf, dst := newPrimValues[float64](cc.mem, n)
	for i, v := range src {
		dst[i] = i128ToFloat64(v) / div
	}
	return makePrimArray(cc.to, n, buf, valid, nulls), nil
}
