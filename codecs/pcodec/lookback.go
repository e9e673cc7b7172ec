package pcodec

import "math/bits"

// lookbackWindowLog is pco's window for a chunk of n latents: the bits of
// n−1, clamped to 4..15.
func lookbackWindowLog(n int) uint {
	w := uint(bits.Len(uint(max(n-1, 0))))
	return min(max(w, 4), 15)
}

// buildLookback delta-encodes latents by lookback (one latent of state):
// each later latent refers to the most recent earlier equal latent within
// the window (else the previous one) and stores its difference from it. It
// returns the lookback variable and the primary variable.
func buildLookback(latents []uint64, latentBits uint, binsLog uint) (*encVar, *encVar, uint) {
	n := len(latents)
	windowLog := lookbackWindowLog(n)
	window := 1 << windowLog
	mask, mid := maskOf(latentBits), midOf(latentBits)
	last := make(map[uint64]int, min(n, 1<<12))
	lbs := make([]uint64, 0, max(n-1, 0))
	body := make([]uint64, 0, max(n-1, 0))
	for i, l := range latents {
		if i >= 1 {
			lb := 1
			if j, ok := last[l]; ok && i-j <= window {
				lb = i - j
			}
			lbs = append(lbs, uint64(lb))
			body = append(body, (l-latents[i-lb]+mid)&mask)
		}
		last[l] = i
	}
	prim := &encVar{bits: latentBits, body: body, skip: 1, state: []uint64{0}}
	if n > 0 {
		prim.state[0] = latents[0]
	}
	prim.train(binsLog)
	lv := &encVar{bits: 32, body: lbs, skip: 1}
	lv.train(binsLog)
	return lv, prim, windowLog
}
