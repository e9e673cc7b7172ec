package dataset

// Building scalar indices and committing index changes (issue #37): the
// column is read once with the ids the index stores, the index package
// writes the segment's files under _indices/<uuid>/, and a CreateIndex
// transaction commits it, replacing every segment of the same name as
// Lance's CreateIndex does. DropIndex commits the removal of a name's
// segments.

import (
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/internal/filewriter"
	lanceio "github.com/lancego/lancego/io"
)

// IndexParams are the options of CreateIndex.
type IndexParams struct {
	// Name is the index's name; "<column>_idx" when empty (pylance's
	// default).
	Name string
	// FailIfExists refuses to replace an index of the same name on the
	// same column (pylance's replace=False). By default the new index
	// replaces it, as pylance's create_scalar_index does.
	FailIfExists bool
	// BTreeBatchSize is the rows per BTREE page
	// (indices.DefaultBTreeBatchSize when 0).
	BTreeBatchSize int

	// The options of vector indices (IVF_FLAT, IVF_PQ, IVF_SQ); see
	// indices.VectorBuildParams for their defaults.

	// Metric is l2 (default), cosine or dot.
	Metric string
	// NumPartitions is the IVF partition count; when 0, the live rows
	// over 4096 (IVF_FLAT) or 8192 (IVF_PQ, IVF_SQ), at least 1, as Lance
	// chooses it.
	NumPartitions int
	// NumSubVectors is IVF_PQ's sub-vector count (required; it divides
	// the dimension).
	NumSubVectors int
	// NumBits is IVF_PQ's bits per code: 8 (default) or 4.
	NumBits int
	// MaxIters bounds the k-means iterations (50); SampleRate is the
	// training rows sampled per cluster (256).
	MaxIters, SampleRate int
	// Seed seeds the training sample and k-means; a build with the same
	// seed on the same data is the same index.
	Seed uint64
}

// BuildableIndexTypes are the index types CreateIndex builds.
var buildableIndexTypes = []indices.IndexType{indices.TypeBTree, indices.TypeBitmap, indices.TypeLabelList, indices.TypeZoneMap, indices.TypeNGram, indices.TypeBloomFilter}

// BuildableIndexTypes lists the index types CreateIndex builds.
func BuildableIndexTypes() []indices.IndexType {
	return append(slices.Clone(buildableIndexTypes), vectorIndexTypes...)
}

// CreateIndex builds an index of kind on column over every fragment of
// ds and commits it as the next version (a CreateIndex transaction, as
// pylance 14.0.2 writes it): BTREE (page_data.lance and page_lookup.lance)
// or BITMAP (bitmap_page_lookup.lance), files, details and index versions
// as pylance writes them, so that pylance and this package plan with it;
// or ZONEMAP (zonemap.lance), from the data files' zone seeds where they
// allow it, without reading the column (create_zonemap.go); or the vector
// indices IVF_FLAT, IVF_PQ and IVF_SQ on a fixed-size list of float32
// (auxiliary.idx and index.idx, trained with indices/kmeans on a seeded
// sample; create_vector_index.go). Deleted rows
// are left out (seeded zones span them). An index of the same name is replaced
// unless p.FailIfExists; a name used by an index on another column is
// an error. The commit rebases over concurrent appends and deletes (their
// new fragments stay unindexed) and fails with ErrCommitConflict over
// anything that rewrites rows or the schema; the files of a build that
// is not committed are removed.
func (ds *Dataset) CreateIndex(ctx context.Context, column string, kind indices.IndexType, p IndexParams, opts ...DatasetWriteOption) (*Dataset, error) {
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, err
	}
	kind = indices.IndexType(strings.ToUpper(string(kind)))
	vector := slices.Contains(vectorIndexTypes, kind)
	if !vector && !slices.Contains(buildableIndexTypes, kind) {
		return nil, fmt.Errorf("%w: building a %s index (lancego builds %v and %v)", ErrUnsupported, kind, buildableIndexTypes, vectorIndexTypes)
	}
	f := ds.fieldByPath(column)
	if f == nil {
		return nil, fmt.Errorf("%w: create index: no column %q", ErrInvalidArgument, column)
	}
	if strings.Contains(column, ".") {
		return nil, fmt.Errorf("%w: an index on the nested field %q", ErrUnsupported, column)
	}
	at := ds.arrow.Field(ds.arrow.FieldIndices(column)[0]).Type
	if vector {
		if _, _, err := ds.vectorParams(column, kind, p); err != nil {
			return nil, err
		}
	} else if kind == indices.TypeLabelList {
		if l, ok := at.(arrow.ListLikeType); !ok || at.ID() == arrow.FIXED_SIZE_LIST || !indices.ScalarBuildable(l.Elem()) {
			return nil, fmt.Errorf("%w: a LABEL_LIST index on column %q of type %s (it takes lists of scalars)", ErrUnsupported, column, at)
		}
	} else if !indices.ScalarBuildable(at) {
		return nil, fmt.Errorf("%w: a %s index on column %q of type %s", ErrUnsupported, kind, column, at)
	}
	name := p.Name
	if name == "" {
		name = column + "_idx"
	}
	change, err := ds.indexChangeFor(ctx, name, false)
	if err != nil {
		return nil, err
	}
	for _, m := range change.read {
		if !slices.Equal(m.Fields, []int32{f.ID}) {
			return nil, fmt.Errorf("%w: index name %q already exists with different fields; choose another name", ErrInvalidArgument, name)
		}
		if p.FailIfExists {
			return nil, fmt.Errorf("%w: index name %q already exists", ErrIndexExists, name)
		}
	}
	meta := &indices.IndexMetadata{Name: name, Fields: []int32{f.ID}, DatasetVersion: ds.Version()}
	return ds.buildAndCommit(ctx, c, change, meta, column, kind, p)
}

