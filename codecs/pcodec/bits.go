package pcodec

import "encoding/binary"

// bitReader reads pco's little-endian, LSB-first bit stream. Reads past the
// end yield zero bits; callers check overrun() at each checkpoint.
type bitReader struct {
	src []byte
	pos uint64 // bit position
}

// word returns the 64 bits starting at byte i (zero-filled past the end).
func (r *bitReader) word(i uint64) uint64 {
	if i+8 <= uint64(len(r.src)) {
		return binary.LittleEndian.Uint64(r.src[i:])
	}
	var b [8]byte
	if i < uint64(len(r.src)) {
		copy(b[:], r.src[i:])
	}
	return binary.LittleEndian.Uint64(b[:])
}

// peek returns the next n ≤ 64 bits without consuming them.
func (r *bitReader) peek(n uint) uint64 {
	if n == 0 {
		return 0
	}
	i, sh := r.pos/8, uint(r.pos%8)
	v := r.word(i) >> sh
	if n+sh > 64 {
		v |= r.word(i+8) << (64 - sh)
	}
	if n < 64 {
		v &= 1<<n - 1
	}
	return v
}

// read consumes n ≤ 64 bits.
func (r *bitReader) read(n uint) uint64 {
	v := r.peek(n)
	r.pos += uint64(n)
	return v
}

// overrun reports whether the reader has consumed bits past the end.
func (r *bitReader) overrun() bool { return r.pos > 8*uint64(len(r.src)) }

// align skips to the next byte boundary; the skipped bits must be zero.
func (r *bitReader) align() bool {
	if rem := uint(r.pos % 8); rem != 0 {
		if r.read(8-rem) != 0 {
			return false
		}
	}
	return !r.overrun()
}

// remainingBits is how many unread bits are left (0 after an overrun).
func (r *bitReader) remainingBits() uint64 {
	if r.overrun() {
		return 0
	}
	return 8*uint64(len(r.src)) - r.pos
}

// bitWriter writes pco's LSB-first bit stream.
type bitWriter struct {
	buf  []byte
	acc  uint64
	nacc uint
}

// write appends the low n ≤ 64 bits of v.
func (w *bitWriter) write(v uint64, n uint) {
	if n == 0 {
		return
	}
	if n < 64 {
		v &= 1<<n - 1
	}
	for n > 0 {
		take := min(n, 64-w.nacc)
		part := v
		if take < 64 {
			part &= 1<<take - 1
		}
		w.acc |= part << w.nacc
		w.nacc += take
		n -= take
		if take < 64 {
			v >>= take
		} else {
			v = 0
		}
		for w.nacc >= 8 {
			w.buf = append(w.buf, byte(w.acc))
			w.acc >>= 8
			w.nacc -= 8
		}
	}
}

// align pads with zero bits to a byte boundary.
func (w *bitWriter) align() {
	if w.nacc > 0 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc, w.nacc = 0, 0
	}
}

// bytes returns the written bytes (after align).
func (w *bitWriter) bytes() []byte {
	w.align()
	return w.buf
}
