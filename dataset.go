package lance

import (
	"context"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/internal/dataset"
)

// Dataset is one version of a Lance dataset (a table): a directory or
// object-store prefix of versioned manifests listing fragments of data
// files. Open one with OpenDataset (or OpenSplit), create one with
// CreateDataset.
//
// Reads: Scan and Batches (rows of a projection, optionally filtered),
// Take and TakeRowIDs (rows by position or row id), their filtered forms
// TakeWhere and TakeRowIDsWhere, CountRows and CountRowsWhere, Splits and
// ScanSplit (distributed reads), Nearest (vector search). Metadata:
// Schema, LanceSchema, Version, Versions, Fragments, NumFragments,
// Indices, IndexMetadata, URL, Stats. Writes (Append, Overwrite, Delete, Update)
// commit a new version and return it; the receiver stays the version it
// was. Close releases it.
//
// A Dataset is safe for concurrent use. Every read of any of its data
// files goes through one scheduler, one search cache and one request
// budget.
type Dataset struct{ d *dataset.Dataset }

func wrapDataset(d *dataset.Dataset) *Dataset {
	if d == nil {
		return nil
	}
	return &Dataset{d: d}
}

// next wraps the dataset a write returned: ds itself when the write
// committed nothing.
func (ds *Dataset) next(d *dataset.Dataset, err error) (*Dataset, error) {
	if d == ds.d {
		return ds, err
	}
	return wrapDataset(d), err
}

// Scan is Batches as an array.RecordReader; Release it when done.
func (ds *Dataset) Scan(ctx context.Context, o DatasetScanOptions) (array.RecordReader, error) {
	return ds.d.Scan(ctx, o.internal())
}

// Batches scans the dataset: fragments in manifest order, deleted rows
// skipped, only the rows the filter of o selects, and yields the batches
// or one error that ends the scan. The caller must Release each batch.
func (ds *Dataset) Batches(ctx context.Context, o DatasetScanOptions) iter.Seq2[arrow.RecordBatch, error] {
	return ds.d.Batches(ctx, o.internal())
}

// PlanFilter binds the filter of o to the dataset schema (with _rowid,
// _rowaddr and _rowoffset) and returns its top-level conjuncts, each with
// whether a scan with o applies it (see Conjunct and
// DatasetScanOptions.PartialFilter); nil without a filter. It reads
// nothing.
func (ds *Dataset) PlanFilter(o DatasetScanOptions) ([]Conjunct, error) {
	cs, err := ds.d.PlanFilter(o.internal())
	return conjuncts(cs), err
}

// Take returns the rows at the given offsets (positions among the
// dataset's live rows, fragments in manifest order), in the order asked,
// duplicates allowed. The rows of all fragments are read together: their
// data files' requests go to the shared scheduler at once. An offset at or
// past CountRows is an error wrapping ErrInvalidArgument.
func (ds *Dataset) Take(ctx context.Context, offsets []uint64, o ReadOptions) (arrow.RecordBatch, error) {
	return ds.d.Take(ctx, offsets, o.internal())
}

// TakeRowIDs returns the rows with the given row ids, in the order asked.
// Without stable row ids a row id is the row address (fragment id << 32 |
// offset). A row id that is not in the version (never existed, or deleted)
// is an error.
func (ds *Dataset) TakeRowIDs(ctx context.Context, ids []uint64, o ReadOptions) (arrow.RecordBatch, error) {
	return ds.d.TakeRowIDs(ctx, ids, o.internal())
}

// TakeWhere is Take keeping only the rows filter selects: the rows at
// offsets are taken (in the order asked, duplicates included), then those
// the filter does not select are dropped, the others keeping their order.
// The filter's columns are read with the projection, in the same take. The
// filter may reference _rowid, _rowaddr and _rowoffset (the offset asked
// for). A nil filter is Take. (pylance 14.0.2's take has no filter; this
// is its take followed by the filter.)
func (ds *Dataset) TakeWhere(ctx context.Context, offsets []uint64, filter expr.Expr, o ReadOptions) (arrow.RecordBatch, error) {
	return ds.d.TakeWhere(ctx, offsets, filter, o.internal())
}

