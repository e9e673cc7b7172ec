package pcodec

// maxAnsBits bounds a tANS table's size log.
const maxAnsBits = 14

// ansInterleave is the number of interleaved tANS states.
const ansInterleave = 4

// spreadStates assigns table states to symbols (pco's spread_state_tokens):
// symbol s takes weights[s] states, stepping by an odd stride ≈ 3/5 of the
// table modulo its size. The weights must sum to 1<<sizeLog.
func spreadStates(sizeLog uint, weights []uint32) ([]uint32, bool) {
	size := uint32(1) << sizeLog
	var sum uint64
	for _, w := range weights {
		sum += uint64(w)
	}
	if sum != uint64(size) {
		return nil, false
	}
	stride := 3 * size / 5
	if stride%2 == 0 {
		stride++
	}
	mask := size - 1
	out := make([]uint32, size)
	step := uint32(0)
	for s, w := range weights {
		for j := uint32(0); j < w; j++ {
			out[(stride*step)&mask] = uint32(s)
			step++
		}
	}
	return out, true
}

// ansNode is one decoder table entry.
type ansNode struct {
	symbol   uint32
	nextBase uint32
	bits     uint8
}

// decoderTable builds the tANS decoding table from spread states.
func decoderTable(sizeLog uint, weights, states []uint32) []ansNode {
	size := uint32(1) << sizeLog
	xs := make([]uint32, len(weights))
	copy(xs, weights)
	nodes := make([]ansNode, len(states))
	for i, s := range states {
		x := xs[s]
		b := uint(0)
		for (x << b) < size {
			b++
		}
		nodes[i] = ansNode{symbol: s, nextBase: (x << b) - size, bits: uint8(b)}
		xs[s]++
	}
	return nodes
}
