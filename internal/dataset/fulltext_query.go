package dataset

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// FTSQuery is a structured full-text query: *MatchQuery, *PhraseQuery,
// *BooleanQuery, *BoostQuery or *MultiMatchQuery (pylance's lance.query
// classes of the same names).
type FTSQuery interface {
	// Kind names the query type as pylance's FullTextQueryType does
	// ("match", "match_phrase", "boolean", "boost", "multi_match").
	Kind() string
}

// FTSOperator combines a match query's terms.
type FTSOperator int

const (
	// OperatorOr matches documents holding any term (pylance's default).
	OperatorOr FTSOperator = iota
	// OperatorAnd matches documents holding every term.
	OperatorAnd
)

// MatchQuery matches documents holding the terms of Terms (analyzed with
// the column's index tokenizer) and scores them with BM25.
type MatchQuery struct {
	Terms string
	// Column is the searched column (empty: every indexed string column).
	Column string
	// Boost multiplies the scores (0 means pylance's default 1).
	Boost    float32
	Operator FTSOperator
	// Fuzziness > 0 (or AutoFuzziness) asks for fuzzy matching, which
	// lancego does not do yet (ErrUnsupported).
	Fuzziness     int
	AutoFuzziness bool
}

// PhraseQuery matches documents holding the terms of Terms in order, at
// most Slop positions apart; the column's index must store positions.
type PhraseQuery struct {
	Terms, Column string
	Slop          int
}

// Occur says how a boolean clause takes part.
type Occur int

const (
	// Should: a matching document gets the clause's score added; with no
	// Must clause, a document must match some Should clause.
	Should Occur = iota
	// Must: the document must match; its score is added.
	Must
	// MustNot: the document must not match; no score.
	MustNot
)

// BooleanClause is one clause of a BooleanQuery.
type BooleanClause struct {
	Occur Occur
	Query FTSQuery
}

// BooleanQuery combines clauses (pylance's BooleanQuery).
type BooleanQuery struct{ Clauses []BooleanClause }

// BoostQuery scores Positive's documents, lowered by NegativeBoost times
// their Negative score (pylance's BoostQuery; its default NegativeBoost
// is 0.5).
type BoostQuery struct {
	Positive, Negative FTSQuery
	NegativeBoost      float32
}

// MultiMatchQuery is a match query on each of Columns (Boosts, when set,
// one per column), a row scoring its best column's score.
type MultiMatchQuery struct {
	Terms    string
	Columns  []string
	Boosts   []float32
	Operator FTSOperator
}

// Kind is "match".
func (*MatchQuery) Kind() string { return "match" }

// Kind is "match_phrase".
func (*PhraseQuery) Kind() string { return "match_phrase" }

// Kind is "boolean".
func (*BooleanQuery) Kind() string { return "boolean" }

// Kind is "boost".
func (*BoostQuery) Kind() string { return "boost" }

// Kind is "multi_match".
func (*MultiMatchQuery) Kind() string { return "multi_match" }

// isPhrase reports a string query in double quotes (Lance's
// is_phrase_query), returning its inside.
func isPhrase(s string) (string, bool) {
	if len(s) >= 2 && strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) {
		return s[1 : len(s)-1], true
	}
	return s, false
}

// resolve turns the request into a query tree whose leaves name their
// column.
func (s *ftsSearch) resolve(ctx context.Context, q FullTextQuery) (FTSQuery, error) {
	if q.Query != nil {
		if q.Text != "" || len(q.SearchColumns) > 0 {
			return nil, fmt.Errorf("%w: both Text/SearchColumns and Query set", ErrInvalidArgument)
		}
		return s.fill(ctx, q.Query)
	}
	text, phrase := isPhrase(q.Text)
	cols := q.SearchColumns
	if len(cols) == 0 {
		var err error
		if cols, err = s.indexedColumns(ctx); err != nil {
			return nil, err
		}
	}
	if phrase {
		if len(cols) != 1 {
			return nil, fmt.Errorf("%w: a phrase query searches one column, not %d", ErrInvalidArgument, len(cols))
		}
		return &PhraseQuery{Terms: text, Column: cols[0]}, nil
	}
	if len(cols) == 1 {
		return &MatchQuery{Terms: text, Column: cols[0]}, nil
	}
	return &MultiMatchQuery{Terms: text, Columns: cols}, nil
}

