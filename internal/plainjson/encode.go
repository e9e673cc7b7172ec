package plainjson

import (
	"encoding/base64"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
)

// appender appends the JSON of row i of one array to dst. It is called for
// valid rows only; nulls are handled by the caller.
type appender func(dst []byte, i int) []byte

// compile returns the appender of arr, null-aware.
func compile(arr arrow.Array) (appender, error) {
	a, err := compileValid(arr)
	if err != nil {
		return nil, err
	}
	if arr.NullN() == 0 && arr.DataType().ID() != arrow.DICTIONARY {
		return a, nil
	}
	return func(dst []byte, i int) []byte {
		if arr.IsNull(i) {
			return append(dst, "null"...)
		}
		return a(dst, i)
	}, nil
}

func compileValid(arr arrow.Array) (appender, error) {
	switch a := arr.(type) {
	case *array.Null:
		return func(dst []byte, _ int) []byte { return append(dst, "null"...) }, nil
	case *array.Boolean:
		return func(dst []byte, i int) []byte { return strconv.AppendBool(dst, a.Value(i)) }, nil
	case *array.Int8:
		return ints(a.Value), nil
	case *array.Int16:
		return ints(a.Value), nil
	case *array.Int32:
		return ints(a.Value), nil
	case *array.Int64:
		return ints(a.Value), nil
	case *array.Uint8:
		return uints(a.Value), nil
	case *array.Uint16:
		return uints(a.Value), nil
	case *array.Uint32:
		return uints(a.Value), nil
	case *array.Uint64:
		return uints(a.Value), nil
	case *array.Float16:
		return func(dst []byte, i int) []byte { return appendFloat(dst, float64(a.Value(i).Float32()), 32) }, nil
	case *array.Float32:
		return func(dst []byte, i int) []byte { return appendFloat(dst, float64(a.Value(i)), 32) }, nil
	case *array.Float64:
		return func(dst []byte, i int) []byte { return appendFloat(dst, a.Value(i), 64) }, nil
	case *array.String:
		return func(dst []byte, i int) []byte { return AppendString(dst, a.Value(i)) }, nil
	case *array.LargeString:
		return func(dst []byte, i int) []byte { return AppendString(dst, a.Value(i)) }, nil
	case *array.StringView:
		return func(dst []byte, i int) []byte { return AppendString(dst, a.Value(i)) }, nil
	case *array.Binary:
		return bins(a.Value), nil
	case *array.LargeBinary:
		return bins(a.Value), nil
	case *array.BinaryView:
		return bins(a.Value), nil
	case *array.FixedSizeBinary:
		return bins(a.Value), nil
	case *array.Decimal32:
		sc := a.DataType().(*arrow.Decimal32Type).Scale
		return func(dst []byte, i int) []byte { return appendDecimal(dst, big.NewInt(int64(a.Value(i))), sc) }, nil
	case *array.Decimal64:
		sc := a.DataType().(*arrow.Decimal64Type).Scale
		return func(dst []byte, i int) []byte { return appendDecimal(dst, big.NewInt(int64(a.Value(i))), sc) }, nil
	case *array.Decimal128:
		sc := a.DataType().(*arrow.Decimal128Type).Scale
		return func(dst []byte, i int) []byte { return appendDecimal(dst, dec128(a.Value(i)), sc) }, nil
	case *array.Decimal256:
		sc := a.DataType().(*arrow.Decimal256Type).Scale
		return func(dst []byte, i int) []byte { return appendDecimal(dst, dec256(a.Value(i)), sc) }, nil
	case *array.Dictionary:
		return compileDict(a)
	}
	if a, ok, err := compileTemporal(arr); ok || err != nil {
		return a, err
	}
	return compileNested(arr)
}

func ints[T int8 | int16 | int32 | int64](v func(int) T) appender {
	return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(v(i)), 10) }
}

func uints[T uint8 | uint16 | uint32 | uint64](v func(int) T) appender {
	return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(v(i)), 10) }
}

func bins(v func(int) []byte) appender {
	return func(dst []byte, i int) []byte {
		b := v(i)
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, b)
		return append(dst, '"')
	}
}

