package v20

// setBits returns a bitmap of n set bits.
func setBits(n uint64) []byte {
	b := make([]byte, (n+7)/8)
	for i := range b {
		b[i] = 0xFF
	}
	return b
}

// getBit reports bit i of an LSB-first bitmap.
func getBit(b []byte, i uint64) bool { return b[i/8]&(1<<(i%8)) != 0 }

// sliceBits returns bits [off, off+n) of src as a bitmap starting at bit 0;
// src must hold them. Byte-aligned slices share src.
func sliceBits(src []byte, off, n uint64) []byte {
	if off%8 == 0 {
		return src[off/8 : (off+n+7)/8]
	}
	out := make([]byte, (n+7)/8)
	for i := uint64(0); i < n; i++ {
		if getBit(src, off+i) {
			out[i/8] |= 1 << (i % 8)
		}
	}
	return out
}

// andBits returns the bitwise AND of the first n bits of a and b.
func andBits(a, b []byte, n uint64) []byte {
	out := make([]byte, (n+7)/8)
	for i := range out {
		out[i] = a[i] & b[i]
	}
	return out
}
