package vector

import "math"

// The float16 conversions are written here because arrow-go's float16.New
// truncates (Lance's half crate rounds to nearest even) and its Float32
// misreads subnormals; Lance casts a query to the column's element type,
// so a float16 column's query must round exactly as half does.

// HalfToFloat32 converts IEEE binary16 bits to float32 exactly.
func HalfToFloat32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h & 0x3ff)
	switch exp {
	case 0:
		v := float32(frac) * (1.0 / (1 << 24))
		if sign != 0 {
			return -v
		}
		return v
	case 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}

// Float32ToHalf converts a float32 to IEEE binary16 bits, rounding to
// nearest even (overflow to ±Inf, NaN kept quiet).
func Float32ToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	a := b & 0x7fffffff
	switch {
	case a > 0x7f800000:
		return sign | 0x7e00
	case a >= 0x477ff000: // 65520 and above round to infinity
		return sign | 0x7c00
	case a < 0x38800000: // below 2^-14: subnormal or zero
		return sign | uint16(math.RoundToEven(float64(math.Float32frombits(a))*(1<<24)))
	}
	h := (a>>23-112)<<10 | (a&0x7fffff)>>13
	rest := a & 0x1fff
	if rest > 0x1000 || (rest == 0x1000 && h&1 == 1) {
		h++
	}
	return sign | uint16(h)
}
