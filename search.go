package lance

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/dataset"
	"github.com/lancego/lancego/vector"
)

// VectorQuery is a nearest-neighbour query for Dataset.Nearest, the fields
// of pylance's `nearest={...}` plus the scan's filter and projection. The
// result holds the requested columns, then _distance (float32), then
// _rowid if asked, ordered by distance then row id as pylance's
// `to_table(nearest=...)`.
//
//	rec, err := ds.Nearest(ctx, lance.VectorQuery{
//		Column: "vec", Vector: []float32{0.1, 0.2, 0.3}, K: 10,
//		Metric: lance.MetricCosine, Filter: "price < 100", Prefilter: true,
//	})
type VectorQuery struct {
	// Column is the vector column: a fixed-size list of float16, float32,
	// float64 or uint8.
	Column string
	// Vector is the query vector: a []float32, []float64, []float16.Num,
	// []byte, []int, []int32, []int64 or an Arrow numeric array (or a
	// one-row fixed-size list) of the column's dimension.
	Vector any
	// K is the number of rows to return (1 ≤ K ≤ MaxNearestK).
	K int
	// Metric is the distance (MetricL2 by default, as in pylance).
	Metric Metric
	// Nprobes sets MinNprobes and MaxNprobes when > 0; MinNprobes (default
	// 1) partitions are always searched, more up to MaxNprobes (0: all)
	// while fewer than K rows are found. Indexed search only.
	Nprobes, MinNprobes, MaxNprobes int
	// RefineFactor > 0 re-ranks K·RefineFactor index candidates with exact
	// distances. Indexed search only. With an index, the index's metric
	// ranks the rows whatever Metric says, as in Lance.
	RefineFactor int
	// Ef is the HNSW search breadth (0: Lance's 1.5 × K × RefineFactor;
	// Lance refuses less than K × RefineFactor). Indexed search only.
	Ef int
	// FastSearch searches the index only: fragments the index does not
	// cover are not searched (pylance's fast_search=True).
	FastSearch bool
	// Filter (SQL, expr.Parse) or FilterExpr selects the rows; not both.
	Filter     string
	FilterExpr expr.Expr
	// Prefilter filters before ranking, so K rows come back when K rows
	// match. Without it the filter applies to the K nearest rows (pylance's
	// default), which may return fewer.
	Prefilter bool
	// NoIndex searches exactly even when the column has a vector index
	// (pylance's use_index=False).
	NoIndex bool
	// DistanceRange, when set, keeps rows with Lower ≤ distance < Upper
	// (either bound may be ±Inf) before ranking.
	DistanceRange *DistanceRange
	// Columns are the columns returned before _distance (empty: all).
	Columns []string
	// WithRowID appends _rowid after _distance.
	WithRowID bool
}

func (q VectorQuery) internal() dataset.VectorQuery {
	out := dataset.VectorQuery{
		Column: q.Column, Vector: q.Vector, K: q.K, Metric: q.Metric,
		Nprobes: q.Nprobes, MinNprobes: q.MinNprobes, MaxNprobes: q.MaxNprobes,
		RefineFactor: q.RefineFactor, Ef: q.Ef, FastSearch: q.FastSearch, Filter: q.Filter, FilterExpr: q.FilterExpr,
		Prefilter: q.Prefilter, NoIndex: q.NoIndex, Columns: q.Columns, WithRowID: q.WithRowID,
	}
	if q.DistanceRange != nil {
		out.DistanceRange = &dataset.DistanceRange{Lower: q.DistanceRange.Lower, Upper: q.DistanceRange.Upper}
	}
	return out
}

func vectorQueryOf(q dataset.VectorQuery) VectorQuery {
	out := VectorQuery{
		Column: q.Column, Vector: q.Vector, K: q.K, Metric: q.Metric,
		Nprobes: q.Nprobes, MinNprobes: q.MinNprobes, MaxNprobes: q.MaxNprobes,
		RefineFactor: q.RefineFactor, Ef: q.Ef, FastSearch: q.FastSearch, Filter: q.Filter, FilterExpr: q.FilterExpr,
		Prefilter: q.Prefilter, NoIndex: q.NoIndex, Columns: q.Columns, WithRowID: q.WithRowID,
	}
	if q.DistanceRange != nil {
		out.DistanceRange = &DistanceRange{Lower: q.DistanceRange.Lower, Upper: q.DistanceRange.Upper}
	}
	return out
}

