package filewriter

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/internal/uninit"
)

// Large temporaries of page encoding are pooled: the Go heap only reuses
// memory after a collection, which a large live heap (the input batches)
// makes rare, and fresh memory costs a page fault per 4 KiB on first use,
// reused memory none. Fresh pooled memory is not zeroed (uninit): a pooled
// buffer holds stale bytes beyond what its user wrote anyway once reused,
// so every user writes what it reads, and zeroing would be a wasted pass
// (it was a seventh of the CPU of a dataset append).

// writerPools holds the reusable temporaries of one Writer's page
// encoding. Create makes it; the encoding goroutines of the Writer's
// flushes reach it through their leafScratch (and the page's values and
// levels), and share it (every field is safe for concurrent use). Close
// and Abort drop it. Methods on a nil *writerPools allocate plainly.
type writerPools struct {
	// bytes holds byte buffers by size class (capacity 1<<c): page
	// buffers once written, temporaries copied elsewhere and the
	// concatenated input columns (allocator).
	bytes [48]sync.Pool // *[]byte
	ints  classPool[int]
	i32s  classPool[int32]
	u16s  classPool[uint16]
	u64s  classPool[uint64]
	bools classPool[bool]
	// ids recycles identity slices above identityMax by class (their
	// contents stay valid, only their length grows).
	ids [48]sync.Pool // *identitySlice
	// ident is 0, 1, 2, ... up to what pages have needed (at most
	// identityMax), shared read-only by the pages; identMu guards the
	// field (a longer slice replaces it, the old one stays valid).
	identMu sync.Mutex
	ident   []int
	// fsst keeps the tables of FSST training and encoders.
	fsst codecs.FSSTScratch
	// zstd caches the writer's zstd encoders (one per level).
	zstd codecs.ZstdEncoders
}

// zstdEncoders returns the writer's zstd encoder cache (nil: none, each
// compression builds its own encoders).
func (p *writerPools) zstdEncoders() *codecs.ZstdEncoders {
	if p == nil {
		return nil
	}
	return &p.zstd
}

// scratchMin is the smallest byte buffer worth pooling.
const scratchMin = 64 << 10

// getBytes returns an empty buffer with room for n bytes (contents beyond
// its length unspecified).
func (p *writerPools) getBytes(n int) []byte {
	if p == nil || n < scratchMin {
		return make([]byte, 0, n)
	}
	c := bits.Len(uint(n - 1))
	if x, ok := p.bytes[c].Get().(*[]byte); ok {
		return (*x)[:0]
	}
	return uninit.Bytes(1 << c)[:0]
}

// putBytes returns b to the pool; the caller no longer uses it.
func (p *writerPools) putBytes(b []byte) {
	if p == nil || cap(b) < scratchMin {
		return
	}
	c := bits.Len(uint(cap(b))) - 1 // cap(b) ≥ 1<<c
	p.bytes[c].Put(&b)
}

// fsstScratch returns the FSST tables to reuse (nil: allocate afresh).
func (p *writerPools) fsstScratch() *codecs.FSSTScratch {
	if p == nil {
		return nil
	}
	return &p.fsst
}

// allocator returns an Arrow allocator drawing on p.
func (p *writerPools) allocator() memory.Allocator {
	if p == nil {
		return memory.DefaultAllocator
	}
	return poolAllocator{p}
}

// newLeafScratch returns an empty collector of one page's temporaries
// drawn from p (nil, allocating plainly, for a nil p).
func (p *writerPools) newLeafScratch() *leafScratch {
	if p == nil {
		return nil
	}
	return &leafScratch{pools: p}
}

// clear drops everything p keeps for reuse, so that it is garbage once
// the Writer lets go of p; nothing may use p concurrently.
func (p *writerPools) clear() {
	if p == nil {
		return
	}
	drain := func(ps []sync.Pool) {
		for i := range ps {
			for ps[i].Get() != nil {
			}
		}
	}
	drain(p.bytes[:])
	drain(p.ints[:])
	drain(p.i32s[:])
	drain(p.u16s[:])
	drain(p.u64s[:])
	drain(p.bools[:])
	drain(p.ids[:])
	p.identMu.Lock()
	p.ident = nil
	p.identMu.Unlock()
	p.fsst.Clear()
	p.zstd.Close()
}

// classPool pools slices of T by capacity class (1<<c elements).
type classPool[T any] [48]sync.Pool // *[]T

// classMin is the smallest slice (in elements) worth pooling.
const classMin = 4096

// get returns an empty slice with room for n elements (contents beyond
// its length unspecified: stale, or never initialized; for bool too, so
// a caller writes every element it reads).
func (p *classPool[T]) get(n int) []T {
	if n < classMin {
		return make([]T, 0, n)
	}
	c := bits.Len(uint(n - 1))
	if x, ok := p[c].Get().(*[]T); ok {
		return (*x)[:0]
	}
	return freshSlice[T](1 << c)
}

// freshSlice returns an empty slice with room for n elements of T, which
// must hold no pointers, in memory that is not zeroed.
func freshSlice[T any](n int) []T {
	var z T
	b := uninit.Bytes(n * int(unsafe.Sizeof(z)))
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)[:0]
}

// put returns s to the pool.
func (p *classPool[T]) put(s []T) {
	if cap(s) < classMin {
		return
	}
	p[bits.Len(uint(cap(s)))-1].Put(&s)
}

// leafScratch collects the pooled temporaries of encoding one leaf page
// (levels, slots, offsets): they go back to the Writer's pools once the
// page is written. A nil *leafScratch allocates plainly; a non-nil one
// always has pools (writerPools.newLeafScratch).
type leafScratch struct {
	pools *writerPools
	ids   []*identitySlice
	bytes [][]byte
	i32s  [][]int32
	ints  [][]int
	u16s  [][]uint16
	u64s  [][]uint64
	bools [][]bool
}

