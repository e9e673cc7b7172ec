package pcodec

import (
	"encoding/binary"
	"math"
)

// Decompress decodes a pco standalone file and appends its numbers to dst
// as little-endian words of the file's number type, which it returns. It
// decodes at most maxN numbers in total (more is ErrCorrupt): callers that
// know the count pass it, which bounds every allocation by the input.
func Decompress(dst, src []byte, maxN int) ([]byte, NumberType, error) {
	r := &bitReader{src: src}
	if len(src) < 6 || string(src[:4]) != standaloneMagic {
		return dst, 0, corrupt("missing pco! magic")
	}
	r.pos = 32
	version := r.read(8)
	if version < 3 {
		return dst, 0, unsupported("standalone version %d (< 3)", version)
	}
	if version > 3 {
		return dst, 0, corrupt("standalone version %d > 3", version)
	}
	uniform := NumberType(r.read(8))
	if uniform != 0 && uniform.Bits() == 0 {
		return dst, 0, corrupt("unknown uniform number type %d", uniform)
	}
	power := uint(r.read(6)) + 1
	r.read(power) // n_hint
	if !r.align() {
		return dst, 0, corrupt("nonzero bits after size hint")
	}
	major, minor := r.read(8), uint64(0)
	if major >= 4 {
		minor = r.read(8)
	}
	if major != 4 || minor > 1 {
		return dst, 0, unsupported("pco format %d.%d (this reader: 4.0–4.1)", major, minor)
	}
	typ, total := uniform, 0
	for {
		if r.overrun() {
			return dst, typ, corrupt("truncated before the termination byte")
		}
		b := NumberType(r.read(8))
		if b == 0 {
			break
		}
		if b.Bits() == 0 || (typ != 0 && b != typ) {
			return dst, typ, corrupt("chunk number type %d (file: %d)", b, typ)
		}
		typ = b
		n := int(r.read(24)) + 1
		if total+n > maxN {
			return dst, typ, corrupt("%d numbers exceed the expected %d", total+n, maxN)
		}
		var err error
		if dst, err = decodeChunk(dst, r, typ, n); err != nil {
			return dst, typ, err
		}
		total += n
	}
	if r.pos != 8*uint64(len(src)) {
		return dst, typ, corrupt("%d trailing bytes after the termination byte", uint64(len(src))-r.pos/8)
	}
	if typ == 0 {
		return dst, typ, corrupt("file has no number type")
	}
	return dst, typ, nil
}

// pageVar is one latent variable's page state.
type pageVar struct {
	*latentVar
	state []uint64 // delta state
	ans   [ansInterleave]uint32
	body  []uint64 // latents read from the body, in page order
}

// decodeChunk reads one chunk (its metadata and single page) of n numbers.
func decodeChunk(dst []byte, r *bitReader, t NumberType, n int) ([]byte, error) {
	m, err := readChunkMeta(r, t)
	if err != nil {
		return dst, err
	}
	vars := make([]*pageVar, len(m.vars))
	for i, v := range m.vars {
		pv := &pageVar{latentVar: v}
		sn := v.stateN()
		pv.state = make([]uint64, sn)
		for j := range pv.state {
			pv.state[j] = r.read(v.bits)
		}
		for j := range pv.ans {
			pv.ans[j] = uint32(r.read(v.sizeLog))
		}
		// Each latent costs at least... nothing (one bin, zero offset bits),
		// so the body is bounded by n, itself bounded by the caller's maxN.
		pv.body = make([]uint64, 0, max(n-sn, 0))
		vars[i] = pv
	}
	if !r.align() {
		return dst, corrupt("nonzero bits after page metadata")
	}
	var binIdx [batchN]uint32
	for start := 0; start < n; start += batchN {
		remaining := n - start
		for _, pv := range vars {
			k := min(batchN, max(remaining-pv.stateN(), 0))
			if pv == vars[0] && m.hasDelta {
				k = min(max(remaining-m.primaryStateN(), 0), min(batchN, remaining))
			}
			if k > 0 && len(pv.bins) == 0 {
				return dst, corrupt("latent variable without bins for %d latents", k)
			}
			readBatch(r, pv, k, binIdx[:])
		}
		if r.overrun() {
			return dst, corrupt("page body truncated")
		}
	}
	if !r.align() {
		return dst, corrupt("nonzero bits at end of page")
	}
	return join(dst, m, vars, t, n)
}

