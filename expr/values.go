package expr

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// One-row arrays for constants, and type facts the binder needs.

// intRange returns the range of a signed integer type.
func intRange(t arrow.DataType) (int64, int64) {
	switch t.ID() {
	case arrow.INT8:
		return math.MinInt8, math.MaxInt8
	case arrow.INT16:
		return math.MinInt16, math.MaxInt16
	case arrow.INT32:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// uintMax returns the largest value of an unsigned integer type.
func uintMax(t arrow.DataType) uint64 {
	switch t.ID() {
	case arrow.UINT8:
		return math.MaxUint8
	case arrow.UINT16:
		return math.MaxUint16
	case arrow.UINT32:
		return math.MaxUint32
	}
	return math.MaxUint64
}

// intArray returns a one-row array of signed integer type t holding v
// (in range).
func intArray(mem memory.Allocator, t arrow.DataType, v int64) arrow.Array {
	switch t.ID() {
	case arrow.INT8:
		b := array.NewInt8Builder(mem)
		defer b.Release()
		b.Append(int8(v))
		return b.NewArray()
	case arrow.INT16:
		b := array.NewInt16Builder(mem)
		defer b.Release()
		b.Append(int16(v))
		return b.NewArray()
	case arrow.INT32:
		b := array.NewInt32Builder(mem)
		defer b.Release()
		b.Append(int32(v))
		return b.NewArray()
	}
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.Append(v)
	return b.NewArray()
}

// uintArray returns a one-row array of unsigned integer type t.
func uintArray(mem memory.Allocator, t arrow.DataType, v uint64) arrow.Array {
	switch t.ID() {
	case arrow.UINT8:
		b := array.NewUint8Builder(mem)
		defer b.Release()
		b.Append(uint8(v))
		return b.NewArray()
	case arrow.UINT16:
		b := array.NewUint16Builder(mem)
		defer b.Release()
		b.Append(uint16(v))
		return b.NewArray()
	case arrow.UINT32:
		b := array.NewUint32Builder(mem)
		defer b.Release()
		b.Append(uint32(v))
		return b.NewArray()
	}
	b := array.NewUint64Builder(mem)
	defer b.Release()
	b.Append(v)
	return b.NewArray()
}

// floatTo returns a one-row array of float type t holding v rounded.
func floatTo(mem memory.Allocator, v float64, t arrow.DataType) arrow.Array {
	switch t.ID() {
	case arrow.FLOAT16:
		b := array.NewFloat16Builder(mem)
		defer b.Release()
		b.Append(float16.New(float32(v)))
		return b.NewArray()
	case arrow.FLOAT32:
		b := array.NewFloat32Builder(mem)
		defer b.Release()
		b.Append(float32(v))
		return b.NewArray()
	}
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	b.Append(v)
	return b.NewArray()
}

// stringArray returns a one-row string (or large string) array.
func stringArray(mem memory.Allocator, t arrow.DataType, s string) arrow.Array {
	if t.ID() == arrow.LARGE_STRING {
		b := array.NewLargeStringBuilder(mem)
		defer b.Release()
		b.Append(s)
		return b.NewArray()
	}
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Append(s)
	return b.NewArray()
}

// binaryArray returns a one-row binary array of type t.
func binaryArray(mem memory.Allocator, t arrow.DataType, v []byte) arrow.Array {
	if t.ID() == arrow.FIXED_SIZE_BINARY {
		b := array.NewFixedSizeBinaryBuilder(mem, t.(*arrow.FixedSizeBinaryType))
		defer b.Release()
		b.Append(v)
		return b.NewArray()
	}
	b := array.NewBinaryBuilder(mem, t.(arrow.BinaryDataType))
	defer b.Release()
	b.Append(v)
	return b.NewArray()
}

// boolArray returns a one-row boolean array.
func boolArray(mem memory.Allocator, v bool) arrow.Array {
	b := array.NewBooleanBuilder(mem)
	defer b.Release()
	b.Append(v)
	return b.NewArray()
}

// nullOf returns a one-row array of type t holding NULL.
func nullOf(mem memory.Allocator, t arrow.DataType) arrow.Array {
	if t == nil || t.ID() == arrow.NULL {
		return array.NewNull(1)
	}
	b := array.NewBuilder(mem, t)
	defer b.Release()
	b.AppendNull()
	return b.NewArray()
}

// nullBool is the NULL boolean constant.
func nullBool(mem memory.Allocator) *constNode {
	return &constNode{val: nullOf(mem, arrow.FixedWidthTypes.Boolean)}
}

// Type classes.

func isSignedInt(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}

func isUnsignedInt(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return true
	}
	return false
}

func isInteger(t arrow.DataType) bool { return isSignedInt(t) || isUnsignedInt(t) }

func isFloat(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return true
	}
	return false
}

func isDecimal(t arrow.DataType) bool {
	return t.ID() == arrow.DECIMAL128 || t.ID() == arrow.DECIMAL256
}

func isNumeric(t arrow.DataType) bool { return isInteger(t) || isFloat(t) || isDecimal(t) }

func isString(t arrow.DataType) bool {
	return t.ID() == arrow.STRING || t.ID() == arrow.LARGE_STRING
}

func isBinary(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY:
		return true
	}
	return false
}

func isTemporal(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64, arrow.DURATION:
		return true
	}
	return false
}

func isList(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.FIXED_SIZE_LIST:
		return true
	}
	return false
}

// intWidth returns the bit width of an integer type.
func intWidth(t arrow.DataType) int {
	switch t.ID() {
	case arrow.INT8, arrow.UINT8:
		return 8
	case arrow.INT16, arrow.UINT16:
		return 16
	case arrow.INT32, arrow.UINT32:
		return 32
	}
	return 64
}

// signedOfWidth returns the signed integer type of w bits.
func signedOfWidth(w int) arrow.DataType {
	switch w {
	case 8:
		return arrow.PrimitiveTypes.Int8
	case 16:
		return arrow.PrimitiveTypes.Int16
	case 32:
		return arrow.PrimitiveTypes.Int32
	}
	return arrow.PrimitiveTypes.Int64
}

// unsignedOfWidth returns the unsigned integer type of w bits.
func unsignedOfWidth(w int) arrow.DataType {
	switch w {
	case 8:
		return arrow.PrimitiveTypes.Uint8
	case 16:
		return arrow.PrimitiveTypes.Uint16
	case 32:
		return arrow.PrimitiveTypes.Uint32
	}
	return arrow.PrimitiveTypes.Uint64
}

// sliceOne returns row 0 of a as a new one-row array.
func sliceOne(a arrow.Array) arrow.Array { return array.NewSlice(a, 0, 1) }
