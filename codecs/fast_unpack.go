package codecs

import (
	"encoding/binary"
	"math/bits"
)

// FastLanes kernels on 64-bit words of SWAR lanes.
//
// In a FastLanes block of t-bit words every row, of the packed data and of
// the unpacked values alike, holds 1024/t lanes: 128 bytes, 16 uint64 words.
// Read little-endian, lane j of such a uint64 is its bits [j·t, j·t+t). A
// shift of the uint64 moves every lane by the same amount; the bits it moves
// across a lane boundary are dropped by a mask replicated over the lanes. So
// one code path serves all four word widths, reads the packed bytes and
// writes the values in place with 8-byte loads and stores (binary.LittleEndian
// compiles to single moves on little-endian machines and is correct on all),
// needs neither unsafe nor aligned buffers, and has no bounds checks in its
// row loops (rows are *[128]byte, sliced once per row).

var le = binary.LittleEndian

// laneOnes returns the uint64 with bit 0 of every t-bit lane set.
func laneOnes(t int) uint64 {
	switch t {
	case 8:
		return 0x0101010101010101
	case 16:
		return 0x0001000100010001
	case 32:
		return 0x0000000100000001
	}
	return 1
}

// laneMask returns the mask of the n low bits (0 ≤ n ≤ t) of every lane.
func laneMask(n int, ones uint64) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return (uint64(1)<<uint(n) - 1) * ones
}

// rowOffset is the byte offset of unpacked row r (lane 0 at logical index
// fastlanesRowBase(r)) in a block of t-bit words.
func rowOffset(r, t int) int {
	return fastlanesRowBase(r) * (t >> 3)
}

// fastUnpackBlock unpacks the FastLanes block of width w in src (≥ 128·w
// bytes) into the 1024 t-bit little-endian values of out (≥ 128·t bytes).
// t ∈ {8,16,32,64} and 0 ≤ w ≤ t are the caller's to check.
func fastUnpackBlock(out, src []byte, t, w int) {
	out = out[:128*t]
	if w == 0 {
		clear(out)
		return
	}
	src = src[:128*w]
	ones := laneOnes(t)
	m := laneMask(w, ones)
	logT := uint(bits.TrailingZeros(uint(t)))
	for r := 0; r < t; r++ {
		p := r * w
		k, s := p>>logT, p&(t-1)
		o := (*[128]byte)(out[rowOffset(r, t):])
		lo := (*[128]byte)(src[k*128:])
		if s+w <= t {
			unpackRow(o, lo, uint(s), m)
			continue
		}
		hs := t - s
		hi := (*[128]byte)(src[k*128+128:])
		if t == 64 {
			// One lane per word: the shifts bring in zeros, no lane masks.
			unpackRowSpan64(o, lo, hi, uint(s), uint(hs), m)
			continue
		}
		m1 := laneMask(hs, ones)
		unpackRowSpan(o, lo, hi, uint(s), uint(hs), m1, m&^m1)
	}
}

// fastPackBlock packs the 1024 t-bit little-endian values of src (≥ 128·t
// bytes) with width w into out (≥ 128·w bytes), dropping bits above w.
//
// Every packed row is first written by the row whose value starts at its bit
// 0 or by the upper part of a value crossing into it, and both come before
// any other row touching it, so the rows are stored, not cleared and or-ed.
func fastPackBlock(out, src []byte, t, w int) {
	if w == 0 {
		return
	}
	out = out[:128*w]
	src = src[:128*t]
	ones := laneOnes(t)
	m := laneMask(w, ones)
	logT := uint(bits.TrailingZeros(uint(t)))
	for r := 0; r < t; r++ {
		p := r * w
		k, s := p>>logT, p&(t-1)
		v := (*[128]byte)(src[rowOffset(r, t):])
		lo := (*[128]byte)(out[k*128:])
		switch {
		case s == 0:
			packRowStore(lo, v, m)
		case s+w <= t:
			packRowOr(lo, v, uint(s), m)
		case t == 64:
			// One lane per word: nothing crosses a lane, no lane masks.
			packRowSpan64(lo, (*[128]byte)(out[k*128+128:]), v, uint(s), uint(64-s), m)
		default:
			hs := t - s
			keepLo := ^laneMask(s, ones)
			keepHi := laneMask(w-hs, ones)
			packRowSpan(lo, (*[128]byte)(out[k*128+128:]), v, uint(s), uint(hs), m, keepLo, keepHi)
		}
	}
}

