package lance

import (
	"github.com/lancego/lancego/internal/dataset"
	"github.com/lancego/lancego/vector"
)

// VectorQuery is a nearest-neighbour query for Dataset.Nearest: the vector
// column, the query vector, K, the metric, the index parameters (Nprobes,
// MinNprobes, MaxNprobes, RefineFactor, Ef), a filter applied before
// (Prefilter) or after ranking, NoIndex, DistanceRange and the projection.
// The result holds the requested columns, then _distance (float32), then
// _rowid if asked, ordered by distance then row id as pylance's
// `to_table(nearest=...)`.
//
//	rec, err := ds.Nearest(ctx, lance.VectorQuery{
//		Column: "vec", Vector: []float32{0.1, 0.2, 0.3}, K: 10,
//		Metric: lance.MetricCosine, Filter: "price < 100", Prefilter: true,
//	})
type VectorQuery = dataset.VectorQuery

// DistanceRange bounds the distances a query returns: Lower ≤ d < Upper.
type DistanceRange = dataset.DistanceRange

// NearestStats says how a nearest-neighbour query was answered (rows
// scanned, whether an index was used and why not).
type NearestStats = dataset.NearestStats

// NearestOption configures Dataset.Nearest.
type NearestOption = dataset.NearestOption

// IndexSearcher is the indexed-search seam of Dataset.Nearest (see
// WithIndexSearcher).
type IndexSearcher = dataset.IndexSearcher

// Metric is a distance metric of vector search.
type Metric = vector.Metric

// The metrics, with the distances pylance reports in _distance.
const (
	// MetricL2 is the squared Euclidean distance Σ(q−x)² (pylance's default).
	MetricL2 = vector.L2
	// MetricCosine is 1 − cos(q, x).
	MetricCosine = vector.Cosine
	// MetricDot is 1 − q·x.
	MetricDot = vector.Dot
	// MetricHamming is the number of differing bits of uint8 vectors.
	MetricHamming = vector.Hamming
)

// DistanceColumn is the name of the distance column (float32).
const DistanceColumn = dataset.DistanceColumn

// MaxNearestK bounds VectorQuery.K.
const MaxNearestK = dataset.MaxNearestK

// ParseMetric reads a metric name as pylance accepts it ("l2",
// "euclidean", "cosine", "dot", "hamming"; empty is l2).
func ParseMetric(s string) (Metric, error) { return vector.ParseMetric(s) }

// WithNearestStats fills *s with how a Nearest query was answered.
func WithNearestStats(s *NearestStats) NearestOption { return dataset.WithNearestStats(s) }

// WithIndexSearcher gives Nearest the indexed search to try first.
func WithIndexSearcher(f IndexSearcher) NearestOption { return dataset.WithIndexSearcher(f) }
