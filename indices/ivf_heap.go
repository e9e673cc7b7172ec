package indices

import (
	"cmp"
	"math"
)

// node is a (distance, id) pair of Lance's OrderedNode: ordered by distance
// only (f32 total order), ids never compared.
type node struct {
	dist float32
	id   uint64
}

// cmpDist is OrderedNode's order: f32::total_cmp of the distances.
func cmpDist(a, b node) int { return cmp.Compare(totalKey(a.dist), totalKey(b.dist)) }

// totalKey maps a float32 to an int32 ordered as Rust's f32::total_cmp.
func totalKey(f float32) int32 {
	b := int32(math.Float32bits(f))
	return b ^ int32(uint32(b>>31)>>1)
}

// rustHeap is a max-heap (by c) reproducing Rust's std BinaryHeap step by
// step (sift_up, sift_down_to_bottom, into_sorted_vec): which of several
// tied nodes a bounded heap keeps depends on those steps, and Lance's
// partition searches keep their top k in such heaps. Hand-written because
// container/heap sifts differently.
type rustHeap struct {
	data []node
	c    func(a, b node) int
}

func newMaxHeap(capacity int) *rustHeap {
	return &rustHeap{data: make([]node, 0, capacity), c: cmpDist}
}

// newMinHeap is BinaryHeap<Reverse<OrderedNode>>.
func newMinHeap(capacity int) *rustHeap {
	return &rustHeap{data: make([]node, 0, capacity), c: func(a, b node) int { return cmpDist(b, a) }}
}

func (h *rustHeap) len() int   { return len(h.data) }
func (h *rustHeap) peek() node { return h.data[0] }

func (h *rustHeap) push(x node) {
	h.data = append(h.data, x)
	h.siftUp(0, len(h.data)-1)
}

func (h *rustHeap) siftUp(start, pos int) {
	x := h.data[pos]
	for pos > start {
		parent := (pos - 1) / 2
		if h.c(x, h.data[parent]) <= 0 {
			break
		}
		h.data[pos] = h.data[parent]
		pos = parent
	}
	h.data[pos] = x
}

func (h *rustHeap) pop() node {
	n := len(h.data) - 1
	item := h.data[n]
	h.data = h.data[:n]
	if n > 0 {
		item, h.data[0] = h.data[0], item
		h.siftDownToBottom(0)
	}
	return item
}

func (h *rustHeap) siftDownToBottom(pos int) {
	end := len(h.data)
	start := pos
	x := h.data[pos]
	child := 2*pos + 1
	for end >= 2 && child <= end-2 {
		if h.c(h.data[child], h.data[child+1]) <= 0 {
			child++
		}
		h.data[pos] = h.data[child]
		pos = child
		child = 2*pos + 1
	}
	if child == end-1 {
		h.data[pos] = h.data[child]
		pos = child
	}
	h.data[pos] = x
	h.siftUp(start, pos)
}

func (h *rustHeap) siftDownRange(pos, end int) {
	x := h.data[pos]
	child := 2*pos + 1
	for end >= 2 && child <= end-2 {
		if h.c(h.data[child], h.data[child+1]) <= 0 {
			child++
		}
		if h.c(x, h.data[child]) >= 0 {
			h.data[pos] = x
			return
		}
		h.data[pos] = h.data[child]
		pos = child
		child = 2*pos + 1
	}
	if child == end-1 && h.c(x, h.data[child]) < 0 {
		h.data[pos] = h.data[child]
		pos = child
	}
	h.data[pos] = x
}

// sorted is into_sorted_vec: ascending by c. The heap is consumed.
func (h *rustHeap) sorted() []node {
	for end := len(h.data) - 1; end > 0; end-- {
		h.data[0], h.data[end] = h.data[end], h.data[0]
		h.siftDownRange(0, end)
	}
	out := h.data
	h.data = nil
	return out
}
