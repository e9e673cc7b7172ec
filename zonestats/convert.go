package zonestats

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

// float32Getter reads float32 values as total-order keys.
func float32Getter(vals []float32) getter {
	l := layoutFor(32)
	return func(i int) value { return value{u: l.key(uint64(math.Float32bits(vals[i])))} }
}

// float64Getter reads float64 values as total-order keys.
func float64Getter(vals []float64) getter {
	l := layoutFor(64)
	return func(i int) value { return value{u: l.key(math.Float64bits(vals[i]))} }
}

// dec128Value maps a decimal128 to its domain value.
func dec128Value(n decimal128.Num) value {
	return value{i: n.HighBits(), u: n.LowBits()}
}

// dec256Value maps a decimal256 to its domain value (words high first).
func dec256Value(n decimal256.Num) value {
	a := n.Array() // little-endian words
	return value{i: int64(a[3]), w: [3]uint64{a[2], a[1], a[0]}}
}

// appendValue appends v, a value of the builder's type, to b. The builder
// must be of the value type of t (not a dictionary builder).
func appendValue(b array.Builder, t *typeInfo, v *value) {
	switch bb := b.(type) {
	case *array.Int8Builder:
		bb.Append(int8(v.i))
	case *array.Int16Builder:
		bb.Append(int16(v.i))
	case *array.Int32Builder:
		bb.Append(int32(v.i))
	case *array.Int64Builder:
		bb.Append(v.i)
	case *array.Date32Builder:
		bb.Append(arrow.Date32(v.i))
	case *array.Date64Builder:
		bb.Append(arrow.Date64(v.i))
	case *array.Time32Builder:
		bb.Append(arrow.Time32(v.i))
	case *array.Time64Builder:
		bb.Append(arrow.Time64(v.i))
	case *array.TimestampBuilder:
		bb.Append(arrow.Timestamp(v.i))
	case *array.DurationBuilder:
		bb.Append(arrow.Duration(v.i))
	default:
		appendOther(b, t, v)
	}
}

// appendOther covers the types appendValue does not.
func appendOther(b array.Builder, t *typeInfo, v *value) {
	switch bb := b.(type) {
	case *array.Uint8Builder:
		bb.Append(uint8(v.u))
	case *array.Uint16Builder:
		bb.Append(uint16(v.u))
	case *array.Uint32Builder:
		bb.Append(uint32(v.u))
	case *array.Uint64Builder:
		bb.Append(v.u)
	case *array.BooleanBuilder:
		bb.Append(v.u != 0)
	case *array.Float16Builder:
		bb.Append(float16.FromBits(uint16(layoutFor(16).bits(v.u))))
	case *array.Float32Builder:
		bb.Append(math.Float32frombits(uint32(layoutFor(32).bits(v.u))))
	case *array.Float64Builder:
		bb.Append(math.Float64frombits(layoutFor(64).bits(v.u)))
	default:
		appendBytesOrDecimal(b, v)
	}
}

// appendBytesOrDecimal covers byte-string and decimal builders.
func appendBytesOrDecimal(b array.Builder, v *value) {
	switch bb := b.(type) {
	case *array.StringBuilder:
		bb.Append(string(v.b))
	case *array.LargeStringBuilder:
		bb.Append(string(v.b))
	case *array.BinaryBuilder:
		bb.Append(v.b)
	case *array.FixedSizeBinaryBuilder:
		bb.Append(v.b)
	case *array.StringViewBuilder:
		bb.Append(string(v.b))
	case *array.BinaryViewBuilder:
		bb.Append(v.b)
	case *array.Decimal128Builder:
		bb.Append(decimal128.New(v.i, v.u))
	case *array.Decimal256Builder:
		bb.Append(decimal256.New(uint64(v.i), v.w[0], v.w[1], v.w[2]))
	default:
		b.AppendNull() // unreachable for supported types
	}
}
