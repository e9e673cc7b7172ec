package indices

// BITMAP scalar index (spec indices.md §2.2): bitmap_page_lookup.lance has
// one row per distinct key (ascending, the NULL key first) with the
// RowAddrTreeMap of the rows holding it. Answers are exact.

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/internal/fileread"
)

// BitmapFile is the file name of BITMAP and LABEL_LIST indices.
const BitmapFile = "bitmap_page_lookup.lance"

// Bitmap is an opened BITMAP segment: keys and serialized bitmaps are in
// memory, each bitmap is decoded when a query needs it.
type Bitmap struct {
	url     string
	keys    arrow.Array
	bitmaps [][]byte // aligned with keys
	recs    []arrow.RecordBatch
	file    indexFile // kept open for global buffers (LABEL_LIST nulls)
}

// OpenBitmap opens the BITMAP segment in directory dir.
func OpenBitmap(ctx context.Context, dir string, opts ...fileread.Option) (*Bitmap, error) {
	return OpenBitmapWith(ctx, pathOpener{opts}, dir)
}

// OpenBitmapWith opens the BITMAP segment in directory dir relative to op;
// it reads the whole (small) file: keys and serialized bitmaps.
func OpenBitmapWith(ctx context.Context, op Opener, dir string) (*Bitmap, error) {
	f, err := openIndexFile(ctx, op, dir, BitmapFile)
	if err != nil {
		return nil, err
	}
	b := &Bitmap{url: f.name, file: f}
	if err := b.load(ctx); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

func (b *Bitmap) load(ctx context.Context) error {
	recs, err := readWhole(ctx, b.file.f, []string{"keys", "bitmaps"})
	if err != nil {
		return err
	}
	b.recs = recs
	var keys []arrow.Array
	for _, r := range recs {
		keys = append(keys, r.Column(0))
		if err := appendBinary(&b.bitmaps, r.Column(1)); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, b.url, err)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	if b.keys, err = concat(keys); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, b.url, err)
	}
	return nil
}

// appendBinary appends the values of a binary column (views into its buffers).
func appendBinary(dst *[][]byte, a arrow.Array) error {
	switch c := a.(type) {
	case *array.Binary:
		for i := 0; i < c.Len(); i++ {
			*dst = append(*dst, c.Value(i))
		}
	case *array.LargeBinary:
		for i := 0; i < c.Len(); i++ {
			*dst = append(*dst, c.Value(i))
		}
	default:
		return fmt.Errorf("bitmaps column is %s, want binary", a.DataType())
	}
	return nil
}

// Close releases the segment.
func (b *Bitmap) Close() error {
	releaseAll(b.recs)
	b.recs = nil
	if b.keys != nil {
		b.keys.Release()
		b.keys = nil
	}
	return b.file.close()
}

// NumKeys is the number of distinct keys (the NULL key included).
func (b *Bitmap) NumKeys() int { return len(b.bitmaps) }

// rowsOf decodes key i's bitmap.
func (b *Bitmap) rowsOf(i int) (*roaring64.Bitmap, error) {
	rows, full, err := decodeRowAddrBitmap(b.bitmaps[i])
	if err != nil {
		return nil, fmt.Errorf("%s key %d: %w", b.url, i, err)
	}
	if len(full) > 0 {
		return nil, fmt.Errorf("%w: %s key %d selects whole fragments %v", ErrCorrupt, b.url, i, full)
	}
	return rows, nil
}

// find returns the position of the first non-null key ≥ k (or > k when
// after) and an error when k does not compare with the keys.
func (b *Bitmap) find(k Key, after bool) (int, error) {
	n := b.NumKeys()
	lo := 0
	if n > 0 && b.keys.IsNull(0) {
		lo = 1
	}
	var cerr error
	i := sort.Search(n-lo, func(j int) bool {
		c, err := compareAt(b.keys, lo+j, k)
		if err != nil {
			cerr = err
			return true
		}
		if after {
			return c > 0
		}
		return c >= 0
	})
	return lo + i, cerr
}

