package main

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// kind is how a column is summed.
type kind int

const (
	intKind   kind = iota // exactly, in an int64
	floatKind             // in a float64
)

// sumKinds returns how each of cols is summed, refusing columns that are
// missing or not numeric.
func sumKinds(schema *arrow.Schema, cols []string) ([]kind, error) {
	kinds := make([]kind, len(cols))
	for i, name := range cols {
		idx := schema.FieldIndices(name)
		if len(idx) == 0 {
			return nil, fmt.Errorf("-sum: no column %q", name)
		}
		switch t := schema.Field(idx[0]).Type; t.ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
			kinds[i] = intKind
		case arrow.FLOAT32, arrow.FLOAT64:
			kinds[i] = floatKind
		default:
			return nil, fmt.Errorf("-sum: column %q is %s, not an integer or floating-point column", name, t)
		}
	}
	return kinds, nil
}

// accumulate adds the valid values of col to *ints (integer columns,
// checking overflow) or *floats.
func accumulate(col arrow.Array, ints *int64, floats *float64) error {
	var ok = true
	switch a := col.(type) {
	case *array.Int8:
		ok = sumInts(a, ints, func(i int) int64 { return int64(a.Value(i)) })
	case *array.Int16:
		ok = sumInts(a, ints, func(i int) int64 { return int64(a.Value(i)) })
	case *array.Int32:
		ok = sumInts(a, ints, func(i int) int64 { return int64(a.Value(i)) })
	case *array.Int64:
		ok = sumInts(a, ints, a.Value)
	case *array.Uint8:
		ok = sumInts(a, ints, func(i int) int64 { return int64(a.Value(i)) })
	case *array.Uint16:
		ok = sumInts(a, ints, func(i int) int64 { return int64(a.Value(i)) })
	case *array.Uint32:
		ok = sumInts(a, ints, func(i int) int64 { return int64(a.Value(i)) })
	case *array.Uint64:
		for i := 0; i < a.Len() && ok; i++ {
			if a.IsValid(i) {
				v := a.Value(i)
				ok = v <= math.MaxInt64
				if ok {
					*ints, ok = addInt(*ints, int64(v))
				}
			}
		}
	case *array.Float32:
		for i := 0; i < a.Len(); i++ {
			if a.IsValid(i) {
				*floats += float64(a.Value(i))
			}
		}
	case *array.Float64:
		for i := 0; i < a.Len(); i++ {
			if a.IsValid(i) {
				*floats += a.Value(i)
			}
		}
	default:
		return fmt.Errorf("cannot sum a %s column", col.DataType())
	}
	if !ok {
		return fmt.Errorf("sum of a %s column overflows int64", col.DataType())
	}
	return nil
}

// sumInts adds value(i) of every valid row of a to *sum; false on
// overflow.
func sumInts(a arrow.Array, sum *int64, value func(int) int64) bool {
	for i := 0; i < a.Len(); i++ {
		if a.IsValid(i) {
			var ok bool
			if *sum, ok = addInt(*sum, value(i)); !ok {
				return false
			}
		}
	}
	return true
}

// addInt returns a + b and whether it did not overflow.
func addInt(a, b int64) (int64, bool) {
	r := a + b // wraps on overflow, which the signs reveal
	return r, (a >= 0) != (b >= 0) || (r >= 0) == (a >= 0)
}
