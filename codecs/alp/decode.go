package alp

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/lancego/lancego/codecs"
)

// header is a parsed ALP (not RD) chunk header.
type header struct {
	mode     byte
	e, f     int
	bitWidth int
	min      uint64 // FOR min, or Delta first (t-bit two's complement)
	minDelta uint64
}

// headerLen is the ALP header size for a mode and float width in bits.
func headerLen(mode byte, width int) int {
	if mode&modeDelta != 0 {
		return 4 + 2*width/8
	}
	return 4 + width/8
}

// parseHeader validates an ALP header for width-bit floats.
func parseHeader(h []byte, width int) (header, error) {
	if len(h) < 4 {
		return header{}, corrupt("header of %d bytes, need at least 4", len(h))
	}
	p := header{mode: h[0], e: int(h[1]), f: int(h[2]), bitWidth: int(h[3])}
	switch {
	case p.mode&^modeKnown != 0:
		return p, corrupt("header mode %#x has unknown bits", p.mode)
	case len(h) != headerLen(p.mode, width):
		return p, corrupt("header of %d bytes, mode %#x needs %d", len(h), p.mode, headerLen(p.mode, width))
	case p.e > maxExp(width):
		return p, corrupt("exponent e=%d > %d", p.e, maxExp(width))
	case p.mode&modeDiv != 0 && p.f != 0:
		return p, corrupt("factor f=%d with use_div", p.f)
	case p.f > p.e:
		return p, corrupt("factor f=%d > exponent e=%d", p.f, p.e)
	case p.bitWidth > width:
		return p, corrupt("bit width %d > %d", p.bitWidth, width)
	}
	p.min = readWord(h[4:], width)
	if p.mode&modeDelta != 0 {
		p.minDelta = readWord(h[4+width/8:], width)
	}
	return p, nil
}