// fill gives the leaves without a column every indexed column, as
// Lance's fill_fts_query_column does, and checks the tree.
func (s *ftsSearch) fill(ctx context.Context, q FTSQuery) (FTSQuery, error) {
	defaultCols := func() ([]string, error) { return s.indexedColumns(ctx) }
	switch x := q.(type) {
	case *MatchQuery:
		if x == nil {
			return nil, fmt.Errorf("%w: nil match query", ErrInvalidArgument)
		}
		if x.Column != "" {
			return x, nil
		}
		cols, err := defaultCols()
		if err != nil {
			return nil, err
		}
		if len(cols) == 1 {
			y := *x
			y.Column = cols[0]
			return &y, nil
		}
		if x.Boost != 0 && x.Boost != 1 || x.Fuzziness != 0 || x.AutoFuzziness {
			return nil, fmt.Errorf("%w: match query without a column, with boost or fuzziness, over %d columns", ErrUnsupported, len(cols))
		}
		return &MultiMatchQuery{Terms: x.Terms, Columns: cols, Operator: x.Operator}, nil
	case *PhraseQuery:
		if x == nil {
			return nil, fmt.Errorf("%w: nil phrase query", ErrInvalidArgument)
		}
		if x.Slop < 0 {
			return nil, fmt.Errorf("%w: phrase slop %d", ErrInvalidArgument, x.Slop)
		}
		if x.Column != "" {
			return x, nil
		}
		cols, err := defaultCols()
		if err != nil {
			return nil, err
		}
		if len(cols) != 1 {
			return nil, fmt.Errorf("%w: a phrase query without a column over %d indexed columns", ErrInvalidArgument, len(cols))
		}
		y := *x
		y.Column = cols[0]
		return &y, nil
	case *MultiMatchQuery:
		if x == nil || len(x.Columns) == 0 {
			return nil, fmt.Errorf("%w: multi-match query without columns", ErrInvalidArgument)
		}
		if len(x.Boosts) > 0 && len(x.Boosts) != len(x.Columns) {
			return nil, fmt.Errorf("%w: multi-match query with %d boosts for %d columns", ErrInvalidArgument, len(x.Boosts), len(x.Columns))
		}
		return x, nil
	case *BoostQuery:
		if x == nil || x.Positive == nil || x.Negative == nil {
			return nil, fmt.Errorf("%w: boost query without positive or negative query", ErrInvalidArgument)
		}
		p, err := s.fill(ctx, x.Positive)
		if err != nil {
			return nil, err
		}
		n, err := s.fill(ctx, x.Negative)
		if err != nil {
			return nil, err
		}
		return &BoostQuery{Positive: p, Negative: n, NegativeBoost: x.NegativeBoost}, nil
	case *BooleanQuery:
		if x == nil {
			return nil, fmt.Errorf("%w: nil boolean query", ErrInvalidArgument)
		}
		out := &BooleanQuery{}
		positive := false
		for _, c := range x.Clauses {
			if c.Occur < Should || c.Occur > MustNot {
				return nil, fmt.Errorf("%w: boolean clause occur %d", ErrInvalidArgument, c.Occur)
			}
			sub, err := s.fill(ctx, c.Query)
			if err != nil {
				return nil, err
			}
			positive = positive || c.Occur != MustNot
			out.Clauses = append(out.Clauses, BooleanClause{c.Occur, sub})
		}
		if !positive {
			return nil, fmt.Errorf("%w: boolean query must have at least one should/must query", ErrInvalidArgument)
		}
		return out, nil
	case nil:
		return nil, fmt.Errorf("%w: nil query", ErrInvalidArgument)
	default:
		return nil, fmt.Errorf("%w: full-text query kind %s", ErrUnsupported, q.Kind())
	}
}