// buildAndCommit builds meta's segment (an index of kind on column over
// every fragment) under a new uuid and commits change with it; the files
// of a build that is not committed are removed.
func (ds *Dataset) buildAndCommit(ctx context.Context, c *dsWriteConfig, change *indexChange, meta *indices.IndexMetadata, column string, kind indices.IndexType, p IndexParams) (*Dataset, error) {
	if _, err := rand.Read(meta.UUID[:]); err != nil {
		return nil, err
	}
	meta.UUID[6], meta.UUID[8] = meta.UUID[6]&0x0f|0x40, meta.UUID[8]&0x3f|0x80
	sink := &indexSink{store: ds.store, dir: meta.Dir()}
	var err error
	if meta.Files, err = ds.buildIndexFiles(ctx, sink, meta, column, kind, p); err != nil {
		sink.remove(ctx)
		return nil, fmt.Errorf("create index %q on %q: %w", meta.Name, column, err)
	}
	slices.SortFunc(meta.Files, func(a, b indices.IndexFile) int { return strings.Compare(a.Path, b.Path) })
	meta.FragmentBitmap = roaring.New()
	for _, fr := range ds.man.Fragments {
		meta.FragmentBitmap.Add(uint32(fr.ID))
	}
	meta.CreatedAtMillis = uint64(time.Now().UnixMilli())
	raw, err := meta.Encode()
	if err != nil {
		sink.remove(ctx)
		return nil, err
	}
	change.add = []indexEntry{{raw: raw, meta: meta}}
	out, err := ds.commitIndexChange(ctx, c, change)
	if err != nil {
		sink.remove(ctx)
	}
	return out, err
}

