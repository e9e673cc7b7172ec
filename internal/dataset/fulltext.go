package dataset

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
)

// ScoreColumn is the name of the BM25 score column of a full-text
// search's result (float32), as in pylance.
const ScoreColumn = "_score"

// MaxFullTextK bounds FullTextQuery.K.
const MaxFullTextK = 1 << 24

// FullTextQuery is a full-text search over INVERTED indices, the
// arguments of pylance's `to_table(full_text_query=..., ...)`.
//
// The query is either Text (pylance's string query: a match query of its
// terms, any of them matching, over SearchColumns; a text in double
// quotes is a phrase query) or Query (pylance's MatchQuery, PhraseQuery,
// BooleanQuery, BoostQuery, MultiMatchQuery objects), not both.
type FullTextQuery struct {
	// Text is a string query (pylance's `full_text_query="..."`).
	Text string
	// SearchColumns are the columns Text searches (pylance's `columns`):
	// empty means every string column with an INVERTED index.
	SearchColumns []string
	// Query is a structured query (nil: Text).
	Query FTSQuery
	// K > 0 returns the K best rows (pylance's `limit`); 0 returns every
	// matching row.
	K int
	// Filter (SQL, expr.Parse) or FilterExpr selects the rows; not both.
	Filter     string
	FilterExpr expr.Expr
	// Prefilter filters before ranking (K rows come back when K rows
	// match). Without it the filter applies to the K best rows (pylance's
	// default), which may return fewer.
	Prefilter bool
	// FastSearch searches indexed fragments only (pylance's fast_search):
	// rows of fragments no index segment covers are not scored.
	FastSearch bool
	// Columns are the columns returned before _score (empty: all).
	Columns []string
	// WithRowID appends _rowid after _score.
	WithRowID bool
}

// FullTextStats says how a full-text search was answered.
type FullTextStats struct {
	// Segments is the number of INVERTED index segments read.
	Segments int
	// IndexedHits is the number of indexed documents scored; FlatRows the
	// number of unindexed rows tokenized and scored (flat search).
	IndexedHits, FlatRows uint64
}

// FullTextOption configures FullTextSearch.
type FullTextOption func(*fullTextConfig)

type fullTextConfig struct{ stats *FullTextStats }

// WithFullTextStats fills *s with how the search was answered.
func WithFullTextStats(s *FullTextStats) FullTextOption {
	return func(c *fullTextConfig) { c.stats = s }
}

// ftsHit is a scored row.
type ftsHit struct {
	rowID uint64
	score float32
}

// FullTextSearch answers q as pylance 14.0.2 does: each column's query
// terms are analyzed with the tokenizer its INVERTED index stores, indexed
// documents are scored with BM25 over the statistics of every segment of
// the index (documents deleted since indexing included, as Lance counts
// them), rows of fragments no segment covers are tokenized and scored
// with those statistics plus their own (Lance's flat search; not with
// FastSearch), deleted rows never appear. The result holds the requested
// columns, then _score (float32), then _rowid if asked, ordered by score
// (descending); equal scores come in row id order (pylance's order among
// them depends on hash maps and heaps and is not reproducible).
func (ds *Dataset) FullTextSearch(ctx context.Context, q FullTextQuery, opts ...FullTextOption) (arrow.RecordBatch, error) {
	cfg := fullTextConfig{stats: &FullTextStats{}}
	for _, o := range opts {
		o(&cfg)
	}
	*cfg.stats = FullTextStats{}
	where := func(err error) error {
		return fmt.Errorf("full-text search on %s version %d: %w", ds.url, ds.man.Version, err)
	}
	if q.K < 0 || q.K > MaxFullTextK {
		return nil, where(fmt.Errorf("%w: k = %d (want 0 to %d)", ErrInvalidArgument, q.K, MaxFullTextK))
	}
	if q.Filter != "" && q.FilterExpr != nil {
		return nil, where(fmt.Errorf("%w: both Filter and FilterExpr set", ErrInvalidArgument))
	}
	filter := q.FilterExpr
	if q.Filter != "" {
		var err error
		if filter, err = expr.Parse(q.Filter); err != nil {
			return nil, where(fmt.Errorf("filter: %w", err))
		}
	}
	if _, err := ds.project(ReadOptions{Columns: q.Columns}); err != nil {
		return nil, where(err)
	}
	s := &ftsSearch{ds: ds, q: q, stats: cfg.stats, segs: map[string]*ftsColumn{}}
	defer s.close()
	root, err := s.resolve(ctx, q)
	if err != nil {
		return nil, where(err)
	}
	if filter != nil && q.Prefilter {
		if s.mask, err = ds.filterMask(ctx, filter); err != nil {
			return nil, where(err)
		}
		s.filter = filter
	}
	scores, err := s.eval(ctx, root)
	if err != nil {
		return nil, where(err)
	}
	hits := rankHits(scores, q.K)
	if filter != nil && !q.Prefilter {
		if hits, err = ds.postFilterHits(ctx, hits, filter); err != nil {
			return nil, where(err)
		}
	}
	rec, err := ds.fullTextResult(ctx, q, hits)
	if err != nil {
		return nil, where(err)
	}
	return rec, nil
}

