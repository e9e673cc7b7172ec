package indices

import (
	"context"
	"fmt"
	"math"
)

// SearchParams are what Lance passes a partition search (its Query as the
// sub-index sees it).
type SearchParams struct {
	// K is the number of candidates a partition returns at most: Lance's
	// k × refine_factor.
	K int
	// Ef is the HNSW search breadth; 0 means Lance's default K + K/2.
	// Lance refuses Ef < K.
	Ef int
	// Range, when non-nil, keeps candidates with Range[0] ≤ d < Range[1]
	// by the index distance (Lance's lower_bound and upper_bound).
	Range *[2]float32
	// Allow, when non-nil, is Lance's prefilter mask: the rows (by row id)
	// a search may return (deleted rows and rows a prefilter rejects are
	// not). nil means the prefilter is empty: every stored row may come back.
	Allow func(rowID uint64) bool
}

// Search searches partition p of the index for q as Lance's sub-index
// does: the FLAT sub-index keeps the K nearest allowed rows in Lance's
// bounded heap (tied rows survive as Lance's heap lets them); HNSW walks
// the partition's graph (hnsw_search.go). Candidates come back in no
// particular order (SortCandidates orders them).
func (vi *VectorIndex) Search(ctx context.Context, p int, q []float32, sp SearchParams) ([]Candidate, error) {
	if sp.K < 1 {
		return nil, fmt.Errorf("%w: k = %d", ErrInvalidQuery, sp.K)
	}
	if vi.IsHNSW() {
		ef := sp.Ef
		if ef == 0 {
			ef = sp.K + sp.K/2
		}
		if ef < sp.K {
			return nil, fmt.Errorf("%w: ef %d must be greater than or equal to k %d", ErrInvalidQuery, ef, sp.K)
		}
		sp.Ef = ef
	}
	rows, err := vi.partitionDistances(ctx, p, q)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	if vi.IsHNSW() {
		return vi.searchHNSW(ctx, p, rows, sp)
	}
	return flatTopK(rows, sp), nil
}

// flatTopK is Lance's FlatIndex::search over a partition's distances.
func flatTopK(rows []Candidate, sp SearchParams) []Candidate {
	h := newMaxHeap(min(sp.K, len(rows)))
	lo, hi := float32(-math.MaxFloat32), float32(math.MaxFloat32)
	if sp.Range != nil {
		lo, hi = sp.Range[0], sp.Range[1]
	}
	for _, r := range rows {
		if sp.Allow != nil && !sp.Allow(r.RowID) {
			continue
		}
		if sp.Range != nil && (r.Dist < lo || r.Dist >= hi) {
			continue
		}
		x := node{r.Dist, r.RowID}
		if h.len() < sp.K {
			h.push(x)
		} else if cmpDist(h.peek(), x) > 0 {
			h.pop()
			h.push(x)
		}
	}
	out := make([]Candidate, h.len())
	for i, x := range h.data {
		out[i] = Candidate{RowID: x.id, Dist: x.dist}
	}
	return out
}