// pool returns the pools sc draws on (nil for a nil sc).
func (sc *leafScratch) pool() *writerPools {
	if sc == nil {
		return nil
	}
	return sc.pools
}

// bytesCap returns an empty []byte with room for n, kept until release.
func (sc *leafScratch) bytesCap(n int) []byte {
	if sc == nil {
		return make([]byte, 0, n)
	}
	s := sc.pools.getBytes(n)
	sc.bytes = append(sc.bytes, s)
	return s
}

// i32sZero returns n zeroed int32s.
func (sc *leafScratch) i32sZero(n int) []int32 {
	if sc == nil {
		return make([]int32, n)
	}
	s := sc.pools.i32s.get(n)[:n]
	clear(s)
	sc.i32s = append(sc.i32s, s)
	return s
}

// intsCap returns an empty []int with room for n, kept until release.
func (sc *leafScratch) intsCap(n int) []int {
	if sc == nil {
		return make([]int, 0, n)
	}
	s := sc.pools.ints.get(n)
	sc.ints = append(sc.ints, s)
	return s
}

// u16sCap returns an empty []uint16 with room for n.
func (sc *leafScratch) u16sCap(n int) []uint16 {
	if sc == nil {
		return make([]uint16, 0, n)
	}
	s := sc.pools.u16s.get(n)
	sc.u16s = append(sc.u16s, s)
	return s
}

// u64sAny returns n uint64s of unspecified value, for a caller that
// writes every one it reads.
func (sc *leafScratch) u64sAny(n int) []uint64 {
	if sc == nil {
		return make([]uint64, n)
	}
	s := sc.pools.u64s.get(n)[:n]
	sc.u64s = append(sc.u64s, s)
	return s
}

// boolsZero returns n false bools.
func (sc *leafScratch) boolsZero(n int) []bool {
	if sc == nil {
		return make([]bool, n)
	}
	s := sc.pools.bools.get(n)[:n]
	clear(s)
	sc.bools = append(sc.bools, s)
	return s
}

// release returns everything to the pools; nothing may use it after.
func (sc *leafScratch) release() {
	if sc == nil {
		return
	}
	p := sc.pools
	for _, x := range sc.ids {
		p.ids[bits.Len(uint(cap(x.s)))-1].Put(x)
	}
	for _, s := range sc.bytes {
		p.putBytes(s)
	}
	for _, s := range sc.i32s {
		p.i32s.put(s)
	}
	for _, s := range sc.ints {
		p.ints.put(s)
	}
	for _, s := range sc.u16s {
		p.u16s.put(s)
	}
	for _, s := range sc.u64s {
		p.u64s.put(s)
	}
	for _, s := range sc.bools {
		p.bools.put(s)
	}
	*sc = leafScratch{pools: p}
}

// poolAllocator is an Arrow allocator whose large buffers come from a
// Writer's byte pools (zeroed) and go back to them when released; the
// Writer's concatenated input columns use it.
type poolAllocator struct{ p *writerPools }

// Allocate returns size zeroed bytes.
func (a poolAllocator) Allocate(size int) []byte {
	if size < scratchMin {
		return memory.DefaultAllocator.Allocate(size)
	}
	b := a.p.getBytes(size)[:size]
	clear(b)
	return b[:size:size]
}

// Reallocate resizes b, moving it to a new buffer when it grows.
func (a poolAllocator) Reallocate(size int, b []byte) []byte {
	if size <= len(b) {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

// Free returns b to the pools.
func (a poolAllocator) Free(b []byte) {
	if cap(b) >= scratchMin {
		a.p.putBytes(b[:0])
	}
}

// identitySlice holds s[i] == i for every i < len(s); its capacity is
// 1<<c for pool class c.
type identitySlice struct{ s []int }

// identityMax bounds the shared identity slice (8 MiB).
const identityMax = 1 << 20

// identity returns the read-only slots lo, lo+1, ..., hi-1, kept until
// release: from the slice the Writer's pages share up to identityMax,
// else pooled.
func (sc *leafScratch) identity(lo, hi int) []int {
	if sc == nil {
		s := make([]int, hi-lo)
		for i := range s {
			s[i] = lo + i
		}
		return s
	}
	if hi <= identityMax {
		return sc.pools.sharedIdentity(lo, hi)
	}
	c := bits.Len(uint(hi - 1))
	p, ok := sc.pools.ids[c].Get().(*identitySlice)
	if !ok {
		p = &identitySlice{s: make([]int, 0, 1<<c)}
	}
	for len(p.s) < hi {
		p.s = append(p.s, len(p.s))
	}
	sc.ids = append(sc.ids, p)
	return p.s[lo:hi:hi]
}

// sharedIdentity returns the read-only slots lo, ..., hi-1 (hi ≤
// identityMax) of the shared identity slice, growing it when needed.
func (p *writerPools) sharedIdentity(lo, hi int) []int {
	p.identMu.Lock()
	defer p.identMu.Unlock()
	s := p.ident
	if len(s) < hi {
		n := min(max(hi, 2*len(s), 1<<16), identityMax)
		s = freshSlice[int](n)[:n]
		for i := range s {
			s[i] = i
		}
		p.ident = s
	}
	return s[lo:hi:hi]
}

// U16sCap implements layouts.ShredScratch.
func (sc *leafScratch) U16sCap(n int) []uint16 { return sc.u16sCap(n) }

// IntsCap implements layouts.ShredScratch.
func (sc *leafScratch) IntsCap(n int) []int { return sc.intsCap(n) }

// Identity implements layouts.ShredScratch.
func (sc *leafScratch) Identity(lo, hi int) []int { return sc.identity(lo, hi) }
