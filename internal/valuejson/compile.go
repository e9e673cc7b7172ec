package valuejson

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
)

// style selects the value convention a getter produces.
type style uint8

const (
	// corpusStyle follows the corpus "Value conventions" exactly.
	corpusStyle style = iota
	// humanStyle is the readable variant used by Text: floats and 64-bit
	// integers as number literals, decimals scaled, temporal values as
	// ISO-8601-like strings.
	humanStyle
)

// getter returns the JSON value of row i of the array it was compiled for.
type getter func(i int) any

// compile inspects the array type once and returns a per-row getter that
// handles nulls. The error names the unsupported Arrow type, if any.
func compile(arr arrow.Array, st style) (getter, error) {
	g, err := compileValid(arr, st)
	if err != nil {
		return nil, err
	}
	return withNulls(arr, g), nil
}

// withNulls wraps g so that null rows (by the array's validity) give nil.
func withNulls(arr arrow.Array, g getter) getter {
	if arr.NullN() == 0 {
		return g
	}
	return func(i int) any {
		if arr.IsNull(i) {
			return nil
		}
		return g(i)
	}
}

// compileValid returns a getter for non-null rows of arr.
func compileValid(arr arrow.Array, st style) (getter, error) {
	if g := compileScalar(arr, st); g != nil {
		return g, nil
	}
	switch a := arr.(type) {
	case *array.Map:
		return compileMap(a, st)
	case array.ListLike:
		return compileList(a, st)
	case *array.Struct:
		return compileStruct(a, st)
	case *array.Dictionary:
		return compileIndirect(a.Dictionary(), a.GetValueIndex, st)
	case *array.RunEndEncoded:
		return compileIndirect(a.Values(), a.GetPhysicalIndex, st)
	case array.ExtensionArray:
		return compileValid(a.Storage(), st)
	}
	return nil, fmt.Errorf("valuejson: unsupported Arrow type %s", arr.DataType())
}

// compileScalar returns a getter for non-nested types, or nil.
func compileScalar(arr arrow.Array, st style) getter {
	if g := compileInt(arr, st); g != nil {
		return g
	}
	if g := compileFloat(arr, st); g != nil {
		return g
	}
	if g := compileTemporal(arr, st); g != nil {
		return g
	}
	if g := compileDecimal(arr, st); g != nil {
		return g
	}
	return compileBytes(arr)
}

func compileInt(arr arrow.Array, st style) getter {
	switch a := arr.(type) {
	case *array.Null:
		return func(int) any { return nil }
	case *array.Boolean:
		return func(i int) any { return a.Value(i) }
	case *array.Int8:
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Int16:
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Int32:
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Uint8:
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Uint16:
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Uint32:
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Int64:
		return func(i int) any { return bigNumber(strconv.FormatInt(a.Value(i), 10), st) }
	case *array.Uint64:
		return func(i int) any { return bigNumber(strconv.FormatUint(a.Value(i), 10), st) }
	}
	return nil
}

// bigNumber is a decimal string in the corpus style and a number literal in
// the human style.
func bigNumber(s string, st style) any {
	if st == humanStyle {
		return number(s)
	}
	return s
}

func compileFloat(arr arrow.Array, st style) getter {
	switch a := arr.(type) {
	case *array.Float16:
		if st == humanStyle {
			return func(i int) any { return humanFloat(float64(a.Value(i).Float32()), 32) }
		}
		return func(i int) any { return hexBits(uint64(a.Value(i).Uint16()), 4) }
	case *array.Float32:
		if st == humanStyle {
			return func(i int) any { return humanFloat(float64(a.Value(i)), 32) }
		}
		bits := rawUint32(a)
		return func(i int) any { return hexBits(uint64(bits[i]), 8) }
	case *array.Float64:
		if st == humanStyle {
			return func(i int) any { return humanFloat(a.Value(i), 64) }
		}
		bits := rawUint64(a)
		return func(i int) any { return hexBits(bits[i], 16) }
	}
	return nil
}

// rawUint32 views the values of a 4-byte fixed-width array as their bit
// patterns, without passing through float registers, so NaN payloads and
// signalling bits are kept.
func rawUint32(a arrow.Array) []uint32 {
	buf := a.Data().Buffers()[1]
	if a.Len() == 0 || buf == nil {
		return nil
	}
	off := a.Data().Offset()
	return arrow.Uint32Traits.CastFromBytes(buf.Bytes())[off : off+a.Len()]
}

// rawUint64 is rawUint32 for 8-byte values.
func rawUint64(a arrow.Array) []uint64 {
	buf := a.Data().Buffers()[1]
	if a.Len() == 0 || buf == nil {
		return nil
	}
	off := a.Data().Offset()
	return arrow.Uint64Traits.CastFromBytes(buf.Bytes())[off : off+a.Len()]
}

// hexBits formats v as "0x" followed by exactly digits lowercase hex digits.
func hexBits(v uint64, digits int) string {
	b := make([]byte, 2+digits)
	b[0], b[1] = '0', 'x'
	for k := digits - 1; k >= 0; k-- {
		b[2+k] = hexDigits[v&0xF]
		v >>= 4
	}
	return string(b)
}

