package dataset

import (
	"errors"

	"github.com/lancego/lancego/internal/lerr"
)

// Errors of opening and reading datasets; they wrap the cause, so
// errors.Is also finds lanceio.ErrNotFound, ErrCorrupt and the like.
var (
	// ErrNotDataset: the URL is neither a Lance dataset nor a Lance file.
	ErrNotDataset = errors.New("not a Lance dataset or file")
	// ErrVersionNotFound: the dataset has no such version.
	ErrVersionNotFound = errors.New("no such version")
	// ErrUnsupportedFeature is wrapped when a manifest needs a reader
	// feature this package does not implement.
	ErrUnsupportedFeature = errors.New("dataset: unsupported reader feature")
)

// ErrCommitConflict is returned when a dataset write lost the race for the
// next version to a concurrent write it is incompatible with (a delete of
// a fragment another writer deleted from or removed, a create of an
// existing dataset), or when its retries ran out.
var ErrCommitConflict = errors.New("lance: commit conflict")

// ErrIndexExists: CreateIndex with FailIfExists found an index of that
// name (pylance's replace=False).
var ErrIndexExists = errors.New("lance: index already exists")

// Errors of tags (tags.go): creating a tag that exists, naming one that
// does not (DeleteTag, UpdateTag, WithTag).
var (
	ErrTagExists   = errors.New("lance: tag already exists")
	ErrTagNotFound = errors.New("lance: tag not found")
	// ErrTaggedVersions: a cleanup would remove tagged versions (pylance's
	// error_if_tagged_old_versions).
	ErrTaggedVersions = errors.New("lance: cleanup of tagged versions")
)

// Errors shared with the other packages (errors.Is matches across them).
var (
	// ErrInvalidArgument reports a bad argument (an unknown column, a row
	// out of range, a bad option).
	ErrInvalidArgument = lerr.ErrInvalidArgument
	// ErrUnsupported reports a valid Lance feature this package cannot
	// read or write.
	ErrUnsupported = lerr.ErrUnsupported
	// ErrSchemaMismatch reports record batches whose schema differs from
	// the dataset's.
	ErrSchemaMismatch = lerr.ErrSchemaMismatch
	// ErrClosed reports use of a closed dataset's files.
	ErrClosed = lerr.ErrClosed
)