func readWord(b []byte, width int) uint64 {
	if width == 32 {
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

// DecodeChunk decodes an ALP or ALP-RD chunk of n (1..1024) width-bit floats
// (32 or 64) from its four buffers and appends them to dst as little-endian
// IEEE words. It allocates only when dst lacks capacity for n values (plus
// n 16-bit indices for ALP-RD).
func DecodeChunk(dst []byte, bufs [4][]byte, width, n int) ([]byte, error) {
	if err := checkWidth(width); err != nil {
		return dst, err
	}
	if n < 1 || n > MaxChunkValues {
		return dst, corrupt("chunk of %d values, need 1..%d", n, MaxChunkValues)
	}
	if len(bufs[1]) > 0 && bufs[1][0]&modeRD != 0 {
		return decodeRD(dst, bufs, width, n)
	}
	h, err := parseHeader(bufs[1], width)
	if err != nil {
		return dst, err
	}
	start := len(dst)
	dst, err = codecs.DecodeOutOfLineBitpacking(dst, bufs[0], width, h.bitWidth, uint64(n))
	if err != nil {
		return dst[:start], err
	}
	out := dst[start:]
	if width == 64 {
		reconstruct64(out, h)
	} else {
		reconstruct32(out, h)
	}
	if err := patchExceptions(out, bufs[2], bufs[3], width, n); err != nil {
		return dst[:start], err
	}
	return dst, nil
}

// reconstruct64 turns unpacked offsets in out into f64 bits in place.
func reconstruct64(out []byte, h header) {
	n := len(out) / 8
	if h.mode&modeDelta != 0 {
		prev := h.min
		binary.LittleEndian.PutUint64(out, prev)
		for i := 1; i < n; i++ {
			prev += binary.LittleEndian.Uint64(out[i*8:]) + h.minDelta
			binary.LittleEndian.PutUint64(out[i*8:], prev)
		}
		h.min = 0
	}
	if h.mode&modeDiv != 0 {
		div := pow10[h.e]
		for i := 0; i < n; i++ {
			enc := int64(binary.LittleEndian.Uint64(out[i*8:]) + h.min)
			binary.LittleEndian.PutUint64(out[i*8:], math.Float64bits(float64(enc)/div))
		}
		return
	}
	fact, frac := pow10[h.f], negPow10[h.e]
	for i := 0; i < n; i++ {
		enc := int64(binary.LittleEndian.Uint64(out[i*8:]) + h.min)
		binary.LittleEndian.PutUint64(out[i*8:], math.Float64bits(float64(float64(enc)*fact)*frac))
	}
}

// reconstruct32 turns unpacked offsets in out into f32 bits in place.
func reconstruct32(out []byte, h header) {
	n := len(out) / 4
	base := uint32(h.min)
	if h.mode&modeDelta != 0 {
		prev, md := base, uint32(h.minDelta)
		binary.LittleEndian.PutUint32(out, prev)
		for i := 1; i < n; i++ {
			prev += binary.LittleEndian.Uint32(out[i*4:]) + md
			binary.LittleEndian.PutUint32(out[i*4:], prev)
		}
		base = 0
	}
	if h.mode&modeDiv != 0 {
		div := pow10f32[h.e]
		for i := 0; i < n; i++ {
			enc := int32(binary.LittleEndian.Uint32(out[i*4:]) + base)
			binary.LittleEndian.PutUint32(out[i*4:], math.Float32bits(float32(enc)/div))
		}
		return
	}
	fact, frac := pow10f32[h.f], negPow10f32[h.e]
	for i := 0; i < n; i++ {
		enc := int32(binary.LittleEndian.Uint32(out[i*4:]) + base)
		binary.LittleEndian.PutUint32(out[i*4:], math.Float32bits(float32(float32(enc)*fact)*frac))
	}
}

// patchExceptions writes the verbatim exception values over out.
func patchExceptions(out, pos, vals []byte, width, n int) error {
	wb := width / 8
	if len(pos)%2 != 0 {
		return corrupt("exception positions buffer of odd length %d", len(pos))
	}
	k := len(pos) / 2
	if k > n {
		return corrupt("%d exceptions in a chunk of %d values", k, n)
	}
	if len(vals) != k*wb {
		return corrupt("%d exception values need %d bytes, have %d", k, k*wb, len(vals))
	}
	last := -1
	for j := 0; j < k; j++ {
		p := int(binary.LittleEndian.Uint16(pos[2*j:]))
		if p <= last || p >= n {
			return corrupt("exception position %d out of order or ≥ %d", p, n)
		}
		last = p
		copy(out[p*wb:(p+1)*wb], vals[j*wb:(j+1)*wb])
	}
	return nil
}

// rdHeaderLen is the fixed ALP-RD header size.
const rdHeaderLen = 8

// maxIndexBits bounds the ALP-RD dictionary index width (indices are packed
// in 16-bit words).
const maxIndexBits = 16

// decodeRD decodes an ALP-RD chunk (f64 only).
func decodeRD(dst []byte, bufs [4][]byte, width, n int) ([]byte, error) {
	h := bufs[1]
	if width != 64 {
		return dst, corrupt("ALP-RD chunk for %d-bit floats (f64 only)", width)
	}
	if len(h) != rdHeaderLen || h[0] != modeRD || h[3] != 0 {
		return dst, corrupt("ALP-RD header % x malformed", h)
	}
	d, ib := int(h[1]), int(h[2])
	dictLen := int(binary.LittleEndian.Uint32(h[4:]))
	switch {
	case d < 1 || d > 63:
		return dst, corrupt("ALP-RD right width %d not in 1..63", d)
	case ib > maxIndexBits:
		return dst, corrupt("ALP-RD index width %d > %d", ib, maxIndexBits)
	case dictLen < 1 || dictLen > n || dictLen > 1<<ib:
		return dst, corrupt("ALP-RD dictionary of %d entries for %d values with %d-bit indices", dictLen, n, ib)
	case len(bufs[2]) != dictLen*8:
		return dst, corrupt("ALP-RD dictionary of %d entries in %d bytes", dictLen, len(bufs[2]))
	case ib == 0 && len(bufs[3]) != 0:
		return dst, corrupt("ALP-RD index stream present with index width 0")
	}
	dict := bufs[2]
	for j := 0; j < dictLen; j++ {
		if binary.LittleEndian.Uint64(dict[j*8:])>>(64-d) != 0 {
			return dst, corrupt("ALP-RD left part %d wider than %d bits", j, 64-d)
		}
	}
	start := len(dst)
	dst, err := codecs.DecodeOutOfLineBitpacking(dst, bufs[0], 64, d, uint64(n))
	if err != nil {
		return dst[:start], err
	}
	if ib == 0 {
		left := binary.LittleEndian.Uint64(dict) << d
		out := dst[start:]
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint64(out[i*8:], binary.LittleEndian.Uint64(out[i*8:])|left)
		}
		return dst, nil
	}
	// Indices are unpacked past the values and dropped afterwards.
	idxStart := len(dst)
	dst, err = codecs.DecodeOutOfLineBitpacking(dst, bufs[3], 16, ib, uint64(n))
	if err != nil {
		return dst[:start], err
	}
	out, idx := dst[start:idxStart], dst[idxStart:]
	for i := 0; i < n; i++ {
		k := int(binary.LittleEndian.Uint16(idx[i*2:]))
		if k >= dictLen {
			return dst[:start], corrupt("ALP-RD index %d ≥ dictionary size %d", k, dictLen)
		}
		left := binary.LittleEndian.Uint64(dict[k*8:]) << d
		binary.LittleEndian.PutUint64(out[i*8:], binary.LittleEndian.Uint64(out[i*8:])|left)
	}
	return dst[:idxStart], nil
}

// bitLen is the number of bits needed for v.
func bitLen(v uint64) int { return bits.Len64(v) }
