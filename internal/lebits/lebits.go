// Package lebits holds the little-endian integer and LSB-first bitmap
// helpers shared by the encoders and decoders (codecs, layouts and the
// writer engine), which each had their own copies. The functions are small
// enough to be inlined at their call sites.
package lebits

import "encoding/binary"

// Uint reads a little-endian unsigned integer of width bytes: 1, 2 or 4,
// anything else reads 8. b must hold width bytes.
func Uint(b []byte, width int) uint64 {
	switch width {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

// PutUint writes v as a little-endian integer of width bytes (1, 2, 4,
// anything else writes 8).
func PutUint(dst []byte, v uint64, width int) {
	switch width {
	case 1:
		dst[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(dst, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(dst, uint32(v))
	default:
		binary.LittleEndian.PutUint64(dst, v)
	}
}

// AppendUint appends v as a little-endian integer of width bytes (1, 2, 4,
// anything else appends 8).
func AppendUint(dst []byte, v uint64, width int) []byte {
	switch width {
	case 1:
		return append(dst, byte(v))
	case 2:
		return binary.LittleEndian.AppendUint16(dst, uint16(v))
	case 4:
		return binary.LittleEndian.AppendUint32(dst, uint32(v))
	}
	return binary.LittleEndian.AppendUint64(dst, v)
}

// Word reads the i-th little-endian word of bits bits (8, 16, 32; anything
// else reads 64) of src.
func Word(src []byte, i, bits int) uint64 {
	switch bits {
	case 8:
		return uint64(src[i])
	case 16:
		return uint64(binary.LittleEndian.Uint16(src[2*i:]))
	case 32:
		return uint64(binary.LittleEndian.Uint32(src[4*i:]))
	}
	return binary.LittleEndian.Uint64(src[8*i:])
}

// AppendWord appends v as a little-endian word of bits bits (8, 16, 32;
// anything else appends 64).
func AppendWord(dst []byte, v uint64, bits int) []byte {
	return AppendUint(dst, v, bits/8)
}

// SetBit sets bit i of the LSB-first bitmap b.
func SetBit(b []byte, i int) { b[i>>3] |= 1 << (uint(i) & 7) }

// ClearBit clears bit i of the LSB-first bitmap b.
func ClearBit(b []byte, i int) { b[i>>3] &^= 1 << (uint(i) & 7) }

// Bit reports bit i of the LSB-first bitmap b.
func Bit(b []byte, i int) bool { return b[i>>3]&(1<<(uint(i)&7)) != 0 }

// CopyRange copies bits [start, end) of the LSB-first bitmap src to bit 0
// of the zeroed out, which holds exactly (end-start+7)/8 bytes; the bits of
// out past end-start are zero.
func CopyRange(out, src []byte, start, end int) {
	if start%8 == 0 {
		copy(out, src[start/8:])
		if r := (end - start) % 8; r != 0 {
			out[len(out)-1] &= byte(1)<<r - 1
		}
		return
	}
	for i := start; i < end; i++ {
		if src[i/8]&(1<<(i%8)) != 0 {
			j := i - start
			out[j/8] |= 1 << (j % 8)
		}
	}
}