// TakeRowIDsWhere is TakeRowIDs keeping only the rows filter selects, as
// TakeWhere does.
func (ds *Dataset) TakeRowIDsWhere(ctx context.Context, ids []uint64, filter expr.Expr, o ReadOptions) (arrow.RecordBatch, error) {
	return ds.d.TakeRowIDsWhere(ctx, ids, filter, o.internal())
}

// CountRows returns the number of rows of the opened version, deleted rows
// excluded. It reads only deletion files whose manifest entry does not
// record their row count (old datasets).
func (ds *Dataset) CountRows(ctx context.Context) (uint64, error) { return ds.d.CountRows(ctx) }

// CountRowsWhere returns the number of live rows filter selects (all of
// them when filter is nil: CountRows). It reads only the filter's columns
// for the rows the zone seeds leave, and materializes nothing else.
func (ds *Dataset) CountRowsWhere(ctx context.Context, filter expr.Expr) (uint64, error) {
	return ds.d.CountRowsWhere(ctx, filter)
}

// Splits cuts the opened version into splits of about targetRows physical
// rows each (whole fragments when targetRows is 0), in manifest order. It
// plans from the manifest alone and reads nothing; ctx lets a caller give
// up on a plan over a very large fragment list, and a cancelled ctx is the
// only error. An engine plans with it on one machine, ships each split
// (JSON) to a worker, and the worker reads it with OpenSplit and ScanSplit
// without listing the dataset.
func (ds *Dataset) Splits(ctx context.Context, targetRows uint64) ([]Split, error) {
	ss, err := ds.d.Splits(ctx, targetRows)
	if ss == nil {
		return nil, err
	}
	out := make([]Split, len(ss))
	for i, s := range ss {
		out[i] = splitOf(s)
	}
	return out, err
}

// ScanSplit scans the rows of a split of this version (see Splits) like
// Batches. Offset and Limit of o apply within the split.
func (ds *Dataset) ScanSplit(ctx context.Context, s Split, o DatasetScanOptions) iter.Seq2[arrow.RecordBatch, error] {
	return ds.d.ScanSplit(ctx, s.internal(), o.internal())
}

// Append writes the batches of rdr as new fragments and commits the next
// version. Appends never conflict: losing a race re-reads the latest
// version and retries. rdr's schema must be the dataset's (names and
// types); otherwise the result wraps ErrSchemaMismatch and nothing is
// written. The returned Dataset is the committed version; ds is unchanged.
func (ds *Dataset) Append(ctx context.Context, rdr array.RecordReader, opts ...DatasetWriteOption) (*Dataset, error) {
	return ds.next(ds.d.Append(ctx, rdr, dsWriteOpts(opts)...))
}

// Overwrite writes the batches of rdr as the whole content (and schema) of
// the next version and returns it; older versions stay readable.
func (ds *Dataset) Overwrite(ctx context.Context, rdr array.RecordReader, opts ...DatasetWriteOption) (*Dataset, error) {
	return ds.next(ds.d.Overwrite(ctx, rdr, dsWriteOpts(opts)...))
}

// Delete deletes the rows filter selects (a SQL filter as Lance accepts
// it: expr.Parse; it may reference _rowid, _rowaddr and _rowoffset, as in
// a scan) and commits the next version: deletion files for fragments that
// keep rows, fragments that lose every row dropped. Fragments whose zone
// seeds prove the filter false are not read. A concurrent delete or
// removal of a fragment this delete changes makes it run again on the
// latest version (WithCommitRetries times, as Lance's delete retries),
// then fail with ErrCommitConflict; concurrent appends are kept. With no matching row
// nothing is committed and ds itself is returned.
func (ds *Dataset) Delete(ctx context.Context, filter string, opts ...DatasetWriteOption) (*Dataset, error) {
	return ds.next(ds.d.Delete(ctx, filter, dsWriteOpts(opts)...))
}

