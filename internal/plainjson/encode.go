package plainjson

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// appender appends the JSON of row i of one array to dst.
type appender func(dst []byte, i int) []byte

// compile returns the appender of arr, printing null for null rows.
func compile(arr arrow.Array) (appender, error) {
	a, err := compileValid(arr)
	if err != nil {
		return nil, err
	}
	if arr.NullN() == 0 || arr.DataType().ID() == arrow.DICTIONARY {
		return a, nil // a dictionary's appender checks its own nulls
	}
	return func(dst []byte, i int) []byte {
		if arr.IsNull(i) {
			return append(dst, "null"...)
		}
		return a(dst, i)
	}, nil
}

// compileValid returns the appender of arr's valid rows.
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
		return func(dst []byte, i int) []byte { return AppendFloat16(dst, a.Value(i).Uint16()) }, nil
	case *array.Float32:
		return func(dst []byte, i int) []byte { return AppendFloat(dst, float64(a.Value(i)), 32) }, nil
	case *array.Float64:
		return func(dst []byte, i int) []byte { return AppendFloat(dst, a.Value(i), 64) }, nil
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
	case *array.Dictionary:
		return compileDict(a)
	case array.ExtensionArray:
		return compileValid(a.Storage())
	}
	if a, ok, err := compileDecimal(arr); ok || err != nil {
		return a, err
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
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, v(i))
		return append(dst, '"')
	}
}

func compileDict(a *array.Dictionary) (appender, error) {
	vals, err := compile(a.Dictionary())
	if err != nil {
		return nil, err
	}
	n := a.Dictionary().Len()
	return func(dst []byte, i int) []byte {
		if a.IsNull(i) {
			return append(dst, "null"...)
		}
		k := a.GetValueIndex(i)
		if k < 0 || k >= n {
			return append(dst, "null"...) // an index past the dictionary: nothing to print
		}
		return vals(dst, k)
	}, nil
}

func unsupported(arr arrow.Array) error {
	return fmt.Errorf("%w: Arrow type %s", ErrUnsupported, arr.DataType())
}

// AppendString appends s as a JSON string: quotes, backslashes and control
// characters escaped (HTML characters are not), U+2028 and U+2029 escaped
// for JavaScript, and each byte of invalid UTF-8 replaced by U+FFFD.
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