// unpackTail unpacks the block of width w in src and copies its first
// len(out) bytes (fewer than 128·t) to out, through a scratch block.
func unpackTail(out, src []byte, t, w int) {
	var block [FastLanesBlockValues * 8]byte
	fastUnpackBlock(block[:], src, t, w)
	copy(out, block[:])
}

// unpackRow sets the 16 words of output row o to the lanes of packed row lo
// shifted right by s and masked with m (the value lies within one word).
func unpackRow(o, lo *[128]byte, s uint, m uint64) {
	s &= 63 // in range: a plain shift
	le.PutUint64(o[0:8], le.Uint64(lo[0:8])>>s&m)
	le.PutUint64(o[8:16], le.Uint64(lo[8:16])>>s&m)
	le.PutUint64(o[16:24], le.Uint64(lo[16:24])>>s&m)
	le.PutUint64(o[24:32], le.Uint64(lo[24:32])>>s&m)
	le.PutUint64(o[32:40], le.Uint64(lo[32:40])>>s&m)
	le.PutUint64(o[40:48], le.Uint64(lo[40:48])>>s&m)
	le.PutUint64(o[48:56], le.Uint64(lo[48:56])>>s&m)
	le.PutUint64(o[56:64], le.Uint64(lo[56:64])>>s&m)
	le.PutUint64(o[64:72], le.Uint64(lo[64:72])>>s&m)
	le.PutUint64(o[72:80], le.Uint64(lo[72:80])>>s&m)
	le.PutUint64(o[80:88], le.Uint64(lo[80:88])>>s&m)
	le.PutUint64(o[88:96], le.Uint64(lo[88:96])>>s&m)
	le.PutUint64(o[96:104], le.Uint64(lo[96:104])>>s&m)
	le.PutUint64(o[104:112], le.Uint64(lo[104:112])>>s&m)
	le.PutUint64(o[112:120], le.Uint64(lo[112:120])>>s&m)
	le.PutUint64(o[120:128], le.Uint64(lo[120:128])>>s&m)
}

