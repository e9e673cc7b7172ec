package vector

import (
	"container/heap"
	"math"
	"slices"
)

// Hit is a candidate row: its distance and row id.
type Hit struct {
	Distance float32
	RowID    uint64
}

// less is Lance's order: distance ascending, then row id ascending.
func less(a, b Hit) bool {
	if a.Distance != b.Distance {
		return a.Distance < b.Distance
	}
	return a.RowID < b.RowID
}

// TopK keeps the k smallest hits in Lance's order (distance, then row id)
// in a bounded max-heap: memory is O(k) whatever the number of rows.
// NaN distances are never kept.
type TopK struct {
	k int
	h hitHeap
}

// NewTopK returns a selection of the k nearest hits (k ≥ 1).
func NewTopK(k int) *TopK {
	return &TopK{k: k, h: make(hitHeap, 0, min(k, 1<<16))}
}

// Push offers a hit.
func (t *TopK) Push(d float32, id uint64) {
	if math.IsNaN(float64(d)) {
		return
	}
	x := Hit{d, id}
	if len(t.h) < t.k {
		heap.Push(&t.h, x)
		return
	}
	if less(x, t.h[0]) {
		t.h[0] = x
		heap.Fix(&t.h, 0)
	}
}

// Worst is the distance a hit must beat once the selection is full
// (+Inf before).
func (t *TopK) Worst() float32 {
	if len(t.h) < t.k {
		return float32(math.Inf(1))
	}
	return t.h[0].Distance
}

// Len is the number of hits kept.
func (t *TopK) Len() int { return len(t.h) }

// Sorted returns the kept hits in Lance's order.
func (t *TopK) Sorted() []Hit {
	out := slices.Clone([]Hit(t.h))
	slices.SortFunc(out, func(a, b Hit) int {
		if less(a, b) {
			return -1
		}
		if less(b, a) {
			return 1
		}
		return 0
	})
	return out
}

// hitHeap is a max-heap: the worst kept hit on top.
type hitHeap []Hit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return less(h[j], h[i]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(Hit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
