package alp

import (
	"encoding/binary"
	"math"

	"github.com/lancego/lancego/codecs"
)

// sampleSize is how many values of a chunk the exponent search tries.
const sampleSize = 64

// topCandidates is how many sampled (e, f, path) triples are encoded in full.
const topCandidates = 3

// candidate is one exponent choice.
type candidate struct {
	e, f int
	div  bool
}

// encodeOne returns the ALP integer for the float with bits v under c and
// whether it decodes back to exactly v.
func encodeOne(v uint64, width int, c candidate) (int64, bool) {
	if width == 64 {
		x := math.Float64frombits(v)
		var s float64
		if c.div {
			s = x * pow10[c.e]
		} else {
			s = float64(x*pow10[c.e]) * negPow10[c.f]
		}
		if !(math.Abs(s) < 1<<53) {
			return 0, false
		}
		enc := int64(math.RoundToEven(s))
		return enc, decode64(enc, c) == v
	}
	x := float64(math.Float32frombits(uint32(v)))
	var s float64
	if c.div {
		s = x * pow10[c.e]
	} else {
		s = float64(x*pow10[c.e]) * negPow10[c.f]
	}
	if !(math.Abs(s) < 1<<31-1) {
		return 0, false
	}
	enc := int64(math.RoundToEven(s))
	return enc, decode32(int32(enc), c) == uint32(v)
}

func decode64(enc int64, c candidate) uint64 {
	if c.div {
		return math.Float64bits(float64(enc) / pow10[c.e])
	}
	return math.Float64bits(float64(float64(enc)*pow10[c.f]) * negPow10[c.e])
}

func decode32(enc int32, c candidate) uint32 {
	if c.div {
		return math.Float32bits(float32(enc) / pow10f32[c.e])
	}
	return math.Float32bits(float32(float32(enc)*pow10f32[c.f]) * negPow10f32[c.e])
}

// candidates lists every exponent choice for a float width: multiply pairs
// with f ≤ e, then the divide path for each e.
func candidates(width int) []candidate {
	me := maxExp(width)
	out := make([]candidate, 0, (me+1)*(me+2)/2+me+1)
	for e := 0; e <= me; e++ {
		for f := 0; f <= e; f++ {
			out = append(out, candidate{e: e, f: f})
		}
	}
	for e := 0; e <= me; e++ {
		out = append(out, candidate{e: e, div: true})
	}
	return out
}

// sampleCost estimates the bits a candidate needs on the sample.
func sampleCost(sample []uint64, width int, c candidate) int {
	exc, lo, hi, seen := 0, int64(0), int64(0), false
	for _, v := range sample {
		enc, ok := encodeOne(v, width, c)
		if !ok {
			exc++
			continue
		}
		if !seen {
			lo, hi, seen = enc, enc, true
		}
		lo, hi = min(lo, enc), max(hi, enc)
	}
	return len(sample)*bitLen(uint64(hi-lo)) + exc*(width+16)
}

// bestCandidates returns the topCandidates cheapest choices on a sample of v.
func bestCandidates(v []uint64, width int) []candidate {
	var sample [sampleSize]uint64
	m := min(len(v), sampleSize)
	for i := 0; i < m; i++ {
		sample[i] = v[i*len(v)/m]
	}
	type scored struct {
		c    candidate
		cost int
	}
	var top [topCandidates]scored
	k := 0
	for _, c := range candidates(width) {
		s := scored{c, sampleCost(sample[:m], width, c)}
		if k < topCandidates {
			top[k] = s
			k++
		} else if s.cost < top[k-1].cost {
			top[k-1] = s
		} else {
			continue
		}
		for j := k - 1; j > 0 && top[j].cost < top[j-1].cost; j-- {
			top[j], top[j-1] = top[j-1], top[j]
		}
	}
	out := make([]candidate, k)
	for i := range out {
		out[i] = top[i].c
	}
	return out
}

// packedSize is the out-of-line bit-packed size of n t-bit values of width w
// (the tail packed or raw, whichever EncodeOutOfLineBitpacking picks).
func packedSize(n, w, t int) int {
	full, tail := n/MaxChunkValues, n%MaxChunkValues
	size := full * 128 * w
	if tail == 0 {
		return size
	}
	if w*(MaxChunkValues-tail) < (t-w)*tail {
		return size + 128*w
	}
	return size + tail*t/8
}