// Equal returns the ids of rows whose value equals k.
func (b *Bitmap) Equal(ctx context.Context, k Key) (*roaring64.Bitmap, error) {
	bd := Bound{Key: k, Inclusive: true}
	return b.Range(ctx, bd, bd)
}

// In returns the ids of rows whose value is one of keys.
func (b *Bitmap) In(ctx context.Context, keys []Key) (*roaring64.Bitmap, error) {
	out := roaring64.New()
	for _, k := range keys {
		r, err := b.Equal(ctx, k)
		if err != nil {
			return nil, err
		}
		out.Or(r)
	}
	return out, nil
}

// Range returns the ids of non-null rows with a value within the bounds.
func (b *Bitmap) Range(_ context.Context, lo, hi Bound) (*roaring64.Bitmap, error) {
	start, end := 0, b.NumKeys()
	if start < end && b.keys.IsNull(0) {
		start = 1
	}
	var err error
	if !lo.Unbounded {
		if start, err = b.find(lo.Key, !lo.Inclusive); err != nil {
			return nil, err
		}
	}
	if !hi.Unbounded {
		if end, err = b.find(hi.Key, hi.Inclusive); err != nil {
			return nil, err
		}
	}
	out := roaring64.New()
	for i := start; i < end; i++ {
		r, err := b.rowsOf(i)
		if err != nil {
			return nil, err
		}
		out.Or(r)
	}
	return out, nil
}

// IsNull returns the ids of rows whose value is NULL.
func (b *Bitmap) IsNull(context.Context) (*roaring64.Bitmap, error) {
	if b.NumKeys() == 0 || !b.keys.IsNull(0) {
		return roaring64.New(), nil
	}
	return b.rowsOf(0)
}

// BitmapDetailsTypeURL names BITMAP segments in IndexMetadata (an empty
// BitmapIndexDetails message, as pylance 14.0.2 writes it).
const BitmapDetailsTypeURL = "/lance.table.BitmapIndexDetails"

// BuildBitmap writes a BITMAP segment of in through sink:
// bitmap_page_lookup.lance with one row per distinct value (NULL first,
// then ascending; floats in IEEE total order, -0 and +0 apart, as Lance
// keys them) and the RowAddrTreeMap of the ids holding it; schema
// metadata lance:index_stats = {"num_bitmaps":N}.
func BuildBitmap(ctx context.Context, sink FileSink, in ScalarBuild) ([]IndexFile, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	f, err := writeBitmapFile(ctx, sink, in, nil, nil)
	if err != nil {
		return nil, err
	}
	return []IndexFile{f}, nil
}

// writeBitmapFile writes bitmap_page_lookup.lance of in's values (with
// more schema metadata, key and value pairs, and global buffers).
func writeBitmapFile(ctx context.Context, sink FileSink, in ScalarBuild, meta []string, globals [][]byte) (IndexFile, error) {
	mem := in.mem()
	order, nulls, err := sortOrder(in.Values)
	if err != nil {
		return IndexFile{}, err
	}
	starts := runStarts(in.Values, order, nulls)
	firsts := make([]int32, len(starts))
	bb := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	defer bb.Release()
	var ids []uint64
	var buf []byte
	for g, lo := range starts {
		hi := len(order)
		if g+1 < len(starts) {
			hi = starts[g+1]
		}
		firsts[g] = order[lo]
		ids = ids[:0]
		for _, r := range order[lo:hi] {
			ids = append(ids, in.IDs[r])
		}
		slices.Sort(ids)
		if buf, err = AppendRowAddrTreeMap(buf[:0], slices.Compact(ids)); err != nil {
			return IndexFile{}, err
		}
		bb.Append(buf)
	}
	keys, err := takeRows(ctx, mem, in.Values, firsts)
	if err != nil {
		return IndexFile{}, err
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "keys", Type: in.Values.DataType(), Nullable: true},
		{Name: "bitmaps", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, metadataOf(append(meta, "lance:index_stats", fmt.Sprintf(`{"num_bitmaps":%d}`, len(starts)))...))
	return writeOneBatch(ctx, sink, BitmapFile, schema, []arrow.Array{keys, bb.NewArray()}, globals)
}