// buildIndexFiles writes the files of an index of kind on column through
// sink and sets meta's details and index version.
func (ds *Dataset) buildIndexFiles(ctx context.Context, sink *indexSink, meta *indices.IndexMetadata, column string, kind indices.IndexType, p IndexParams) ([]indices.IndexFile, error) {
	if slices.Contains(vectorIndexTypes, kind) {
		return ds.buildVectorIndex(ctx, sink, meta, column, kind, p)
	}
	if kind == indices.TypeZoneMap {
		const rows = indices.DefaultRowsPerZone
		zm, err := ds.zoneMapInput(ctx, column, ds.arrow.FieldIndices(column)[0], rows)
		if err != nil {
			return nil, err
		}
		defer zm.Min.Release()
		defer zm.Max.Release()
		meta.DetailsTypeURL, meta.Details = indices.ZoneMapDetailsTypeURL, indices.ZoneMapDetails(rows)
		return indices.BuildZoneMap(ctx, sink, zm, rows, ds.allocator())
	}
	if kind == indices.TypeBloomFilter { // zones of row addresses, as ZONEMAP
		in, err := ds.indexInput(ctx, column, false, nil)
		if err != nil {
			return nil, err
		}
		defer in.Values.Release()
		meta.DetailsTypeURL = indices.BloomFilterDetailsTypeURL
		return indices.BuildBloomFilter(ctx, sink, in, 0, 0)
	}
	// BTREE stores row addresses (index version 1 says so on stable row id
	// datasets); BITMAP, LABEL_LIST and NGRAM store row ids (indices.md §1.5).
	byAddr := kind == indices.TypeBTree
	in, err := ds.indexInput(ctx, column, !byAddr, nil)
	if err != nil {
		return nil, err
	}
	defer in.Values.Release()
	switch kind {
	case indices.TypeBitmap:
		meta.DetailsTypeURL = indices.BitmapDetailsTypeURL
		return indices.BuildBitmap(ctx, sink, in)
	case indices.TypeLabelList:
		meta.DetailsTypeURL, meta.IndexVersion = indices.LabelListDetailsTypeURL, indices.LabelListIndexVersion
		return indices.BuildLabelList(ctx, sink, in)
	case indices.TypeNGram:
		meta.DetailsTypeURL = indices.NGramDetailsTypeURL
		return indices.BuildNGram(ctx, sink, in)
	}
	meta.DetailsTypeURL = indices.BTreeDetailsTypeURL
	if ds.man.ReaderFlags&FlagStableRowIDs != 0 {
		meta.IndexVersion = 1
	}
	return indices.BuildBTree(ctx, sink, in, p.BTreeBatchSize)
}

// DropIndex removes every segment of the index name and commits the next
// version (Lance's drop_index: a CreateIndex transaction removing them).
// The files stay until cleanup removes them with the versions that use
// them. An unknown name is indices.ErrNotFound.
func (ds *Dataset) DropIndex(ctx context.Context, name string, opts ...DatasetWriteOption) (*Dataset, error) {
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, err
	}
	change, err := ds.indexChangeFor(ctx, name, true)
	if err != nil {
		return nil, err
	}
	if len(change.read) == 0 {
		return nil, fmt.Errorf("%w: no index named %q in version %d", indices.ErrNotFound, name, ds.Version())
	}
	return ds.commitIndexChange(ctx, c, change)
}

func (ds *Dataset) commitIndexChange(ctx context.Context, c *dsWriteConfig, x *indexChange) (*Dataset, error) {
	op := &writeOp{kind: opIndex, readVersion: ds.Version(), index: x}
	v, err := commit(ctx, ds.store, c, op)
	if err != nil {
		return nil, err
	}
	return ds.reopen(ctx, v)
}

// indexChangeFor reads the version's segments named name: a replacement
// must find them still there at commit time (and no others); a drop
// removes them.
func (ds *Dataset) indexChangeFor(ctx context.Context, name string, drop bool) (*indexChange, error) {
	obj, err := ds.store.Open(ctx, ds.manKey)
	if err != nil {
		return nil, ds.errf(ds.man.Version, ds.manKey, err)
	}
	defer obj.Close()
	b, err := lanceio.ReadTail(ctx, obj, obj.Size())
	if err != nil {
		return nil, ds.errf(ds.man.Version, ds.manKey, err)
	}
	var entries []indexEntry
	off, ok, err := indexSectionOffset(int64(len(b)), b)
	if err == nil && ok {
		entries, err = readIndexEntriesAt(b, off)
	}
	if err != nil {
		return nil, ds.errf(ds.man.Version, ds.manKey, err)
	}
	x := &indexChange{name: name, drop: drop, readUUIDs: map[[16]byte]bool{}}
	for _, e := range entries {
		if e.meta.Name != name {
			continue
		}
		x.read = append(x.read, e.meta)
		x.readUUIDs[e.meta.UUID] = true
		if drop {
			x.removedRaw = append(x.removedRaw, e.raw)
		}
	}
	return x, nil
}

// indexChange is what an index commit does to the index section: add
// new segments in place of every segment of name, or drop them.
type indexChange struct {
	name       string
	drop       bool
	add        []indexEntry
	read       []*indices.IndexMetadata // name's segments in the version read
	readUUIDs  map[[16]byte]bool
	removedRaw [][]byte // the removed_indices of a drop or an optimize
}

