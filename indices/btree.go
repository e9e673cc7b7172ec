package indices

// BTREE scalar index (spec indices.md §2.1): page_lookup.lance holds one
// row per page of page_data.lance (min, max, null_count, page_idx);
// page_data.lance holds the indexed column sorted (NULLs first, NaN last)
// with the row id or address of each value. Page i is rows
// [i*batch_size, (i+1)*batch_size) of page_data. Answers are exact.

import (
	"context"
	"fmt"
	"strconv"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/internal/fileread"
)

// BTree file names inside the index directory.
const (
	BTreeLookupFile = "page_lookup.lance"
	BTreeDataFile   = "page_data.lance"
)

// maxBTreePages bounds the page count a lookup file may declare.
const maxBTreePages = 1 << 24

// BTree is an opened BTREE segment: its page lookup is in memory, pages are
// read on demand.
type BTree struct {
	data      indexFile
	batchSize uint64
	min, max  arrow.Array // page bounds (min NULL = page holds nulls)
	nulls     []uint32    // null count per page
	pageIdx   []uint32
	recs      []arrow.RecordBatch
}

// OpenBTree opens the BTREE segment in directory dir (a path or URL ending
// in the index's uuid directory).
func OpenBTree(ctx context.Context, dir string, opts ...fileread.Option) (*BTree, error) {
	return OpenBTreeWith(ctx, pathOpener{opts}, dir)
}

// OpenBTreeWith opens the BTREE segment in directory dir (relative to op,
// e.g. IndexMetadata.Dir()): it reads the page lookup, not the pages.
func OpenBTreeWith(ctx context.Context, op Opener, dir string) (*BTree, error) {
	lkf, err := openIndexFile(ctx, op, dir, BTreeLookupFile)
	if err != nil {
		return nil, err
	}
	defer lkf.close()
	lk := lkf.f
	t := &BTree{batchSize: 4096}
	if v, ok := schemaMeta(lk.Schema(), "batch_size"); ok {
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil || n == 0 {
			return nil, fmt.Errorf("%w: %s: batch_size %q", ErrCorrupt, lk.URL(), v)
		}
		t.batchSize = n
	}
	if lk.NumRows() > maxBTreePages {
		return nil, fmt.Errorf("%w: %s: %d pages", ErrCorrupt, lk.URL(), lk.NumRows())
	}
	if err := t.loadLookup(ctx, lk); err != nil {
		return nil, err
	}
	if t.data, err = openIndexFile(ctx, op, dir, BTreeDataFile); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

func (t *BTree) loadLookup(ctx context.Context, lk *fileread.File) error {
	recs, err := readWhole(ctx, lk, []string{"min", "max", "null_count", "page_idx"})
	if err != nil {
		return err
	}
	t.recs = recs
	var mins, maxs []arrow.Array
	for _, r := range recs {
		mins, maxs = append(mins, r.Column(0)), append(maxs, r.Column(1))
		nc, ok1 := r.Column(2).(*array.Uint32)
		pi, ok2 := r.Column(3).(*array.Uint32)
		if !ok1 || !ok2 {
			return fmt.Errorf("%w: %s: null_count/page_idx are %s/%s, want uint32", ErrCorrupt, lk.URL(), r.Column(2).DataType(), r.Column(3).DataType())
		}
		t.nulls = append(t.nulls, nc.Uint32Values()...)
		t.pageIdx = append(t.pageIdx, pi.Uint32Values()...)
	}
	if len(mins) == 0 {
		return nil
	}
	if t.min, err = concat(mins); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, lk.URL(), err)
	}
	if t.max, err = concat(maxs); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, lk.URL(), err)
	}
	return nil
}

// Close releases the segment's files and memory.
func (t *BTree) Close() error {
	releaseAll(t.recs)
	t.recs = nil
	for _, a := range []arrow.Array{t.min, t.max} {
		if a != nil {
			a.Release()
		}
	}
	t.min, t.max = nil, nil
	return t.data.close()
}

// NumPages is the number of pages of the segment.
func (t *BTree) NumPages() int { return len(t.nulls) }

// Bound is one end of a range; Unbounded ignores Key.
type Bound struct {
	Key       Key
	Inclusive bool
	Unbounded bool
}

// Equal returns the ids of rows whose value equals k (never NULL rows).
func (t *BTree) Equal(ctx context.Context, k Key) (*roaring64.Bitmap, error) {
	b := Bound{Key: k, Inclusive: true}
	return t.Range(ctx, b, b)
}

