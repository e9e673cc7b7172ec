package layouts

import "github.com/lancego/lancego/internal/lebits"

func newBitmap(n int) []byte { return make([]byte, (n+7)/8) }

func newBitmapSet(n int) []byte {
	b := make([]byte, (n+7)/8)
	for i := range b {
		b[i] = 0xFF
	}
	return b
}

func setBit(b []byte, i int)      { lebits.SetBit(b, i) }
func clearBit(b []byte, i int)    { lebits.ClearBit(b, i) }
func getBit(b []byte, i int) bool { return lebits.Bit(b, i) }

// appendBits appends n bits of src starting at bit off to dst, which holds
// dstLen bits. A nil src means n set bits. It returns the new bitmap.
func appendBits(dst []byte, dstLen int, src []byte, off, n int) []byte {
	need := (dstLen + n + 7) / 8
	for len(dst) < need {
		dst = append(dst, 0)
	}
	if src == nil {
		for i := 0; i < n; i++ {
			setBit(dst, dstLen+i)
		}
		return dst
	}
	if dstLen%8 == 0 && off%8 == 0 {
		copy(dst[dstLen/8:], src[off/8:(off+n+7)/8])
		if r := (dstLen + n) % 8; r != 0 {
			dst[need-1] &= byte(1<<uint(r)) - 1
		}
		return dst
	}
	for i := 0; i < n; i++ {
		if getBit(src, off+i) {
			setBit(dst, dstLen+i)
		} else {
			clearBit(dst, dstLen+i)
		}
	}
	return dst
}

// countZeros returns the number of clear bits among the first n of b.
func countZeros(b []byte, off, n int) int {
	z := 0
	for i := 0; i < n; i++ {
		if !getBit(b, off+i) {
			z++
		}
	}
	return z
}
