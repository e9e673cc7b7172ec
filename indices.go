package lance

import (
	"context"

	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/internal/dataset"
)

// Index is one logical index of a dataset (the segments sharing a name),
// as Dataset.Indices lists it: name, type, columns, segments with their
// covered fragments, rows indexed and versions. It is package indices'
// type (public; see go doc github.com/lancego/lancego/indices Index).
type Index = indices.Index

// IndexSegment is one segment of an Index (indices.Segment).
type IndexSegment = indices.Segment

// IndexMetadata is one IndexMetadata entry of a manifest, as
// Dataset.IndexMetadata decodes it (indices.IndexMetadata).
type IndexMetadata = indices.IndexMetadata

// IndexType names an index type, as Index.Type reports it
// (indices.IndexType: "BTREE", "BITMAP", "IVF_PQ", ...).
type IndexType = indices.IndexType

// The index types CreateIndex builds.
const (
	IndexBTree       = indices.TypeBTree
	IndexBitmap      = indices.TypeBitmap
	IndexLabelList   = indices.TypeLabelList
	IndexZoneMap     = indices.TypeZoneMap
	IndexNGram       = indices.TypeNGram
	IndexBloomFilter = indices.TypeBloomFilter
	IndexIVFFlat     = indices.TypeIVFFlat
	IndexIVFPQ       = indices.TypeIVFPQ
	IndexIVFSQ       = indices.TypeIVFSQ
)

// IndexParams are the options of CreateIndex.
type IndexParams struct {
	// Name is the index's name; "<column>_idx" when empty (pylance's
	// default).
	Name string
	// FailIfExists refuses to replace an index of the same name
	// (ErrIndexExists; pylance's replace=False). By default the new index
	// replaces it, as pylance's create_scalar_index does.
	FailIfExists bool
	// BTreeBatchSize is the rows per BTREE page (4096 when 0, as Lance).
	BTreeBatchSize int

	// The options below are those of vector indices (IndexIVFFlat,
	// IndexIVFPQ, IndexIVFSQ), named as pylance's create_index names them.

	// Metric is the distance the index is trained for and searched with:
	// "l2" (default), "cosine" or "dot".
	Metric string
	// NumPartitions is the IVF partition count. When 0: the live rows
	// over 4096 (IVF_FLAT) or 8192 (IVF_PQ, IVF_SQ), at least 1, as
	// pylance chooses it.
	NumPartitions int
	// NumSubVectors is IVF_PQ's sub-vector count; it must divide the
	// dimension. Required for IVF_PQ (as pylance requires it).
	NumSubVectors int
	// NumBits is IVF_PQ's bits per code: 8 (default) or 4.
	NumBits int
	// MaxIters bounds each k-means run (50 when 0, as Lance).
	MaxIters int
	// SampleRate is the training rows sampled per centroid (256 when 0,
	// as Lance); the sample is NumPartitions × SampleRate rows, at least
	// 2^NumBits × SampleRate for IVF_PQ and 256 × SampleRate for IVF_SQ,
	// or every row when there are fewer.
	SampleRate int
	// Seed seeds the training sample and k-means: the same seed on the
	// same data builds the same index. 0 is a seed like any other.
	Seed uint64
}