// primaryStateN is the delta state size of the primary variable.
func (m *chunkMeta) primaryStateN() int {
	if m.delta == deltaLookback {
		return 1 << m.stateLog
	}
	return 0
}

// readBatch decodes k latents of one variable: k tANS symbols, then offsets.
func readBatch(r *bitReader, pv *pageVar, k int, binIdx []uint32) {
	if k == 0 {
		return
	}
	if len(pv.bins) == 1 {
		for i := 0; i < k; i++ {
			binIdx[i] = 0
		}
	} else {
		for i := 0; i < k; i++ {
			j := i % ansInterleave
			node := pv.nodes[pv.ans[j]]
			binIdx[i] = node.symbol
			pv.ans[j] = node.nextBase + uint32(r.read(uint(node.bits)))
		}
	}
	mask := maskOf(pv.bits)
	for i := 0; i < k; i++ {
		b := &pv.bins[binIdx[i]]
		pv.body = append(pv.body, (b.lower+r.read(b.offsetBits))&mask)
	}
}

// undelta turns a variable's body and state into its n latents.
func undelta(pv *pageVar, lookbacks []uint64, n int) ([]uint64, error) {
	mask, mid := maskOf(pv.bits), midOf(pv.bits)
	switch pv.delta {
	case deltaConsecutive:
		out := make([]uint64, n)
		copy(out, pv.body)
		for i := range out {
			out[i] = (out[i] + mid) & mask
		}
		for o := len(pv.state) - 1; o >= 0; o-- {
			mom := pv.state[o]
			for i := range out {
				d := out[i]
				out[i] = mom
				mom = (mom + d) & mask
			}
		}
		return out, nil
	case deltaLookback:
		sn := len(pv.state)
		full := make([]uint64, sn+len(pv.body))
		copy(full, pv.state)
		window := 1 << pv.windowLog
		for j, d := range pv.body {
			lb := int(lookbacks[j])
			if lb > window {
				return nil, corrupt("delta lookback %d exceeds window %d", lb, window)
			}
			var prev uint64
			if p := sn + j - lb; p >= 0 {
				prev = full[p]
			}
			full[sn+j] = (d + mid + prev) & mask
		}
		if len(full) < n {
			full = append(full, make([]uint64, n-len(full))...)
		}
		return full[:n], nil
	}
	return pv.body, nil
}

// join applies the delta encodings and the mode, appending the numbers.
func join(dst []byte, m *chunkMeta, vars []*pageVar, t NumberType, n int) ([]byte, error) {
	var lookbacks []uint64
	if m.hasDelta {
		lookbacks, vars = vars[0].body, vars[1:]
	}
	prim, err := undelta(vars[0], lookbacks, n)
	if err != nil {
		return dst, err
	}
	var sec []uint64
	if len(vars) > 1 {
		if sec, err = undelta(vars[1], lookbacks, n); err != nil {
			return dst, err
		}
	}
	bits := t.Bits()
	mask, mid := maskOf(bits), midOf(bits)
	wb := int(bits / 8)
	start := len(dst)
	dst = append(dst, make([]byte, n*wb)...)
	out := dst[start:]
	if m.mode == modeClassic {
		for i, l := range prim[:n] {
			putWord(out[i*wb:], fromLatentOrdered(t, l), wb)
		}
		return dst, nil
	}
	for i := 0; i < n; i++ {
		var l uint64
		switch m.mode {
		case modeDict:
			if prim[i] >= uint64(len(m.dict)) {
				return dst[:start], corrupt("dict index %d ≥ %d", prim[i], len(m.dict))
			}
			l = m.dict[prim[i]]
		case modeIntMult:
			l = (prim[i]*m.base + sec[i]) & mask
		case modeFloatMult:
			u := floatMul(t, intFloatFromLatent(t, prim[i]), fromLatentOrdered(t, m.base))
			l = (toLatentOrdered(t, u) + sec[i] + mid) & mask
		case modeFloatQuant:
			y := prim[i]
			low := sec[i]
			if y < mid>>m.k {
				low = ((1<<m.k - 1) - sec[i]) & mask
			}
			l = (y<<m.k + low) & mask
		}
		putWord(out[i*wb:], fromLatentOrdered(t, l), wb)
	}
	return dst, nil
}