// unpackRowSpan sets output row o to values that start at bit s of packed
// row lo and continue in packed row hi: m1 keeps the hs = t−s bits taken from
// lo, m2 the bits hs..w−1 taken from hi.
func unpackRowSpan(o, lo, hi *[128]byte, s, hs uint, m1, m2 uint64) {
	s, hs = s&63, hs&63 // in range: plain shifts
	le.PutUint64(o[0:8], le.Uint64(lo[0:8])>>s&m1|le.Uint64(hi[0:8])<<hs&m2)
	le.PutUint64(o[8:16], le.Uint64(lo[8:16])>>s&m1|le.Uint64(hi[8:16])<<hs&m2)
	le.PutUint64(o[16:24], le.Uint64(lo[16:24])>>s&m1|le.Uint64(hi[16:24])<<hs&m2)
	le.PutUint64(o[24:32], le.Uint64(lo[24:32])>>s&m1|le.Uint64(hi[24:32])<<hs&m2)
	le.PutUint64(o[32:40], le.Uint64(lo[32:40])>>s&m1|le.Uint64(hi[32:40])<<hs&m2)
	le.PutUint64(o[40:48], le.Uint64(lo[40:48])>>s&m1|le.Uint64(hi[40:48])<<hs&m2)
	le.PutUint64(o[48:56], le.Uint64(lo[48:56])>>s&m1|le.Uint64(hi[48:56])<<hs&m2)
	le.PutUint64(o[56:64], le.Uint64(lo[56:64])>>s&m1|le.Uint64(hi[56:64])<<hs&m2)
	le.PutUint64(o[64:72], le.Uint64(lo[64:72])>>s&m1|le.Uint64(hi[64:72])<<hs&m2)
	le.PutUint64(o[72:80], le.Uint64(lo[72:80])>>s&m1|le.Uint64(hi[72:80])<<hs&m2)
	le.PutUint64(o[80:88], le.Uint64(lo[80:88])>>s&m1|le.Uint64(hi[80:88])<<hs&m2)
	le.PutUint64(o[88:96], le.Uint64(lo[88:96])>>s&m1|le.Uint64(hi[88:96])<<hs&m2)
	le.PutUint64(o[96:104], le.Uint64(lo[96:104])>>s&m1|le.Uint64(hi[96:104])<<hs&m2)
	le.PutUint64(o[104:112], le.Uint64(lo[104:112])>>s&m1|le.Uint64(hi[104:112])<<hs&m2)
	le.PutUint64(o[112:120], le.Uint64(lo[112:120])>>s&m1|le.Uint64(hi[112:120])<<hs&m2)
	le.PutUint64(o[120:128], le.Uint64(lo[120:128])>>s&m1|le.Uint64(hi[120:128])<<hs&m2)
}

// unpackRowSpan64 is unpackRowSpan for 64-bit words.
func unpackRowSpan64(o, lo, hi *[128]byte, s, hs uint, m uint64) {
	s, hs = s&63, hs&63 // in range: plain shifts
	le.PutUint64(o[0:8], (le.Uint64(lo[0:8])>>s|le.Uint64(hi[0:8])<<hs)&m)
	le.PutUint64(o[8:16], (le.Uint64(lo[8:16])>>s|le.Uint64(hi[8:16])<<hs)&m)
	le.PutUint64(o[16:24], (le.Uint64(lo[16:24])>>s|le.Uint64(hi[16:24])<<hs)&m)
	le.PutUint64(o[24:32], (le.Uint64(lo[24:32])>>s|le.Uint64(hi[24:32])<<hs)&m)
	le.PutUint64(o[32:40], (le.Uint64(lo[32:40])>>s|le.Uint64(hi[32:40])<<hs)&m)
	le.PutUint64(o[40:48], (le.Uint64(lo[40:48])>>s|le.Uint64(hi[40:48])<<hs)&m)
	le.PutUint64(o[48:56], (le.Uint64(lo[48:56])>>s|le.Uint64(hi[48:56])<<hs)&m)
	le.PutUint64(o[56:64], (le.Uint64(lo[56:64])>>s|le.Uint64(hi[56:64])<<hs)&m)
	le.PutUint64(o[64:72], (le.Uint64(lo[64:72])>>s|le.Uint64(hi[64:72])<<hs)&m)
	le.PutUint64(o[72:80], (le.Uint64(lo[72:80])>>s|le.Uint64(hi[72:80])<<hs)&m)
	le.PutUint64(o[80:88], (le.Uint64(lo[80:88])>>s|le.Uint64(hi[80:88])<<hs)&m)
	le.PutUint64(o[88:96], (le.Uint64(lo[88:96])>>s|le.Uint64(hi[88:96])<<hs)&m)
	le.PutUint64(o[96:104], (le.Uint64(lo[96:104])>>s|le.Uint64(hi[96:104])<<hs)&m)
	le.PutUint64(o[104:112], (le.Uint64(lo[104:112])>>s|le.Uint64(hi[104:112])<<hs)&m)
	le.PutUint64(o[112:120], (le.Uint64(lo[112:120])>>s|le.Uint64(hi[112:120])<<hs)&m)
	le.PutUint64(o[120:128], (le.Uint64(lo[120:128])>>s|le.Uint64(hi[120:128])<<hs)&m)
}

