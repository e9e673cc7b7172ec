package dataset

// Evaluating a filter's index queries (filter_index.go) into candidate
// rows per fragment, and scanning a fragment from them.

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/internal/fileread"
)

// indexScan is a filtered scan's use of scalar indices: the candidate
// rows (physical offsets) of each fragment the indices answer for.
type indexScan struct {
	rows  map[int]*roaring.Bitmap // fragment position → candidate offsets
	exact bool                    // the candidates are the result
	stats IndexScanStats
}

// covers reports whether the indices answer for fragment position i.
func (ix *indexScan) covers(i int) bool {
	if ix == nil {
		return false
	}
	_, ok := ix.rows[i]
	return ok
}

// planIndexScan compiles filter f's conjuncts against the dataset's scalar
// indices and evaluates those they answer; nil when no index helps (no
// index, no conjunct answered, no fragment covered by every index used,
// or a query key an index cannot compare: the scan then evaluates the
// filter as before, as Lance does).
func (ds *Dataset) planIndexScan(ctx context.Context, f *dsFilter) (*indexScan, error) {
	if f == nil {
		return nil, nil
	}
	byCol, err := ds.scalarIndices(ctx)
	if err != nil || len(byCol) == 0 {
		return nil, err
	}
	c := &ixCompiler{ds: ds, byCol: byCol}
	ix := &indexScan{exact: true}
	var nodes []*ixNode
	var used []*indices.Index
	for _, e := range expr.Conjuncts(f.pred.Expr()) {
		n := c.compile(e, false)
		if n == nil {
			ix.exact = false
			continue
		}
		use := IndexUse{Conjunct: e.String(), Exact: n.exact()}
		for _, x := range n.indexesOf(nil) {
			use.Indices = append(use.Indices, x.Name+" ("+string(x.Type)+")")
		}
		ix.exact = ix.exact && use.Exact
		ix.stats.Uses = append(ix.stats.Uses, use)
		nodes = append(nodes, n)
		for _, x := range n.indexesOf(nil) {
			if !slices.Contains(used, x) {
				used = append(used, x)
			}
		}
	}
	if len(nodes) == 0 {
		return nil, nil
	}
	ev := &ixEval{ds: ds, covered: ds.coveredBy(used), open: map[[16]byte]any{}}
	defer ev.close()
	if len(ev.covered) == 0 {
		return nil, nil
	}
	var rows *roaring64.Bitmap
	for _, n := range nodes {
		r, err := ev.eval(ctx, n)
		if errors.Is(err, indices.ErrKeyType) {
			return nil, nil // an index that cannot compare the key: scan, as Lance falls back
		}
		if err != nil {
			return nil, err
		}
		if rows == nil {
			rows = r
		} else {
			rows.And(r)
		}
	}
	ix.rows = ev.split(rows)
	ix.stats.Exact = ix.exact
	ix.stats.IndexedFragments = len(ix.rows)
	ix.stats.ScannedFragments = len(ds.frags) - len(ix.rows)
	ix.stats.CandidateRows = rows.GetCardinality()
	ix.stats.Segments = ev.segments
	return ix, nil
}

// coveredBy returns the fragment positions every index of xs covers (the
// union of each index's segment bitmaps).
func (ds *Dataset) coveredBy(xs []*indices.Index) map[int]bool {
	out := map[int]bool{}
	for i, fr := range ds.frags {
		id := fr.ref.ID
		ok := id <= 0xFFFFFFFF
		for _, x := range xs {
			if !ok {
				break
			}
			ok = false
			for _, s := range x.Segments {
				if s.FragmentBitmap.Contains(uint32(id)) {
					ok = true
					break
				}
			}
		}
		if ok {
			out[i] = true
		}
	}
	return out
}

// ixEval evaluates index queries over the covered fragments, opening each
// segment once.
type ixEval struct {
	ds       *Dataset
	covered  map[int]bool
	open     map[[16]byte]any
	segments int
	universe *roaring64.Bitmap
}

func (ev *ixEval) close() {
	for _, s := range ev.open {
		if c, ok := s.(interface{ Close() error }); ok {
			_ = c.Close()
		}
	}
}

// eval returns the row addresses (fragment id << 32 | offset) of the
// covered fragments node n selects (candidates when inexact).
func (ev *ixEval) eval(ctx context.Context, n *ixNode) (*roaring64.Bitmap, error) {
	switch {
	case len(n.and) > 0 || len(n.or) > 0:
		var out *roaring64.Bitmap
		for _, c := range append(n.and, n.or...) {
			r, err := ev.eval(ctx, c)
			if err != nil {
				return nil, err
			}
			switch {
			case out == nil:
				out = r
			case len(n.and) > 0:
				out.And(r)
			default:
				out.Or(r)
			}
		}
		return out, nil
	case n.negate:
		hit, err := ev.leaf(ctx, n, n.op)
		if err != nil {
			return nil, err
		}
		out := ev.all().Clone()
		out.AndNot(hit)
		if n.op != ixIsNull {
			nulls, err := ev.leaf(ctx, n, ixIsNull)
			if err != nil {
				return nil, err
			}
			out.AndNot(nulls)
		}
		return out, nil
	}
	return ev.leaf(ctx, n, n.op)
}

