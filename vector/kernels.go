package vector

import (
	"math"
	"math/bits"
)

// L2F32 is Σ (a−b)² over equal-length slices (len(b) ≥ len(a)).
func L2F32(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		d0, d1, d2, d3 := a[i]-b[i], a[i+1]-b[i+1], a[i+2]-b[i+2], a[i+3]-b[i+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(a); i++ {
		d := a[i] - b[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// DotF32 is Σ a·b over equal-length slices (len(b) ≥ len(a)).
func DotF32(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// L2F64 is Σ (a−b)² in float64.
func L2F64(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		d0, d1, d2, d3 := a[i]-b[i], a[i+1]-b[i+1], a[i+2]-b[i+2], a[i+3]-b[i+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(a); i++ {
		d := a[i] - b[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// DotF64 is Σ a·b in float64.
func DotF64(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// HammingU8 is the number of differing bits of a and b.
func HammingU8(a, b []byte) float32 {
	b = b[:len(a)]
	n := 0
	i := 0
	for ; i+8 <= len(a); i += 8 {
		x := uint64(a[i]^b[i]) | uint64(a[i+1]^b[i+1])<<8 | uint64(a[i+2]^b[i+2])<<16 | uint64(a[i+3]^b[i+3])<<24 |
			uint64(a[i+4]^b[i+4])<<32 | uint64(a[i+5]^b[i+5])<<40 | uint64(a[i+6]^b[i+6])<<48 | uint64(a[i+7]^b[i+7])<<56
		n += bits.OnesCount64(x)
	}
	for ; i < len(a); i++ {
		n += bits.OnesCount8(a[i] ^ b[i])
	}
	return float32(n)
}

// cosineF32 is 1 − a·b/(‖a‖‖b‖) given ‖a‖.
func cosineF32(a []float32, na float32, b []float32) float32 {
	nb := float32(math.Sqrt(float64(DotF32(b, b))))
	return 1 - DotF32(a, b)/(na*nb)
}

// cosineF64 is 1 − a·b/(‖a‖‖b‖) in float64, given ‖a‖.
func cosineF64(a []float64, na float64, b []float64) float64 {
	nb := math.Sqrt(DotF64(b, b))
	return 1 - DotF64(a, b)/(na*nb)
}
