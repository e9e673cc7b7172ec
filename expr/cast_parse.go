package expr

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Casts from strings, parsed as arrow-rs parses them: integers are an
// optional sign and ASCII digits (no spaces); floats accept exponents,
// "inf", "infinity" and "NaN" in any case (no spaces, no hex); booleans
// are true/t/yes/y/on/1 and false/f/no/n/off/0 in any case, surrounding
// spaces ignored; decimals trim spaces, round half away from zero past
// the scale and take no exponent; dates and timestamps are described at
// castParseDate and castParseTimestamp.

// decimal128Num is the Decimal128 value type.
type decimal128Num = decimal128.Num

// stringCastKernel picks the kernel for a cast from a string type.
func stringCastKernel(from, to arrow.DataType) castKernel {
	switch castClass(to) {
	case clsString, clsBinary:
		return castBinaryToBinary
	case clsInt, clsFloat:
		return castStringToNumber
	case clsBool:
		return castStringToBool
	case clsDecimal:
		return castStringToDecimal
	case clsDate32:
		return castStringToDate32
	case clsTimestamp:
		return castStringToTimestamp
	}
	return nil
}

// castStringFail is the message of a string that does not convert.
func castStringFail(cc *castCtx, ns *nullSetter, i int, s string) error {
	return cc.failValue(ns, i, "Cannot cast string '%s' to value of %s type", s, dfTypeName(cc.to))
}

// castStringToNumber parses integers or floats.
func castStringToNumber(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	switch cc.to.ID() {
	case arrow.INT8:
		return parseInts[int8](cc, a)
	case arrow.INT16:
		return parseInts[int16](cc, a)
	case arrow.INT32:
		return parseInts[int32](cc, a)
	case arrow.INT64:
		return parseInts[int64](cc, a)
	case arrow.UINT8:
		return parseInts[uint8](cc, a)
	case arrow.UINT16:
		return parseInts[uint16](cc, a)
	case arrow.UINT32:
		return parseInts[uint32](cc, a)
	case arrow.UINT64:
		return parseInts[uint64](cc, a)
	case arrow.FLOAT32:
		return parseFloats[float32](cc, a)
	case arrow.FLOAT64:
		return parseFloats[float64](cc, a)
	}
	return nil, fmt.Errorf("cannot cast %s to %s", a.DataType(), cc.to)
}

// parseIntText parses an integer as arrow-rs does (an optional sign and
// ASCII digits; "-0" is zero even for unsigned types); ok is false when
// s is not one or is out of T's range (w bits, signed or not).
func parseIntText[T numInt](s string, w int, signed bool) (T, bool) {
	neg := false
	i := 0
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		i = 1
	}
	if i == len(s) {
		return 0, false
	}
	var u uint64
	for ; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false
		}
		if u > (math.MaxUint64-uint64(c))/10 {
			return 0, false
		}
		u = u*10 + uint64(c)
	}
	if signed {
		lim := uint64(1) << (w - 1)
		if neg {
			if u > lim {
				return 0, false
			}
			return T(-int64(u)), true
		}
		if u >= lim {
			return 0, false
		}
		return T(u), true
	}
	if neg {
		return 0, u == 0
	}
	if w < 64 && u >= uint64(1)<<w {
		return 0, false
	}
	return T(u), true
}

func parseInts[T numInt](cc *castCtx, a arrow.Array) (arrow.Array, error) {
	n := a.Len()
	buf, dst := newPrimValues[T](cc.mem, n)
	ns := nullSetter{mem: cc.mem, n: n, base: a}
	bm, off, has := validBits(a)
	v := bytesOf(a)
	w, signed := numIntInfo[T]()
	for i := 0; i < n; i++ {
		if !isValidAt(bm, off, has, i) {
			continue
		}
		s := v.str(i)
		x, ok := parseIntText[T](s, w, signed)
		if ok {
			dst[i] = x
			continue
		}
		if err := castStringFail(cc, &ns, i, s); err != nil {
			buf.Release()
			return nil, err
		}
	}
	valid, nulls := ns.result()
	return makePrimArray(cc.to, n, buf, valid, nulls), nil
}