// all is every row of the covered fragments.
func (ev *ixEval) all() *roaring64.Bitmap {
	if ev.universe == nil {
		ev.universe = roaring64.New()
		for i := range ev.covered {
			fr := ev.ds.frags[i].ref
			ev.universe.AddRange(fr.ID<<32, fr.ID<<32+fr.PhysicalRows)
		}
	}
	return ev.universe
}

// leaf runs op of leaf n on every segment of its index, keeping the hits
// in covered fragments the segment covers.
func (ev *ixEval) leaf(ctx context.Context, n *ixNode, op ixOp) (*roaring64.Bitmap, error) {
	out := roaring64.New()
	x := n.index
	for k := range x.Segments {
		s := &x.Segments[k]
		r, err := ev.query(ctx, s, n, op)
		if err != nil {
			return nil, err
		}
		if ev.ds.man.ReaderFlags&FlagStableRowIDs != 0 && indices.StoresRowIDs(s.Type(), s.IndexVersion) {
			if r, err = ev.addresses(ctx, r); err != nil {
				return nil, err
			}
		}
		keep := roaring64.New()
		for i := range ev.covered {
			id := ev.ds.frags[i].ref.ID
			if s.FragmentBitmap.Contains(uint32(id)) {
				keep.AddRange(id<<32, (id+1)<<32)
			}
		}
		r.And(keep)
		out.Or(r)
	}
	return out, nil
}

// addresses maps stable row ids to the row addresses of the covered
// fragments holding them.
func (ev *ixEval) addresses(ctx context.Context, ids *roaring64.Bitmap) (*roaring64.Bitmap, error) {
	out := roaring64.New()
	for i := range ev.covered {
		rid, err := ev.ds.rowIDs(ctx, i)
		if err != nil {
			return nil, err
		}
		base := ev.ds.frags[i].ref.ID << 32
		for r := uint64(0); r < rid.Len(); r++ {
			if ids.Contains(rid.Get(r)) {
				out.Add(base | r)
			}
		}
	}
	return out, nil
}

// query runs op of leaf n on segment s.
func (ev *ixEval) query(ctx context.Context, s *indices.Segment, n *ixNode, op ixOp) (*roaring64.Bitmap, error) {
	seg, err := ev.segment(ctx, s)
	if err != nil {
		return nil, err
	}
	type sargable interface {
		Equal(context.Context, indices.Key) (*roaring64.Bitmap, error)
		In(context.Context, []indices.Key) (*roaring64.Bitmap, error)
		Range(context.Context, indices.Bound, indices.Bound) (*roaring64.Bitmap, error)
	}
	var r *roaring64.Bitmap
	switch q := seg.(type) {
	case *indices.LabelList:
		switch op {
		case ixHasAny:
			r, err = q.HasAny(ctx, n.keys)
		case ixHasAll:
			r, err = q.HasAll(ctx, n.keys)
		case ixIsNull:
			r, err = q.NullLists(ctx)
		default:
			err = fmt.Errorf("%w: label list query %d", indices.ErrUnsupported, op)
		}
	case *indices.BloomFilter:
		switch op {
		case ixEq, ixIn:
			typ := ev.ds.arrow.Field(ev.ds.arrow.FieldIndices(n.index.Columns[0])[0]).Type
			r, err = q.In(ctx, n.keys, typ)
		case ixIsNull:
			r, err = q.IsNull(ctx)
		default:
			err = fmt.Errorf("%w: bloom filter query %d", indices.ErrUnsupported, op)
		}
	case *indices.NGram:
		if op != ixContains {
			err = fmt.Errorf("%w: ngram query %d", indices.ErrUnsupported, op)
			break
		}
		var known bool
		if r, known, err = q.Contains(ctx, n.text); err == nil && !known {
			err = fmt.Errorf("%w: ngram query of %q without a trigram", indices.ErrUnsupported, n.text)
		}
	case *indices.ZoneMap:
		if op == ixIsNull {
			r, _, err = q.IsNull(ctx)
		} else {
			r, err = sargableQuery(ctx, q, n, op)
		}
	case interface {
		sargable
		IsNull(context.Context) (*roaring64.Bitmap, error)
	}:
		if op == ixIsNull {
			r, err = q.IsNull(ctx)
		} else {
			r, err = sargableQuery(ctx, q, n, op)
		}
	default:
		err = fmt.Errorf("%w: index type %s", indices.ErrUnsupported, s.Type())
	}
	if err != nil {
		return nil, fmt.Errorf("lance: dataset %s index %s (%s) segment %s: %w", ev.ds.url, s.Name, s.Type(), s.UUIDString(), err)
	}
	return r, nil
}

