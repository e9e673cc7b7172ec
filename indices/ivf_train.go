package indices

// Training the models of an IVF index build (IVF_FLAT, IVF_PQ, IVF_SQ):
// partition centroids by k-means over a sample, then the quantizer (PQ
// codebooks over the sample's residuals, SQ bounds), as Lance 14.0.2
// trains them (indices.md §3): cosine trains L2 on normalised vectors; PQ
// encodes residuals for l2 and cosine and raw vectors for dot; SQ has one
// [start, end] over every component of the sample.

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/lancego/lancego/indices/kmeans"
)

// VectorBuildParams are the options of an IVF index build.
type VectorBuildParams struct {
	// Type is TypeIVFFlat, TypeIVFPQ or TypeIVFSQ.
	Type IndexType
	// Metric is MetricL2, MetricCosine or MetricDot.
	Metric Metric
	// NumPartitions is the IVF partition count (required).
	NumPartitions int
	// NumSubVectors is PQ's sub-vector count (required for IVF_PQ; it
	// must divide the dimension).
	NumSubVectors int
	// NumBits is PQ's bits per code (8 or 4; 8 when 0). SQ is always 8.
	NumBits int
	// MaxIters bounds the k-means iterations (50, Lance's default).
	MaxIters int
	// SampleRate is the training rows per cluster (256, Lance's default):
	// IVF trains on NumPartitions·SampleRate rows, PQ and SQ on
	// 2^NumBits·SampleRate (256·SampleRate for SQ).
	SampleRate int
	// Seed seeds the sample and the k-means initialisations.
	Seed uint64
	// Workers is the goroutines training and encoding (GOMAXPROCS when 0).
	Workers int
}

// Check validates p for vectors of dimension dim and fills its defaults.
func (p *VectorBuildParams) Check(dim int) error {
	if p.MaxIters <= 0 {
		p.MaxIters = 50
	}
	if p.SampleRate <= 0 {
		p.SampleRate = 256
	}
	if p.Workers <= 0 {
		p.Workers = runtime.GOMAXPROCS(0)
	}
	switch p.Metric {
	case MetricL2, MetricCosine, MetricDot:
	default:
		return fmt.Errorf("%w: building a vector index with the %s metric (l2, cosine and dot are built)", ErrUnsupported, p.Metric)
	}
	if dim <= 0 {
		return fmt.Errorf("%w: vectors of dimension %d", ErrInvalidQuery, dim)
	}
	if p.NumPartitions <= 0 {
		return fmt.Errorf("%w: %d IVF partitions (give at least 1)", ErrInvalidQuery, p.NumPartitions)
	}
	switch p.Type {
	case TypeIVFFlat:
	case TypeIVFSQ:
		if p.NumBits != 0 && p.NumBits != 8 {
			return fmt.Errorf("%w: SQ of %d bits (Lance writes 8)", ErrUnsupported, p.NumBits)
		}
		p.NumBits = 8
	case TypeIVFPQ:
		if p.NumBits == 0 {
			p.NumBits = 8
		}
		if p.NumBits != 8 && p.NumBits != 4 {
			return fmt.Errorf("%w: PQ of %d bits (8 or 4)", ErrInvalidQuery, p.NumBits)
		}
		if p.NumSubVectors <= 0 || dim%p.NumSubVectors != 0 {
			return fmt.Errorf("%w: %d PQ sub-vectors do not divide dimension %d", ErrInvalidQuery, p.NumSubVectors, dim)
		}
		if p.NumBits == 4 && p.NumSubVectors%2 != 0 {
			return fmt.Errorf("%w: 4-bit PQ needs an even number of sub-vectors, not %d", ErrInvalidQuery, p.NumSubVectors)
		}
	default:
		return fmt.Errorf("%w: building a %s index (IVF_FLAT, IVF_PQ and IVF_SQ are built)", ErrUnsupported, p.Type)
	}
	return nil
}

// SampleSize is the rows a build samples to train on.
func (p *VectorBuildParams) SampleSize() int {
	n := p.NumPartitions * p.SampleRate
	switch p.Type {
	case TypeIVFPQ:
		n = max(n, (1<<p.NumBits)*p.SampleRate)
	case TypeIVFSQ:
		n = max(n, 256*p.SampleRate)
	}
	return n
}

// VectorModel is a trained IVF model with its quantizer.
type VectorModel struct {
	Params VectorBuildParams
	Dim    int
	// Centroids holds NumPartitions rows of Dim values (normalised space
	// for cosine).
	Centroids []float32
	Loss      float64
	PQ        *PQ // IVF_PQ only
	SQ        *SQ // IVF_SQ only
}