func (x *indexChange) added() [][]byte {
	out := make([][]byte, len(x.add))
	for i, e := range x.add {
		out[i] = e.raw
	}
	return out
}

// check fails the commit when a concurrent one changed the segments of
// name since they were read.
func (x *indexChange) check(cur *latest) error {
	n := 0
	for _, e := range cur.indices {
		if e.meta.Name != x.name {
			continue
		}
		if !x.readUUIDs[e.meta.UUID] {
			return fmt.Errorf("%w: index %q was created concurrently (segment %s)", ErrCommitConflict, x.name, e.meta.UUIDString())
		}
		n++
	}
	if n != len(x.readUUIDs) {
		return fmt.Errorf("%w: index %q was changed or dropped by a concurrent commit", ErrCommitConflict, x.name)
	}
	return nil
}

// apply returns the index section after the change: every entry of
// another name as it was, then the new segments.
func (x *indexChange) apply(entries []indexEntry) []indexEntry {
	var out []indexEntry
	for _, e := range entries {
		if e.meta.Name != x.name {
			out = append(out, e)
		}
	}
	return append(out, x.add...)
}

// indexInput reads column's live values with the id each index entry
// stores: the stable row id (byRowID, on datasets that have them) or the
// row address; frags selects fragments by position (nil: all).
func (ds *Dataset) indexInput(ctx context.Context, column string, byRowID bool, frags []int) (indices.ScalarBuild, error) {
	o := DatasetScanOptions{ReadOptions: ReadOptions{Columns: []string{column}, WithRowID: byRowID, WithRowAddress: !byRowID}}
	var ranges []fragRange
	for i, f := range ds.frags {
		if frags == nil || slices.Contains(frags, i) {
			ranges = append(ranges, fragRange{i, 0, f.ref.PhysicalRows})
		}
	}
	var parts []arrow.Array
	var live uint64
	for _, r := range ranges {
		live += ds.liveRowsIn([]uint32{uint32(ds.man.Fragments[r.idx].ID)})
	}
	ids := make([]uint64, 0, live)
	defer func() {
		for _, a := range parts {
			a.Release()
		}
	}()
	var scanErr error
	ds.scanRanges(ctx, ranges, o, func(rec arrow.RecordBatch, err error) bool {
		if err != nil {
			scanErr = err
			return false
		}
		col := rec.Column(0)
		col.Retain()
		parts = append(parts, col)
		ids = append(ids, rec.Column(1).(*array.Uint64).Values()...)
		rec.Release()
		return true
	})
	if scanErr != nil {
		return indices.ScalarBuild{}, scanErr
	}
	var values arrow.Array
	switch len(parts) {
	case 0:
		values = array.MakeArrayOfNull(ds.allocator(), ds.arrow.Field(ds.arrow.FieldIndices(column)[0]).Type, 0)
	case 1:
		values = parts[0]
		values.Retain()
	default:
		var err error
		if values, err = array.Concatenate(parts, ds.allocator()); err != nil {
			return indices.ScalarBuild{}, err
		}
	}
	return indices.ScalarBuild{Values: values, IDs: ids, Mem: ds.allocator()}, nil
}

// indexSink writes an index segment's files under its directory in the
// dataset's store, as Lance 2.2 files (the version pylance 14.0.2 writes
// index files in).
type indexSink struct {
	store   *lanceio.Store
	dir     string
	written []string
}

func (s *indexSink) WriteFile(ctx context.Context, name string, schema *arrow.Schema, recs []arrow.RecordBatch, globals [][]byte) (uint64, error) {
	key := s.dir + "/" + name
	create := func(ctx context.Context, _ string) (filewriter.ObjectWriter, error) { return s.store.Create(ctx, key) }
	w, err := filewriter.Create(ctx, s.store.URL(key), schema, filewriter.WithFileVersion("2.2"),
		filewriter.WithObjectCreator(create), filewriter.WithLocalCreate())
	if err != nil {
		return 0, err
	}
	s.written = append(s.written, key)
	if err := filewriter.WriteAll(ctx, w, recs, globals); err != nil {
		return 0, err
	}
	return w.Stats().Bytes, nil
}

// remove deletes the files of a build that is not committed.
func (s *indexSink) remove(ctx context.Context) {
	removeKeys(ctx, s.store, s.written)
}
