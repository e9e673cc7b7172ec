package dataset

import (
	"context"
	"fmt"
	"math"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/vector"
)

// annSegment is one segment's probe list: partitions in Lance's order,
// their centroid distances, and the nprobes bounds after pruning.
type annSegment struct {
	vi       *indices.VectorIndex
	parts    []int
	dists    []float32
	min, max int
}

// annSearch is Lance's ANNIvfPartition + ANNIvfSubIndex (one CPU, so
// deterministic: LANCE_CPU_THREADS=1 makes pylance search the same way):
// every segment's first minimum_nprobes partitions, then, while fewer than
// min(k, allowed rows) candidates were found, further partitions one at a
// time up to maximum_nprobes. (Newer Lance adds the allowed rows not
// found at +Inf when a prefilter allows at most k rows; pylance 14.0.2
// searches further partitions instead, as here.)
func (ds *Dataset) annSearch(ctx context.Context, pl *annPlan, sp indices.SearchParams, st *NearestStats) ([]indices.Candidate, error) {
	q, k := pl.q, pl.q.K
	qf := pl.exact.Float32s()
	segs := make([]annSegment, len(pl.segs))
	for i, vi := range pl.segs {
		s := annSegment{vi: vi}
		maxP := q.MaxNprobes
		minP := max(1, q.MinNprobes)
		if q.Nprobes > 0 {
			minP, maxP = q.Nprobes, q.Nprobes
		}
		var err error
		if s.parts, s.dists, err = vi.ProbePartitionsDist(qf, maxP); err != nil {
			return nil, fmt.Errorf("nearest on %s: index %q: %w", ds.url, pl.index.Name, err)
		}
		minP = max(minP, earlyPruning(s.dists, k))
		if maxP > 0 {
			minP = min(minP, maxP)
		}
		s.max = len(s.parts)
		s.min = min(minP, s.max)
		segs[i] = s
	}
	var out []indices.Candidate
	search := func(s *annSegment, j int) (int, error) {
		cs, err := s.vi.Search(ctx, s.parts[j], qf, sp)
		if err != nil {
			return 0, fmt.Errorf("nearest on %s: index %q: %w", ds.url, pl.index.Name, err)
		}
		st.PartitionsSearched++
		out = append(out, cs...)
		return len(cs), nil
	}
	for i := range segs {
		for j := 0; j < segs[i].min; j++ {
			if _, err := search(&segs[i], j); err != nil {
				return nil, err
			}
		}
	}
	found := min(k, len(out))
	target := k
	if pl.allow != nil {
		target = min(k, int(min(pl.allow.GetCardinality(), math.MaxInt32)))
	}
	for i := range segs {
		s := &segs[i]
		if s.max <= s.min || found >= k {
			continue
		}
		for j := s.min; j < s.max && found < target; j++ {
			n, err := search(s, j)
			if err != nil {
				return nil, err
			}
			found += n
		}
	}
	st.Candidates = len(out)
	return out, nil
}

// earlyPruning is Lance's: the partitions whose centroid distance is at
// most the nearest one's times 0.6 (k = 1), 7 (k ≤ 10) or 81 are searched
// in any case.
func earlyPruning(d []float32, k int) int {
	if len(d) == 0 {
		return 0
	}
	f := float32(81)
	switch {
	case k <= 1:
		f = 0.6
	case k <= 10:
		f = 7
	}
	t := d[0] * f
	n := 0
	for n < len(d) && d[n] <= t {
		n++
	}
	return n
}