// castFloatSyntax reports whether s is a float as Rust's lexical parser
// takes it: [sign] (digits [. digits] | . digits) [e [sign] digits], or
// [sign] inf / infinity / nan in any case.
func castFloatSyntax(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < len(s) && (s[i]|0x20 == 'i' || s[i]|0x20 == 'n') {
		t := s[i:]
		return strings.EqualFold(t, "inf") || strings.EqualFold(t, "infinity") || strings.EqualFold(t, "nan")
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		ed := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			ed++
		}
		if ed == 0 {
			return false
		}
	}
	return i == len(s)
}

// parseFloatText parses a float of bits bits (32 or 64).
func parseFloatText(s string, bits int) (float64, bool) {
	if !castFloatSyntax(s) {
		return 0, false
	}
	if t := strings.TrimLeft(s, "+-"); len(t) == 3 && strings.EqualFold(t, "nan") {
		// Rust's parser gives the canonical quiet NaN (its sign from the
		// text); Go's math.NaN() has another payload, which the total
		// order of comparisons would tell apart from stored NaNs.
		if s[0] == '-' {
			return math.Float64frombits(0xfff8000000000000), true
		}
		return math.Float64frombits(0x7ff8000000000000), true
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

func parseFloats[T float32 | float64](cc *castCtx, a arrow.Array) (arrow.Array, error) {
	n := a.Len()
	buf, dst := newPrimValues[T](cc.mem, n)
	ns := nullSetter{mem: cc.mem, n: n, base: a}
	bm, off, has := validBits(a)
	v := bytesOf(a)
	bits := 64
	if cc.to.ID() == arrow.FLOAT32 {
		bits = 32
	}
	for i := 0; i < n; i++ {
		if !isValidAt(bm, off, has, i) {
			continue
		}
		s := v.str(i)
		if f, ok := parseFloatText(s, bits); ok {
			dst[i] = T(f)
			continue
		}
		if err := castStringFail(cc, &ns, i, s); err != nil {
			buf.Release()
			return nil, err
		}
	}
	valid, nulls := ns.result()
	return makePrimArray(cc.to, n, buf, valid, nulls), nil
}

// parseBoolText parses a boolean as arrow-rs does.
func parseBoolText(s string) (bool, bool) {
	s = strings.TrimSpace(s)
	if len(s) > 5 {
		return false, false
	}
	var low [5]byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	switch string(low[:len(s)]) {
	case "true", "t", "yes", "y", "on", "1":
		return true, true
	case "false", "f", "no", "n", "off", "0":
		return false, true
	}
	return false, false
}

func castStringToBool(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	n := a.Len()
	data := make([]uint64, (n+63)/64)
	ns := nullSetter{mem: cc.mem, n: n, base: a}
	bm, off, has := validBits(a)
	v := bytesOf(a)
	for i := 0; i < n; i++ {
		if !isValidAt(bm, off, has, i) {
			continue
		}
		s := v.str(i)
		b, ok := parseBoolText(s)
		if ok {
			data[i>>6] |= b2u(b) << (i & 63)
			continue
		}
		if err := castStringFail(cc, &ns, i, s); err != nil {
			return nil, err
		}
	}
	valid, nulls := ns.result()
	var vw []uint64
	if valid != nil {
		if nulls > 0 {
			vw = make([]uint64, (n+63)/64)
			copyBits(vw, valid.Bytes(), 0, n)
			for i := range data {
				data[i] &= vw[i]
			}
		}
		valid.Release()
	}
	return boolArrayFromWords(cc.mem, data, vw, n), nil
}

// parseDecimalText parses s as an unscaled decimal of the given scale the
// way arrow-rs 57 does (parse_string_to_decimal_native): spaces trimmed,
// an optional sign, digits with at most one point; fractional digits past
// the scale round half away from zero; an empty string (or a lone sign)
// is zero when the scale is positive. ok is false when s is not such a
// numAny or does not fit 128 bits; the caller checks the precision.
func parseDecimalText(s string, scale int) (decimal128Num, bool) {
	s = strings.TrimSpace(s)
	intPart, frac, found := strings.Cut(s, ".")
	if found && strings.Contains(frac, ".") {
		return decimal128Num{}, false
	}
	neg := false
	if intPart != "" && (intPart[0] == '-' || intPart[0] == '+') {
		neg = intPart[0] == '-'
		intPart = intPart[1:]
	}
	if !castAllDigits(intPart) || !castAllDigits(frac) {
		return decimal128Num{}, false
	}
	if intPart == "" && frac == "" && scale == 0 {
		return decimal128Num{}, false
	}
	var sc i128Scratch
	acc := decimal128.FromI64(0)
	// The integer digits, then the fraction padded or cut to the scale.
	push := func(d byte) bool {
		var ok bool
		if acc, ok = sc.mul128(acc, pow10i128[1]); !ok {
			return false
		}
		acc, ok = add128(acc, decimal128.FromI64(int64(d-'0')))
		return ok
	}
	for i := 0; i < len(intPart); i++ {
		if !push(intPart[i]) {
			return decimal128Num{}, false
		}
	}
	for i := 0; i < scale; i++ {
		d := byte('0')
		if i < len(frac) {
			d = frac[i]
		}
		if !push(d) {
			return decimal128Num{}, false
		}
	}
	if len(frac) > scale && frac[scale] >= '5' {
		var ok bool
		if acc, ok = add128(acc, decimal128.FromI64(1)); !ok {
			return decimal128Num{}, false
		}
	}
	if neg {
		acc = acc.Negate()
	}
	return acc, true
}

// castAllDigits reports whether s is ASCII digits only (or empty).
func castAllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func castStringToDecimal(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	dt := cc.to.(*arrow.Decimal128Type)
	if dt.Scale < 0 {
		return nil, fmt.Errorf("cannot cast string to decimal with negative scale %d", dt.Scale)
	}
	n := a.Len()
	buf, dst := newPrimValues[decimal128Num](cc.mem, n)
	ns := nullSetter{mem: cc.mem, n: n, base: a}
	bm, off, has := validBits(a)
	v := bytesOf(a)
	for i := 0; i < n; i++ {
		if !isValidAt(bm, off, has, i) {
			continue
		}
		s := v.str(i)
		x, ok := parseDecimalText(s, int(dt.Scale))
		if ok && fitsPrecision(x, dt.Precision) {
			dst[i] = x
			continue
		}
		if err := cc.failValue(&ns, i, "Cannot cast string '%s' to value of %s type", s, dfTypeName(cc.to)); err != nil {
			buf.Release()
			return nil, err
		}
	}
	valid, nulls := ns.result()
	return makePrimArray(cc.to, n, buf, valid, nulls), nil
}

func castStringToDate32(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	n := a.Len()
	buf, dst := newPrimValues[int32](cc.mem, n)
	ns := nullSetter{mem: cc.mem, n: n, base: a}
	bm, off, has := validBits(a)
	v := bytesOf(a)
	for i := 0; i < n; i++ {
		if !isValidAt(bm, off, has, i) {
			continue
		}
		s := v.str(i)
		if d, ok := castParseDate(s); ok && d >= math.MinInt32 && d <= math.MaxInt32 {
			dst[i] = int32(d)
			continue
		}
		if err := castStringFail(cc, &ns, i, s); err != nil {
			buf.Release()
			return nil, err
		}
	}
	valid, nulls := ns.result()
	return makePrimArray(cc.to, n, buf, valid, nulls), nil
}

func castStringToTimestamp(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	unit := cc.to.(*arrow.TimestampType).Unit
	n := a.Len()
	buf, dst := newPrimValues[int64](cc.mem, n)
	ns := nullSetter{mem: cc.mem, n: n, base: a}
	bm, off, has := validBits(a)
	v := bytesOf(a)
	for i := 0; i < n; i++ {
		if !isValidAt(bm, off, has, i) {
			continue
		}
		s := v.str(i)
		secs, nanos, err := castParseTimestamp(s)
		if err == nil {
			if x, ok := castTimestampValue(secs, nanos, unit); ok {
				dst[i] = x
				continue
			}
			err = fmt.Errorf("overflow converting %s to %s", s, castUnitName(unit))
		}
		if ferr := cc.failValue(&ns, i, "%s", err); ferr != nil {
			buf.Release()
			return nil, ferr
		}
	}
	valid, nulls := ns.result()
	return makePrimArray(cc.to, n, buf, valid, nulls), nil
}