// packRowStore starts packed row p with input row v masked with m (s = 0).
func packRowStore(p, v *[128]byte, m uint64) {
	le.PutUint64(p[0:8], le.Uint64(v[0:8])&m)
	le.PutUint64(p[8:16], le.Uint64(v[8:16])&m)
	le.PutUint64(p[16:24], le.Uint64(v[16:24])&m)
	le.PutUint64(p[24:32], le.Uint64(v[24:32])&m)
	le.PutUint64(p[32:40], le.Uint64(v[32:40])&m)
	le.PutUint64(p[40:48], le.Uint64(v[40:48])&m)
	le.PutUint64(p[48:56], le.Uint64(v[48:56])&m)
	le.PutUint64(p[56:64], le.Uint64(v[56:64])&m)
	le.PutUint64(p[64:72], le.Uint64(v[64:72])&m)
	le.PutUint64(p[72:80], le.Uint64(v[72:80])&m)
	le.PutUint64(p[80:88], le.Uint64(v[80:88])&m)
	le.PutUint64(p[88:96], le.Uint64(v[88:96])&m)
	le.PutUint64(p[96:104], le.Uint64(v[96:104])&m)
	le.PutUint64(p[104:112], le.Uint64(v[104:112])&m)
	le.PutUint64(p[112:120], le.Uint64(v[112:120])&m)
	le.PutUint64(p[120:128], le.Uint64(v[120:128])&m)
}

// packRowOr adds input row v, masked with m and shifted left by s, to packed
// row p (the value ends within the word, so nothing crosses a lane).
func packRowOr(p, v *[128]byte, s uint, m uint64) {
	s &= 63 // in range: a plain shift
	le.PutUint64(p[0:8], le.Uint64(p[0:8])|(le.Uint64(v[0:8])&m)<<s)
	le.PutUint64(p[8:16], le.Uint64(p[8:16])|(le.Uint64(v[8:16])&m)<<s)
	le.PutUint64(p[16:24], le.Uint64(p[16:24])|(le.Uint64(v[16:24])&m)<<s)
	le.PutUint64(p[24:32], le.Uint64(p[24:32])|(le.Uint64(v[24:32])&m)<<s)
	le.PutUint64(p[32:40], le.Uint64(p[32:40])|(le.Uint64(v[32:40])&m)<<s)
	le.PutUint64(p[40:48], le.Uint64(p[40:48])|(le.Uint64(v[40:48])&m)<<s)
	le.PutUint64(p[48:56], le.Uint64(p[48:56])|(le.Uint64(v[48:56])&m)<<s)
	le.PutUint64(p[56:64], le.Uint64(p[56:64])|(le.Uint64(v[56:64])&m)<<s)
	le.PutUint64(p[64:72], le.Uint64(p[64:72])|(le.Uint64(v[64:72])&m)<<s)
	le.PutUint64(p[72:80], le.Uint64(p[72:80])|(le.Uint64(v[72:80])&m)<<s)
	le.PutUint64(p[80:88], le.Uint64(p[80:88])|(le.Uint64(v[80:88])&m)<<s)
	le.PutUint64(p[88:96], le.Uint64(p[88:96])|(le.Uint64(v[88:96])&m)<<s)
	le.PutUint64(p[96:104], le.Uint64(p[96:104])|(le.Uint64(v[96:104])&m)<<s)
	le.PutUint64(p[104:112], le.Uint64(p[104:112])|(le.Uint64(v[104:112])&m)<<s)
	le.PutUint64(p[112:120], le.Uint64(p[112:120])|(le.Uint64(v[112:120])&m)<<s)
	le.PutUint64(p[120:128], le.Uint64(p[120:128])|(le.Uint64(v[120:128])&m)<<s)
}

