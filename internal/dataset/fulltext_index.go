package dataset

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/fts/analysis"
	"github.com/lancego/lancego/indices"
)

// ftsSearch is one FullTextSearch call's state: the columns' opened index
// segments, the prefilter's row set and the row-liveness lookups.
type ftsSearch struct {
	ds    *Dataset
	q     FullTextQuery
	stats *FullTextStats
	segs  map[string]*ftsColumn
	// mask holds the row ids the prefilter selects (nil: no prefilter);
	// filter is that filter, applied again to flat-scanned rows.
	mask   *roaring64.Bitmap
	filter expr.Expr
	// byRowID locates stable row ids (built on first use).
	byRowID map[uint64]rowLoc
	indexed []string
	listed  bool
}

// ftsColumn is a column's INVERTED index: its segments (with the
// fragments each covers), the analyzer and Lance's corpus statistics over
// every segment.
type ftsColumn struct {
	name     string
	segs     []ftsSegment
	analyzer *analysis.Analyzer
	position bool
	// covered holds the fragment ids some segment covers (nil: every
	// fragment, a segment without a fragment bitmap).
	covered *roaring.Bitmap
	// n documents with total tokens (deleted ones included).
	n, total uint64
}

type ftsSegment struct {
	ix    *indices.Inverted
	frags *roaring.Bitmap // nil: coverage unknown (every fragment)
}

func (s *ftsSearch) close() {
	for _, c := range s.segs {
		for _, sg := range c.segs {
			sg.ix.Close()
		}
	}
}

// invertedIndices returns the dataset's INVERTED indices.
func (s *ftsSearch) invertedIndices(ctx context.Context) ([]indices.Index, error) {
	all, err := s.ds.Indices(ctx)
	if err != nil {
		return nil, err
	}
	var out []indices.Index
	for _, x := range all {
		if x.Type == indices.TypeInverted && len(x.Columns) == 1 {
			out = append(out, x)
		}
	}
	return out, nil
}

// indexedColumns lists the string columns with an INVERTED index, in
// schema order (Lance's default columns of a query without one).
func (s *ftsSearch) indexedColumns(ctx context.Context) ([]string, error) {
	if s.listed {
		return s.indexed, nil
	}
	idx, err := s.invertedIndices(ctx)
	if err != nil {
		return nil, err
	}
	has := map[string]bool{}
	for _, x := range idx {
		has[x.Columns[0]] = true
	}
	for _, f := range s.ds.arrow.Fields() {
		if has[f.Name] && isStringType(f.Type) {
			s.indexed = append(s.indexed, f.Name)
		}
	}
	s.listed = true
	if len(s.indexed) == 0 {
		return nil, fmt.Errorf("%w: no column has an INVERTED index", ErrInvalidArgument)
	}
	return s.indexed, nil
}

// column opens the INVERTED index of column name (nil, nil when the
// column has none).
func (s *ftsSearch) column(ctx context.Context, name string) (*ftsColumn, error) {
	if c, ok := s.segs[name]; ok {
		return c, nil
	}
	idx := s.ds.arrow.FieldIndices(name)
	if len(idx) == 0 {
		return nil, fmt.Errorf("%w: no column %q", ErrInvalidArgument, name)
	}
	if t := s.ds.arrow.Field(idx[0]).Type; !isStringType(t) {
		return nil, fmt.Errorf("%w: column %q of type %s is not a string column", ErrInvalidArgument, name, t)
	}
	all, err := s.invertedIndices(ctx)
	if err != nil {
		return nil, err
	}
	var x *indices.Index
	for i := range all {
		if all[i].Columns[0] == name {
			x = &all[i]
			break
		}
	}
	if x == nil {
		s.segs[name] = nil
		return nil, nil
	}
	c := &ftsColumn{name: name, covered: roaring.New()}
	s.segs[name] = c // closed by s.close, even when incomplete
	for _, sg := range x.Segments {
		if sg.BaseID != nil {
			return nil, fmt.Errorf("%w: index %s segment %s stored under another base path", ErrUnsupported, x.Name, sg.UUIDString())
		}
		if sg.IndexVersion > indices.MaxInvertedVersion {
			continue // newer than this reader: Lance ignores such segments too
		}
		ix, err := indices.OpenInvertedSegment(ctx, s.ds.IndexOpener(), sg.UUIDString())
		if errors.Is(err, indices.ErrInvertedVersion) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("index %s: %w", x.Name, err)
		}
		c.segs = append(c.segs, ftsSegment{ix, sg.FragmentBitmap})
		if c.analyzer == nil {
			c.analyzer, c.position = ix.Analyzer, ix.Params.WithPosition
		}
		if sg.FragmentBitmap == nil {
			c.covered = nil
		} else if c.covered != nil {
			c.covered.Or(sg.FragmentBitmap)
		}
		c.n += ix.N
		c.total += ix.TotalTokens
	}
	s.stats.Segments += len(c.segs)
	if len(c.segs) == 0 {
		s.segs[name] = nil
		return nil, nil
	}
	return c, nil
}

// terms analyzes text with the column's tokenizer.
func (c *ftsColumn) terms(text string) []string {
	toks := c.analyzer.Analyze(nil, text)
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Term
	}
	return out
}

// lookup finds every term in every segment; dfs are the terms' document
// frequencies over all segments.
func (c *ftsColumn) lookup(ctx context.Context, terms []string) ([][]indices.TermPostings, []uint64, error) {
	per := make([][]indices.TermPostings, len(c.segs))
	dfs := make([]uint64, len(terms))
	for i, sg := range c.segs {
		per[i] = make([]indices.TermPostings, len(terms))
		for j, t := range terms {
			tp, err := sg.ix.Lookup(ctx, t)
			if err != nil {
				return nil, nil, err
			}
			per[i][j] = tp
			dfs[j] += tp.DF
		}
	}
	return per, dfs, nil
}