// exactDistances recomputes the candidates' distances from the vector
// column (Lance's KNNVectorDistance after a take), keeps lo ≤ d < hi and
// orders them by (distance, row id).
func (ds *Dataset) exactDistances(ctx context.Context, pl *annPlan, cands []indices.Candidate, lo, hi float32, st *NearestStats) ([]vector.Hit, error) {
	if len(cands) == 0 {
		return nil, nil
	}
	ids := make([]uint64, len(cands))
	for i, c := range cands {
		ids[i] = c.RowID
	}
	rec, err := ds.TakeRowIDs(ctx, ids, ReadOptions{Columns: []string{pl.q.Column}})
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	fsl, ok := rec.Column(0).(*array.FixedSizeList)
	if !ok {
		return nil, fmt.Errorf("nearest on %s: %w: vector column read as %s", ds.url, ErrInvalidArgument, rec.Column(0).DataType())
	}
	d := make([]float32, fsl.Len())
	if err := pl.exact.Distances(fsl, d, make([]float32, pl.exact.Dim)); err != nil {
		return nil, fmt.Errorf("nearest on %s column %q: %w", ds.url, pl.q.Column, err)
	}
	st.RowsScanned += uint64(len(d))
	top := vector.NewTopK(len(d))
	for i, x := range d {
		if x >= lo && x < hi {
			top.Push(x, ids[i])
		}
	}
	return top.Sorted(), nil
}

// mergeUnindexed searches the fragments no segment covers exactly (the
// filter applied first when prefiltering) and merges their k best with
// the index's rows.
func (ds *Dataset) mergeUnindexed(ctx context.Context, pl *annPlan, hits []vector.Hit, lo, hi float32, st *NearestStats) ([]vector.Hit, error) {
	so := DatasetScanOptions{ReadOptions: ReadOptions{Columns: []string{pl.q.Column}, WithRowID: true}}
	if pl.q.Prefilter {
		so.Filter = pl.filter
	}
	top := vector.NewTopK(pl.q.K)
	dist := make([]float32, 0, 1024)
	scratch := make([]float32, pl.exact.Dim)
	var serr error
	ds.scanRanges(ctx, fragRanges(ds, pl.unindexed), so, func(rec arrow.RecordBatch, err error) bool {
		if err != nil {
			serr = err
			return false
		}
		defer rec.Release()
		if err := rankBatch(rec, pl.exact, top, &dist, scratch, lo, hi); err != nil {
			serr = fmt.Errorf("nearest on %s column %q: %w", ds.url, pl.q.Column, err)
			return false
		}
		st.RowsScanned += uint64(rec.NumRows())
		return true
	})
	if serr != nil {
		return nil, serr
	}
	for _, h := range hits {
		top.Push(h.Distance, h.RowID)
	}
	return top.Sorted(), nil
}

// liveRows is Lance's deletion mask for index hits: a row id is live when
// its fragment exists and the row is not deleted.
type liveRows struct {
	ds     *Dataset
	stable *roaring64.Bitmap // live row ids (stable row ids only)
	dels   map[int]*Deletions
	any    bool // some covered fragment has deletions
}

func (ds *Dataset) newLiveRows(ctx context.Context, frags []int) (*liveRows, error) {
	l := &liveRows{ds: ds, dels: map[int]*Deletions{}}
	for _, i := range frags {
		del, err := ds.deletions(ctx, i)
		if err != nil {
			return nil, err
		}
		if del != nil && !del.IsEmpty() {
			l.dels[i], l.any = del, true
		}
	}
	if ds.man.ReaderFlags&FlagStableRowIDs == 0 {
		return l, nil
	}
	l.stable = roaring64.New()
	for i := range ds.frags {
		ids, err := ds.rowIDs(ctx, i)
		if err != nil {
			return nil, err
		}
		del, err := ds.deletions(ctx, i)
		if err != nil {
			return nil, err
		}
		for r := uint64(0); r < ids.Len(); r++ {
			if del == nil || !del.Contains(uint32(r)) {
				l.stable.Add(ids.Get(r))
			}
		}
	}
	l.any = true
	return l, nil
}

// masks reports whether the mask removes anything (Lance's prefilter is
// then not empty).
func (l *liveRows) masks() bool { return l.any }

func (l *liveRows) has(id uint64) bool {
	if l.stable != nil {
		return l.stable.Contains(id)
	}
	i, ok := l.ds.byID[id>>32]
	if !ok {
		return false
	}
	off := id & (1<<32 - 1)
	if off >= l.ds.frags[i].ref.PhysicalRows {
		return false
	}
	del := l.dels[i]
	return del == nil || !del.Contains(uint32(off))
}