// encodeALP encodes v (width-bit float bits, 1..1024 of them) with the best
// sampled candidate; ok is false when every value is an exception.
func encodeALP(v []uint64, width int) (Chunk, bool) {
	var best Chunk
	found := false
	for _, c := range bestCandidates(v, width) {
		ch, ok := encodeWith(v, width, c)
		if ok && (!found || ch.Size() < best.Size()) {
			best, found = ch, true
		}
	}
	return best, found
}

// encodeWith encodes v under candidate c, choosing FOR or Delta.
func encodeWith(v []uint64, width int, c candidate) (Chunk, bool) {
	n := len(v)
	mask := uint64(math.MaxUint64) >> (64 - width)
	enc := make([]uint64, n)
	var excPos, excVal []byte
	fill, firstOK := uint64(0), -1
	for i, x := range v {
		e, ok := encodeOne(x, width, c)
		if ok {
			enc[i], fill = uint64(e)&mask, uint64(e)&mask
			if firstOK < 0 {
				firstOK = i
			}
			continue
		}
		excPos = binary.LittleEndian.AppendUint16(excPos, uint16(i))
		excVal = appendWord(excVal, x, width)
		enc[i] = fill
	}
	if firstOK < 0 {
		return Chunk{}, false
	}
	// Leading exceptions take the first admitted value.
	for i := 0; i < firstOK; i++ {
		enc[i] = enc[firstOK]
	}
	forMin, forW := forStats(enc, width)
	dMin, dW := deltaStats(enc, width)
	mode := byte(0)
	if c.div {
		mode |= modeDiv
	}
	f := c.f
	if c.div {
		f = 0
	}
	useDelta := packedSize(n, dW, width)+width/8 < packedSize(n, forW, width)
	h := []byte{mode, byte(c.e), byte(f), byte(forW)}
	off := make([]byte, 0, n*width/8)
	if useDelta {
		h[0] |= modeDelta
		h[3] = byte(dW)
		h = appendWord(h, enc[0], width)
		h = appendWord(h, dMin, width)
		off = appendWord(off, 0, width)
		for i := 1; i < n; i++ {
			off = appendWord(off, (enc[i]-enc[i-1]-dMin)&mask, width)
		}
	} else {
		h = appendWord(h, forMin, width)
		for _, x := range enc {
			off = appendWord(off, (x-forMin)&mask, width)
		}
	}
	payload, err := codecs.EncodeOutOfLineBitpacking(nil, off, width, int(h[3]), uint64(n))
	if err != nil {
		return Chunk{}, false
	}
	return Chunk{Bufs: [4][]byte{payload, h, excPos, excVal}}, true
}

// signed reads a t-bit two's complement word.
func signed(x uint64, width int) int64 {
	return int64(x<<(64-width)) >> (64 - width)
}

// forStats returns the minimum (as a t-bit word) and the offset bit width.
func forStats(enc []uint64, width int) (uint64, int) {
	lo, hi := signed(enc[0], width), signed(enc[0], width)
	for _, x := range enc[1:] {
		s := signed(x, width)
		lo, hi = min(lo, s), max(hi, s)
	}
	mask := uint64(math.MaxUint64) >> (64 - width)
	return uint64(lo) & mask, bitLen(uint64(hi-lo) & mask)
}

// deltaStats returns min_delta (t-bit word) and the delta offset bit width.
func deltaStats(enc []uint64, width int) (uint64, int) {
	mask := uint64(math.MaxUint64) >> (64 - width)
	if len(enc) < 2 {
		return 0, 0
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := 1; i < len(enc); i++ {
		d := signed((enc[i]-enc[i-1])&mask, width)
		lo, hi = min(lo, d), max(hi, d)
	}
	return uint64(lo) & mask, bitLen(uint64(hi-lo) & mask)
}

func appendWord(b []byte, x uint64, width int) []byte {
	if width == 32 {
		return binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	return binary.LittleEndian.AppendUint64(b, x)
}