// rankHits orders scores by score (descending) then row id and keeps the
// k best (k = 0: all).
func rankHits(scores map[uint64]float32, k int) []ftsHit {
	hits := make([]ftsHit, 0, len(scores))
	for id, s := range scores {
		hits = append(hits, ftsHit{id, s})
	}
	slices.SortFunc(hits, func(a, b ftsHit) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.rowID, b.rowID)
	})
	if k > 0 && len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

// postFilterHits keeps the hits whose rows the filter selects (pylance's
// post-filter: the K best rows first, then the filter).
func (ds *Dataset) postFilterHits(ctx context.Context, hits []ftsHit, filter expr.Expr) ([]ftsHit, error) {
	if len(hits) == 0 {
		return hits, nil
	}
	ids := make([]uint64, len(hits))
	for i, h := range hits {
		ids[i] = h.rowID
	}
	rec, err := ds.TakeRowIDs(ctx, ids, ReadOptions{WithRowID: true, WithRowAddress: true})
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	pred, err := expr.Bind(filter, rec.Schema())
	if err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	keep, err := pred.Evaluate(rec)
	if err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	out := hits[:0]
	for i, h := range hits {
		if keep[i] {
			out = append(out, h)
		}
	}
	return out, nil
}

// fullTextResult takes the projection of the hits and appends _score (and
// _rowid).
func (ds *Dataset) fullTextResult(ctx context.Context, q FullTextQuery, hits []ftsHit) (arrow.RecordBatch, error) {
	ids := make([]uint64, len(hits))
	for i, h := range hits {
		ids[i] = h.rowID
	}
	rec, err := ds.TakeRowIDs(ctx, ids, ReadOptions{Columns: q.Columns})
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	mem := memory.DefaultAllocator
	sb := array.NewFloat32Builder(mem)
	defer sb.Release()
	ib := array.NewUint64Builder(mem)
	defer ib.Release()
	for _, h := range hits {
		sb.Append(h.score)
		ib.Append(h.rowID)
	}
	fields := append([]arrow.Field(nil), rec.Schema().Fields()...)
	cols := append([]arrow.Array(nil), rec.Columns()...)
	sa := sb.NewArray()
	defer sa.Release()
	fields = append(fields, arrow.Field{Name: ScoreColumn, Type: arrow.PrimitiveTypes.Float32, Nullable: true})
	cols = append(cols, sa)
	if q.WithRowID {
		ia := ib.NewArray()
		defer ia.Release()
		fields = append(fields, arrow.Field{Name: RowIDColumn, Type: arrow.PrimitiveTypes.Uint64, Nullable: true})
		cols = append(cols, ia)
	}
	md := rec.Schema().Metadata()
	return array.NewRecordBatch(arrow.NewSchema(fields, &md), cols, int64(len(hits))), nil
}
