package dataset

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/fts/analysis"
	"github.com/lancego/lancego/indices"
)

// flatDoc is an unindexed document holding some query term: its row id,
// length (tokens) and each query term's frequency.
type flatDoc struct {
	rowID uint64
	dl    uint32
	freqs []uint32
}

// flatCorpus is what a flat search learns from the unindexed rows.
type flatCorpus struct {
	docs  []flatDoc
	n     uint64   // non-null documents
	total uint64   // their tokens
	df    []uint64 // documents holding each query term
}

// scanDocs reads column col (plus _rowid) of fragments frags, the
// prefilter applied, calling fn for each non-null document.
func (s *ftsSearch) scanDocs(ctx context.Context, col string, frags []int, fn func(rowID uint64, doc string)) error {
	ds := s.ds
	fi := ds.arrow.FieldIndices(col)
	p := ds.newProjection([]int{fi[0]}, true, false, false)
	so := DatasetScanOptions{Filter: s.filter}
	var f *dsFilter
	if s.filter != nil {
		var err error
		if f, err = ds.bindFilter(so.filterArgs()); err != nil {
			return err
		}
	}
	ranges := make([]fragRange, len(frags))
	for k, i := range frags {
		ranges[k] = fragRange{i, 0, ds.frags[i].ref.PhysicalRows}
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
			scanErr = errors.New("dataset: flat search scan returned no _rowid column")
			return false
		}
		type strs interface {
			IsNull(int) bool
			Value(int) string
		}
		docs, ok := rec.Column(0).(strs)
		if !ok {
			scanErr = fmt.Errorf("%w: flat full-text search of column %q of type %s", ErrUnsupported, col, rec.Column(0).DataType())
			return false
		}
		for r := range int(rec.NumRows()) {
			if !docs.IsNull(r) {
				fn(ids.Value(r), docs.Value(r))
			}
		}
		return true
	})
	return scanErr
}

// flatMatch tokenizes the rows of the unindexed fragments frags and scores
// those holding the terms (all of them with all) into out. Their BM25
// statistics are the index's plus the scanned documents' (Lance's
// MemBM25Scorer over the flat input).
func (s *ftsSearch) flatMatch(ctx context.Context, c *ftsColumn, frags []int, terms []string, all bool, out map[uint64]float32) error {
	return s.flatScore(ctx, c, frags, terms, all, nil, out)
}

// flatScore is flatMatch keeping only the documents keep accepts (nil:
// all); the others still count in the statistics.
func (s *ftsSearch) flatScore(ctx context.Context, c *ftsColumn, frags []int, terms []string, all bool, keep func([]analysis.Token) bool, out map[uint64]float32) error {
	corp, err := s.flatCorpus(ctx, c.name, c.analyzer, frags, terms, keep)
	if err != nil {
		return err
	}
	_, idf, err := c.lookup(ctx, terms)
	if err != nil {
		return err
	}
	n := c.n + corp.n
	avgdl := indices.AvgDocLength(c.total+corp.total, n)
	idfs := make([]float32, len(terms))
	for j := range terms {
		idfs[j] = indices.IDF(idf[j]+corp.df[j], n)
	}
	for _, d := range corp.docs {
		if all && !holdsAll(d, terms) {
			continue
		}
		var sc float32
		for j := range terms {
			if d.freqs[j] > 0 {
				sc += float32(idfs[j] * indices.DocWeight(d.freqs[j], d.dl, avgdl))
			}
		}
		out[d.rowID] = sc
	}
	return nil
}

// holdsAll reports whether d holds every query term.
func holdsAll(d flatDoc, terms []string) bool {
	for j := range terms {
		if d.freqs[j] == 0 {
			return false
		}
	}
	return true
}

// flatCorpus scans and tokenizes the documents of frags.
func (s *ftsSearch) flatCorpus(ctx context.Context, col string, an *analysis.Analyzer, frags []int, terms []string, keep func([]analysis.Token) bool) (*flatCorpus, error) {
	corp := &flatCorpus{df: make([]uint64, len(terms))}
	pos := map[string][]int{}
	for j, t := range terms {
		pos[t] = append(pos[t], j)
	}
	var toks []analysis.Token
	freqs := make([]uint32, len(terms))
	err := s.scanDocs(ctx, col, frags, func(id uint64, doc string) {
		toks = an.Analyze(toks, doc)
		corp.n++
		corp.total += uint64(len(toks))
		s.stats.FlatRows++
		clear(freqs)
		for _, t := range toks {
			for _, j := range pos[t.Term] {
				freqs[j]++
			}
		}
		any := false
		for j, f := range freqs {
			if f > 0 {
				corp.df[j]++
				any = true
			}
		}
		if any && (keep == nil || keep(toks)) {
			corp.docs = append(corp.docs, flatDoc{id, uint32(len(toks)), append([]uint32(nil), freqs...)})
		}
	})
	return corp, err
}