// DistanceRange bounds the distances a query returns: Lower ≤ d < Upper.
type DistanceRange struct{ Lower, Upper float32 }

// NearestStats says how a nearest-neighbour query was answered (see
// WithNearestStats).
type NearestStats struct {
	// RowsScanned is the number of vectors whose exact distance was
	// computed.
	RowsScanned uint64
	// IndexUsed is true when a vector index (or an IndexSearcher)
	// answered the query; IndexName, IndexType and Segments name it.
	IndexUsed bool
	IndexName string
	IndexType string
	Segments  int
	// PartitionsSearched counts the IVF partitions read and searched over
	// all segments; Candidates the rows they returned.
	PartitionsSearched int
	Candidates         int
	// Requests and BytesRead count the storage requests and bytes the
	// query made (index files, data files, deletion files, manifest).
	Requests  int64
	BytesRead int64
	// Note explains why no index was used, when one could have been.
	Note string
}

func nearestStatsOf(s dataset.NearestStats) NearestStats {
	return NearestStats{RowsScanned: s.RowsScanned, IndexUsed: s.IndexUsed, IndexName: s.IndexName,
		IndexType: s.IndexType, Segments: s.Segments, PartitionsSearched: s.PartitionsSearched,
		Candidates: s.Candidates, Requests: s.Requests, BytesRead: s.BytesRead, Note: s.Note}
}

// NearestOption configures Dataset.Nearest (WithNearestStats,
// WithIndexSearcher); a nil NearestOption does nothing.
type NearestOption func(*nearestConfig)

type nearestConfig struct {
	stats *NearestStats
	index IndexSearcher
}

// IndexSearcher is the indexed-search seam of Dataset.Nearest (see
// WithIndexSearcher): given the dataset, the query and the checked query
// vector, it answers with the result batch and true, or false to let
// Nearest search exactly. The Dataset it is given is the one Nearest was
// called on; it must not be closed.
type IndexSearcher func(ctx context.Context, ds *Dataset, q VectorQuery, pq *vector.Query) (arrow.RecordBatch, bool, error)

// Nearest returns the K rows nearest to q.Vector in q.Column: the
// requested columns, then _distance (float32), then _rowid if asked,
// ordered by distance then row id as pylance's `to_table(nearest=...)`.
// Deleted rows never appear. When the column has a vector index (IVF
// with FLAT, PQ or SQ storage, or HNSW) and q.NoIndex is false, the index
// answers as pylance's does (Nprobes, RefineFactor, Ef; fragments the
// index does not cover searched exactly unless FastSearch). Otherwise the
// search is exact: every live vector's distance is computed, batch by
// batch, keeping the K best; the projection is then taken for the winners
// only. WithNearestStats tells which happened. A query the column cannot answer (wrong dimension or type, NaN,
// K out of range) fails with an error wrapping ErrInvalidArgument.
func (ds *Dataset) Nearest(ctx context.Context, q VectorQuery, opts ...NearestOption) (arrow.RecordBatch, error) {
	var cfg nearestConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	var st dataset.NearestStats
	iopts := []dataset.NearestOption{dataset.WithNearestStats(&st)}
	if search := cfg.index; search != nil {
		iopts = append(iopts, dataset.WithIndexSearcher(func(ctx context.Context, d *dataset.Dataset, q dataset.VectorQuery, pq *vector.Query) (arrow.RecordBatch, bool, error) {
			w := ds
			if d != ds.d {
				w = wrapDataset(d)
			}
			return search(ctx, w, vectorQueryOf(q), pq)
		}))
	}
	rec, err := ds.d.Nearest(ctx, q.internal(), iopts...)
	if cfg.stats != nil {
		*cfg.stats = nearestStatsOf(st)
	}
	return rec, err
}

// WithNearestStats fills *s with how a Nearest query was answered.
func WithNearestStats(s *NearestStats) NearestOption {
	return func(c *nearestConfig) { c.stats = s }
}

// WithIndexSearcher gives Nearest the indexed search to try first (unless
// VectorQuery.NoIndex).
func WithIndexSearcher(f IndexSearcher) NearestOption {
	return func(c *nearestConfig) { c.index = f }
}

// Metric is a distance metric of vector search (see package vector).
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