// appendFloat writes f in the shortest form that reads back as the same
// float of bitSize bits; non-finite values become strings.
func appendFloat(dst []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bitSize)
}

func dec128(n decimal128.Num) *big.Int { return n.BigInt() }
func dec256(n decimal256.Num) *big.Int { return n.BigInt() }

// appendDecimal writes the unscaled integer u with scale sc as a quoted
// exact decimal ("-1.50"; a negative scale appends zeros).
func appendDecimal(dst []byte, u *big.Int, sc int32) []byte {
	s := u.String()
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	dst = append(dst, '"')
	if neg {
		dst = append(dst, '-')
	}
	switch {
	case sc <= 0:
		dst = append(dst, s...)
		for range -int(sc) {
			dst = append(dst, '0')
		}
	case len(s) > int(sc):
		dst = append(dst, s[:len(s)-int(sc)]...)
		dst = append(dst, '.')
		dst = append(dst, s[len(s)-int(sc):]...)
	default:
		dst = append(dst, "0."...)
		for range int(sc) - len(s) {
			dst = append(dst, '0')
		}
		dst = append(dst, s...)
	}
	return append(dst, '"')
}

func compileDict(a *array.Dictionary) (appender, error) {
	vals, err := compile(a.Dictionary())
	if err != nil {
		return nil, err
	}
	return func(dst []byte, i int) []byte {
		if a.IsNull(i) {
			return append(dst, "null"...)
		}
		return vals(dst, a.GetValueIndex(i))
	}, nil
}

func compileTemporal(arr arrow.Array) (appender, bool, error) {
	switch a := arr.(type) {
	case *array.Date32:
		return func(dst []byte, i int) []byte {
			return appendTime(dst, time.Unix(int64(a.Value(i))*86400, 0).UTC(), time.DateOnly)
		}, true, nil
	case *array.Date64:
		return func(dst []byte, i int) []byte {
			return appendTime(dst, time.UnixMilli(int64(a.Value(i))).UTC(), time.DateOnly)
		}, true, nil
	case *array.Time32:
		u := a.DataType().(*arrow.Time32Type).Unit
		return func(dst []byte, i int) []byte {
			return appendTime(dst, time.Unix(0, 0).UTC().Add(time.Duration(a.Value(i))*u.Multiplier()), "15:04:05.999999999")
		}, true, nil
	case *array.Time64:
		u := a.DataType().(*arrow.Time64Type).Unit
		return func(dst []byte, i int) []byte {
			return appendTime(dst, time.Unix(0, 0).UTC().Add(time.Duration(a.Value(i))*u.Multiplier()), "15:04:05.999999999")
		}, true, nil
	case *array.Timestamp:
		dt := a.DataType().(*arrow.TimestampType)
		layout := "2006-01-02T15:04:05.999999999"
		loc := time.UTC
		if dt.TimeZone != "" {
			l, err := dt.GetZone()
			if err != nil {
				return nil, true, fmt.Errorf("plainjson: time zone %q: %w", dt.TimeZone, err)
			}
			loc, layout = l, time.RFC3339Nano
		}
		unit := dt.Unit
		return func(dst []byte, i int) []byte {
			return appendTime(dst, a.Value(i).ToTime(unit).In(loc), layout)
		}, true, nil
	case *array.Duration:
		return ints(func(i int) int64 { return int64(a.Value(i)) }), true, nil
	}
	return nil, false, nil
}

func appendTime(dst []byte, t time.Time, layout string) []byte {
	dst = append(dst, '"')
	dst = t.AppendFormat(dst, layout)
	return append(dst, '"')
}

// AppendString appends s as a JSON string (HTML characters not escaped,
// invalid UTF-8 replaced by U+FFFD).
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, `\n`...)
			case '\r':
				dst = append(dst, `\r`...)
			case '\t':
				dst = append(dst, `\t`...)
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			if r == utf8.RuneError {
				dst = append(dst, `\ufffd`...)
			} else {
				dst = append(dst, `\u202`...)
				dst = append(dst, hex[r&0xf])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