// eval scores the query tree: row id → score.
func (s *ftsSearch) eval(ctx context.Context, q FTSQuery) (map[uint64]float32, error) {
	switch x := q.(type) {
	case *MatchQuery:
		if x.Fuzziness != 0 || x.AutoFuzziness {
			return nil, fmt.Errorf("%w: fuzzy match queries (fuzziness %d)", ErrUnsupported, x.Fuzziness)
		}
		out, err := s.match(ctx, x.Column, x.Terms, x.Operator == OperatorAnd)
		if err != nil {
			return nil, err
		}
		if b := x.Boost; b != 0 && b != 1 {
			for id, v := range out {
				out[id] = v * b
			}
		}
		return out, nil
	case *PhraseQuery:
		return s.phrase(ctx, x.Column, x.Terms, x.Slop)
	case *MultiMatchQuery:
		best := map[uint64]float32{}
		for i, col := range x.Columns {
			m := &MatchQuery{Terms: x.Terms, Column: col, Operator: x.Operator}
			if len(x.Boosts) > 0 {
				m.Boost = x.Boosts[i]
			}
			sc, err := s.eval(ctx, m)
			if err != nil {
				return nil, err
			}
			for id, v := range sc {
				if old, ok := best[id]; !ok || v > old {
					best[id] = v
				}
			}
		}
		return best, nil
	case *BoostQuery:
		pos, err := s.eval(ctx, x.Positive)
		if err != nil {
			return nil, err
		}
		neg, err := s.eval(ctx, x.Negative)
		if err != nil {
			return nil, err
		}
		for id, v := range neg {
			if p, ok := pos[id]; ok {
				pos[id] = p - float32(x.NegativeBoost*v)
			}
		}
		return pos, nil
	case *BooleanQuery:
		return s.boolean(ctx, x)
	default:
		return nil, fmt.Errorf("%w: full-text query kind %s", ErrUnsupported, q.Kind())
	}
}

// boolean combines clauses as Lance's BooleanQueryExec: the Must
// clauses' rows (scores summed), else the union of the Should clauses';
// Should scores added to the rows kept; MustNot rows removed.
func (s *ftsSearch) boolean(ctx context.Context, q *BooleanQuery) (map[uint64]float32, error) {
	var res map[uint64]float32
	for _, c := range q.Clauses {
		if c.Occur != Must {
			continue
		}
		sc, err := s.eval(ctx, c.Query)
		if err != nil {
			return nil, err
		}
		if res == nil {
			res = sc
			continue
		}
		for id, v := range res {
			if w, ok := sc[id]; ok {
				res[id] = v + w
			} else {
				delete(res, id)
			}
		}
	}
	hasMust := res != nil
	if !hasMust {
		res = map[uint64]float32{}
	}
	for _, c := range q.Clauses {
		if c.Occur != Should {
			continue
		}
		sc, err := s.eval(ctx, c.Query)
		if err != nil {
			return nil, err
		}
		for id, w := range sc {
			if v, ok := res[id]; ok {
				res[id] = v + w
			} else if !hasMust {
				res[id] = w
			}
		}
	}
	for _, c := range q.Clauses {
		if c.Occur != MustNot {
			continue
		}
		sc, err := s.eval(ctx, c.Query)
		if err != nil {
			return nil, err
		}
		for id := range sc {
			delete(res, id)
		}
	}
	return res, nil
}

// isStringType reports the column types Lance full-text indexes.
func isStringType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING:
		return true
	case arrow.LIST:
		return isStringType(t.(*arrow.ListType).Elem())
	case arrow.LARGE_LIST:
		return isStringType(t.(*arrow.LargeListType).Elem())
	}
	return false
}
