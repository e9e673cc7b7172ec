package codecs

import "fmt"

// FastLanesBlockValues is the number of values in one FastLanes block.
const FastLanesBlockValues = 1024

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
	n := len(dst)
	dst = extend(dst, FastLanesBlockValues*t/8)
	fastUnpackBlock(dst[n:], src, t, w)
	return dst, nil
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
	n := len(dst)
	dst = extend(dst, FastLanesPackedBytes(w))
	fastPackBlock(dst[n:], src, t, w)
	return dst, nil
}

// extend returns dst lengthened by n bytes (growing it like growCap); the
// new bytes are not cleared, callers overwrite all of them.
func extend(dst []byte, n int) []byte {
	dst = growCap(dst, n)
	return dst[:len(dst)+n]
}
