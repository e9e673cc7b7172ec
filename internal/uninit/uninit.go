// Package uninit allocates byte slices that the caller overwrites in full
// before reading, without the zeroing make performs.
//
// Decoding a page writes every byte of its read buffer and of its output
// buffers, so zeroing them first is a wasted pass over memory: for an 8 MiB
// page, clearing costs about as much as reading it from the page cache.
// Go has no public API for uninitialized allocation; strings.Builder.Grow
// allocates without clearing, and the builder's String shares its buffer,
// so the bytes behind that string are an uninitialized allocation of the
// requested capacity. Bytes checks that sharing on every call and falls
// back to make if a Go release ever copies instead.
package uninit

import (
	"strings"
	"unsafe"
)

// MinBytes is the size below which Bytes simply calls make: clearing a
// small buffer costs less than the builder's bookkeeping.
const MinBytes = 16 << 10

// Bytes returns a slice of length and capacity n whose contents are
// unspecified (they may hold bytes of earlier, freed allocations of this
// process). The caller must write every byte it later reads or exposes.
func Bytes(n int) []byte {
	if n < MinBytes {
		return make([]byte, n)
	}
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteByte(0)
	first := sb.String()
	sb.WriteByte(0)
	second := sb.String()
	p := unsafe.StringData(first)
	if p != unsafe.StringData(second) || sb.Cap() < n {
		return make([]byte, n) // String copied: the buffer is not ours to reuse
	}
	return unsafe.Slice(p, n)
}

// Grow returns b with room for at least n more bytes beyond len(b),
// copying b's contents into a new uninitialized buffer when it must grow.
// Growth is geometric so that repeated calls stay linear.
func Grow(b []byte, n int) []byte {
	need := len(b) + n
	if need <= cap(b) {
		return b
	}
	grown := Bytes(max(need, 2*cap(b)))
	copy(grown, b)
	return grown[:len(b)]
}

// Int64s is Bytes for n int64 values (allocated as bytes, so 8-aligned and
// never scanned by the garbage collector; int64s hold no pointers).
func Int64s(n int) []int64 {
	if n == 0 {
		return []int64{}
	}
	b := Bytes(8 * n)
	return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(b))), n)
}
