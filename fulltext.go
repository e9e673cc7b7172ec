package lance

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/internal/dataset"
)

// Full-text search over INVERTED indices (Dataset.FullTextSearch), scored
// with BM25 as pylance 14.0.2 scores it. The query types are the engine's
// own for now (type aliases): their fields are documented with
// `go doc github.com/lancego/lancego/internal/dataset FullTextQuery`.
type (
	// FullTextQuery is one full-text search: the query (Text, or a
	// structured Query), the columns searched, K, an optional SQL filter
	// (Prefilter to apply it before ranking) and the columns returned
	// before _score.
	FullTextQuery = dataset.FullTextQuery
	// FTSQuery is a structured query: MatchQuery, PhraseQuery,
	// BooleanQuery, BoostQuery or MultiMatchQuery.
	FTSQuery = dataset.FTSQuery
	// MatchQuery matches the analysed terms of its text (OR or AND).
	MatchQuery = dataset.MatchQuery
	// PhraseQuery matches the terms in order, within Slop positions (the
	// index must have been built with positions).
	PhraseQuery = dataset.PhraseQuery
	// BooleanQuery combines clauses that should, must or must not match.
	BooleanQuery = dataset.BooleanQuery
	// BooleanClause is one clause of a BooleanQuery.
	BooleanClause = dataset.BooleanClause
	// BoostQuery scores a positive query, lowered where a negative one
	// matches.
	BoostQuery = dataset.BoostQuery
	// MultiMatchQuery runs a match query over several columns.
	MultiMatchQuery = dataset.MultiMatchQuery
	// FTSOperator joins the terms of a MatchQuery: OperatorOr, OperatorAnd.
	FTSOperator = dataset.FTSOperator
	// Occur is how a BooleanClause counts: Should, Must or MustNot.
	Occur = dataset.Occur
	// FullTextStats says how a full-text search was answered
	// (WithFullTextStats).
	FullTextStats = dataset.FullTextStats
	// FullTextOption configures Dataset.FullTextSearch.
	FullTextOption = dataset.FullTextOption
)

// The operators of a MatchQuery and the kinds of a BooleanClause.
const (
	OperatorOr  = dataset.OperatorOr
	OperatorAnd = dataset.OperatorAnd
	Should      = dataset.Should
	Must        = dataset.Must
	MustNot     = dataset.MustNot
)

// WithFullTextStats makes FullTextSearch fill s.
func WithFullTextStats(s *FullTextStats) FullTextOption { return dataset.WithFullTextStats(s) }

// FullTextSearch returns the K best-scoring rows of q as one batch: the
// requested columns, then _score (float32, BM25 as pylance computes it,
// bit for bit), best first. It uses every INVERTED index segment of the
// searched columns, masks deleted rows, scores fragments no segment covers
// by scanning them (unless q.FastSearch), and fails with ErrUnsupported
// for query kinds it does not implement (fuzzy matching) or a column
// without an INVERTED index.
func (d *Dataset) FullTextSearch(ctx context.Context, q FullTextQuery, opts ...FullTextOption) (arrow.RecordBatch, error) {
	return d.d.FullTextSearch(ctx, q, opts...)
}
