package pcodec

// writeChunkMeta writes the chunk metadata of a plan.
func writeChunkMeta(w *bitWriter, p *chunkPlan, t NumberType) {
	w.write(uint64(p.mode), 4)
	switch p.mode {
	case modeFloatMult:
		w.write(p.base, t.Bits())
	case modeFloatQuant:
		w.write(uint64(p.k), 8)
	}
	switch {
	case p.lookback:
		w.write(deltaLookback, 4)
		w.write(uint64(p.windowLog-1), 5)
		w.write(0, 4) // state_n_log: one latent of state
		w.write(0, 1) // secondary latent not delta-encoded
	case p.order == 0:
		w.write(deltaNone, 4)
	default:
		w.write(deltaConsecutive, 4)
		w.write(uint64(p.order), 3)
		w.write(0, 1) // secondary latent not delta-encoded
	}
	for _, v := range p.vars {
		w.write(uint64(v.sizeLog), 4)
		w.write(uint64(len(v.bins)), bitsNBins)
		for _, b := range v.bins {
			w.write(uint64(b.weight-1), v.sizeLog)
			w.write(b.lower, v.bits)
			w.write(uint64(b.offsetBits), offsetBitsWidth(v.bits))
		}
	}
	w.align()
}

// ansCode is the renormalization bits one symbol emits.
type ansCode struct {
	val  uint32
	bits uint8
}

// ansEncode encodes a variable's symbols backwards with 4 interleaved
// states, returning each symbol's emitted bits (in forward order) and the
// final state indices the decoder starts from.
func ansEncode(v *encVar) ([]ansCode, [ansInterleave]uint32) {
	var final [ansInterleave]uint32
	if len(v.bins) <= 1 {
		return nil, final
	}
	size := uint32(1) << v.sizeLog
	weights := make([]uint32, len(v.bins))
	for i, b := range v.bins {
		weights[i] = b.weight
	}
	states, _ := spreadStates(v.sizeLog, weights)
	next := make([][]uint32, len(weights))
	for idx, s := range states {
		next[s] = append(next[s], size+uint32(idx))
	}
	minRenorm := make([]uint, len(weights))
	cutoff := make([]uint32, len(weights))
	for s, wt := range weights {
		lg := uint(0)
		for x := 2*wt - 1; x > 1; x >>= 1 {
			lg++
		}
		minRenorm[s] = v.sizeLog - lg
		cutoff[s] = 2 * wt << minRenorm[s]
	}
	codes := make([]ansCode, len(v.symbol))
	st := [ansInterleave]uint32{size, size, size, size}
	for i := len(v.symbol) - 1; i >= 0; i-- {
		j, s := i%ansInterleave, v.symbol[i]
		r := minRenorm[s]
		if st[j] >= cutoff[s] {
			r++
		}
		codes[i] = ansCode{val: st[j] & (1<<r - 1), bits: uint8(r)}
		st[j] = next[s][(st[j]>>r)-weights[s]]
	}
	for j := range final {
		final[j] = st[j] - size
	}
	return codes, final
}

// writePage writes the page metadata and batches of a plan's n numbers.
func writePage(w *bitWriter, p *chunkPlan, n int) {
	codes := make([][]ansCode, len(p.vars))
	for i, v := range p.vars {
		var final [ansInterleave]uint32
		codes[i], final = ansEncode(v)
		for _, s := range v.state {
			w.write(s, v.bits)
		}
		for _, f := range final {
			w.write(uint64(f), v.sizeLog)
		}
	}
	w.align()
	pos := make([]int, len(p.vars))
	for start := 0; start < n; start += batchN {
		remaining := n - start
		for i, v := range p.vars {
			k := min(batchN, max(remaining-v.skip, 0))
			lo := pos[i]
			if codes[i] != nil {
				for _, c := range codes[i][lo : lo+k] {
					w.write(uint64(c.val), uint(c.bits))
				}
			}
			for q := lo; q < lo+k; q++ {
				b := v.bins[v.symbol[q]]
				w.write(v.body[q]-b.lower, b.offsetBits)
			}
			pos[i] += k
		}
	}
	w.align()
}
