package codecs

import (
	"encoding/binary"
	"fmt"
)

// FastLanesBlockValues is the number of values in one FastLanes block.
const FastLanesBlockValues = 1024

// uword is the set of unsigned word types FastLanes operates on.
type uword interface {
	uint8 | uint16 | uint32 | uint64
}

// fastlanesOrder is the FastLanes row permutation (ORDER in the spec),
// one byte per entry (a constant, so no mutable package state).
const fastlanesOrder = "\x00\x04\x02\x06\x01\x05\x03\x07"

// fastlanesRowBase returns the logical index of (row r, lane 0).
func fastlanesRowBase(r int) int {
	return int(fastlanesOrder[r/8])*16 + (r%8)*128
}

// FastLanesPackedBytes is the size in bytes of one packed 1024-value block of
// width w (independent of the word width: 1024·w bits).
func FastLanesPackedBytes(w int) int { return 128 * w }

// checkWordWidth validates a FastLanes word width t and value width w.
func checkWordWidth(codec string, t, w int) error {
	switch t {
	case 8, 16, 32, 64:
	default:
		return fmt.Errorf("%w: %s: word width %d not in {8,16,32,64}", ErrCorrupt, codec, t)
	}
	if w < 0 || w > t {
		return fmt.Errorf("%w: %s: width %d > %d", ErrCorrupt, codec, w, t)
	}
	return nil
}

// UnpackFastLanes decodes one FastLanes block of width w from t-bit words in
// src (at least 128·w bytes, little-endian) and appends its 1024 values, as
// t-bit little-endian words, to dst.
func UnpackFastLanes(dst, src []byte, t, w int) ([]byte, error) {
	if err := checkWordWidth("fastlanes", t, w); err != nil {
		return dst, err
	}
	if len(src) < FastLanesPackedBytes(w) {
		return dst, fmt.Errorf("%w: fastlanes: block needs %d bytes, have %d", ErrCorrupt, FastLanesPackedBytes(w), len(src))
	}
	switch t {
	case 8:
		return unpackBlock[uint8](dst, src, w), nil
	case 16:
		return unpackBlock[uint16](dst, src, w), nil
	case 32:
		return unpackBlock[uint32](dst, src, w), nil
	default:
		return unpackBlock[uint64](dst, src, w), nil
	}
}

// PackFastLanes encodes 1024 t-bit little-endian values from src (1024·t/8
// bytes) with width w and appends the 128·w packed bytes to dst. Bits above w
// are dropped.
func PackFastLanes(dst, src []byte, t, w int) ([]byte, error) {
	if err := checkWordWidth("fastlanes", t, w); err != nil {
		return dst, err
	}
	if len(src) < FastLanesBlockValues*t/8 {
		return dst, fmt.Errorf("%w: fastlanes: pack needs %d input bytes, have %d", ErrCorrupt, FastLanesBlockValues*t/8, len(src))
	}
	switch t {
	case 8:
		return packBlock[uint8](dst, src, w), nil
	case 16:
		return packBlock[uint16](dst, src, w), nil
	case 32:
		return packBlock[uint32](dst, src, w), nil
	default:
		return packBlock[uint64](dst, src, w), nil
	}
}

func unpackBlock[T uword](dst, src []byte, w int) []byte {
	var packed, out [FastLanesBlockValues]T
	nw := FastLanesPackedBytes(w) / wordBytes[T]()
	loadLE(packed[:nw], src)
	unpackCore(w, packed[:nw], &out)
	return storeLE(dst, out[:])
}

func packBlock[T uword](dst, src []byte, w int) []byte {
	var in, packed [FastLanesBlockValues]T
	loadLE(in[:], src)
	nw := FastLanesPackedBytes(w) / wordBytes[T]()
	packCore(w, &in, packed[:nw])
	return storeLE(dst, packed[:nw])
}

// wordBytes is the size of T in bytes.
func wordBytes[T uword]() int {
	var probe T = ^T(0)
	switch uint64(probe) {
	case 0xFF:
		return 1
	case 0xFFFF:
		return 2
	case 0xFFFFFFFF:
		return 4
	default:
		return 8
	}
}

// unpackCore inverts packCore: rows outer, lanes inner, so each inner loop
// reads and writes contiguous lanes.
func unpackCore[T uword](w int, packed []T, out *[FastLanesBlockValues]T) {
	bits := wordBytes[T]() * 8
	lanes := FastLanesBlockValues / bits
	if w == 0 {
		clear(out[:])
		return
	}
	mask := ^T(0) >> uint(bits-w)
	for r := 0; r < bits; r++ {
		p := r * w
		k, s := p/bits, uint(p%bits)
		base := fastlanesRowBase(r)
		o := out[base : base+lanes]
		lo := packed[k*lanes : k*lanes+lanes]
		if int(s)+w <= bits {
			for l := range o {
				o[l] = (lo[l] >> s) & mask
			}
			continue
		}
		hi := packed[(k+1)*lanes : (k+1)*lanes+lanes]
		hs := uint(bits) - s
		for l := range o {
			o[l] = ((lo[l] >> s) | (hi[l] << hs)) & mask
		}
	}
}

// packCore implements the FastLanes transposed bit-packing (spec §8.3).
func packCore[T uword](w int, in *[FastLanesBlockValues]T, packed []T) {
	bits := wordBytes[T]() * 8
	lanes := FastLanesBlockValues / bits
	clear(packed)
	if w == 0 {
		return
	}
	mask := ^T(0) >> uint(bits-w)
	for r := 0; r < bits; r++ {
		p := r * w
		k, s := p/bits, uint(p%bits)
		base := fastlanesRowBase(r)
		v := in[base : base+lanes]
		lo := packed[k*lanes : k*lanes+lanes]
		for l := range v {
			lo[l] |= (v[l] & mask) << s
		}
		if int(s)+w > bits {
			hi := packed[(k+1)*lanes : (k+1)*lanes+lanes]
			hs := uint(bits) - s
			for l := range v {
				hi[l] |= (v[l] & mask) >> hs
			}
		}
	}
}

// loadLE fills dst from little-endian words in src.
func loadLE[T uword](dst []T, src []byte) {
	switch wordBytes[T]() {
	case 1:
		for i := range dst {
			dst[i] = T(src[i])
		}
	case 2:
		src = src[:2*len(dst)]
		for i := range dst {
			dst[i] = T(binary.LittleEndian.Uint16(src[2*i:]))
		}
	case 4:
		src = src[:4*len(dst)]
		for i := range dst {
			dst[i] = T(binary.LittleEndian.Uint32(src[4*i:]))
		}
	default:
		src = src[:8*len(dst)]
		for i := range dst {
			dst[i] = T(binary.LittleEndian.Uint64(src[8*i:]))
		}
	}
}

// storeLE appends src to dst as little-endian words.
func storeLE[T uword](dst []byte, src []T) []byte {
	size := wordBytes[T]()
	start := len(dst)
	dst = append(growCap(dst, len(src)*size), make([]byte, len(src)*size)...)
	out := dst[start:]
	switch size {
	case 1:
		for i, v := range src {
			out[i] = byte(v)
		}
	case 2:
		for i, v := range src {
			binary.LittleEndian.PutUint16(out[2*i:], uint16(v))
		}
	case 4:
		for i, v := range src {
			binary.LittleEndian.PutUint32(out[4*i:], uint32(v))
		}
	default:
		for i, v := range src {
			binary.LittleEndian.PutUint64(out[8*i:], uint64(v))
		}
	}
	return dst
}