// CreateIndex builds an index of kind (IndexBTree, IndexBitmap,
// IndexLabelList for list columns, IndexZoneMap, IndexNGram for strings,
// IndexBloomFilter, or the vector indices IndexIVFFlat, IndexIVFPQ and
// IndexIVFSQ; other types are ErrUnsupported) on the top-level column
// over every fragment of ds and commits it as the next version, as
// pylance 14.0.2's create_scalar_index does: the same files, details
// message, index version and CreateIndex transaction, so pylance lists
// it, plans with it and answers from it, and so do this package's
// filtered scans, counts and deletes. Deleted rows are left out (a zone
// map built from seeds spans them: see below); fragments appended later stay
// unindexed (searched by scanning) until the index is rebuilt. An index
// of the same name is replaced unless p.FailIfExists; a name used by an
// index on another column is ErrInvalidArgument. The commit rebases over
// concurrent appends and deletes and fails with ErrCommitConflict over a
// concurrent compaction, update, overwrite or schema change, or another
// commit of the same index name; the files of a build that is not
// committed are removed. The returned Dataset is the new version.
//
// Supported column types: integers, floats, booleans, dates, times,
// timestamps, strings and binary (LABEL_LIST: lists of them; NGRAM:
// strings; BLOOMFILTER: no booleans). BTREE, BITMAP, LABEL_LIST, NGRAM
// and BLOOMFILTER read the column once
// into memory (values and an 8-byte id per row) and sort it there.
//
// ZONEMAP (zones of 8,192 rows): a fragment whose data file carries a
// zone seed of the column (WithZoneSeeds) is zoned from the seed alone,
// read from the file's global buffer without reading a column page; its
// zones then cover the file's physical rows, deleted ones included (the
// deletion files mask them at query time), where Lance's trainer zones
// live rows. A seed is not used when it is invalid, of another type, or
// leaves the NULL rows' positions unknown (a zone partly NULL: our
// writers' seeds carry no null bitmap); those fragments, and fragments
// without seeds, are read once and zoned as Lance does.
//
// Vector indices (a fixed-size list of float32 column; pylance's
// create_index): a seeded sample of the live rows trains the IVF
// centroids with k-means as Lance's trainer does (p.Metric,
// p.NumPartitions, p.MaxIters, p.SampleRate, p.Seed), then IVF_PQ trains
// one codebook per sub-vector on the residuals (p.NumSubVectors,
// p.NumBits) and IVF_SQ the 8-bit bounds; the column is then read once
// and every live row assigned and encoded. The files (auxiliary.idx,
// index.idx), details and index version are pylance's, so pylance and
// Dataset.Nearest search the index; recall matches pylance's own builds
// of the same kind. Rows with a NULL vector are left out. IVF_FLAT keeps
// the vectors in memory until written; IVF_PQ and IVF_SQ keep the codes.
func (ds *Dataset) CreateIndex(ctx context.Context, column string, kind IndexType, p IndexParams, opts ...DatasetWriteOption) (*Dataset, error) {
	return ds.next(ds.d.CreateIndex(ctx, column, kind, dataset.IndexParams{Name: p.Name, FailIfExists: p.FailIfExists,
		BTreeBatchSize: p.BTreeBatchSize, Metric: p.Metric, NumPartitions: p.NumPartitions,
		NumSubVectors: p.NumSubVectors, NumBits: p.NumBits, MaxIters: p.MaxIters,
		SampleRate: p.SampleRate, Seed: p.Seed}, dsWriteOpts(opts)...))
}

// DropIndex removes every segment of the index name and commits the next
// version, as Lance's drop_index does (a CreateIndex transaction that
// removes them). The index files stay until Cleanup removes the versions
// that use them. An unknown name is ErrIndexNotFound.
func (ds *Dataset) DropIndex(ctx context.Context, name string, opts ...DatasetWriteOption) (*Dataset, error) {
	return ds.next(ds.d.DropIndex(ctx, name, dsWriteOpts(opts)...))
}

// IndexOptimization is what OptimizeIndices did to one index: the
// fragments it covers now and did not before, or why it was skipped.
type IndexOptimization struct {
	Name    string
	Type    IndexType
	Added   []uint32
	Skipped string // "" when the index was rebuilt
}

// OptimizeIndices indexes the fragments added since each index was
// built, as pylance's optimize_indices() does with its defaults: every
// BTREE, BITMAP, LABEL_LIST or ZONEMAP index whose segments miss
// fragments is rebuilt over all of them as one segment replacing its
// segments (keeping the first segment's dataset version), one commit per
// index. Lance merges only the new fragments' rows into the old segment;
// this rebuild reads the whole column, with the same result. Indices of
// types lancego does not build (INVERTED, vector) are reported as
// skipped, system indices left alone. It returns the latest version (ds
// itself when nothing was committed) and one report per index.
func (ds *Dataset) OptimizeIndices(ctx context.Context, opts ...DatasetWriteOption) (*Dataset, []IndexOptimization, error) {
	d, reps, err := ds.d.OptimizeIndices(ctx, dsWriteOpts(opts)...)
	out := make([]IndexOptimization, len(reps))
	for i, r := range reps {
		out[i] = IndexOptimization{Name: r.Name, Type: r.Type, Added: r.Added, Skipped: r.Skipped}
	}
	if err != nil {
		return nil, out, err
	}
	next, err := ds.next(d, nil)
	return next, out, err
}
