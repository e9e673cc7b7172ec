package dataset

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/vector"
)

// annPlan is an indexed query being answered: the open segments of the
// column's vector index and what Lance's planner derives from the query.
type annPlan struct {
	q         VectorQuery
	index     *indices.Index
	segs      []*indices.VectorIndex
	exact     *vector.Query // the query under the index's metric
	indexed   []int         // positions in ds.frags of the fragments the segments cover
	unindexed []int         // the others
	live      *liveRows
	allow     *roaring64.Bitmap // prefilter allow-list (nil: none)
	filter    expr.Expr
}

// nearestIndexed answers q through the column's vector index as pylance
// 14.0.2 does (spec indices.md §3.10): partitions probed per segment
// (minimum and maximum nprobes, Lance's early pruning, widening while
// fewer than K rows came back), each probed partition searched by its
// sub-index (flat top-k or HNSW) with the deletion mask and the prefilter
// allow-list, the candidates merged in (distance, row id) order; exact
// distances recomputed from the column when a refine factor is set or
// fragments the index does not cover are searched too (unless
// FastSearch), merged with the exact search of those fragments.
// ok is false (and st.Note says why) when the column has no usable index.
func (ds *Dataset) nearestIndexed(ctx context.Context, q VectorQuery, st *NearestStats) (arrow.RecordBatch, bool, error) {
	pl, note, err := ds.planANN(ctx, q)
	if err != nil || pl == nil {
		st.Note = note
		return nil, false, err
	}
	defer pl.close()
	st.IndexUsed, st.IndexName, st.IndexType, st.Segments = true, pl.index.Name, string(pl.index.Type), len(pl.segs)
	k := q.K
	kr := k * max(1, q.RefineFactor)
	sp := indices.SearchParams{K: kr, Ef: q.Ef}
	if r := q.DistanceRange; r != nil {
		sp.Range = &[2]float32{r.Lower, r.Upper}
	}
	switch {
	case pl.allow != nil:
		sp.Allow = func(id uint64) bool { return pl.allow.Contains(id) && pl.live.has(id) }
	case pl.live.masks():
		sp.Allow = pl.live.has
	}
	cands, err := ds.annSearch(ctx, pl, sp, st)
	if err != nil {
		return nil, true, err
	}
	indices.SortCandidates(cands)
	if len(cands) > kr {
		cands = cands[:kr]
	}
	lo, hi := rangeBounds(q)
	merge := len(pl.unindexed) > 0 && !q.FastSearch
	var hits []vector.Hit
	if q.RefineFactor > 0 || merge {
		if hits, err = ds.exactDistances(ctx, pl, cands, lo, hi, st); err != nil {
			return nil, true, err
		}
	} else {
		hits = make([]vector.Hit, len(cands))
		for i, c := range cands {
			hits[i] = vector.Hit{Distance: c.Dist, RowID: c.RowID}
		}
	}
	if merge {
		if hits, err = ds.mergeUnindexed(ctx, pl, hits, lo, hi, st); err != nil {
			return nil, true, err
		}
	}
	if len(hits) > k {
		hits = hits[:k]
	}
	if !q.Prefilter && pl.filter != nil {
		if hits, err = ds.postFilter(ctx, hits, pl.filter); err != nil {
			return nil, true, err
		}
	}
	rec, err := ds.nearestResult(ctx, q, hits)
	return rec, true, err
}

func rangeBounds(q VectorQuery) (float32, float32) {
	if r := q.DistanceRange; r != nil {
		return r.Lower, r.Upper
	}
	return float32(math.Inf(-1)), float32(math.Inf(1))
}

func (pl *annPlan) close() {
	for _, s := range pl.segs {
		s.Close()
	}
}

// planANN finds the column's vector index and opens its segments. A nil
// plan with a note means: search exactly (no index, or one lancego cannot
// read: a newer or unknown layout).
func (ds *Dataset) planANN(ctx context.Context, q VectorQuery) (*annPlan, string, error) {
	xs, err := ds.Indices(ctx)
	if err != nil {
		return nil, "", err
	}
	var x *indices.Index
	for i := range xs {
		if xs[i].Type.IsVector() && len(xs[i].Columns) > 0 && xs[i].Columns[0] == q.Column {
			x = &xs[i]
			break
		}
	}
	if x == nil {
		return nil, "no vector index on column " + q.Column + ": searched exactly", nil
	}
	pl := &annPlan{q: q, index: x}
	for i := range x.Segments {
		vi, err := indices.OpenVector(ctx, ds.IndexOpener(), &x.Segments[i].IndexMetadata)
		if err != nil {
			pl.close()
			if errors.Is(err, indices.ErrUnsupported) {
				return nil, fmt.Sprintf("vector index %q not usable (%v): searched exactly", x.Name, err), nil
			}
			return nil, "", fmt.Errorf("nearest on %s: index %q: %w", ds.url, x.Name, err)
		}
		pl.segs = append(pl.segs, vi)
	}
	if err := ds.finishPlan(ctx, pl); err != nil {
		pl.close()
		return nil, "", err
	}
	return pl, "", nil
}

