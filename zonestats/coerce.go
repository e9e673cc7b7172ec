package zonestats

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

// coerce converts a non-null literal to a value of the column's type.
// Integers and decimals must be represented exactly; float columns round
// the literal to the nearest value of their width, as a cast would.
func coerce(l Literal, t *typeInfo) (value, error) {
	switch {
	case t.isFloat():
		return coerceFloat(l, t.floatBits)
	case t.vt.ID() == arrow.BOOL:
		if l.kind != litBool {
			return value{}, litError(l, t, "a boolean literal is needed")
		}
		return value{u: l.u}, nil
	}
	switch t.dom {
	case domInt, domUint:
		return coerceInteger(l, t)
	case domBytes:
		if l.kind != litString && l.kind != litBinary {
			return value{}, litError(l, t, "a string or X'..' literal is needed")
		}
		return value{b: []byte(l.s)}, nil
	case domDec128, domDec256:
		return coerceDecimal(l, t)
	}
	return value{}, litError(l, t, "the type has no order")
}

// litError builds a bind error for literal l and column type t.
func litError(l Literal, t *typeInfo, why string) error {
	return fmt.Errorf("%w: literal %s for column of type %s: %s", ErrBind, l, t.dt, why)
}

// exactRat returns the literal as an exact rational number, if numeric.
func exactRat(l Literal) (*big.Rat, bool) {
	switch l.kind {
	case litInt:
		return new(big.Rat).SetInt64(l.i), true
	case litUint:
		return new(big.Rat).SetInt(new(big.Int).SetUint64(l.u)), true
	case litFloat64, litFloat32:
		if math.IsNaN(l.f) || math.IsInf(l.f, 0) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(l.f), true
	case litNumber:
		if len(l.s) > 400 || hugeExponent(l.s) { // bound the work
			return nil, false
		}
		r, ok := new(big.Rat).SetString(l.s)
		return r, ok
	}
	return nil, false
}

// intRange returns the value range of an integer-domain type.
func intRange(t *typeInfo) (lo, hi *big.Int) {
	bits := 64
	switch t.vt.ID() {
	case arrow.INT8, arrow.UINT8:
		bits = 8
	case arrow.INT16, arrow.UINT16:
		bits = 16
	case arrow.INT32, arrow.UINT32, arrow.DATE32, arrow.TIME32:
		bits = 32
	}
	one := big.NewInt(1)
	if t.dom == domUint {
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, uint(bits)), one)
	}
	hi = new(big.Int).Sub(new(big.Int).Lsh(one, uint(bits-1)), one)
	return new(big.Int).Neg(new(big.Int).Lsh(one, uint(bits-1))), hi
}

// coerceInteger converts to an integer or temporal type (raw stored value).
func coerceInteger(l Literal, t *typeInfo) (value, error) {
	r, ok := exactRat(l)
	if !ok {
		return value{}, litError(l, t, "a number is needed")
	}
	if !r.IsInt() {
		return value{}, litError(l, t, "not an integer")
	}
	n := r.Num()
	lo, hi := intRange(t)
	if n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
		return value{}, litError(l, t, "out of range")
	}
	if t.dom == domUint {
		return value{u: n.Uint64()}, nil
	}
	return value{i: n.Int64()}, nil
}

// coerceFloat converts to a float key of the given width.
func coerceFloat(l Literal, width int) (value, error) {
	lay := layoutFor(width)
	var f float64
	switch l.kind {
	case litFloat32:
		if width == 32 {
			return value{u: lay.key(l.u)}, nil
		}
		f = l.f
	case litFloat64:
		f = l.f
	case litInt:
		f = float64(l.i)
	case litUint:
		f = float64(l.u)
	case litNumber:
		var err error
		if f, err = strconv.ParseFloat(l.s, 64); err != nil && !isRangeErr(err) {
			return value{}, fmt.Errorf("%w: literal %s is not a number", ErrBind, l)
		}
		if width == 32 {
			f32, _ := strconv.ParseFloat(l.s, 32) // correctly rounded to float32
			return value{u: lay.key(uint64(math.Float32bits(float32(f32))))}, nil
		}
	default:
		return value{}, fmt.Errorf("%w: literal %s for a float column: a number is needed", ErrBind, l)
	}
	return value{u: lay.key(floatBits(f, width))}, nil
}

// isRangeErr reports a strconv range error (the result is ±Inf or ±0,
// which is the correctly rounded value).
func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// floatBits rounds f to the width and returns its bit pattern.
func floatBits(f float64, width int) uint64 {
	switch width {
	case 16:
		return uint64(float16.New(float32(f)).Uint16())
	case 32:
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(f)
}

// coerceDecimal converts to the unscaled integer of a decimal column;
// the literal must fit the precision with at most scale fractional digits.
func coerceDecimal(l Literal, t *typeInfo) (value, error) {
	r, ok := exactRat(l)
	if !ok {
		return value{}, litError(l, t, "a number is needed")
	}
	dt := t.vt.(arrow.DecimalType)
	scale := big.NewInt(10)
	scale.Exp(scale, big.NewInt(int64(dt.GetScale())), nil)
	r.Mul(r, new(big.Rat).SetInt(scale))
	if !r.IsInt() {
		return value{}, litError(l, t, fmt.Sprintf("more than %d fractional digits", dt.GetScale()))
	}
	n := r.Num()
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(dt.GetPrecision())), nil)
	if new(big.Int).Abs(n).Cmp(limit) >= 0 {
		return value{}, litError(l, t, fmt.Sprintf("exceeds precision %d", dt.GetPrecision()))
	}
	return decimalValue(n, t.dom), nil
}

// decimalValue maps an integer that fits in 128 (or 256) bits to a value.
func decimalValue(n *big.Int, dom domain) value {
	words := 2
	if dom == domDec256 {
		words = 4
	}
	mod := new(big.Int).Lsh(big.NewInt(1), uint(64*words))
	u := new(big.Int).Set(n)
	if u.Sign() < 0 {
		u.Add(u, mod) // two's complement
	}
	w := make([]uint64, words)
	mask := new(big.Int).SetUint64(math.MaxUint64)
	for k := 0; k < words; k++ {
		w[k] = new(big.Int).And(u, mask).Uint64()
		u.Rsh(u, 64)
	}
	if dom == domDec128 {
		return value{i: int64(w[1]), u: w[0]}
	}
	return value{i: int64(w[3]), w: [3]uint64{w[2], w[1], w[0]}}
}

// hugeExponent reports whether numeric text has an exponent beyond ±400,
// which no exactly represented integer or decimal needs.
func hugeExponent(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 'e' || s[i] == 'E' {
			e, err := strconv.Atoi(s[i+1:])
			return err != nil || e > 400 || e < -400
		}
	}
	return false
}