// putWord stores x little-endian in wb bytes.
func putWord(b []byte, x uint64, wb int) {
	switch wb {
	case 1:
		b[0] = byte(x)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(x))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(x))
	default:
		binary.LittleEndian.PutUint64(b, x)
	}
}

func appendWord(b []byte, x uint64, bits uint) []byte {
	switch bits {
	case 8:
		return append(b, byte(x))
	case 16:
		return binary.LittleEndian.AppendUint16(b, uint16(x))
	case 32:
		return binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	return binary.LittleEndian.AppendUint64(b, x)
}

// intFloatFromLatent maps a latent to an integer-valued float's bits.
func intFloatFromLatent(t NumberType, l uint64) uint64 {
	bits := t.Bits()
	mid := midOf(bits)
	neg, abs := false, l-mid
	if l < mid {
		neg, abs = true, mid-1-l
	}
	gpi := uint64(1) << (t.precisionBits() + 1)
	var f uint64
	if abs < gpi {
		f = floatFromInt(t, abs)
	} else {
		f = floatFromInt(t, gpi) + (abs - gpi)
	}
	if neg {
		f |= midOf(bits)
	}
	return f & maskOf(bits)
}

// floatFromInt converts a small non-negative integer (≤ 2^(precision+1)) to float bits.
func floatFromInt(t NumberType, v uint64) uint64 {
	switch t {
	case F16:
		return uint64(f32ToF16(float32(v)))
	case F32:
		return uint64(math.Float32bits(float32(v)))
	}
	return math.Float64bits(float64(v))
}

// floatMul multiplies two floats of type t (given as bits), rounding once.
func floatMul(t NumberType, a, b uint64) uint64 {
	switch t {
	case F16:
		return uint64(f32ToF16(f16ToF32(uint16(a)) * f16ToF32(uint16(b))))
	case F32:
		return uint64(math.Float32bits(math.Float32frombits(uint32(a)) * math.Float32frombits(uint32(b))))
	}
	return math.Float64bits(math.Float64frombits(a) * math.Float64frombits(b))
}

// Describe names the mode and delta encoding of each chunk of a standalone
// file (for inspection and tests), e.g. "f64 FloatMult Consecutive(1)".
func Describe(src []byte) ([]string, error) {
	var out []string
	r := &bitReader{src: src}
	if len(src) < 6 || string(src[:4]) != standaloneMagic {
		return nil, corrupt("missing pco! magic")
	}
	r.pos = 40
	r.read(8) // the header's number type: each chunk below names its own
	r.read(uint(r.read(6)) + 1)
	if !r.align() {
		return nil, corrupt("bad header")
	}
	if r.read(8) >= 4 {
		r.read(8)
	}
	for !r.overrun() {
		b := NumberType(r.read(8))
		if b == 0 {
			return out, nil
		}
		typ := b
		n := int(r.read(24)) + 1
		start := r.pos
		m, err := readChunkMeta(r, typ)
		if err != nil {
			return out, err
		}
		modes := [...]string{"Classic", "IntMult", "FloatMult", "FloatQuant", "Dict"}
		d := "None"
		switch m.delta {
		case deltaConsecutive:
			d = "Consecutive(" + itoa(m.order) + ")"
		case deltaLookback:
			d = "Lookback"
		}
		out = append(out, typ.String()+" "+modes[m.mode]+" "+d)
		r.pos = start
		if _, err := decodeChunk(nil, r, typ, n); err != nil {
			return out, err
		}
	}
	return out, corrupt("truncated")
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return "?"
}
