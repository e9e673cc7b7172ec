package indices

import (
	"context"
	"fmt"
	"math"
)

// partitionGraph reads partition p's HNSW graph from the open index.idx.
func (vi *VectorIndex) partitionGraph(ctx context.Context, p int) (*HNSWGraph, error) {
	name, f := vi.graphName, vi.graph
	from, n := vi.ivf.Offsets[p], uint64(vi.ivf.Lengths[p])
	if from > f.NumRows() || n > f.NumRows()-from {
		return nil, fmt.Errorf("%w: %s: partition %d rows [%d, +%d) of %d", ErrCorrupt, name, p, from, n, f.NumRows())
	}
	lo := vi.hnsw[p].LevelOffsets
	if len(lo) == 0 || lo[len(lo)-1] != n {
		return nil, fmt.Errorf("%w: %s: partition %d level offsets %v for %d rows", ErrCorrupt, name, p, lo, n)
	}
	g := &HNSWGraph{EntryPoint: vi.hnsw[p].EntryPoint}
	for l := 0; l+1 < len(lo); l++ {
		lv, err := readHNSWLevel(ctx, f, name, from+lo[l], from+lo[l+1])
		if err != nil {
			return nil, fmt.Errorf("%s partition %d level %d: %w", name, p, l, err)
		}
		g.Levels = append(g.Levels, *lv)
	}
	return g, nil
}

// hnswView is a partition graph indexed for search: adj[l][v] lists node
// v's neighbours on level l (empty when v is not on that level).
type hnswView struct {
	adj [][][]uint32
}

// newHNSWView checks the graph against the partition's n stored vectors
// (level 0 lists nodes 0..n-1, every id and neighbour below n).
func newHNSWView(g *HNSWGraph, n int, where string) (*hnswView, error) {
	v := &hnswView{adj: make([][][]uint32, len(g.Levels))}
	for l, lv := range g.Levels {
		if l == 0 && len(lv.Nodes) != n {
			return nil, fmt.Errorf("%w: %s: level 0 holds %d nodes for %d vectors", ErrCorrupt, where, len(lv.Nodes), n)
		}
		if len(lv.Offsets) != len(lv.Nodes)+1 {
			return nil, fmt.Errorf("%w: %s: level %d offsets", ErrCorrupt, where, l)
		}
		v.adj[l] = make([][]uint32, n)
		for i, id := range lv.Nodes {
			if int(id) >= n || (l == 0 && int(id) != i) {
				return nil, fmt.Errorf("%w: %s: level %d node %d has id %d of %d", ErrCorrupt, where, l, i, id, n)
			}
			a, b := lv.Offsets[i], lv.Offsets[i+1]
			if a < 0 || a > b || b > len(lv.Neighbors) {
				return nil, fmt.Errorf("%w: %s: level %d node %d neighbour range [%d, %d)", ErrCorrupt, where, l, id, a, b)
			}
			for _, nb := range lv.Neighbors[a:b] {
				if int(nb) >= n {
					return nil, fmt.Errorf("%w: %s: level %d node %d has neighbour %d of %d", ErrCorrupt, where, l, id, nb, n)
				}
			}
			v.adj[l][id] = lv.Neighbors[a:b]
		}
	}
	return v, nil
}

// searchHNSW is Lance's HNSW::search over partition p, whose storage
// distances are rows (node i = row i): with a prefilter allowing fewer
// than 10% of the nodes, a flat search over the allowed ones; otherwise a
// greedy descent from node 0 through levels max_level-1 … 0, then a beam
// search of breadth ef on level 0. The K best, unique by row id.
func (vi *VectorIndex) searchHNSW(ctx context.Context, p int, rows []Candidate, sp SearchParams) ([]Candidate, error) {
	g, err := vi.partitionGraph(ctx, p)
	if err != nil {
		return nil, err
	}
	return searchGraph(g, vi.hnsw[p].EntryPoint, rows, sp, fmt.Sprintf("%s partition %d", vi.graphName, p))
}