// Update sets columns of the rows where selects (every row when where
// is empty) to SQL expressions over the row — set maps a column to its
// expression, as pylance's update takes them ("x * 2", "'u'",
// "lower(s)") — and commits the next version as Lance does: the new rows
// go to new fragments, the old ones are deleted. With stable row ids the
// rewritten rows keep their row ids and creation versions. It returns
// the new version and the number of rows updated; with no matching row
// nothing is committed and ds itself is returned. An update that loses
// to a concurrent commit changing its fragments runs again on the latest
// version (WithCommitRetries times), as Lance's does; then it fails with
// ErrCommitConflict. Nested columns (st.a) cannot be set, as in Lance.
func (ds *Dataset) Update(ctx context.Context, set map[string]string, where string, opts ...DatasetWriteOption) (*Dataset, uint64, error) {
	d, n, err := ds.d.Update(ctx, set, where, dsWriteOpts(opts)...)
	out, err := ds.next(d, err)
	return out, n, err
}

// Schema returns the dataset's Arrow schema (with Lance field metadata).
func (ds *Dataset) Schema() *arrow.Schema { return ds.d.Schema() }

// LanceSchema returns the dataset's Lance schema (field ids, tree).
func (ds *Dataset) LanceSchema() *format.Schema { return ds.d.LanceSchema() }

// Version returns the version that was opened.
func (ds *Dataset) Version() uint64 { return ds.d.Version() }

// URL returns the dataset root.
func (ds *Dataset) URL() string { return ds.d.URL() }

// Versions lists the versions of the dataset, oldest first (one request
// per 1,000 versions on object stores).
func (ds *Dataset) Versions(ctx context.Context) ([]VersionInfo, error) {
	vs, err := ds.d.Versions(ctx)
	return versionInfos(vs), err
}

// Fragments describes every fragment, in manifest order. It decodes each
// fragment's metadata, and reads the deletion files whose manifest entry
// does not record how many rows they delete.
func (ds *Dataset) Fragments(ctx context.Context) ([]FragmentInfo, error) {
	fs, err := ds.d.Fragments(ctx)
	return fragmentInfos(fs), err
}

// NumFragments returns the number of fragments of the opened version.
func (ds *Dataset) NumFragments() int { return ds.d.NumFragments() }

// Indices lists the dataset's indices, segments grouped by name, as
// pylance's describe_indices does: type, columns, and per segment the
// covered fragments and rows indexed (live rows of the covered fragments
// that exist). It reads the manifest file once; a dataset without an index
// section reads nothing.
func (ds *Dataset) Indices(ctx context.Context) ([]Index, error) { return ds.d.Indices(ctx) }

// IndexMetadata decodes every IndexMetadata entry of the manifest's index
// section, in manifest order (nil when the dataset has no indices).
func (ds *Dataset) IndexMetadata(ctx context.Context) ([]IndexMetadata, error) {
	return ds.d.IndexMetadata(ctx)
}

// IndexOpener opens the dataset's index files (names relative to the
// dataset root, e.g. "_indices/<uuid>/auxiliary.idx") through its store,
// scheduler and search cache, for the index readers of package indices.
func (ds *Dataset) IndexOpener() indices.Opener { return ds.d.IndexOpener() }

// Stats returns the I/O and cache counters of every read of the dataset so
// far: the manifest, listings, deletion files and all data files.
func (ds *Dataset) Stats() Stats { return statsOf(ds.d.Stats()) }

// Close releases the dataset's files, scheduler and store. Datasets
// returned by its writes are separate and are closed on their own.
func (ds *Dataset) Close() error { return ds.d.Close() }
