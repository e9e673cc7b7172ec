// Package kmeans trains the k-means models of Lance's vector indices: the
// IVF partition centroids and the PQ sub-vector codebooks. It follows
// Lance's algorithm (Lloyd iterations from k distinct random rows, at most
// MaxIters of them, stopping when the loss changes by less than
// Tolerance of itself; a size bias that keeps IVF partitions balanced;
// empty clusters refilled by splitting a large one), seeded so that a
// build is reproducible. Distances are matrix products (gonum's float32
// GEMM) over blocks of rows spread over Config.Workers goroutines.
//
// Nothing here is a file format: the models are written by package
// indices.
package kmeans

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// Metric is the distance k-means minimises.
type Metric int

const (
	// L2 is the squared Euclidean distance (cosine is L2 over normalised
	// vectors, as Lance trains it).
	L2 Metric = iota
	// Dot is 1 − x·c.
	Dot
)

// ErrInput reports data k-means cannot train on (too few rows, bad shape).
var ErrInput = errors.New("kmeans: invalid input")

// Config holds the training options. The zero value means Lance's
// defaults.
type Config struct {
	// MaxIters bounds the Lloyd iterations (50).
	MaxIters int
	// Tolerance stops training when |loss − previous| < Tolerance·loss
	// (1e-4).
	Tolerance float64
	// Balance is Lance's balance factor: each row's distance to a centroid
	// is biased by Balance/n times the centroid's current size, which
	// evens out cluster sizes (Lance uses 1 for IVF, 0 for PQ). 0 is plain
	// k-means.
	Balance float32
	// Seed seeds the random initialisation and the splits of empty
	// clusters (0 is a valid seed).
	Seed uint64
	// Workers is the goroutines computing distances (GOMAXPROCS when 0).
	Workers int
}

func (c Config) withDefaults() Config {
	if c.MaxIters <= 0 {
		c.MaxIters = 50
	}
	if c.Tolerance <= 0 {
		c.Tolerance = 1e-4
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	return c
}

// Model is a trained k-means model.
type Model struct {
	// Centroids holds K rows of Dim values.
	Centroids []float32
	K, Dim    int
	// Loss is the sum of the training rows' distances to their centroid
	// (plus the balance term) in the last iteration.
	Loss       float64
	Iterations int
}

// maxRowsPerCluster caps the training rows as Lance does (512 per
// cluster): the caller's sample is already random, so its first rows are.
const maxRowsPerCluster = 512

// Train clusters the n = len(data)/dim rows of data into k clusters.
func Train(ctx context.Context, data []float32, dim, k int, m Metric, c Config) (*Model, error) {
	c = c.withDefaults()
	if dim <= 0 || len(data)%dim != 0 {
		return nil, fmt.Errorf("%w: %d values are not rows of dimension %d", ErrInput, len(data), dim)
	}
	n := len(data) / dim
	if k <= 0 || n < k {
		return nil, fmt.Errorf("%w: cannot train %d clusters on %d vectors; choose fewer (at most %d)", ErrInput, k, n, n)
	}
	if n > k*maxRowsPerCluster {
		n = k * maxRowsPerCluster
		data = data[:n*dim]
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x6b6d65616e73))
	cent := make([]float32, k*dim)
	for i, r := range chooseDistinct(rng, n, k) {
		copy(cent[i*dim:(i+1)*dim], data[r*dim:(r+1)*dim])
	}
	a := newAssigner(data, dim, m, c.Workers)
	member := make([]uint32, n)
	dist := make([]float32, n)
	sizes := make([]int, k)
	balance := c.Balance / float32(n)
	adjusted := float32(math.MaxFloat32)
	loss := math.MaxFloat64
	model := &Model{K: k, Dim: dim}
	for it := 1; it <= c.MaxIters; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		bf := min(adjusted, balance)
		var bias []float32
		if bf > 0 {
			bias = make([]float32, k)
			for j, s := range sizes {
				bias[j] = bf * float32(s)
			}
		}
		if err := a.assign(ctx, cent, k, bias, member, dist); err != nil {
			return nil, err
		}
		var clusterLoss float64
		adjusted, clusterLoss = clusterStats(member, dist, sizes)
		cur := clusterLoss + float64(balanceLoss(sizes, n, bf))
		cent = a.means(member, sizes, k)
		splitEmpty(rng, n, sizes, cent, dim)
		model.Iterations, model.Loss = it, cur
		if math.Abs(loss-cur) < c.Tolerance*cur {
			break
		}
		loss = cur
	}
	model.Centroids = cent
	return model, nil
}

