package plainjson

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
)

// maxScale bounds a decimal's scale (Arrow's widest decimal has 76
// digits); beyond it a hostile schema could make one value print a
// gigabyte of zeros.
const maxScale = 1000

// compileDecimal returns the appender of a decimal array (ok false for
// other types). Values print as strings holding the exact decimal.
func compileDecimal(arr arrow.Array) (appender, bool, error) {
	dt, ok := arr.DataType().(arrow.DecimalType)
	if !ok {
		return nil, false, nil
	}
	sc := dt.GetScale()
	if sc < -maxScale || sc > maxScale {
		return nil, true, fmt.Errorf("%w: %s: scale %d out of range", ErrUnsupported, dt, sc)
	}
	switch a := arr.(type) {
	case *array.Decimal32:
		return func(dst []byte, i int) []byte { return appendDecimal(dst, int64(a.Value(i)), nil, sc) }, true, nil
	case *array.Decimal64:
		return func(dst []byte, i int) []byte { return appendDecimal(dst, int64(a.Value(i)), nil, sc) }, true, nil
	case *array.Decimal128:
		return func(dst []byte, i int) []byte {
			n := a.Value(i)
			if v, ok := small128(n); ok {
				return appendDecimal(dst, v, nil, sc)
			}
			return appendDecimal(dst, 0, n.BigInt(), sc)
		}, true, nil
	case *array.Decimal256:
		return func(dst []byte, i int) []byte {
			n := a.Value(i)
			if v, ok := small256(n); ok {
				return appendDecimal(dst, v, nil, sc)
			}
			return appendDecimal(dst, 0, n.BigInt(), sc)
		}, true, nil
	}
	return nil, true, unsupported(arr)
}

// small128 returns n as an int64 when it fits.
func small128(n decimal128.Num) (int64, bool) {
	lo, hi := n.LowBits(), n.HighBits()
	if hi == 0 && lo <= math.MaxInt64 || hi == -1 && lo > math.MaxInt64 {
		return int64(lo), true
	}
	return 0, false
}

// small256 returns n as an int64 when it fits.
func small256(n decimal256.Num) (int64, bool) {
	w := n.Array() // little-endian 64-bit words
	ext := uint64(0)
	if w[0] > math.MaxInt64 {
		ext = math.MaxUint64
	}
	if w[1] == ext && w[2] == ext && w[3] == ext {
		return int64(w[0]), true
	}
	return 0, false
}

// appendDecimal writes the unscaled integer (small, or wide when not nil)
// with scale sc as a quoted exact decimal: "-1.50" for -150 at scale 2,
// "0.001" for 1 at scale 3, "1200" for 12 at scale -2.
func appendDecimal(dst []byte, small int64, wide *big.Int, sc int32) []byte {
	var scratch [80]byte
	var digits []byte
	if wide != nil {
		digits = wide.Append(scratch[:0], 10)
	} else {
		digits = strconv.AppendInt(scratch[:0], small, 10)
	}
	dst = append(dst, '"')
	if digits[0] == '-' {
		dst = append(dst, '-')
		digits = digits[1:]
	}
	s := int(sc)
	switch {
	case s <= 0:
		dst = append(dst, digits...)
		if len(digits) > 1 || digits[0] != '0' {
			dst = appendZeros(dst, -s)
		}
	case len(digits) > s:
		dst = append(dst, digits[:len(digits)-s]...)
		dst = append(dst, '.')
		dst = append(dst, digits[len(digits)-s:]...)
	default:
		dst = append(dst, "0."...)
		dst = appendZeros(dst, s-len(digits))
		dst = append(dst, digits...)
	}
	return append(dst, '"')
}

func appendZeros(dst []byte, n int) []byte {
	for range n {
		dst = append(dst, '0')
	}
	return dst
}
