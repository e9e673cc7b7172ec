package dataset

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/vector"
)

// DistanceColumn is the name of the distance column of a nearest-neighbour
// query's result (float32), as in pylance.
const DistanceColumn = "_distance"

// MaxNearestK bounds VectorQuery.K: the selection holds K rows in memory.
const MaxNearestK = 1 << 24

// VectorQuery is a nearest-neighbour query, the fields of pylance's
// `nearest={...}` plus the scan's filter and projection.
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
	// Metric is the distance (vector.L2 by default, as in pylance).
	Metric vector.Metric
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

// DistanceRange bounds the distances a query returns: Lower ≤ d < Upper.
type DistanceRange struct{ Lower, Upper float32 }

// NearestStats says how a query was answered.
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

// IndexSearcher is the seam for indexed search: given the query (checked,
// with its prepared vector), it answers with the result record and true,
// or false when the column has no index it can use (the query is then
// answered exactly, and NearestStats.Note says so).
type IndexSearcher func(ctx context.Context, ds *Dataset, q VectorQuery, pq *vector.Query) (arrow.RecordBatch, bool, error)

// NearestOption configures Nearest.
type NearestOption func(*nearestConfig)

type nearestConfig struct {
	stats *NearestStats
	index IndexSearcher
}

// WithNearestStats fills *s with how the query was answered.
func WithNearestStats(s *NearestStats) NearestOption {
	return func(c *nearestConfig) { c.stats = s }
}

// WithIndexSearcher gives Nearest the indexed search to try first (unless
// VectorQuery.NoIndex).
func WithIndexSearcher(f IndexSearcher) NearestOption {
	return func(c *nearestConfig) { c.index = f }
}

// Nearest returns the K rows nearest to q.Vector in q.Column: the
// requested columns, then _distance (float32), then _rowid if asked,
// ordered by distance then row id as pylance's
// `to_table(nearest=...)`. Deleted rows never appear. Without an
// IndexSearcher that answers, the search is exact (every live vector's
// distance is computed, batch by batch, keeping the K best; the
// projection is then taken for the winners only).
func (ds *Dataset) Nearest(ctx context.Context, q VectorQuery, opts ...NearestOption) (arrow.RecordBatch, error) {
	cfg := nearestConfig{stats: &NearestStats{}}
	for _, o := range opts {
		o(&cfg)
	}
	*cfg.stats = NearestStats{}
	st := cfg.stats
	before := ds.cfg.IO.Stats.Snapshot()
	defer func() {
		after := ds.cfg.IO.Stats.Snapshot()
		st.Requests, st.BytesRead = after.Requests-before.Requests, after.Bytes-before.Bytes
	}()
	pq, err := ds.checkQuery(q)
	if err != nil {
		return nil, err
	}
	switch {
	case q.NoIndex:
	case cfg.index != nil:
		rec, ok, err := cfg.index(ctx, ds, q, pq)
		if err != nil {
			return nil, err
		}
		if ok {
			st.IndexUsed = true
			return rec, nil
		}
		st.Note = "no usable vector index on column " + q.Column + ": searched exactly"
	default:
		rec, ok, err := ds.nearestIndexed(ctx, q, st)
		if err != nil || ok {
			return rec, err
		}
	}
	return ds.nearestExact(ctx, q, pq, st)
}

// checkQuery validates a query against the dataset.
func (ds *Dataset) checkQuery(q VectorQuery) (*vector.Query, error) {
	where := func(err error) error {
		return fmt.Errorf("nearest on %s version %d: %w", ds.url, ds.man.Version, err)
	}
	if q.K < 1 || q.K > MaxNearestK {
		return nil, where(fmt.Errorf("%w: k = %d (want 1 to %d)", ErrInvalidArgument, q.K, MaxNearestK))
	}
	if q.Filter != "" && q.FilterExpr != nil {
		return nil, where(fmt.Errorf("%w: both Filter and FilterExpr set", ErrInvalidArgument))
	}
	if q.Nprobes < 0 || q.MinNprobes < 0 || q.MaxNprobes < 0 || q.RefineFactor < 0 || q.Ef < 0 {
		return nil, where(fmt.Errorf("%w: negative nprobes, refine factor or ef", ErrInvalidArgument))
	}
	if q.MaxNprobes > 0 && q.MinNprobes > q.MaxNprobes {
		return nil, where(fmt.Errorf("%w: minimum nprobes %d > maximum %d", ErrInvalidArgument, q.MinNprobes, q.MaxNprobes))
	}
	if r := q.DistanceRange; r != nil && (math.IsNaN(float64(r.Lower)) || math.IsNaN(float64(r.Upper))) {
		return nil, where(fmt.Errorf("%w: NaN distance range bound", ErrInvalidArgument))
	}
	idx := ds.arrow.FieldIndices(q.Column)
	if len(idx) == 0 {
		return nil, where(fmt.Errorf("%w: no column %q", ErrInvalidArgument, q.Column))
	}
	pq, err := vector.NewQuery(q.Metric, q.Vector)
	if err != nil {
		return nil, where(err)
	}
	if err := pq.CheckColumn(q.Column, ds.arrow.Field(idx[0]).Type); err != nil {
		return nil, where(err)
	}
	return pq, nil
}