// searchGraph is searchHNSW over graph g with its entry point entry, once
// read (where names the partition in errors). The graph, entry point and
// K/Ef come from the file and the query: each is checked, so a hostile
// graph gives an error, never an index out of range or an endless walk.
func searchGraph(g *HNSWGraph, entry uint32, rows []Candidate, sp SearchParams, where string) ([]Candidate, error) {
	n := len(rows)
	if n == 0 {
		return nil, nil
	}
	if sp.K < 1 {
		return nil, fmt.Errorf("%w: k = %d", ErrInvalidQuery, sp.K)
	}
	if sp.Ef < 1 {
		sp.Ef = sp.K + sp.K/2
	}
	if int(entry) >= n {
		return nil, fmt.Errorf("%w: %s: entry point %d of %d nodes", ErrCorrupt, where, entry, n)
	}
	view, err := newHNSWView(g, n, where)
	if err != nil {
		return nil, err
	}
	dist := make([]float32, n)
	for i, r := range rows {
		dist[i] = r.Dist
	}
	var allowed []bool
	remained := n
	if sp.Allow != nil {
		allowed = make([]bool, n)
		remained = 0
		for i, r := range rows {
			if sp.Allow(r.RowID) {
				allowed[i] = true
				remained++
			}
		}
	}
	var res []node
	if remained < n*10/100 {
		res = hnswFlat(dist, allowed, sp)
	} else {
		// pylance 14.0.2 descends from the stored entry point (closer to
		// its answers than the node-0 descent of the Nov-2025 source).
		ep := greedyFrom(view, dist, entry)
		res = beamSearch(view, ep, dist, allowed, sp)
		if len(res) > sp.K {
			res = res[:sp.K]
		}
	}
	out := make([]Candidate, 0, len(res))
	seen := make(map[uint64]bool, len(res))
	for _, x := range res {
		id := rows[x.id].RowID
		if !seen[id] {
			seen[id] = true
			out = append(out, Candidate{RowID: id, Dist: x.dist})
		}
	}
	return out, nil
}

// lessTotal is a < b in f32::total_cmp order (Lance's OrderedFloat).
func lessTotal(a, b float32) bool { return totalKey(a) < totalKey(b) }

// bounds returns the range's bounds, or f32::MIN and f32::MAX.
func bounds(sp SearchParams) (float32, float32) {
	if sp.Range != nil {
		return sp.Range[0], sp.Range[1]
	}
	return -math.MaxFloat32, math.MaxFloat32
}

// hnswFlat is HNSW::flat_search: the K nearest allowed nodes (bounds
// lower < d ≤ upper, as Lance writes them there), ascending.
func hnswFlat(dist []float32, allowed []bool, sp SearchParams) []node {
	lo, hi := bounds(sp)
	h := newMaxHeap(sp.K)
	for i, d := range dist {
		if !allowed[i] {
			continue
		}
		if !lessTotal(lo, d) || lessTotal(hi, d) {
			continue
		}
		x := node{d, uint64(i)}
		if h.len() < sp.K {
			h.push(x)
		} else if lessTotal(d, h.peek().dist) {
			h.pop()
			h.push(x)
		}
	}
	return h.sorted()
}

// greedyFrom descends from start through levels top … 1.
func greedyFrom(v *hnswView, dist []float32, start uint32) node {
	cur, closest := start, dist[start]
	for l := len(v.adj) - 1; l >= 1; l-- {
		for {
			next, moved := cur, false
			for _, nb := range v.adj[l][cur] {
				if d := dist[nb]; d < closest {
					closest, next, moved = d, nb, true
				}
			}
			if !moved {
				break
			}
			cur = next
		}
	}
	return node{closest, uint64(cur)}
}

// beamSearch is Lance's graph::beam_search on level 0 with breadth ef:
// results ascending by distance.
func beamSearch(v *hnswView, ep node, dist []float32, allowed []bool, sp SearchParams) []node {
	ef := sp.Ef
	lo, hi := bounds(sp)
	inRange := func(d float32) bool { return !lessTotal(d, lo) && lessTotal(d, hi) }
	visited := make([]bool, len(dist))
	cand := newMinHeap(ef)
	visited[ep.id] = true
	cand.push(ep)
	res := newMaxHeap(ef)
	if (allowed == nil || allowed[ep.id]) && inRange(ep.dist) {
		res.push(ep)
	}
	var unvisited []uint32
	for cand.len() > 0 {
		cur := cand.pop()
		furthest := float32(math.Inf(1))
		if res.len() > 0 {
			furthest = res.peek().dist
		}
		if lessTotal(furthest, cur.dist) && res.len() == ef {
			break
		}
		if len(v.adj) == 0 {
			break
		}
		unvisited = unvisited[:0]
		for _, nb := range v.adj[0][cur.id] {
			if !visited[nb] {
				unvisited = append(unvisited, nb)
			}
		}
		for _, nb := range unvisited {
			visited[nb] = true
			d := dist[nb]
			if !lessTotal(furthest, d) || res.len() < ef {
				if (allowed == nil || allowed[nb]) && inRange(d) {
					x := node{d, uint64(nb)}
					if res.len() < ef {
						res.push(x)
					} else if lessTotal(d, res.peek().dist) {
						res.pop()
						res.push(x)
					}
				}
				cand.push(node{d, uint64(nb)})
			}
		}
	}
	return res.sorted()
}
