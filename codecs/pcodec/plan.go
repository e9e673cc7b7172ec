package pcodec

import (
	"math"
)

func log2(x float64) float64 { return math.Log2(x) }

// split is one mode's latents.
type split struct {
	mode      int
	base      uint64
	k         uint
	prim, sec []uint64
}

// choosePlan picks the mode and consecutive delta order with the smallest
// estimated size.
func choosePlan(nums []uint64, t NumberType, level int) *chunkPlan {
	binsLog := binsLogFor(level, len(nums))
	splits := []split{classicSplit(nums, t)}
	if t.IsFloat() {
		if s, ok := floatMultSplit(nums, t); ok {
			splits = append(splits, s)
		}
		if s, ok := floatQuantSplit(nums, t); ok {
			splits = append(splits, s)
		}
	}
	var best *chunkPlan
	bestBits := math.MaxFloat64
	maxOrder := 7
	if level == 0 {
		maxOrder = 1
	}
	for _, s := range splits {
		if len(nums) > 16 && level > 0 {
			lv, pv, wl := buildLookback(s.prim, latentBitsOf(s, t), binsLog)
			p := &chunkPlan{mode: s.mode, base: s.base, k: s.k, lookback: true, windowLog: wl, vars: []*encVar{lv, pv}}
			if s.sec != nil {
				p.vars = append(p.vars, buildVar(s.sec, t.Bits(), 0, min(binsLog, 6)))
			}
			// pco demands lookback save 0.25 bytes a number over the rest.
			b := 2 * float64(len(nums))
			for _, v := range p.vars {
				b += v.estimateBits()
			}
			if b < bestBits {
				best, bestBits = p, b
			}
		}
		prevBits := math.MaxFloat64
		for order := 0; order <= maxOrder; order++ {
			p := &chunkPlan{mode: s.mode, base: s.base, k: s.k, order: order}
			p.vars = append(p.vars, buildVar(s.prim, latentBitsOf(s, t), order, binsLog))
			if s.sec != nil {
				p.vars = append(p.vars, buildVar(s.sec, t.Bits(), 0, min(binsLog, 6)))
			}
			b := 0.0
			for _, v := range p.vars {
				b += v.estimateBits()
			}
			if b < bestBits {
				best, bestBits = p, b
			}
			if b >= prevBits {
				break
			}
			prevBits = b
		}
	}
	return best
}

func latentBitsOf(s split, t NumberType) uint { return t.Bits() }

func classicSplit(nums []uint64, t NumberType) split {
	prim := make([]uint64, len(nums))
	for i, x := range nums {
		prim[i] = toLatentOrdered(t, x)
	}
	return split{mode: modeClassic, prim: prim}
}

// floatMultSplit tries decimal bases 10^-e (e = 0: integer-valued floats):
// the smallest e for which at least 90% of sampled values lie within 8 ULPs
// of a multiple. Values that are not (NaN, ±Inf, others) stay exact through the
// secondary latent, which holds their ULP distance from mult·base.
func floatMultSplit(nums []uint64, t NumberType) (split, bool) {
	maxE := map[NumberType]int{F16: 3, F32: 7, F64: 15}[t]
	step := max(len(nums)/256, 1)
	for e := 0; e <= maxE; e++ {
		inv := floatFromF64(t, math.Pow10(e))
		base := floatDiv(t, floatFromF64(t, 1), inv)
		hits, tries := 0, 0
		for i := 0; i < len(nums); i += step {
			tries++
			m := floatRound(t, floatMul(t, nums[i], inv))
			a, b := toLatentOrdered(t, nums[i]), toLatentOrdered(t, floatMul(t, m, base))
			if max(a, b)-min(a, b) <= 8 {
				hits++
			}
		}
		if 10*hits < 9*tries {
			continue
		}
		s := split{mode: modeFloatMult, base: toLatentOrdered(t, base)}
		mask, mid := maskOf(t.Bits()), midOf(t.Bits())
		for _, x := range nums {
			m := floatRound(t, floatMul(t, x, inv))
			s.prim = append(s.prim, intFloatToLatent(t, m))
			s.sec = append(s.sec, (toLatentOrdered(t, x)-toLatentOrdered(t, floatMul(t, m, base))+mid)&mask)
		}
		return s, true
	}
	return split{}, false
}

// floatQuantSplit uses the common count of trailing zero mantissa bits.
func floatQuantSplit(nums []uint64, t NumberType) (split, bool) {
	k := t.precisionBits()
	for _, x := range nums {
		man := x & maskOf(t.precisionBits())
		if man != 0 {
			tz := uint(0)
			for man&1 == 0 {
				man >>= 1
				tz++
			}
			k = min(k, tz)
		}
	}
	if k == 0 || k == t.precisionBits() {
		return split{}, false
	}
	s := split{mode: modeFloatQuant, k: k}
	low := uint64(1)<<k - 1
	sign := midOf(t.Bits())
	for _, x := range nums {
		l := toLatentOrdered(t, x)
		s.prim = append(s.prim, l>>k)
		m := l & low
		if x&sign != 0 {
			m = low - m
		}
		s.sec = append(s.sec, m)
	}
	return s, true
}

// intFloatToLatent is the inverse of intFloatFromLatent.
func intFloatToLatent(t NumberType, f uint64) uint64 {
	bits := t.Bits()
	sign := midOf(bits)
	absBits := f &^ sign
	gpi := uint64(1) << (t.precisionBits() + 1)
	gpiBits := floatFromInt(t, gpi)
	var absInt uint64
	if v := floatToF64(t, absBits); v < float64(gpi) {
		absInt = uint64(v)
	} else {
		absInt = gpi + (absBits - gpiBits)
	}
	if f&sign == 0 {
		return (sign + absInt) & maskOf(bits)
	}
	return (sign - 1 - absInt) & maskOf(bits)
}

func floatToF64(t NumberType, x uint64) float64 {
	switch t {
	case F16:
		return float64(f16ToF32(uint16(x)))
	case F32:
		return float64(math.Float32frombits(uint32(x)))
	}
	return math.Float64frombits(x)
}

func floatFromF64(t NumberType, v float64) uint64 {
	switch t {
	case F16:
		return uint64(f32ToF16(float32(v)))
	case F32:
		return uint64(math.Float32bits(float32(v)))
	}
	return math.Float64bits(v)
}

func floatDiv(t NumberType, a, b uint64) uint64 {
	switch t {
	case F16:
		return uint64(f32ToF16(f16ToF32(uint16(a)) / f16ToF32(uint16(b))))
	case F32:
		return uint64(math.Float32bits(math.Float32frombits(uint32(a)) / math.Float32frombits(uint32(b))))
	}
	return math.Float64bits(math.Float64frombits(a) / math.Float64frombits(b))
}

// floatRound rounds half away from zero in the float's own type.
func floatRound(t NumberType, x uint64) uint64 {
	return floatFromF64(t, math.Round(floatToF64(t, x)))
}