// sargableQuery runs an equality, IN or range leaf.
func sargableQuery(ctx context.Context, q interface {
	Equal(context.Context, indices.Key) (*roaring64.Bitmap, error)
	In(context.Context, []indices.Key) (*roaring64.Bitmap, error)
	Range(context.Context, indices.Bound, indices.Bound) (*roaring64.Bitmap, error)
}, n *ixNode, op ixOp) (*roaring64.Bitmap, error) {
	switch op {
	case ixEq:
		return q.Equal(ctx, n.keys[0])
	case ixIn:
		return q.In(ctx, n.keys)
	case ixRange:
		return q.Range(ctx, n.lo, n.hi)
	}
	return nil, fmt.Errorf("%w: query %d", indices.ErrUnsupported, op)
}

// segment opens segment s once per evaluation.
func (ev *ixEval) segment(ctx context.Context, s *indices.Segment) (any, error) {
	if seg, ok := ev.open[s.UUID]; ok {
		return seg, nil
	}
	op, dir := ev.ds.IndexOpener(), s.Dir()
	var seg any
	var err error
	switch s.Type() {
	case indices.TypeBTree:
		seg, err = indices.OpenBTreeWith(ctx, op, dir)
	case indices.TypeBitmap:
		seg, err = indices.OpenBitmapWith(ctx, op, dir)
	case indices.TypeLabelList:
		seg, err = indices.OpenLabelListWith(ctx, op, dir)
	case indices.TypeZoneMap:
		seg, err = indices.OpenZoneMapWith(ctx, op, dir)
	case indices.TypeNGram:
		seg, err = indices.OpenNGramWith(ctx, op, dir)
	case indices.TypeBloomFilter:
		seg, err = indices.OpenBloomFilterWith(ctx, op, dir)
	default:
		err = fmt.Errorf("%w: index type %s", indices.ErrUnsupported, s.Type())
	}
	if err != nil {
		return nil, fmt.Errorf("lance: dataset %s index %s segment %s: %w", ev.ds.url, s.Name, dir, err)
	}
	ev.open[s.UUID] = seg
	ev.segments++
	return seg, nil
}

// split returns the candidate offsets of each covered fragment.
func (ev *ixEval) split(rows *roaring64.Bitmap) map[int]*roaring.Bitmap {
	out := make(map[int]*roaring.Bitmap, len(ev.covered))
	for i := range ev.covered {
		out[i] = roaring.New()
	}
	it := rows.Iterator()
	for it.HasNext() {
		a := it.Next()
		if i, ok := ev.ds.byID[a>>32]; ok && ev.covered[i] {
			out[i].Add(uint32(a))
		}
	}
	return out
}

// scanIndexed scans fragment range r from its index candidates: the
// projection of the live candidates when they are the result, else the
// filter evaluated over them (then the projection of the matches). It
// returns false when the scan must stop.
func (ds *Dataset) scanIndexed(ctx context.Context, ix *indexScan, r fragRange, p *dsProjection, f *dsFilter, size uint64,
	emit func(arrow.RecordBatch) bool, yield func(arrow.RecordBatch, error) bool) bool {
	fail := func(err error) bool { yield(nil, err); return false }
	cand := ix.rows[r.idx]
	del, err := ds.deletions(ctx, r.idx)
	if err != nil {
		return fail(err)
	}
	var runs []fileread.RowRange
	it := cand.Iterator()
	it.AdvanceIfNeeded(uint32(min(r.lo, 0xFFFFFFFF)))
	for it.HasNext() {
		v := uint64(it.Next())
		if v >= r.hi {
			break
		}
		if del != nil && del.Contains(uint32(v)) {
			continue
		}
		runs = appendRuns(runs, []fileread.RowRange{{From: v, To: v + 1}})
	}
	if len(runs) == 0 {
		return true
	}
	if ix.exact {
		return ds.readMatches(ctx, r, p, runs, size, emit, yield)
	}
	frag, err := ds.fragment(r.idx)
	if err != nil {
		return fail(err)
	}
	m := &matcher{ds: ds, r: r, frag: frag, f: f, fp: f.projection(ds), del: del, size: size}
	if f.covers(p) {
		m.out, m.emit = p, emit
	}
	stopped, err := m.run(ctx, runs, true)
	switch {
	case err != nil:
		return fail(err)
	case stopped:
		return false
	case m.out != nil || len(m.matches) == 0:
		return true
	}
	return ds.readMatches(ctx, r, p, m.matches, size, emit, yield)
}