// finishPlan prepares the exact query under the index's metric (Lance
// ranks with the index's metric whatever the query says), the coverage,
// the deletion mask and the prefilter.
func (ds *Dataset) finishPlan(ctx context.Context, pl *annPlan) error {
	m, err := vector.ParseMetric(pl.segs[0].Metric.String())
	if err != nil {
		return fmt.Errorf("nearest on %s: index %q: %w", ds.url, pl.index.Name, err)
	}
	if pl.exact, err = vector.NewQuery(m, pl.q.Vector); err != nil {
		return fmt.Errorf("nearest on %s: %w", ds.url, err)
	}
	for _, s := range pl.segs {
		if s.Dim() != pl.exact.Dim {
			return fmt.Errorf("nearest on %s: %w: query of dimension %d, index %q of %d", ds.url, ErrInvalidArgument, pl.exact.Dim, pl.index.Name, s.Dim())
		}
	}
	if pl.filter, err = pl.q.filterOf(); err != nil {
		return fmt.Errorf("nearest on %s: filter: %w", ds.url, err)
	}
	pl.indexed, pl.unindexed = ds.coverage(pl.index)
	if pl.live, err = ds.newLiveRows(ctx, pl.indexed); err != nil {
		return err
	}
	for i := range pl.index.Segments {
		for _, f := range pl.index.Segments[i].Fragments() {
			if _, ok := ds.byID[uint64(f)]; !ok {
				pl.live.any = true // a covered fragment is gone: its rows are masked
			}
		}
	}
	if pl.q.Prefilter && pl.filter != nil {
		if pl.allow, err = ds.prefilterRows(ctx, pl.indexed, pl.filter); err != nil {
			return err
		}
	}
	return nil
}

// coverage splits the dataset's fragments into those some segment covers
// and the others (Lance's get_indexed_frags: a segment without a fragment
// bitmap covers every fragment).
func (ds *Dataset) coverage(x *indices.Index) (indexed, unindexed []int) {
	all := false
	cov := map[uint64]bool{}
	for i := range x.Segments {
		b := x.Segments[i].FragmentBitmap
		if b == nil {
			all = true
			break
		}
		for _, f := range b.ToArray() {
			cov[uint64(f)] = true
		}
	}
	for i, f := range ds.frags {
		if all || cov[f.ref.ID] {
			indexed = append(indexed, i)
		} else {
			unindexed = append(unindexed, i)
		}
	}
	return indexed, unindexed
}

// prefilterRows evaluates the filter over the indexed fragments into the
// allow-list of row ids Lance's prefilter passes the index search.
func (ds *Dataset) prefilterRows(ctx context.Context, frags []int, filter expr.Expr) (*roaring64.Bitmap, error) {
	f, err := ds.bindFilter(DatasetScanOptions{Filter: filter}.filterArgs())
	if err != nil {
		return nil, fmt.Errorf("nearest on %s: filter: %w", ds.url, err)
	}
	allow := roaring64.New()
	var ferr error
	ds.scanProjected(ctx, fragRanges(ds, frags), ds.newProjection(nil, true, false, false), f, DatasetScanOptions{},
		func(rec arrow.RecordBatch, err error) bool {
			if err != nil {
				ferr = err
				return false
			}
			defer rec.Release()
			ids, ok := rec.Column(int(rec.NumCols()) - 1).(*array.Uint64)
			if !ok {
				ferr = errors.New("dataset: prefilter scan returned no _rowid column")
				return false
			}
			allow.AddMany(ids.Uint64Values())
			return true
		})
	return allow, ferr
}

func fragRanges(ds *Dataset, frags []int) []fragRange {
	out := make([]fragRange, len(frags))
	for j, i := range frags {
		out[j] = fragRange{i, 0, ds.frags[i].ref.PhysicalRows}
	}
	return out
}
