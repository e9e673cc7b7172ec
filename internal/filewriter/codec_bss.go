package filewriter

import (
	"math"
)

// bssSampleValues is how many leading values the byte-position entropy of
// the auto mode looks at (Lance: statistics.rs, 64).
const bssSampleValues = 64

// useBSS reports whether Lance would byte-stream-split fixed values v: only
// 32/64-bit values with lz4/zstd/fsst compression requested; bss=on always,
// off never, auto when the mean Shannon entropy of the byte positions over
// the first 64 values is below 4 bits.
func useBSS(v *values, p encodingParams) bool {
	if p.compression == "" || p.compression == "none" || (v.Bits != 32 && v.Bits != 64) {
		return false
	}
	switch p.bss {
	case "off":
		return false
	case "on":
		return true
	}
	return meanByteEntropy(v) < 4
}

// meanByteEntropy is the mean over byte positions of the entropy (in bits,
// truncated to 1/1000 like Lance) of the first bssSampleValues values.
func meanByteEntropy(v *values) float64 {
	w := v.Bits / 8
	n := min(v.N, bssSampleValues)
	if n == 0 {
		return math.Inf(1)
	}
	var sum uint64
	for pos := 0; pos < w; pos++ {
		var counts [256]int
		for i := 0; i < n; i++ {
			counts[v.Data[i*w+pos]]++
		}
		e := 0.0
		for _, c := range counts {
			if c > 0 {
				q := float64(c) / float64(n)
				e -= q * math.Log2(q)
			}
		}
		sum += uint64(e * 1000)
	}
	return float64(sum) / float64(w) / 1000
}
