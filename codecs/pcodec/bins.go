package pcodec

import (
	"math"
	"math/bits"
	"slices"
)

// encBin is a bin being built by the encoder.
type encBin struct {
	count        uint32
	weight       uint32
	lower, upper uint64
	offsetBits   uint
}

// histogram splits sorted latents into about 1<<binsLog equal-count bins,
// never splitting equal values; a run of equal values at least a bin's
// share long gets a bin of its own (so a dominant value is not lumped with
// distant neighbours).
func histogram(sorted []uint64, binsLog uint) []encBin {
	n := len(sorted)
	target := max(n>>binsLog, 1)
	var out []encBin
	curStart := 0
	flush := func(end int) {
		if end > curStart {
			out = append(out, encBin{count: uint32(end - curStart), lower: sorted[curStart], upper: sorted[end-1]})
			curStart = end
		}
	}
	for a := 0; a < n; {
		b := a + 1
		for b < n && sorted[b] == sorted[a] {
			b++
		}
		if b-a >= target {
			flush(a)
			flush(b)
		} else if b-curStart >= target {
			flush(b)
		}
		a = b
	}
	flush(n)
	return out
}

// binCost is pco's estimated bit cost of one bin.
func binCost(metaCost float64, lower, upper uint64, count uint32, totalLog2 float64) float64 {
	c := float64(count)
	return metaCost + (totalLog2-math.Log2(c)+float64(bits.Len64(upper-lower)))*c
}

// optimizeBins merges adjacent histogram bins by dynamic programming.
func optimizeBins(h []encBin, ansSizeLog, latentBits uint) []encBin {
	total := uint32(0)
	cum := make([]uint32, len(h)+1)
	for i, b := range h {
		total += b.count
		cum[i+1] = total
	}
	tl := math.Log2(float64(total))
	meta := float64(ansSizeLog + latentBits + offsetBitsWidth(latentBits))
	best := make([]float64, len(h)+1)
	from := make([]int, len(h))
	for i := range h {
		best[i+1] = math.MaxFloat64
		for j := i; j >= 0; j-- {
			c := best[j] + binCost(meta, h[j].lower, h[i].upper, cum[i+1]-cum[j], tl)
			if c < best[i+1] {
				best[i+1], from[i] = c, j
			}
		}
	}
	single := binCost(meta, h[0].lower, h[len(h)-1].upper, total, tl)
	var parts [][2]int
	switch {
	case single < best[len(h)]+0.1*float64(total):
		parts = [][2]int{{0, len(h) - 1}}
	default:
		for i := len(h) - 1; i >= 0; {
			j := from[i]
			parts = append(parts, [2]int{j, i})
			i = j - 1
		}
		slices.Reverse(parts)
	}
	out := make([]encBin, len(parts))
	for k, p := range parts {
		out[k] = encBin{count: cum[p[1]+1] - cum[p[0]], lower: h[p[0]].lower, upper: h[p[1]].upper}
		out[k].offsetBits = uint(bits.Len64(out[k].upper - out[k].lower))
	}
	return out
}

// quantizeWeights turns bin counts into tANS weights summing to a power of
// two (pco's quantize_weights), returning the table size log.
func quantizeWeights(bins []encBin, n int, maxSizeLog uint) uint {
	if len(bins) == 1 {
		bins[0].weight = 1
		return 0
	}
	minLog := uint(bits.Len(uint(len(bins) - 1)))
	sizeLog := max(minLog, maxSizeLog)
	required := uint32(1) << sizeLog
	mult := float32(required) / float32(n)
	surplus := make([]float32, len(bins))
	var desired float32
	for i, b := range bins {
		surplus[i] = max(float32(b.count)*mult-1, 0)
		desired += surplus[i]
	}
	reqSurplus := float32(required - uint32(len(bins)))
	var sm float32
	if desired != 0 {
		sm = reqSurplus / desired
	}
	fw := make([]float32, len(bins))
	sum := uint32(0)
	for i := range bins {
		fw[i] = 1 + surplus[i]*sm
		bins[i].weight = uint32(math.Floor(float64(fw[i]) + 0.5)) // Rust rounds half away from zero
		sum += bins[i].weight
	}
	for i, guard := 0, 0; sum > required; i, guard = (i+1)%len(bins), guard+1 {
		if bins[i].weight > 1 && (float32(bins[i].weight) > fw[i] || guard > 2*len(bins)) {
			bins[i].weight--
			sum--
		}
	}
	for i, guard := 0, 0; sum < required; i, guard = (i+1)%len(bins), guard+1 {
		if float32(bins[i].weight) < fw[i] || guard > 2*len(bins) {
			bins[i].weight++
			sum++
		}
	}
	p2 := uint(32)
	for _, b := range bins {
		p2 = min(p2, uint(bits.TrailingZeros32(b.weight)))
	}
	for i := range bins {
		bins[i].weight >>= p2
	}
	return sizeLog - p2
}

// trainBins chooses bins and the ANS size log for a latent body.
func trainBins(latents []uint64, latentBits uint, binsLog uint) ([]encBin, uint) {
	if len(latents) == 0 {
		return nil, 0
	}
	sorted := slices.Clone(latents)
	slices.Sort(sorted)
	h := histogram(sorted, binsLog)
	n := len(latents)
	nLogCeil := uint(0)
	if n > 1 {
		nLogCeil = uint(bits.Len(uint(n - 1)))
	}
	est := min(binsLog+2, 12, nLogCeil)
	b := optimizeBins(h, est, latentBits)
	return b, quantizeWeights(b, n, est)
}
