package plainjson

import (
	"bytes"
	"math"
	"strconv"
)

// AppendFloat appends f, a float of bitSize (32 or 64) bits, as the
// shortest JSON number that reads back as the same float of that size,
// written as JavaScript (and encoding/json) would: positional from 1e-6 up
// to 1e21, else with an exponent (0.1, 1234567, 1e+21, 1e-7, -0, 5e-324).
// NaN, +Inf and -Inf are not JSON numbers and become the strings "NaN",
// "Infinity" and "-Infinity".
func AppendFloat(dst []byte, f float64, bitSize int) []byte {
	if s, ok := nonFinite(f); ok {
		return append(dst, s...)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 {
		if bitSize == 64 && (a < 1e-6 || a >= 1e21) || bitSize == 32 && (float32(a) < 1e-6 || float32(a) >= 1e21) {
			format = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, f, format, -1, bitSize)
	if format == 'e' {
		// 1e-07 becomes 1e-7, as JavaScript writes it.
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

func nonFinite(f float64) (string, bool) {
	switch {
	case math.IsNaN(f):
		return `"NaN"`, true
	case math.IsInf(f, 1):
		return `"Infinity"`, true
	case math.IsInf(f, -1):
		return `"-Infinity"`, true
	}
	return "", false
}

// half returns the value of the IEEE 754 binary16 number with bits b
// (arrow-go's float16.Num.Float32 flushes subnormals, so it is not used).
func half(b uint16) float64 {
	exp := int(b>>10) & 0x1f
	frac := float64(b & 0x3ff)
	var v float64
	switch exp {
	case 0:
		v = math.Ldexp(frac, -24)
	case 0x1f:
		v = math.Inf(1)
		if frac != 0 {
			v = math.NaN()
		}
	default:
		v = math.Ldexp(1024+frac, exp-25)
	}
	if b&0x8000 != 0 {
		v = -v
	}
	return v
}

// AppendFloat16 appends the binary16 number with bits b as the shortest
// decimal that rounds back to it (at most 5 significant digits; the
// nearest such one, as numpy prints it), in AppendFloat's layout;
// non-finite values as AppendFloat.
func AppendFloat16(dst []byte, b uint16) []byte {
	f := half(b)
	if s, ok := nonFinite(f); ok {
		return append(dst, s...)
	}
	if f == 0 {
		return AppendFloat(dst, f, 64) // "0" or "-0"
	}
	// The decimals that round to f lie between the midpoints to its
	// neighbours (both exact in float64), ends included when f's
	// significand is even (round half to even); b±1 are the neighbours of
	// the same sign, and above the largest finite value rounding goes to
	// infinity from 65520 on.
	mag := b & 0x7fff
	lo, hi := half(mag-1), 65536.0
	if mag < 0x7bff {
		hi = half(mag + 1)
	}
	a := math.Abs(f)
	r := halfRange{lo: (lo + a) / 2, hi: (a + hi) / 2, even: b&1 == 0}
	return AppendFloat(dst, math.Copysign(r.shortest(a), f), 64)
}

// halfRange is the interval of reals that round to one binary16 value.
type halfRange struct {
	lo, hi float64
	even   bool // the ends belong to the interval
}

func (r halfRange) contains(d float64) bool {
	return r.lo < d && d < r.hi || r.even && (d == r.lo || d == r.hi)
}

// shortest returns the decimal of fewest significant digits in r, the
// nearest to a among those: at each length the decimal nearest to a, or
// the one next to it when a's interval is lopsided (at a power of two).
func (r halfRange) shortest(a float64) float64 {
	var scratch [32]byte
	for prec := 1; prec <= 5; prec++ {
		s := strconv.AppendFloat(scratch[:0], a, 'e', prec-1, 64) // d.ddde±XX
		e := bytes.IndexByte(s, 'e')
		exp, err := strconv.Atoi(string(s[e+1:]))
		if err != nil {
			break
		}
		var m int64
		for _, c := range s[:e] {
			if c != '.' {
				m = m*10 + int64(c-'0')
			}
		}
		best := math.NaN()
		for _, c := range [3]int64{m, m - 1, m + 1} {
			t := strconv.AppendInt(scratch[:0], c, 10)
			t = strconv.AppendInt(append(t, 'e'), int64(exp-prec+1), 10)
			d, err := strconv.ParseFloat(string(t), 64)
			if err == nil && r.contains(d) && (math.IsNaN(best) || math.Abs(d-a) < math.Abs(best-a)) {
				best = d
			}
		}
		if !math.IsNaN(best) {
			return best
		}
	}
	return a // exact: at most 24 significant bits
}
