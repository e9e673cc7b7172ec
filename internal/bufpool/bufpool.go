// Package bufpool is an Arrow allocator that keeps released large buffers
// for reuse. A scan hands every batch's value buffers to Arrow; when the
// caller releases a batch, its buffers come back here and the next batches
// decode into them, so a long scan reuses a few buffers instead of
// allocating (and the garbage collector tracing and freeing) one set per
// batch.
package bufpool

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/lancego/lancego/internal/uninit"
)

// MinSize is the smallest buffer the pool keeps; smaller ones are plain Go
// allocations left to the garbage collector.
const MinSize = 16 << 10

// MaxSize is the largest buffer the pool keeps.
const MaxSize = 256 << 20

// subClasses is the number of size classes between two powers of two
// (capacities 1, 1.25, 1.5 and 1.75 times a power of two), so a buffer
// wastes at most a fifth of its capacity.
const subClasses = 4

// numClasses covers MinSize..MaxSize.
const numClasses = (28 - minShift + 1) * subClasses

// minShift is log2(MinSize).
const minShift = 14

// Pool is a memory.Allocator (arrow-go) whose buffers of MinSize bytes or
// more are kept, up to a byte limit, when freed. It is safe for concurrent
// use. Memory from Allocate is zeroed, as from memory.GoAllocator.
type Pool struct {
	mu sync.Mutex
	// free holds each class's kept buffers, oldest first.
	free [numClasses][]heldBuf
	held int
	// stamp numbers the buffers kept, so a full pool can drop its oldest.
	stamp uint64
	limit int
	// reused counts allocations served from a freed buffer.
	reused atomic.Int64
}

// Reused returns how many allocations reused a freed buffer.
func (p *Pool) Reused() int64 { return p.reused.Load() }

// New returns a pool keeping at most limit bytes of free buffers.
func New(limit int) *Pool { return &Pool{limit: limit} }

// Allocate returns size zeroed bytes.
func (p *Pool) Allocate(size int) []byte {
	b, reused := p.get(size)
	if !reused {
		return b
	}
	clear(b)
	return b
}

// AllocateUninit returns size bytes whose contents are unspecified: for
// callers that write every byte before reading any.
func (p *Pool) AllocateUninit(size int) []byte {
	if size < MinSize {
		return uninit.Bytes(size) // not pooled; skip the zeroing too
	}
	b, _ := p.get(size)
	return b
}

// Reallocate resizes b (from this pool) to size bytes, keeping its
// contents; new bytes are zero.
func (p *Pool) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		old := len(b)
		b = b[:size]
		if size > old {
			clear(b[old:])
		}
		return b
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// heldBuf is a kept buffer and when it was kept.
type heldBuf struct {
	b     []byte
	stamp uint64
}

// Free gives b back; it is kept if its capacity is one of the pool's
// classes and no larger than the limit. A full pool drops its oldest
// buffers to make room: the sizes a reader asks for now are those of its
// current workload (a scan's batches, a take's output), and a pool kept
// full of an earlier workload's sizes would send every new buffer back to
// the Go heap, whose fresh pages then fault in on each use.
func (p *Pool) Free(b []byte) {
	c, ok := classOf(cap(b))
	if !ok || classSize(c) != cap(b) || cap(b) > p.limit {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.held+cap(b) > p.limit {
		p.dropOldest()
	}
	p.stamp++
	p.free[c] = append(p.free[c], heldBuf{b: b[:0], stamp: p.stamp})
	p.held += cap(b)
}

// dropOldest lets go of the buffer kept longest ago (p.mu held, p.held > 0).
func (p *Pool) dropOldest() {
	oldest := -1
	for c := range p.free {
		if len(p.free[c]) > 0 && (oldest < 0 || p.free[c][0].stamp < p.free[oldest][0].stamp) {
			oldest = c
		}
	}
	l := p.free[oldest]
	p.held -= cap(l[0].b)
	copy(l, l[1:])
	l[len(l)-1] = heldBuf{}
	p.free[oldest] = l[:len(l)-1]
}

// Held returns the bytes of free buffers the pool keeps.
func (p *Pool) Held() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

// get returns size bytes and whether they are a reused buffer.
func (p *Pool) get(size int) ([]byte, bool) {
	c, ok := classOf(size)
	if !ok {
		if size < MinSize {
			return make([]byte, size), false
		}
		return uninit.Bytes(size), false
	}
	p.mu.Lock()
	if n := len(p.free[c]); n > 0 {
		b := p.free[c][n-1].b
		p.free[c][n-1] = heldBuf{}
		p.free[c] = p.free[c][:n-1]
		p.held -= cap(b)
		p.mu.Unlock()
		p.reused.Add(1)
		return b[:size], true
	}
	p.mu.Unlock()
	return uninit.Bytes(classSize(c))[:size], false
}

// classOf returns the smallest class holding size bytes, and false for
// sizes the pool does not keep.
func classOf(size int) (int, bool) {
	if size < MinSize || size > MaxSize {
		return 0, false
	}
	k := bits.Len(uint(size-1)) - 1 // 2^k < size <= 2^(k+1)
	if k < minShift {
		return 0, true // size == MinSize
	}
	quarter := 1 << (k - 2)
	sub := (size - 1 - 1<<k) / quarter // 0..3: size <= 2^k + (sub+1)*quarter
	c := (k-minShift)*subClasses + sub + 1
	if c >= numClasses {
		return 0, false
	}
	return c, true
}

// classSize returns the capacity of class c.
func classSize(c int) int {
	if c == 0 {
		return MinSize
	}
	k, sub := minShift+(c-1)/subClasses, (c-1)%subClasses
	return 1<<k + (sub+1)*(1<<(k-2))
}
