package zonestats

import (
	"bytes"
	"cmp"

	"github.com/apache/arrow-go/v18/arrow"
)

// domain is the comparison domain of a type's values. Every supported
// Arrow type maps its values into one domain once per column; all bound,
// literal and row comparisons then use the domain's order.
type domain uint8

const (
	domNone   domain = iota // no order: nested and unsupported types
	domInt                  // signed integer order on value.i
	domUint                 // unsigned order on value.u (uints, bool, float keys)
	domBytes                // unsigned bytewise order on value.b
	domDec128               // signed 128-bit: value.i (high), value.u (low)
	domDec256               // signed 256-bit: value.i (top), value.w (lower words, high first)
)

// value is one non-null value of a column, mapped into its domain. For
// floats u holds the total-order key of the bit pattern (see floatKey), so
// unsigned comparison of keys is IEEE-754 totalOrder and key equality is
// bit equality, as in arrow-rs comparison kernels.
type value struct {
	i int64
	u uint64
	w [3]uint64
	b []byte
}

// typeInfo describes how a column type is summarized and compared. It is
// computed once per column.
type typeInfo struct {
	dt        arrow.DataType // the column type (a dictionary type stays one)
	vt        arrow.DataType // the value type (dictionary value type)
	dom       domain
	floatBits int // 16, 32 or 64 for float types, else 0
}

// bounded reports whether the type has min/max bounds.
func (t *typeInfo) bounded() bool { return t.dom != domNone }

// isFloat reports whether the type is a float type (NaN counts apply).
func (t *typeInfo) isFloat() bool { return t.floatBits != 0 }

// newTypeInfo classifies dt. It never fails: unsupported types get domNone
// (null bounds, counts only).
func newTypeInfo(dt arrow.DataType) *typeInfo {
	vt := dt
	if d, ok := dt.(*arrow.DictionaryType); ok {
		vt = d.ValueType
	}
	t := &typeInfo{dt: dt, vt: vt}
	t.dom, t.floatBits = classify(vt)
	return t
}

// classify returns the domain and float width of a (non-dictionary) type.
func classify(vt arrow.DataType) (domain, int) {
	switch vt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64,
		arrow.TIMESTAMP, arrow.DURATION:
		return domInt, 0
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64, arrow.BOOL:
		return domUint, 0
	case arrow.FLOAT16:
		return domUint, 16
	case arrow.FLOAT32:
		return domUint, 32
	case arrow.FLOAT64:
		return domUint, 64
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY,
		arrow.FIXED_SIZE_BINARY, arrow.STRING_VIEW, arrow.BINARY_VIEW:
		return domBytes, 0
	case arrow.DECIMAL128:
		return domDec128, 0
	case arrow.DECIMAL256:
		return domDec256, 0
	}
	return domNone, 0
}

// compareFunc returns the three-way comparison of the domain.
func compareFunc(d domain) func(a, b *value) int {
	switch d {
	case domInt:
		return func(a, b *value) int { return cmp.Compare(a.i, b.i) }
	case domUint:
		return func(a, b *value) int { return cmp.Compare(a.u, b.u) }
	case domBytes:
		return func(a, b *value) int { return bytes.Compare(a.b, b.b) }
	case domDec128:
		return func(a, b *value) int {
			if c := cmp.Compare(a.i, b.i); c != 0 {
				return c
			}
			return cmp.Compare(a.u, b.u)
		}
	case domDec256:
		return compareDec256
	}
	return func(a, b *value) int { return 0 }
}

// compareDec256 compares two 256-bit two's-complement integers.
func compareDec256(a, b *value) int {
	if c := cmp.Compare(a.i, b.i); c != 0 {
		return c
	}
	for k := range a.w {
		if c := cmp.Compare(a.w[k], b.w[k]); c != 0 {
			return c
		}
	}
	return 0
}

// floatLayout holds the total-order key space of one float width.
type floatLayout struct {
	sign   uint64 // sign bit
	mask   uint64 // all bits of the width
	negInf uint64 // key of -Inf; smaller keys are negative NaNs
	posInf uint64 // key of +Inf; larger keys are positive NaNs
}

// layoutFor returns the key layout of a float width (16, 32 or 64).
func layoutFor(bits int) floatLayout {
	var l floatLayout
	switch bits {
	case 16:
		l = floatLayout{sign: 1 << 15, mask: 0xFFFF}
		l.negInf, l.posInf = l.key(0xFC00), l.key(0x7C00)
	case 32:
		l = floatLayout{sign: 1 << 31, mask: 0xFFFFFFFF}
		l.negInf, l.posInf = l.key(0xFF800000), l.key(0x7F800000)
	default:
		l = floatLayout{sign: 1 << 63, mask: ^uint64(0)}
		l.negInf, l.posInf = l.key(0xFFF0000000000000), l.key(0x7FF0000000000000)
	}
	return l
}

// key maps a bit pattern to its total-order key: unsigned order of keys is
// IEEE-754 totalOrder (-NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN).
func (l floatLayout) key(bits uint64) uint64 {
	if bits&l.sign != 0 {
		return ^bits & l.mask
	}
	return bits | l.sign
}

// bits inverts key.
func (l floatLayout) bits(key uint64) uint64 {
	if key&l.sign != 0 {
		return key &^ l.sign
	}
	return ^key & l.mask
}

// isNaN reports whether a key is a NaN; neg reports its sign.
func (l floatLayout) isNaN(key uint64) (nan, neg bool) {
	if key < l.negInf {
		return true, true
	}
	return key > l.posInf, false
}
