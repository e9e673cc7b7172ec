package lance

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/internal/dataset"
)

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
// Open; they apply to every data file of the dataset. A URL that holds no
// dataset fails with ErrNotDataset, a missing version with
// ErrVersionNotFound.
func OpenDataset(ctx context.Context, url string, opts ...Option) (*Dataset, error) {
	ds, err := dataset.OpenDataset(ctx, url, readOpts(opts)...)
	return wrapDataset(ds), err
}

// OpenSplit opens the dataset version a split belongs to (Split.URL and
// Split.Version), reading only its manifest (no listing): a worker given a
// split by a planner (Dataset.Splits) opens it so, then reads it with
// Dataset.ScanSplit.
func OpenSplit(ctx context.Context, s Split, opts ...Option) (*Dataset, error) {
	ds, err := dataset.OpenSplit(ctx, s.internal(), readOpts(opts)...)
	return wrapDataset(ds), err
}

// CreateDataset writes the batches of rdr as version 1 of a new dataset at
// url and returns it opened. It fails with ErrCommitConflict if a dataset
// exists there.
func CreateDataset(ctx context.Context, url string, rdr array.RecordReader, opts ...DatasetWriteOption) (*Dataset, error) {
	ds, err := dataset.CreateDataset(ctx, url, rdr, dsWriteOpts(opts)...)
	return wrapDataset(ds), err
}

// DatasetWriteOption configures CreateDataset, Append, Overwrite and
// Delete: file sizes, the data files' writer options, the store's open
// options, commit locking and retries, progress. Build options with the
// With* functions; a nil DatasetWriteOption does nothing.
type DatasetWriteOption func(*dsWriteConfig)

// dsWriteConfig collects the options of a dataset write.
type dsWriteConfig struct{ opts []dataset.DatasetWriteOption }

// dsWriteOpt makes a DatasetWriteOption of a dataset write option.
func dsWriteOpt(o dataset.DatasetWriteOption) DatasetWriteOption {
	return func(c *dsWriteConfig) { c.opts = append(c.opts, o) }
}

// dsWriteOpts converts root dataset write options, skipping nil ones.
func dsWriteOpts(opts []DatasetWriteOption) []dataset.DatasetWriteOption {
	var c dsWriteConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c.opts
}

// WithStableRowIDs makes CreateDataset enable stable row ids (pylance's
// enable_stable_row_ids): every fragment gets a row id sequence, and
// later writes keep assigning them. Other writes follow the dataset.
func WithStableRowIDs() DatasetWriteOption { return dsWriteOpt(dataset.WithStableRowIDs()) }

// WithZoneSeedsFlag makes the commit set FLAG_ZONE_WRITE_SEEDS (bit 16)
// in the manifest's reader and writer feature flags, as the zone write
// seeds proposal asks of the first commit that references version 1
// seeds (WithFileOptions(WithZoneSeeds(...))); later commits keep it,
// restores too, even after indices are dropped. Clients that do not know
// the flag refuse the dataset, pylance 14.0.2 among them: so it is never
// set without this option, even for data files that carry seeds
// (docs/zone-seeds.md). This package reads such datasets.
func WithZoneSeedsFlag() DatasetWriteOption { return dsWriteOpt(dataset.WithZoneSeedsFlag()) }

// WithMaxRowsPerFile caps the rows of one data file (and so of one
// fragment; DefaultMaxRowsPerFile).
func WithMaxRowsPerFile(n int64) DatasetWriteOption {
	return dsWriteOpt(dataset.WithMaxRowsPerFile(n))
}

// WithMaxBytesPerFile starts a new data file once one has sent this many
// bytes to storage (checked after each batch; the file writer sends in
// pieces of up to 1 MiB, so a file may exceed it by a piece and a batch).
func WithMaxBytesPerFile(n uint64) DatasetWriteOption {
	return dsWriteOpt(dataset.WithMaxBytesPerFile(n))
}

// WithFileOptions passes options to the writer of every data file
// (WithFileVersion, WithZoneSeeds, WithPageBudget ...). The default file
// version is DefaultWriteVersion, what pylance 14.0.2 writes by default.
func WithFileOptions(opts ...WriterOption) DatasetWriteOption {
	return dsWriteOpt(dataset.WithFileOptions(writeOpts(opts)...))
}

// WithOpenOptions passes options (I/O configuration, credentials) used to
// open the dataset's store and the dataset a write returns.
func WithOpenOptions(opts ...Option) DatasetWriteOption {
	return dsWriteOpt(dataset.WithOpenOptions(readOpts(opts)...))
}

// CommitLock is an external lock serializing commits for stores that
// cannot write conditionally (mem://, or an S3-compatible store without
// If-None-Match). See WithCommitLock.
type CommitLock interface {
	// Lock must exclude every other writer of the dataset from committing
	// version until the returned unlock is called.
	Lock(ctx context.Context, version uint64) (unlock func() error, err error)
}

// WithCommitLock makes commits take lock; required on stores without
// conditional writes, optional elsewhere.
func WithCommitLock(lock CommitLock) DatasetWriteOption {
	return dsWriteOpt(dataset.WithCommitLock(lock))
}

// WithCommitRetries bounds how often a commit that lost a race is retried
// (default DefaultCommitRetries); when they run out the write fails with
// ErrCommitConflict.
func WithCommitRetries(n int) DatasetWriteOption {
	return dsWriteOpt(dataset.WithCommitRetries(n))
}

// WithWriteProgress calls fn with the rows written so far: after each
// batch of a write, an update's or merge-insert's rewrite and each of a
// compaction's groups (whose counts start again per group), and after
// each fragment of AddColumns/AddColumnsFrom (its physical rows).
func WithWriteProgress(fn func(rows uint64)) DatasetWriteOption {
	return dsWriteOpt(dataset.WithWriteProgress(fn))
}