// packRowSpan adds the low t−s bits of input row v (masked with m) at bit s
// of packed row lo and starts packed row hi with the remaining bits: keepLo
// drops what the left shift carries into the next lane, keepHi what the right
// shift by hs = t−s brings down from the next lane.
func packRowSpan(lo, hi, v *[128]byte, s, hs uint, m, keepLo, keepHi uint64) {
	s, hs = s&63, hs&63 // in range: plain shifts
	x0 := le.Uint64(v[0:8]) & m
	le.PutUint64(lo[0:8], le.Uint64(lo[0:8])|x0<<s&keepLo)
	le.PutUint64(hi[0:8], x0>>hs&keepHi)
	x1 := le.Uint64(v[8:16]) & m
	le.PutUint64(lo[8:16], le.Uint64(lo[8:16])|x1<<s&keepLo)
	le.PutUint64(hi[8:16], x1>>hs&keepHi)
	x2 := le.Uint64(v[16:24]) & m
	le.PutUint64(lo[16:24], le.Uint64(lo[16:24])|x2<<s&keepLo)
	le.PutUint64(hi[16:24], x2>>hs&keepHi)
	x3 := le.Uint64(v[24:32]) & m
	le.PutUint64(lo[24:32], le.Uint64(lo[24:32])|x3<<s&keepLo)
	le.PutUint64(hi[24:32], x3>>hs&keepHi)
	x4 := le.Uint64(v[32:40]) & m
	le.PutUint64(lo[32:40], le.Uint64(lo[32:40])|x4<<s&keepLo)
	le.PutUint64(hi[32:40], x4>>hs&keepHi)
	x5 := le.Uint64(v[40:48]) & m
	le.PutUint64(lo[40:48], le.Uint64(lo[40:48])|x5<<s&keepLo)
	le.PutUint64(hi[40:48], x5>>hs&keepHi)
	x6 := le.Uint64(v[48:56]) & m
	le.PutUint64(lo[48:56], le.Uint64(lo[48:56])|x6<<s&keepLo)
	le.PutUint64(hi[48:56], x6>>hs&keepHi)
	x7 := le.Uint64(v[56:64]) & m
	le.PutUint64(lo[56:64], le.Uint64(lo[56:64])|x7<<s&keepLo)
	le.PutUint64(hi[56:64], x7>>hs&keepHi)
	x8 := le.Uint64(v[64:72]) & m
	le.PutUint64(lo[64:72], le.Uint64(lo[64:72])|x8<<s&keepLo)
	le.PutUint64(hi[64:72], x8>>hs&keepHi)
	x9 := le.Uint64(v[72:80]) & m
	le.PutUint64(lo[72:80], le.Uint64(lo[72:80])|x9<<s&keepLo)
	le.PutUint64(hi[72:80], x9>>hs&keepHi)
	x10 := le.Uint64(v[80:88]) & m
	le.PutUint64(lo[80:88], le.Uint64(lo[80:88])|x10<<s&keepLo)
	le.PutUint64(hi[80:88], x10>>hs&keepHi)
	x11 := le.Uint64(v[88:96]) & m
	le.PutUint64(lo[88:96], le.Uint64(lo[88:96])|x11<<s&keepLo)
	le.PutUint64(hi[88:96], x11>>hs&keepHi)
	x12 := le.Uint64(v[96:104]) & m
	le.PutUint64(lo[96:104], le.Uint64(lo[96:104])|x12<<s&keepLo)
	le.PutUint64(hi[96:104], x12>>hs&keepHi)
	x13 := le.Uint64(v[104:112]) & m
	le.PutUint64(lo[104:112], le.Uint64(lo[104:112])|x13<<s&keepLo)
	le.PutUint64(hi[104:112], x13>>hs&keepHi)
	x14 := le.Uint64(v[112:120]) & m
	le.PutUint64(lo[112:120], le.Uint64(lo[112:120])|x14<<s&keepLo)
	le.PutUint64(hi[112:120], x14>>hs&keepHi)
	x15 := le.Uint64(v[120:128]) & m
	le.PutUint64(lo[120:128], le.Uint64(lo[120:128])|x15<<s&keepLo)
	le.PutUint64(hi[120:128], x15>>hs&keepHi)
}