// indexedHits scores the indexed documents holding the terms (all of them
// with all), BM25 over the statistics of every segment, keeping the live
// rows of fragments their segment covers that the prefilter selects.
func (s *ftsSearch) indexedHits(ctx context.Context, c *ftsColumn, terms []string, all bool) ([]indices.Hit, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	per, dfs, err := c.lookup(ctx, terms)
	if err != nil {
		return nil, err
	}
	avgdl := indices.AvgDocLength(c.total, c.n)
	var out []indices.Hit
	for i, sg := range c.segs {
		ts := per[i]
		for j := range ts {
			ts[j].DF = dfs[j]
		}
		hits := sg.ix.Score(ts, c.n, avgdl, all)
		s.stats.IndexedHits += uint64(len(hits))
		for _, h := range hits {
			ok, err := s.keep(ctx, h.RowID, sg.frags)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, h)
			}
		}
	}
	return out, nil
}

// keep reports whether an indexed row is live, in a fragment frags covers
// (nil: any) and selected by the prefilter.
func (s *ftsSearch) keep(ctx context.Context, id uint64, frags *roaring.Bitmap) (bool, error) {
	if s.mask != nil && !s.mask.Contains(id) {
		return false, nil
	}
	loc, ok, err := s.locate(ctx, id)
	if err != nil || !ok {
		return false, err
	}
	fid := s.ds.man.Fragments[loc.frag].ID
	if frags != nil && (fid > 1<<32-1 || !frags.Contains(uint32(fid))) {
		return false, nil
	}
	del, err := s.ds.deletions(ctx, loc.frag)
	if err != nil {
		return false, err
	}
	return del == nil || !del.Contains(uint32(loc.row)), nil
}

// locate finds the fragment and offset of a row id (ok false: no such
// row in this version).
func (s *ftsSearch) locate(ctx context.Context, id uint64) (rowLoc, bool, error) {
	ds := s.ds
	if ds.man.ReaderFlags&FlagStableRowIDs == 0 {
		i, ok := ds.byID[id>>32]
		if !ok || id&(1<<32-1) >= ds.frags[i].ref.PhysicalRows {
			return rowLoc{}, false, nil
		}
		return rowLoc{i, id & (1<<32 - 1)}, true, nil
	}
	if s.byRowID == nil {
		s.byRowID = map[uint64]rowLoc{}
		var buf []uint64
		for i := range ds.frags {
			ids, err := ds.rowIDs(ctx, i)
			if err != nil {
				return rowLoc{}, false, err
			}
			buf = ids.AppendAll(buf[:0], 0, ids.Len())
			for r, v := range buf {
				s.byRowID[v] = rowLoc{i, uint64(r)}
			}
		}
	}
	loc, ok := s.byRowID[id]
	return loc, ok, nil
}

// unindexedFragments returns the positions of the fragments no segment of
// c covers (every fragment when c is nil).
func (s *ftsSearch) unindexedFragments(c *ftsColumn) []int {
	var out []int
	for i, f := range s.ds.man.Fragments {
		if c != nil && (c.covered == nil || f.ID <= 1<<32-1 && c.covered.Contains(uint32(f.ID))) {
			continue
		}
		out = append(out, i)
	}
	return out
}

// match scores a match query on column col: indexed documents, then
// (unless FastSearch) the rows of unindexed fragments, flat.
func (s *ftsSearch) match(ctx context.Context, col, text string, all bool) (map[uint64]float32, error) {
	c, err := s.column(ctx, col)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("%w: no INVERTED index on column %q (flat search without an index is not supported)", ErrUnsupported, col)
	}
	terms := c.terms(text)
	hits, err := s.indexedHits(ctx, c, terms, all)
	if err != nil {
		return nil, err
	}
	out := make(map[uint64]float32, len(hits))
	for _, h := range hits {
		out[h.RowID] = h.Score
	}
	if s.q.FastSearch {
		return out, nil
	}
	frags := s.unindexedFragments(c)
	if len(frags) == 0 || len(terms) == 0 {
		return out, nil
	}
	if err := s.flatMatch(ctx, c, frags, terms, all, out); err != nil {
		return nil, err
	}
	return out, nil
}

// filterMask returns the row ids of the live rows filter selects.
func (ds *Dataset) filterMask(ctx context.Context, filter expr.Expr) (*roaring64.Bitmap, error) {
	m := roaring64.New()
	so := DatasetScanOptions{ReadOptions: ReadOptions{WithRowID: true}, Filter: filter}
	p := ds.newProjection(nil, true, false, false)
	f, err := ds.bindFilter(so.filterArgs())
	if err != nil {
		return nil, err
	}
	ranges := make([]fragRange, len(ds.frags))
	for i, fr := range ds.frags {
		ranges[i] = fragRange{i, 0, fr.ref.PhysicalRows}
	}
	var scanErr error
	ds.scanProjected(ctx, ranges, p, f, so, func(rec arrow.RecordBatch, err error) bool {
		if err != nil {
			scanErr = err
			return false
		}
		defer rec.Release()
		ids, ok := rec.Column(int(rec.NumCols()) - 1).(*array.Uint64)
		if !ok {
			scanErr = errors.New("dataset: filter scan returned no _rowid column")
			return false
		}
		m.AddMany(slices.Clone(ids.Uint64Values()))
		return true
	})
	return m, scanErr
}