// In returns the ids of rows whose value is one of keys. Each page is read
// once for all the keys it may hold.
func (t *BTree) In(ctx context.Context, keys []Key) (*roaring64.Bitmap, error) {
	out := roaring64.New()
	for p := 0; p < t.NumPages(); p++ {
		var mine []Key
		for _, k := range keys {
			b := Bound{Key: k, Inclusive: true}
			ok, err := t.pageOverlaps(p, b, b)
			if err != nil {
				return nil, err
			}
			if ok {
				mine = append(mine, k)
			}
		}
		if len(mine) == 0 {
			continue
		}
		if err := t.scanPage(ctx, p, out, func(v arrow.Array, i int) (bool, error) {
			if v.IsNull(i) {
				return false, nil
			}
			for _, k := range mine {
				if c, err := compareAt(v, i, k); err != nil || c == 0 {
					return err == nil, err
				}
			}
			return false, nil
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// PagesRead is how many pages a query over [lo, hi] reads (for plans and
// tests).
func (t *BTree) PagesRead(lo, hi Bound) (int, error) {
	n := 0
	for p := 0; p < t.NumPages(); p++ {
		ok, err := t.pageOverlaps(p, lo, hi)
		if err != nil {
			return 0, err
		}
		if ok {
			n++
		}
	}
	return n, nil
}

// Range returns the ids of non-null rows with lo ≤/< value ≤/< hi.
func (t *BTree) Range(ctx context.Context, lo, hi Bound) (*roaring64.Bitmap, error) {
	out := roaring64.New()
	for p := 0; p < t.NumPages(); p++ {
		ok, err := t.pageOverlaps(p, lo, hi)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if err := t.scanPage(ctx, p, out, func(v arrow.Array, i int) (bool, error) {
			if v.IsNull(i) {
				return false, nil
			}
			return inRange(v, i, lo, hi)
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// IsNull returns the ids of rows whose value is NULL.
func (t *BTree) IsNull(ctx context.Context) (*roaring64.Bitmap, error) {
	out := roaring64.New()
	for p := 0; p < t.NumPages(); p++ {
		if t.nulls[p] == 0 {
			continue
		}
		if err := t.scanPage(ctx, p, out, func(v arrow.Array, i int) (bool, error) {
			return v.IsNull(i), nil
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// inRange tests a non-null value against both bounds.
func inRange(v arrow.Array, i int, lo, hi Bound) (bool, error) {
	if !lo.Unbounded {
		c, err := compareAt(v, i, lo.Key)
		if err != nil || c < 0 || (c == 0 && !lo.Inclusive) {
			return false, err
		}
	}
	if !hi.Unbounded {
		c, err := compareAt(v, i, hi.Key)
		if err != nil || c > 0 || (c == 0 && !hi.Inclusive) {
			return false, err
		}
	}
	return true, nil
}

// pageOverlaps reports whether page p may hold values in [lo, hi]. A NULL
// min is −∞ (the page holds nulls); a NULL max means an all-null page.
func (t *BTree) pageOverlaps(p int, lo, hi Bound) (bool, error) {
	if t.max.IsNull(p) {
		return false, nil
	}
	if !lo.Unbounded {
		c, err := compareAt(t.max, p, lo.Key)
		if err != nil || c < 0 || (c == 0 && !lo.Inclusive) {
			return false, err
		}
	}
	if !hi.Unbounded && !t.min.IsNull(p) {
		c, err := compareAt(t.min, p, hi.Key)
		if err != nil || c > 0 || (c == 0 && !hi.Inclusive) {
			return false, err
		}
	}
	return true, nil
}

// scanPage reads page p of page_data and adds the ids of rows keep selects.
func (t *BTree) scanPage(ctx context.Context, p int, out *roaring64.Bitmap, keep func(arrow.Array, int) (bool, error)) error {
	idx := uint64(t.pageIdx[p])
	data := t.data.f
	from := idx * t.batchSize
	if idx > maxBTreePages || from >= data.NumRows() {
		return fmt.Errorf("%w: %s: page %d starts at row %d of %d", ErrCorrupt, t.data.name, idx, from, data.NumRows())
	}
	to := min(from+t.batchSize, data.NumRows())
	recs, err := readRows(ctx, data, []string{"values", "ids"}, from, to)
	if err != nil {
		return err
	}
	defer releaseAll(recs)
	for _, r := range recs {
		ids, ok := r.Column(1).(*array.Uint64)
		if !ok {
			return fmt.Errorf("%w: %s: ids are %s, want uint64", ErrCorrupt, t.data.name, r.Column(1).DataType())
		}
		v := r.Column(0)
		for i := 0; i < v.Len(); i++ {
			ok, err := keep(v, i)
			if err != nil {
				return fmt.Errorf("indices: %s page %d: %w", t.data.name, idx, err)
			}
			if ok {
				out.Add(ids.Value(i))
			}
		}
	}
	return nil
}

// schemaMeta returns a schema metadata value.
func schemaMeta(s *arrow.Schema, key string) (string, bool) {
	md := s.Metadata()
	i := md.FindKey(key)
	if i < 0 {
		return "", false
	}
	return md.Values()[i], true
}

// concat joins arrays of one type (a single array is retained as is).
func concat(parts []arrow.Array) (arrow.Array, error) {
	if len(parts) == 1 {
		parts[0].Retain()
		return parts[0], nil
	}
	return array.Concatenate(parts, memoryAllocator())
}

// BTree index details, as pylance 14.0.2 records them in IndexMetadata
// (an empty BTreeIndexDetails message).
const (
	BTreeDetailsTypeURL = "/lance.table.BTreeIndexDetails"
	// DefaultBTreeBatchSize is the rows per page of page_data.lance.
	DefaultBTreeBatchSize = 4096
)

// BuildBTree writes a BTREE segment of in through sink: page_data.lance
// (the values sorted as Lance sorts them, with their ids) and
// page_lookup.lance (per page of batchSize rows: first and last value,
// null count, page number; schema metadata batch_size and
// range_partitioned = false). It returns the files written, by name.
func BuildBTree(ctx context.Context, sink FileSink, in ScalarBuild, batchSize int) ([]IndexFile, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	if batchSize <= 0 {
		batchSize = DefaultBTreeBatchSize
	}
	mem := in.mem()
	order, nulls, err := sortOrder(in.Values)
	if err != nil {
		return nil, err
	}
	sorted, err := takeRows(ctx, mem, in.Values, order)
	if err != nil {
		return nil, err
	}
	ids := make([]uint64, len(order))
	for i, r := range order {
		ids[i] = in.IDs[r]
	}
	typ := in.Values.DataType()
	dataSchema := arrow.NewSchema([]arrow.Field{
		{Name: "values", Type: typ, Nullable: true},
		{Name: "ids", Type: arrow.PrimitiveTypes.Uint64},
	}, nil)
	n := len(order)
	pages := (n + batchSize - 1) / batchSize
	firsts, lasts := make([]int32, pages), make([]int32, pages)
	nullCounts, pageIdx := make([]uint32, pages), make([]uint32, pages)
	for p := range pages {
		lo, hi := p*batchSize, min(n, (p+1)*batchSize)
		firsts[p], lasts[p], pageIdx[p] = int32(lo), int32(hi-1), uint32(p)
		nullCounts[p] = uint32(max(0, min(hi, nulls)-lo))
	}
	mins, err := takeRows(ctx, mem, sorted, firsts)
	if err != nil {
		sorted.Release()
		return nil, err
	}
	maxs, err := takeRows(ctx, mem, sorted, lasts)
	if err != nil {
		sorted.Release()
		mins.Release()
		return nil, err
	}
	data, err := writeOneBatch(ctx, sink, BTreeDataFile, dataSchema, []arrow.Array{sorted, uint64Array(mem, ids)}, nil)
	if err != nil {
		mins.Release()
		maxs.Release()
		return nil, err
	}
	lookupSchema := arrow.NewSchema([]arrow.Field{
		{Name: "min", Type: typ, Nullable: true},
		{Name: "max", Type: typ, Nullable: true},
		{Name: "null_count", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "page_idx", Type: arrow.PrimitiveTypes.Uint32},
	}, metadataOf("batch_size", strconv.Itoa(batchSize), "range_partitioned", "false"))
	lookup, err := writeOneBatch(ctx, sink, BTreeLookupFile, lookupSchema,
		[]arrow.Array{mins, maxs, uint32Array(mem, nullCounts), uint32Array(mem, pageIdx)}, nil)
	if err != nil {
		return nil, err
	}
	return []IndexFile{data, lookup}, nil
}
