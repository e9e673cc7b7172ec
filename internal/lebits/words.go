package lebits

import "unsafe"

// Words views b as little-endian T words (len(b)/size of T of them; the
// host is little-endian, as Lance's and Arrow's buffers are), sharing b's
// memory: one load per word where Uint would switch on the width per
// value. Nil when b holds no whole word.
func Words[T uint8 | uint16 | uint32 | uint64 | int8 | int16 | int32 | int64](b []byte) []T {
	var z T
	w := int(unsafe.Sizeof(z))
	if len(b) < w {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/w)
}