// humanFloat is the shortest 'g' formatting as a number literal; NaN and
// infinities, which JSON cannot hold as numbers, become strings.
func humanFloat(f float64, bitSize int) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return number(strconv.FormatFloat(f, 'g', -1, bitSize))
}

func compileDecimal(arr arrow.Array, st style) getter {
	var unscaled func(i int) string
	switch a := arr.(type) {
	case *array.Decimal32:
		unscaled = func(i int) string { return strconv.FormatInt(int64(a.Value(i)), 10) }
	case *array.Decimal64:
		unscaled = func(i int) string { return strconv.FormatInt(int64(a.Value(i)), 10) }
	case *array.Decimal128:
		unscaled = func(i int) string { return decimal128String(a.Value(i)) }
	case *array.Decimal256:
		unscaled = func(i int) string { return decimal256String(a.Value(i)) }
	default:
		return nil
	}
	if st == humanStyle {
		scale := arr.DataType().(arrow.DecimalType).GetScale()
		return func(i int) any { return number(scaleDecimal(unscaled(i), scale)) }
	}
	return func(i int) any { return unscaled(i) }
}

// decimal128String is the signed decimal form of the unscaled integer.
func decimal128String(n decimal128.Num) string {
	lo, hi := n.LowBits(), n.HighBits()
	if hi == int64(lo)>>63 {
		return strconv.FormatInt(int64(lo), 10)
	}
	return n.BigInt().String()
}

// decimal256String is the signed decimal form of the unscaled integer.
func decimal256String(n decimal256.Num) string {
	limbs := n.Array()
	ext := uint64(int64(limbs[0]) >> 63)
	if limbs[1] == ext && limbs[2] == ext && limbs[3] == ext {
		return strconv.FormatInt(int64(limbs[0]), 10)
	}
	return n.BigInt().String()
}

// scaleDecimal inserts the decimal point into an unscaled integer string.
func scaleDecimal(s string, scale int32) string {
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimPrefix(s, "-")
	switch {
	case scale < 0:
		if digits != "0" {
			digits += strings.Repeat("0", int(-scale))
		}
	case scale > 0:
		if pad := int(scale) + 1 - len(digits); pad > 0 {
			digits = strings.Repeat("0", pad) + digits
		}
		cut := len(digits) - int(scale)
		digits = digits[:cut] + "." + digits[cut:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

func compileBytes(arr arrow.Array) getter {
	switch a := arr.(type) {
	case *array.String:
		return func(i int) any { return strings.Clone(a.Value(i)) }
	case *array.LargeString:
		return func(i int) any { return strings.Clone(a.Value(i)) }
	case *array.StringView:
		return func(i int) any { return strings.Clone(a.Value(i)) }
	case *array.Binary:
		return func(i int) any { return base64.StdEncoding.EncodeToString(a.Value(i)) }
	case *array.LargeBinary:
		return func(i int) any { return base64.StdEncoding.EncodeToString(a.Value(i)) }
	case *array.BinaryView:
		return func(i int) any { return base64.StdEncoding.EncodeToString(a.Value(i)) }
	case *array.FixedSizeBinary:
		return func(i int) any { return base64.StdEncoding.EncodeToString(a.Value(i)) }
	}
	return nil
}

// compileList handles list, large_list, fixed_size_list and list views.
func compileList(a array.ListLike, st style) (getter, error) {
	child, err := compile(a.ListValues(), st)
	if err != nil {
		return nil, err
	}
	return func(i int) any {
		start, end := a.ValueOffsets(i)
		out := make([]any, end-start)
		for k := range out {
			out[k] = child(int(start) + k)
		}
		return out
	}, nil
}

// compileMap gives an array of {"key", "value"} objects per map value.
func compileMap(a *array.Map, st style) (getter, error) {
	key, err := compile(a.Keys(), st)
	if err != nil {
		return nil, err
	}
	item, err := compile(a.Items(), st)
	if err != nil {
		return nil, err
	}
	return func(i int) any {
		start, end := a.ValueOffsets(i)
		out := make([]any, end-start)
		for k := range out {
			j := int(start) + k
			out[k] = OrderedObject{{"key", key(j)}, {"value", item(j)}}
		}
		return out
	}, nil
}

// compileStruct gives an OrderedObject keyed by child name in child order.
func compileStruct(a *array.Struct, st style) (getter, error) {
	typ := a.DataType().(*arrow.StructType)
	children := make([]getter, a.NumField())
	names := make([]string, a.NumField())
	for j := range children {
		names[j] = typ.Field(j).Name
		g, err := compile(a.Field(j), st)
		if err != nil {
			return nil, fmt.Errorf("struct field %q: %w", names[j], err)
		}
		children[j] = g
	}
	return func(i int) any {
		out := make(OrderedObject, len(children))
		for j, g := range children {
			out[j] = Member{names[j], g(i)}
		}
		return out
	}, nil
}

// compileIndirect handles dictionary and run-end encoded arrays: row i is
// row index(i) of values.
func compileIndirect(values arrow.Array, index func(int) int, st style) (getter, error) {
	g, err := compile(values, st)
	if err != nil {
		return nil, err
	}
	return func(i int) any { return g(index(i)) }, nil
}
