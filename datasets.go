package lance

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/internal/dataset"
)

// Dataset is one version of a Lance dataset (a table): a directory or
// object-store prefix of versioned manifests listing fragments of data
// files. It is safe for concurrent use. Every read of any of its data
// files goes through one scheduler, one search cache and one request
// budget. Its methods are documented on dataset.Dataset: reads (Scan,
// Batches, Take, TakeRowIDs, Splits, ScanSplit, CountRows; filtered:
// CountRowsWhere, TakeWhere, TakeRowIDsWhere, PlanFilter), metadata
// (Schema, LanceSchema, Version, Versions, Fragments, NumFragments, URL,
// Stats), writes that commit a new version (Append, Overwrite, Delete)
// and Close.
type Dataset = dataset.Dataset

// DatasetScanOptions selects what a dataset scan returns: ReadOptions,
// Offset and Limit, BatchSize and a filter (Filter, an expr.Expr, or
// FilterSQL; Filters, PartialFilter), which may reference _rowid,
// _rowaddr and _rowoffset (fields documented on
// dataset.DatasetScanOptions).
type DatasetScanOptions = dataset.DatasetScanOptions

// ReadOptions selects the columns of a dataset read: Columns (top-level
// names, empty means all), WithRowID and WithRowAddress.
type ReadOptions = dataset.ReadOptions

// VersionInfo is one version of a dataset.
type VersionInfo = dataset.VersionInfo

// FragmentInfo describes one fragment of the opened version.
type FragmentInfo = dataset.FragmentInfo

// DataFileInfo describes one data file of a fragment.
type DataFileInfo = dataset.DataFileInfo

// Split is a part of a dataset version that can be read on its own, on
// any machine: a list of fragments with physical row ranges. It
// serializes to JSON (see Dataset.Splits).
type Split = dataset.Split

// SplitFragment is physical rows [From, To) of fragment ID.
type SplitFragment = dataset.SplitFragment

// CommitLock is an external lock serializing commits for stores that
// cannot write conditionally (mem://, or an S3-compatible store without
// If-None-Match). Lock must exclude every other writer of the dataset
// until the returned unlock is called.
type CommitLock = dataset.CommitLock

// DatasetWriteOption configures CreateDataset, Append, Overwrite and Delete.
type DatasetWriteOption = dataset.DatasetWriteOption

// Names of the columns a dataset read appends on request, after the data
// columns, as pylance does: "_rowid" and "_rowaddr". A dataset filter may
// reference them and "_rowoffset", a row's position among the version's
// live rows (the offset Take takes).
const (
	RowIDColumn      = dataset.RowIDColumn
	RowAddressColumn = dataset.RowAddressColumn
	RowOffsetColumn  = dataset.RowOffsetColumn
)

// Defaults of dataset writes: Lance's max_rows_per_file (1,048,576 rows)
// and max_bytes_per_file (90 GiB) defaults, and 20 commit retries.
const (
	DefaultMaxRowsPerFile  = dataset.DefaultMaxRowsPerFile
	DefaultMaxBytesPerFile = dataset.DefaultMaxBytesPerFile
	DefaultCommitRetries   = dataset.DefaultCommitRetries
)

// OpenDataset opens the Lance dataset rooted at url: a local path, file://,
// s3://, gs://, azblob:// or mem:// URL of the directory holding
// _versions/. It reads the latest version unless WithVersion says
// otherwise: one listing of _versions/ and one read of the manifest (two
// requests on an object store; with WithVersion, one). Options are those of
// Open; they apply to every data file of the dataset.
func OpenDataset(ctx context.Context, url string, opts ...Option) (*Dataset, error) {
	return dataset.OpenDataset(ctx, url, opts...)
}

// OpenSplit opens the dataset version a split belongs to, reading only
// its manifest (no listing).
func OpenSplit(ctx context.Context, s Split, opts ...Option) (*Dataset, error) {
	return dataset.OpenSplit(ctx, s, opts...)
}

// CreateDataset writes the batches of rdr as version 1 of a new dataset at
// url. It fails with ErrCommitConflict if a dataset exists there.
func CreateDataset(ctx context.Context, url string, rdr array.RecordReader, opts ...DatasetWriteOption) (*Dataset, error) {
	return dataset.CreateDataset(ctx, url, rdr, opts...)
}

// WithStableRowIDs makes CreateDataset enable stable row ids (pylance's
// enable_stable_row_ids): every fragment gets a row id sequence, and
// later writes keep assigning them. Other writes follow the dataset.
func WithStableRowIDs() DatasetWriteOption { return dataset.WithStableRowIDs() }

// WithMaxRowsPerFile caps the rows of one data file (and so of one fragment).
func WithMaxRowsPerFile(n int64) DatasetWriteOption { return dataset.WithMaxRowsPerFile(n) }

// WithMaxBytesPerFile starts a new data file once one has sent this many
// bytes to storage (checked after each batch; the file writer sends in
// pieces of up to 1 MiB, so a file may exceed it by a piece and a batch).
func WithMaxBytesPerFile(n uint64) DatasetWriteOption { return dataset.WithMaxBytesPerFile(n) }

// WithFileOptions passes options to the writer of every data file
// (WithFileVersion, WithZoneSeeds, WithPageBudget ...). The default file
// version is DefaultWriteVersion, what pylance 14.0.2 writes by default.
func WithFileOptions(opts ...WriterOption) DatasetWriteOption {
	return dataset.WithFileOptions(opts...)
}

// WithOpenOptions passes options (I/O configuration, credentials) used to
// open the dataset's store and the dataset a write returns.
func WithOpenOptions(opts ...Option) DatasetWriteOption { return dataset.WithOpenOptions(opts...) }

// WithCommitLock makes commits take lock; required on stores without
// conditional writes, optional elsewhere.
func WithCommitLock(lock CommitLock) DatasetWriteOption { return dataset.WithCommitLock(lock) }

// WithCommitRetries bounds how often a commit that lost a race is retried
// (default DefaultCommitRetries).
func WithCommitRetries(n int) DatasetWriteOption { return dataset.WithCommitRetries(n) }

// WithWriteProgress calls fn with the total rows written after each batch.
func WithWriteProgress(fn func(rows uint64)) DatasetWriteOption {
	return dataset.WithWriteProgress(fn)
}
