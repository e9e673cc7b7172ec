package lance

import (
	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/internal/dataset"
	"github.com/lancego/lancego/internal/fileread"
	"github.com/lancego/lancego/internal/lerr"
	lanceio "github.com/lancego/lancego/io"
)

// The sentinel errors of the package. They are the values the internal
// engines wrap (most are shared by every package of the module: format,
// codecs and layouts report ErrCorrupt with this very value), so errors.Is
// matches them whichever layer found the problem.
var (
	// ErrCorrupt reports bytes that are not valid Lance data: a bad
	// footer, an offset or length out of bounds, a page that does not
	// decode. The message names the file, column and position.
	ErrCorrupt = lerr.ErrCorrupt
	// ErrNotFound reports a file, object or dataset root that does not
	// exist (package io's lanceio.ErrNotFound).
	ErrNotFound = lanceio.ErrNotFound
	// ErrUnsupported reports a valid Lance file feature this reader cannot read.
	ErrUnsupported = lerr.ErrUnsupported
	// ErrClosed reports use of a closed file.
	ErrClosed = lerr.ErrClosed
	// ErrInvalidArgument reports a bad argument (an unknown column, a row out of range).
	ErrInvalidArgument = lerr.ErrInvalidArgument
	// ErrWriterClosed reports use of a Writer after Close or Abort.
	ErrWriterClosed = lerr.ErrWriterClosed
	// ErrSchemaMismatch reports a record batch whose schema differs from the
	// schema the Writer (or the dataset appended to) was created with.
	ErrSchemaMismatch = lerr.ErrSchemaMismatch
	// ErrUnsupportedType reports an Arrow type the writer cannot store (for the
	// chosen file version).
	ErrUnsupportedType = lerr.ErrUnsupportedType
	// ErrNoZoneSeed reports a column without a valid zone seed.
	ErrNoZoneSeed = fileread.ErrNoZoneSeed
)

// Errors of OpenDataset; they wrap the cause, so errors.Is also finds
// ErrNotFound, ErrCorrupt and the like.
var (
	// ErrNotDataset: the URL is neither a Lance dataset nor a Lance file.
	ErrNotDataset = dataset.ErrNotDataset
	// ErrVersionNotFound: the dataset has no such version.
	ErrVersionNotFound = dataset.ErrVersionNotFound
	// ErrUnsupportedFeature: the manifest needs a reader feature flag this
	// package does not implement.
	ErrUnsupportedFeature = dataset.ErrUnsupportedFeature
)

// ErrCommitConflict is returned when a dataset write lost the race for the
// next version to a concurrent write it is incompatible with (a delete of a
// fragment another writer deleted from or removed, a create of an existing
// dataset), or when its retries ran out.
var ErrCommitConflict = dataset.ErrCommitConflict

// Errors of index commits: CreateIndex with FailIfExists on a name in use
// (pylance's replace=False) is ErrIndexExists; DropIndex of a name no
// index has is ErrIndexNotFound.
var (
	ErrIndexExists   = dataset.ErrIndexExists
	ErrIndexNotFound = indices.ErrNotFound
)
