package layouts

import (
	"unsafe"
)

// growOffsetsMem makes room for n more offsets like growOffsets, taking
// the memory from the accumulator's allocator when it has one: a scan
// gathering dictionary strings built a fresh 64 KiB offset slice per
// 8,192-row batch (8 MB of garbage per million rows, and the collections
// it caused); from the allocator the slice comes back on Free and the
// next batch reuses it. The offsets are always copied out by the builder,
// never handed to Arrow.
func (v *Values) growOffsetsMem(n int) {
	need := len(v.Offsets) + n
	if cap(v.Offsets) >= need || n <= 0 {
		return
	}
	size := max(need, 2*cap(v.Offsets))
	if v.mem == nil || size > 1<<28 {
		v.Offsets = growOffsets(v.Offsets, n)
		return
	}
	var b []byte
	if u, ok := v.mem.(uninitAllocator); ok {
		b = u.AllocateUninit(8 * size)
	} else {
		b = v.mem.Allocate(8 * size)
	}
	if len(b) < 8*size || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 != 0 {
		v.mem.Free(b)
		v.Offsets = growOffsets(v.Offsets, n)
		return
	}
	grown := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(b))), size)
	grown = grown[:copy(grown, v.Offsets)]
	v.freeOffsets()
	v.Offsets, v.ownedOffs = grown, b
}

// freeOffsets gives the offsets' allocation back to the allocator (and
// drops Offsets, which lived in it).
func (v *Values) freeOffsets() {
	if v.ownedOffs != nil {
		v.mem.Free(v.ownedOffs)
		v.ownedOffs, v.Offsets = nil, nil
	}
}