// filterOf returns the query's filter expression (nil for none).
func (q VectorQuery) filterOf() (expr.Expr, error) {
	if q.FilterExpr != nil {
		return q.FilterExpr, nil
	}
	if q.Filter == "" {
		return nil, nil
	}
	return expr.Parse(q.Filter)
}

// nearestExact is the exact search.
func (ds *Dataset) nearestExact(ctx context.Context, q VectorQuery, pq *vector.Query, st *NearestStats) (arrow.RecordBatch, error) {
	filter, err := q.filterOf()
	if err != nil {
		return nil, fmt.Errorf("nearest on %s: filter: %w", ds.url, err)
	}
	so := DatasetScanOptions{ReadOptions: ReadOptions{Columns: []string{q.Column}, WithRowID: true}}
	if q.Prefilter {
		so.Filter = filter
	}
	top := vector.NewTopK(q.K)
	dist := make([]float32, 0, 1024)
	scratch := make([]float32, pq.Dim)
	lo, hi := float32(math.Inf(-1)), float32(math.Inf(1))
	if q.DistanceRange != nil {
		lo, hi = q.DistanceRange.Lower, q.DistanceRange.Upper
	}
	for rec, err := range ds.Batches(ctx, so) {
		if err != nil {
			return nil, err
		}
		if err := rankBatch(rec, pq, top, &dist, scratch, lo, hi); err != nil {
			rec.Release()
			return nil, fmt.Errorf("nearest on %s column %q: %w", ds.url, q.Column, err)
		}
		st.RowsScanned += uint64(rec.NumRows())
		rec.Release()
	}
	hits := top.Sorted()
	if !q.Prefilter && filter != nil {
		if hits, err = ds.postFilter(ctx, hits, filter); err != nil {
			return nil, err
		}
	}
	return ds.nearestResult(ctx, q, hits)
}

// rankBatch offers a scanned batch's rows (vector column 0, _rowid last)
// to the selection.
func rankBatch(rec arrow.RecordBatch, pq *vector.Query, top *vector.TopK, dist *[]float32, scratch []float32, lo, hi float32) error {
	fsl, ok := rec.Column(0).(*array.FixedSizeList)
	if !ok {
		return fmt.Errorf("%w: vector column read as %s", ErrInvalidArgument, rec.Column(0).DataType())
	}
	ids, ok := rec.Column(int(rec.NumCols()) - 1).(*array.Uint64)
	if !ok {
		return errors.New("dataset: scan returned no _rowid column")
	}
	n := fsl.Len()
	if cap(*dist) < n {
		*dist = make([]float32, n)
	}
	d := (*dist)[:n]
	if err := pq.Distances(fsl, d, scratch); err != nil {
		return err
	}
	idv := ids.Uint64Values()
	worst := top.Worst()
	for i, x := range d {
		if x > worst || !(x >= lo && x < hi) {
			continue
		}
		top.Push(x, idv[i])
		worst = top.Worst()
	}
	return nil
}

// postFilter keeps the hits whose rows the filter selects (pylance's
// post-filter: the K nearest rows first, then the filter).
func (ds *Dataset) postFilter(ctx context.Context, hits []vector.Hit, filter expr.Expr) ([]vector.Hit, error) {
	if len(hits) == 0 {
		return hits, nil
	}
	rec, err := ds.TakeRowIDs(ctx, hitIDs(hits), ReadOptions{WithRowID: true, WithRowAddress: true})
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	pred, err := expr.Bind(filter, rec.Schema())
	if err != nil {
		return nil, fmt.Errorf("nearest on %s: filter: %w", ds.url, err)
	}
	keep, err := pred.Evaluate(rec)
	if err != nil {
		return nil, fmt.Errorf("nearest on %s: filter: %w", ds.url, err)
	}
	out := hits[:0]
	for i, h := range hits {
		if keep[i] {
			out = append(out, h)
		}
	}
	return out, nil
}

func hitIDs(hits []vector.Hit) []uint64 {
	ids := make([]uint64, len(hits))
	for i, h := range hits {
		ids[i] = h.RowID
	}
	return ids
}

// nearestResult takes the projection of the winners and appends _distance
// (and _rowid).
func (ds *Dataset) nearestResult(ctx context.Context, q VectorQuery, hits []vector.Hit) (arrow.RecordBatch, error) {
	rec, err := ds.TakeRowIDs(ctx, hitIDs(hits), ReadOptions{Columns: q.Columns})
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	mem := memory.DefaultAllocator
	db := array.NewFloat32Builder(mem)
	defer db.Release()
	ib := array.NewUint64Builder(mem)
	defer ib.Release()
	for _, h := range hits {
		db.Append(h.Distance)
		ib.Append(h.RowID)
	}
	fields := append([]arrow.Field(nil), rec.Schema().Fields()...)
	cols := append([]arrow.Array(nil), rec.Columns()...)
	da := db.NewArray()
	defer da.Release()
	fields = append(fields, arrow.Field{Name: DistanceColumn, Type: arrow.PrimitiveTypes.Float32, Nullable: true})
	cols = append(cols, da)
	if q.WithRowID {
		ia := ib.NewArray()
		defer ia.Release()
		fields = append(fields, arrow.Field{Name: RowIDColumn, Type: arrow.PrimitiveTypes.Uint64, Nullable: true})
		cols = append(cols, ia)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(len(hits))), nil
}
