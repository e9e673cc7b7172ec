package dataset

import (
	"context"
	"fmt"
	"sort"

	"github.com/lancego/lancego/fts/analysis"
)

// phrase scores a phrase query on column col as Lance does: the indexed
// documents holding every term (scored as a match of all of them) whose
// term positions line up, each term at most slop positions after the
// previous one (Lance's check_positions). The positions are those the
// index stored: the column's tokenizer's (filters that drop tokens leave
// gaps); lancego recomputes them from the candidate rows' text rather
// than reading the index's position streams. Like pylance, a phrase query
// needs an index built with positions and does not search unindexed
// fragments.
func (s *ftsSearch) phrase(ctx context.Context, col, text string, slop int) (map[uint64]float32, error) {
	c, err := s.column(ctx, col)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("%w: no INVERTED index found for column %q", ErrInvalidArgument, col)
	}
	if !c.position {
		return nil, fmt.Errorf("%w: position is not found but required for phrase queries, try recreating the index with position", ErrInvalidArgument)
	}
	qt := c.analyzer.Analyze(nil, text)
	terms := make([]string, len(qt))
	qpos := make([]int, len(qt))
	for i, t := range qt {
		terms[i], qpos[i] = t.Term, t.Position
	}
	out := map[uint64]float32{}
	if len(terms) == 0 {
		return out, nil
	}
	pos := make([][]int, len(terms))
	aligned := func(toks []analysis.Token) bool {
		for j := range pos {
			pos[j] = pos[j][:0]
		}
		for _, t := range toks {
			for j, q := range terms {
				if t.Term == q {
					pos[j] = append(pos[j], t.Position)
				}
			}
		}
		return phraseAligned(pos, qpos, slop)
	}
	if err := s.indexedPhrase(ctx, c, terms, aligned, out); err != nil {
		return nil, err
	}
	if frags := s.unindexedFragments(c); len(frags) > 0 && !s.q.FastSearch {
		if err := s.flatScore(ctx, c, frags, terms, true, aligned, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// indexedPhrase adds the indexed documents holding the phrase to out.
func (s *ftsSearch) indexedPhrase(ctx context.Context, c *ftsColumn, terms []string, aligned func([]analysis.Token) bool, out map[uint64]float32) error {
	col := c.name
	hits, err := s.indexedHits(ctx, c, terms, true)
	if err != nil || len(hits) == 0 {
		return err
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].RowID < hits[j].RowID })
	ids := make([]uint64, len(hits))
	for i, h := range hits {
		ids[i] = h.RowID
	}
	rec, err := s.ds.TakeRowIDs(ctx, ids, ReadOptions{Columns: []string{col}})
	if err != nil {
		return err
	}
	defer rec.Release()
	docs, ok := rec.Column(0).(interface {
		IsNull(int) bool
		Value(int) string
	})
	if !ok {
		return fmt.Errorf("%w: phrase query on column %q of type %s", ErrUnsupported, col, rec.Column(0).DataType())
	}
	var toks []analysis.Token
	for i, h := range hits {
		if docs.IsNull(i) {
			continue
		}
		toks = c.analyzer.Analyze(toks, docs.Value(i))
		if aligned(toks) {
			out[h.RowID] = h.Score
		}
	}
	return nil
}

// phraseAligned is Lance's check_positions: pos[j] are the (ascending)
// document positions of the j-th query term, qpos[j] its position in the
// query (the tokenizer's, gaps of dropped stop words included); the terms
// match when, with relative positions p − qpos[j], each term's is at
// least the previous term's and at most slop after it. The iterators
// advance as Lance's do.
func phraseAligned(pos [][]int, qpos []int, slop int) bool {
	n := len(pos)
	idx := make([]int, n)
	rel := func(j int) (int, bool) {
		if idx[j] >= len(pos[j]) {
			return 0, false
		}
		return pos[j][idx[j]] - qpos[j], true
	}
	seek := func(j, least int) {
		target := least + qpos[j]
		idx[j] = sort.Search(len(pos[j]), func(k int) bool { return pos[j][k] >= target })
	}
	for j := range n {
		seek(j, 0)
	}
	for {
		best, have := 0, false
		aligned := true
		for j := 0; j+1 < n; j++ {
			last, ok1 := rel(j)
			next, ok2 := rel(j + 1)
			if !ok1 || !ok2 {
				return false
			}
			moveTo := last
			if last <= next {
				moveTo = max(last+1, next-slop)
			}
			if !have || moveTo > best {
				best, have = moveTo, true
			}
			if !(last <= next && next <= last+slop) {
				aligned = false
				break
			}
		}
		if aligned {
			if n == 1 {
				_, ok := rel(0)
				return ok
			}
			return true
		}
		for j := range n {
			seek(j, best)
		}
	}
}