// packRowSpan64 is packRowSpan for 64-bit words.
func packRowSpan64(lo, hi, v *[128]byte, s, hs uint, m uint64) {
	s, hs = s&63, hs&63 // in range: plain shifts
	x0 := le.Uint64(v[0:8]) & m
	le.PutUint64(lo[0:8], le.Uint64(lo[0:8])|x0<<s)
	le.PutUint64(hi[0:8], x0>>hs)
	x1 := le.Uint64(v[8:16]) & m
	le.PutUint64(lo[8:16], le.Uint64(lo[8:16])|x1<<s)
	le.PutUint64(hi[8:16], x1>>hs)
	x2 := le.Uint64(v[16:24]) & m
	le.PutUint64(lo[16:24], le.Uint64(lo[16:24])|x2<<s)
	le.PutUint64(hi[16:24], x2>>hs)
	x3 := le.Uint64(v[24:32]) & m
	le.PutUint64(lo[24:32], le.Uint64(lo[24:32])|x3<<s)
	le.PutUint64(hi[24:32], x3>>hs)
	x4 := le.Uint64(v[32:40]) & m
	le.PutUint64(lo[32:40], le.Uint64(lo[32:40])|x4<<s)
	le.PutUint64(hi[32:40], x4>>hs)
	x5 := le.Uint64(v[40:48]) & m
	le.PutUint64(lo[40:48], le.Uint64(lo[40:48])|x5<<s)
	le.PutUint64(hi[40:48], x5>>hs)
	x6 := le.Uint64(v[48:56]) & m
	le.PutUint64(lo[48:56], le.Uint64(lo[48:56])|x6<<s)
	le.PutUint64(hi[48:56], x6>>hs)
	x7 := le.Uint64(v[56:64]) & m
	le.PutUint64(lo[56:64], le.Uint64(lo[56:64])|x7<<s)
	le.PutUint64(hi[56:64], x7>>hs)
	x8 := le.Uint64(v[64:72]) & m
	le.PutUint64(lo[64:72], le.Uint64(lo[64:72])|x8<<s)
	le.PutUint64(hi[64:72], x8>>hs)
	x9 := le.Uint64(v[72:80]) & m
	le.PutUint64(lo[72:80], le.Uint64(lo[72:80])|x9<<s)
	le.PutUint64(hi[72:80], x9>>hs)
	x10 := le.Uint64(v[80:88]) & m
	le.PutUint64(lo[80:88], le.Uint64(lo[80:88])|x10<<s)
	le.PutUint64(hi[80:88], x10>>hs)
	x11 := le.Uint64(v[88:96]) & m
	le.PutUint64(lo[88:96], le.Uint64(lo[88:96])|x11<<s)
	le.PutUint64(hi[88:96], x11>>hs)
	x12 := le.Uint64(v[96:104]) & m
	le.PutUint64(lo[96:104], le.Uint64(lo[96:104])|x12<<s)
	le.PutUint64(hi[96:104], x12>>hs)
	x13 := le.Uint64(v[104:112]) & m
	le.PutUint64(lo[104:112], le.Uint64(lo[104:112])|x13<<s)
	le.PutUint64(hi[104:112], x13>>hs)
	x14 := le.Uint64(v[112:120]) & m
	le.PutUint64(lo[112:120], le.Uint64(lo[112:120])|x14<<s)
	le.PutUint64(hi[112:120], x14>>hs)
	x15 := le.Uint64(v[120:128]) & m
	le.PutUint64(lo[120:128], le.Uint64(lo[120:128])|x15<<s)
	le.PutUint64(hi[120:128], x15>>hs)
}