// TrainVector trains the model of an index of p on sample (rows of dim
// values; rows with a non-finite value are left out, as Lance does).
func TrainVector(ctx context.Context, sample []float32, dim int, p VectorBuildParams) (*VectorModel, error) {
	if err := p.Check(dim); err != nil {
		return nil, err
	}
	rows := finiteRows(sample, dim)
	if p.Metric == MetricCosine {
		normaliseRows(rows, dim)
	}
	n := len(rows) / dim
	if n < p.NumPartitions {
		return nil, fmt.Errorf("%w: %d IVF partitions need at least as many vectors; the column has %d usable ones",
			ErrInvalidQuery, p.NumPartitions, n)
	}
	km := kmeans.Config{MaxIters: p.MaxIters, Balance: 1, Seed: p.Seed, Workers: p.Workers}
	ivfRows := rows[:min(n, p.NumPartitions*p.SampleRate)*dim]
	model, err := kmeans.Train(ctx, ivfRows, dim, p.NumPartitions, trainMetric(p.Metric), km)
	if err != nil {
		return nil, fmt.Errorf("IVF training: %w", err)
	}
	m := &VectorModel{Params: p, Dim: dim, Centroids: model.Centroids, Loss: model.Loss}
	switch p.Type {
	case TypeIVFPQ:
		m.PQ, err = m.trainPQ(ctx, rows)
	case TypeIVFSQ:
		m.SQ, err = trainSQ(rows, dim)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// trainMetric is the k-means metric of an index metric (cosine is L2 on
// normalised vectors).
func trainMetric(m Metric) kmeans.Metric {
	if m == MetricDot {
		return kmeans.Dot
	}
	return kmeans.L2
}

// trainPQ trains one codebook of 2^NumBits centroids per sub-vector (L2,
// no balance, as Lance) on the rows' residuals (raw rows for dot).
func (m *VectorModel) trainPQ(ctx context.Context, rows []float32) (*PQ, error) {
	p, dim := m.Params, m.Dim
	k := 1 << p.NumBits
	n := min(len(rows)/dim, k*p.SampleRate)
	if n < k {
		return nil, fmt.Errorf("%w: training %d-bit PQ needs %d vectors; the column has %d usable ones",
			ErrInvalidQuery, p.NumBits, k, n)
	}
	train, err := m.pqInput(ctx, rows[:n*dim])
	if err != nil {
		return nil, err
	}
	M := p.NumSubVectors
	sub := dim / M
	book := make([]float32, k*dim)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(p.Workers)
	for s := 0; s < M; s++ {
		g.Go(func() error {
			part := make([]float32, n*sub)
			for r := 0; r < n; r++ {
				copy(part[r*sub:(r+1)*sub], train[r*dim+s*sub:r*dim+(s+1)*sub])
			}
			cfg := kmeans.Config{MaxIters: p.MaxIters, Seed: p.Seed + uint64(s) + 1, Workers: 1}
			km, err := kmeans.Train(gctx, part, sub, k, kmeans.L2, cfg)
			if err != nil {
				return fmt.Errorf("PQ training of sub-vector %d: %w", s, err)
			}
			copy(book[s*k*sub:(s+1)*k*sub], km.Centroids)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return &PQ{NumBits: p.NumBits, NumSubVectors: M, Dim: dim, Codebook: book, Transposed: true}, nil
}

// pqInput is what PQ encodes of rows (already normalised for cosine):
// the residual to the row's partition centroid, or the row for dot.
func (m *VectorModel) pqInput(ctx context.Context, rows []float32) ([]float32, error) {
	if m.Params.Metric == MetricDot {
		return rows, nil
	}
	n := len(rows) / m.Dim
	member := make([]uint32, n)
	dist := make([]float32, n)
	if err := kmeans.Assign(ctx, rows, m.Dim, m.Centroids, kmeans.L2, m.Params.Workers, member, dist); err != nil {
		return nil, err
	}
	out := make([]float32, len(rows))
	residuals(out, rows, m.Centroids, member, m.Dim)
	return out, nil
}

func residuals(dst, rows, centroids []float32, member []uint32, dim int) {
	for r, c := range member {
		x := rows[r*dim : (r+1)*dim]
		cv := centroids[int(c)*dim : (int(c)+1)*dim]
		d := dst[r*dim : (r+1)*dim]
		for j := range x {
			d[j] = x[j] - cv[j]
		}
	}
}

// trainSQ sets SQ's bounds to the smallest and largest component of the
// training rows.
func trainSQ(rows []float32, dim int) (*SQ, error) {
	n := min(len(rows)/dim, 256*256)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range rows[:n*dim] {
		lo, hi = math.Min(lo, float64(v)), math.Max(hi, float64(v))
	}
	if !(hi > lo) {
		return nil, fmt.Errorf("%w: SQ needs vectors whose components differ (all are %g)", ErrInvalidQuery, lo)
	}
	return &SQ{Dim: dim, NumBits: 8, Start: lo, End: hi}, nil
}

// finiteRows copies the rows of data whose values are all finite.
func finiteRows(data []float32, dim int) []float32 {
	out := make([]float32, 0, len(data))
next:
	for i := 0; i+dim <= len(data); i += dim {
		row := data[i : i+dim]
		for _, v := range row {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				continue next
			}
		}
		out = append(out, row...)
	}
	return out
}

// normaliseRows scales each row to unit L2 norm in place (zero rows stay).
func normaliseRows(data []float32, dim int) {
	for i := 0; i+dim <= len(data); i += dim {
		row := data[i : i+dim]
		var s float64
		for _, v := range row {
			s += float64(v) * float64(v)
		}
		if s == 0 {
			continue
		}
		inv := 1 / math.Sqrt(s)
		for j := range row {
			row[j] = float32(float64(row[j]) * inv)
		}
	}
}