// chooseDistinct picks k distinct values of [0, n) (Floyd's algorithm).
func chooseDistinct(rng *rand.Rand, n, k int) []int {
	seen := make(map[int]bool, k)
	out := make([]int, 0, k)
	for j := n - k; j < n; j++ {
		t := rng.IntN(j + 1)
		if seen[t] {
			t = j
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

// clusterStats counts each cluster's rows into sizes and returns Lance's
// adjusted balance factor ((radius − mean distance) of the largest
// cluster, over n) and the summed distances.
func clusterStats(member []uint32, dist []float32, sizes []int) (float32, float64) {
	clear(sizes)
	k := len(sizes)
	radius := make([]float32, k)
	losses := make([]float64, k)
	var total float64
	for i, c := range member {
		sizes[c]++
		radius[c] = max(radius[c], dist[i])
		losses[c] += float64(dist[i])
		total += float64(dist[i])
	}
	big := 0
	for j := range sizes {
		if sizes[j] > sizes[big] {
			big = j
		}
	}
	if sizes[big] == 0 || len(member) == 0 {
		return 0, total
	}
	return (radius[big] - float32(losses[big]/float64(sizes[big]))) / float32(len(member)), total
}

func balanceLoss(sizes []int, n int, bf float32) float32 {
	var sq float64
	for _, s := range sizes {
		sq += float64(s) * float64(s)
	}
	return bf * float32(sq-float64(n)*float64(n)/float64(len(sizes)))
}

// splitEmpty gives each empty cluster half of a large one (chosen at
// random, weighted by size), both centroids nudged apart by 1/1024.
func splitEmpty(rng *rand.Rand, n int, sizes []int, cent []float32, dim int) {
	k := len(sizes)
	if n <= k {
		return
	}
	const eps = 1.0 / 1024
	for i := range sizes {
		if sizes[i] != 0 {
			continue
		}
		j := 0
		for tries := 0; ; tries++ {
			p := (float32(sizes[j]) - 1) / float32(n-k)
			if rng.Float32() < p || tries > 64*k {
				break
			}
			j = (j + 1) % k
		}
		if sizes[j] < 2 { // no luck in the draw: take the largest
			for x := range sizes {
				if sizes[x] > sizes[j] {
					j = x
				}
			}
		}
		sizes[i] = sizes[j] / 2
		sizes[j] -= sizes[i]
		ci, cj := cent[i*dim:(i+1)*dim], cent[j*dim:(j+1)*dim]
		for d := range ci {
			if d%2 == 0 {
				ci[d], cj[d] = cj[d]*(1+eps), cj[d]*(1-eps)
			} else {
				ci[d], cj[d] = cj[d]*(1-eps), cj[d]*(1+eps)
			}
		}
	}
}

// Assign finds, for each row of data, its nearest of the k centroids
// (argmin of the metric) into member, and the distance into dist (both
// len(data)/dim long).
func Assign(ctx context.Context, data []float32, dim int, centroids []float32, m Metric, workers int, member []uint32, dist []float32) error {
	if dim <= 0 || len(data)%dim != 0 || len(centroids)%dim != 0 || len(centroids) == 0 {
		return fmt.Errorf("%w: rows of %d values, dimension %d, %d centroid values", ErrInput, len(data), dim, len(centroids))
	}
	n := len(data) / dim
	if len(member) < n || len(dist) < n {
		return fmt.Errorf("%w: outputs shorter than the %d rows", ErrInput, n)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return newAssigner(data, dim, m, workers).assign(ctx, centroids, len(centroids)/dim, nil, member[:n], dist[:n])
}

// assigner computes nearest centroids for a fixed set of rows, keeping
// the rows' squared norms between iterations.
type assigner struct {
	data    []float32
	dim     int
	metric  Metric
	workers int
	norms   []float32
}

func newAssigner(data []float32, dim int, m Metric, workers int) *assigner {
	a := &assigner{data: data, dim: dim, metric: m, workers: workers}
	if m == L2 {
		a.norms = rowNorms(data, dim)
	}
	return a
}

// blockRows is the rows per distance block (a blockRows × k GEMM).
const blockRows = 256

func (a *assigner) assign(ctx context.Context, cent []float32, k int, bias []float32, member []uint32, dist []float32) error {
	n := len(a.data) / a.dim
	// score[j] = base[j] − alpha·x·c_j orders centroids as the metric
	// (plus bias) does: for L2 the row's own norm is left out
	// (base = |c|² + bias, alpha = 2), for dot the constant 1
	// (base = bias, alpha = 1).
	base := make([]float32, k)
	alpha := float32(1)
	if a.metric == L2 {
		copy(base, rowNorms(cent, a.dim))
		alpha = 2
	}
	for j := range bias {
		base[j] += bias[j]
	}
	ct := transpose(cent, k, a.dim)
	blocks := (n + blockRows - 1) / blockRows
	g, ctx := errgroup.WithContext(ctx)
	next := make(chan int, blocks)
	for b := 0; b < blocks; b++ {
		next <- b
	}
	close(next)
	for w := 0; w < min(a.workers, blocks); w++ {
		g.Go(func() error {
			scratch := make([]float32, blockRows*k)
			for b := range next {
				if err := ctx.Err(); err != nil {
					return err
				}
				lo := b * blockRows
				hi := min(n, lo+blockRows)
				a.assignBlock(lo, hi, ct, base, alpha, k, bias, scratch, member, dist)
			}
			return nil
		})
	}
	return g.Wait()
}

func (a *assigner) assignBlock(lo, hi int, ct, base []float32, alpha float32, k int, bias, scratch []float32, member []uint32, dist []float32) {
	rows := hi - lo
	g := scratch[:rows*k]
	for r := 0; r < rows; r++ {
		copy(g[r*k:(r+1)*k], base)
	}
	addDotProducts(a.data[lo*a.dim:hi*a.dim], rows, ct, k, a.dim, -alpha, g)
	for r := 0; r < rows; r++ {
		best, bs := argmin(g[r*k : (r+1)*k])
		if bias != nil {
			bs -= bias[best]
		}
		if a.metric == L2 {
			dist[lo+r] = max(0, a.norms[lo+r]+bs)
		} else {
			dist[lo+r] = 1 + bs
		}
		member[lo+r] = uint32(best)
	}
}

// argmin returns the first index of the smallest value of v (non-empty)
// and the value, four independent running minima at a time.
func argmin(v []float32) (int, float32) {
	var idx [4]int
	var val [4]float32
	n := len(v) &^ 3
	if n > 0 {
		val = [4]float32{v[0], v[1], v[2], v[3]}
		idx = [4]int{0, 1, 2, 3}
		for j := 4; j < n; j += 4 {
			w := v[j : j+4 : j+4]
			if w[0] < val[0] {
				val[0], idx[0] = w[0], j
			}
			if w[1] < val[1] {
				val[1], idx[1] = w[1], j+1
			}
			if w[2] < val[2] {
				val[2], idx[2] = w[2], j+2
			}
			if w[3] < val[3] {
				val[3], idx[3] = w[3], j+3
			}
		}
	} else {
		val[0], idx[0] = v[0], 0
	}
	best, bs := idx[0], val[0]
	for l := 1; l < 4 && n > 0; l++ {
		if val[l] < bs || (val[l] == bs && idx[l] < best) {
			best, bs = idx[l], val[l]
		}
	}
	for j := max(n, 1); j < len(v); j++ {
		if v[j] < bs {
			best, bs = j, v[j]
		}
	}
	return best, bs
}

// means returns each cluster's mean row (a zero row for an empty one).
func (a *assigner) means(member []uint32, sizes []int, k int) []float32 {
	dim := a.dim
	cent := make([]float32, k*dim)
	sums := make([]float64, k*dim)
	for i, c := range member {
		s := sums[int(c)*dim : (int(c)+1)*dim]
		for d, v := range a.data[i*dim : (i+1)*dim] {
			s[d] += float64(v)
		}
	}
	for j, sz := range sizes {
		if sz == 0 {
			continue
		}
		inv := 1 / float64(sz)
		for d := 0; d < dim; d++ {
			cent[j*dim+d] = float32(sums[j*dim+d] * inv)
		}
	}
	return cent
}

func rowNorms(data []float32, dim int) []float32 {
	out := make([]float32, len(data)/dim)
	for i := range out {
		var s float32
		for _, v := range data[i*dim : (i+1)*dim] {
			s += v * v
		}
		out[i] = s
	}
	return out
}
