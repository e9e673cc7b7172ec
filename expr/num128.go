package expr

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Checked 128-bit integer arithmetic for Decimal128 values (the unscaled
// integers), without allocation on the common paths: values that fit 64
// bits take integer fast paths; the rest go through big.Int scratch
// values owned by the caller (i128Scratch), so a kernel allocates them
// once, not per row.

// pow10i128 holds 10^0 … 10^38 as Decimal128 numbers.
var pow10i128 = func() [39]decimal128.Num {
	var t [39]decimal128.Num
	v := new(big.Int).SetInt64(1)
	ten := big.NewInt(10)
	for i := range t {
		t[i] = decimal128.FromBigInt(v)
		v.Mul(v, ten)
	}
	return t
}()

// maxI128 and minI128 bound the 128-bit range.
var (
	maxI128 = decimal128.New(math.MaxInt64, math.MaxUint64)
	minI128 = decimal128.New(math.MinInt64, 0)
)

// fits64 reports whether n fits an int64, returning it.
func fits64(n decimal128.Num) (int64, bool) {
	hi, lo := n.HighBits(), n.LowBits()
	if (hi == 0 && lo <= math.MaxInt64) || (hi == -1 && lo > math.MaxInt64) {
		return int64(lo), true
	}
	return 0, false
}

// add128 returns a+b, false on overflow.
func add128(a, b decimal128.Num) (decimal128.Num, bool) {
	s := a.Add(b)
	as, bs, ss := a.HighBits() < 0, b.HighBits() < 0, s.HighBits() < 0
	return s, !(as == bs && ss != as)
}

// sub128 returns a-b, false on overflow.
func sub128(a, b decimal128.Num) (decimal128.Num, bool) {
	s := a.Sub(b)
	as, bs, ss := a.HighBits() < 0, b.HighBits() < 0, s.HighBits() < 0
	return s, !(as != bs && ss != as)
}

// i128Scratch holds big.Int scratch values for the slow paths.
type i128Scratch struct {
	x, y, z, r big.Int
}

// setBig sets z to n.
func setBig(z *big.Int, n decimal128.Num) *big.Int {
	if v, ok := fits64(n); ok {
		return z.SetInt64(v)
	}
	neg := n.Sign() < 0
	if neg {
		n = n.Negate()
	}
	var lo big.Int
	z.SetUint64(uint64(n.HighBits()))
	z.Lsh(z, 64)
	z.Or(z, lo.SetUint64(n.LowBits()))
	if neg {
		z.Neg(z)
	}
	return z
}

// fromBig converts z to a Num, false when it does not fit 128 bits.
func fromBig(z *big.Int) (decimal128.Num, bool) {
	if z.IsInt64() {
		return decimal128.FromI64(z.Int64()), true
	}
	if z.BitLen() > 127 {
		if z.Sign() < 0 && z.BitLen() == 128 && z.TrailingZeroBits() == 127 {
			return minI128, true
		}
		return decimal128.Num{}, false
	}
	return decimal128.FromBigInt(z), true
}

// mul128 returns a*b, false on overflow.
func (s *i128Scratch) mul128(a, b decimal128.Num) (decimal128.Num, bool) {
	if x, ok := fits64(a); ok {
		if y, ok := fits64(b); ok {
			neg := (x < 0) != (y < 0)
			hi, lo := bits.Mul64(absU64(x), absU64(y))
			if hi > math.MaxInt64 || (hi == 1<<63 && (lo != 0 || !neg)) {
				return decimal128.Num{}, false
			}
			n := decimal128.New(int64(hi), lo)
			if neg {
				n = n.Negate()
			}
			return n, true
		}
	}
	setBig(&s.x, a)
	setBig(&s.y, b)
	s.z.Mul(&s.x, &s.y)
	return fromBig(&s.z)
}

// quoRem128 returns the quotient (truncated) and remainder of a/b; b
// must not be zero. ok is false when the quotient overflows (MIN / -1).
func (s *i128Scratch) quoRem128(a, b decimal128.Num) (q, r decimal128.Num, ok bool) {
	if x, ok := fits64(a); ok {
		if y, ok := fits64(b); ok {
			if x == math.MinInt64 && y == -1 {
				return decimal128.New(0, 1<<63), decimal128.Num{}, true
			}
			return decimal128.FromI64(x / y), decimal128.FromI64(x % y), true
		}
	}
	setBig(&s.x, a)
	setBig(&s.y, b)
	s.z.QuoRem(&s.x, &s.y, &s.r)
	q, ok = fromBig(&s.z)
	r, _ = fromBig(&s.r)
	return q, r, ok
}

// absU64 returns |v| as a uint64.
func absU64(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

// fitsPrecision reports whether |n| < 10^p.
func fitsPrecision(n decimal128.Num, p int32) bool {
	if p >= 39 {
		return true
	}
	if p <= 0 {
		return n.Sign() == 0
	}
	if n.Sign() < 0 {
		if n == minI128 {
			return false
		}
		n = n.Negate()
	}
	return n.Less(pow10i128[p])
}

// toFloat64 converts the unscaled n to the nearest float64.
func i128ToFloat64(n decimal128.Num) float64 {
	if v, ok := fits64(n); ok {
		return float64(v)
	}
	var z big.Int
	setBig(&z, n)
	f, _ := new(big.Float).SetInt(&z).Float64()
	return f
}
