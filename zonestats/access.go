package zonestats

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// getter reads row i of an array as a domain value. It must only be called
// for rows that are not null. Getters are built once per array, so the type
// switch is not repeated per value.
type getter func(i int) value

// nullFunc reports whether row i is (logically) null.
type nullFunc func(i int) bool

// accessor returns the null test and value getter of arr. The getter is
// nil for types without an order (domNone).
func accessor(arr arrow.Array) (nullFunc, getter) {
	if d, ok := arr.(*array.Dictionary); ok {
		return dictAccessor(d)
	}
	return arr.IsNull, valueGetter(arr)
}

// dictAccessor reads a dictionary array by value: a row is null when its
// index or the value it points at is null.
func dictAccessor(d *array.Dictionary) (nullFunc, getter) {
	dict := d.Dictionary()
	g := valueGetter(dict)
	isNull := func(i int) bool { return d.IsNull(i) || dict.IsNull(d.GetValueIndex(i)) }
	if g == nil {
		return isNull, nil
	}
	return isNull, func(i int) value { return g(d.GetValueIndex(i)) }
}

// valueGetter returns the getter of a non-dictionary array, or nil.
func valueGetter(arr arrow.Array) getter {
	switch a := arr.(type) {
	case *array.Int8:
		return intGetter(a.Int8Values())
	case *array.Int16:
		return intGetter(a.Int16Values())
	case *array.Int32:
		return intGetter(a.Int32Values())
	case *array.Int64:
		return intGetter(a.Int64Values())
	case *array.Date32:
		return intGetter(a.Date32Values())
	case *array.Date64:
		return intGetter(a.Date64Values())
	case *array.Time32:
		return intGetter(a.Time32Values())
	case *array.Time64:
		return intGetter(a.Time64Values())
	case *array.Timestamp:
		return intGetter(a.TimestampValues())
	case *array.Duration:
		return intGetter(a.DurationValues())
	case *array.Uint8:
		return uintGetter(a.Uint8Values())
	case *array.Uint16:
		return uintGetter(a.Uint16Values())
	case *array.Uint32:
		return uintGetter(a.Uint32Values())
	case *array.Uint64:
		return uintGetter(a.Uint64Values())
	}
	return otherGetter(arr)
}

// otherGetter covers floats, bool, byte strings and decimals.
func otherGetter(arr arrow.Array) getter {
	switch a := arr.(type) {
	case *array.Float16:
		l, vals := layoutFor(16), a.Values()
		return func(i int) value { return value{u: l.key(uint64(vals[i].Uint16()))} }
	case *array.Float32:
		return float32Getter(a.Float32Values())
	case *array.Float64:
		return float64Getter(a.Float64Values())
	case *array.Boolean:
		return func(i int) value { return value{u: boolKey(a.Value(i))} }
	case *array.Decimal128:
		return func(i int) value { return dec128Value(a.Value(i)) }
	case *array.Decimal256:
		return func(i int) value { return dec256Value(a.Value(i)) }
	}
	return bytesGetter(arr)
}

// bytesGetter covers the string and binary layouts.
func bytesGetter(arr arrow.Array) getter {
	switch a := arr.(type) {
	case *array.String:
		return offsetGetter(a.ValueOffsets(), a.ValueBytes())
	case *array.LargeString:
		return offsetGetter(a.ValueOffsets(), a.ValueBytes())
	case *array.Binary:
		return offsetGetter(a.ValueOffsets(), a.ValueBytes())
	case *array.LargeBinary:
		return offsetGetter(a.ValueOffsets(), a.ValueBytes())
	case *array.FixedSizeBinary:
		return func(i int) value { return value{b: a.Value(i)} }
	case *array.StringView:
		return func(i int) value { return value{b: []byte(a.Value(i))} }
	case *array.BinaryView:
		return func(i int) value { return value{b: a.Value(i)} }
	}
	return nil
}

// intGetter reads signed fixed-width values.
func intGetter[T ~int8 | ~int16 | ~int32 | ~int64](vals []T) getter {
	return func(i int) value { return value{i: int64(vals[i])} }
}

// uintGetter reads unsigned fixed-width values.
func uintGetter[T ~uint8 | ~uint16 | ~uint32 | ~uint64](vals []T) getter {
	return func(i int) value { return value{u: uint64(vals[i])} }
}

// offsetGetter reads variable-width values given the array's offsets and
// value bytes (both already relative to the array's slice).
func offsetGetter[O int32 | int64](offs []O, data []byte) getter {
	if len(offs) == 0 {
		return func(int) value { return value{} }
	}
	base := offs[0]
	return func(i int) value { return value{b: data[offs[i]-base : offs[i+1]-base]} }
}

// boolKey maps false/true to 0/1.
func boolKey(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
