package expr

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Boolean results travel as *array.Boolean. Kernels work on 64-bit words
// of the value and validity bitmaps, aligned at bit 0.

// boolWords holds a boolean array as aligned words: data (meaningful
// only where valid) and valid (all ones when the array has no nulls).
type boolWords struct {
	data, valid []uint64
	n           int
}

// words returns the aligned words of a boolean array (copies only when
// the array is offset; a NULL-typed array is all NULL).
func words(a arrow.Array) boolWords {
	n := a.Len()
	nw := (n + 63) / 64
	w := boolWords{n: n, data: make([]uint64, nw), valid: make([]uint64, nw)}
	if a.DataType().ID() == arrow.NULL {
		return w
	}
	b := a.(*array.Boolean)
	bufs := b.Data().Buffers()
	off := b.Data().Offset()
	if bufs[1] != nil {
		copyBits(w.data, bufs[1].Bytes(), off, n)
	}
	if bufs[0] != nil && b.NullN() > 0 {
		copyBits(w.valid, bufs[0].Bytes(), off, n)
	} else {
		for i := range w.valid {
			w.valid[i] = ^uint64(0)
		}
	}
	maskTail(w.valid, n)
	return w
}

// copyBits copies n bits of src from bit off into the words of dst.
func copyBits(dst []uint64, src []byte, off, n int) {
	if off%8 == 0 && len(src) >= off/8 {
		src = src[off/8:]
		for i := range dst {
			var v uint64
			for k := 0; k < 8; k++ {
				if j := i*8 + k; j < len(src) {
					v |= uint64(src[j]) << (8 * k)
				}
			}
			dst[i] = v
		}
		maskTail(dst, n)
		return
	}
	for i := 0; i < n; i++ {
		if bitutil.BitIsSet(src, off+i) {
			dst[i/64] |= 1 << (i % 64)
		}
	}
}

// maskTail clears the bits past n in the last word.
func maskTail(w []uint64, n int) {
	if r := n % 64; r != 0 && len(w) > 0 {
		w[len(w)-1] &= (1 << r) - 1
	}
}

// boolArrayFromWords builds a boolean array of n rows from words.
func boolArrayFromWords(mem memory.Allocator, data, valid []uint64, n int) *array.Boolean {
	nbytes := (n + 7) / 8
	db := memory.NewResizableBuffer(mem)
	db.Resize(nbytes)
	putWords(db.Bytes(), data)
	var vb *memory.Buffer
	nulls := 0
	if valid != nil {
		for _, v := range valid {
			nulls += bits.OnesCount64(v)
		}
		nulls = n - nulls
		if nulls > 0 {
			vb = memory.NewResizableBuffer(mem)
			vb.Resize(nbytes)
			putWords(vb.Bytes(), valid)
		}
	}
	d := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{vb, db}, nil, nulls, 0)
	defer d.Release()
	db.Release()
	if vb != nil {
		vb.Release()
	}
	return array.NewBooleanData(d)
}

// putWords writes words little-endian into dst (its length in bytes).
func putWords(dst []byte, w []uint64) {
	for i := range dst {
		dst[i] = byte(w[i/8] >> (8 * (i % 8)))
	}
}

// toBools returns, per row, whether a boolean array is TRUE (not NULL).
func toBools(a arrow.Array, out []bool) []bool {
	n := a.Len()
	if cap(out) >= n {
		out = out[:n]
	} else {
		out = make([]bool, n)
	}
	if a.DataType().ID() == arrow.NULL {
		clear(out)
		return out
	}
	w := words(a)
	for k, d := range w.data {
		d &= w.valid[k]
		base := k * 64
		end := min(base+64, n)
		for i := base; i < end; i++ {
			out[i] = d&1 != 0
			d >>= 1
		}
	}
	return out
}
