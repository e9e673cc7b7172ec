package lance

import (
	"github.com/lancego/lancego/internal/dataset"
	"github.com/lancego/lancego/internal/fileread"
	"github.com/lancego/lancego/internal/lerr"
)

// The sentinel errors of the package. They are the values the internal
// engines wrap (most are internal/lerr's, shared by every package), so
// errors.Is matches them whichever layer found the problem.
var (
	// ErrUnsupported reports a valid Lance file feature this reader cannot read.
	ErrUnsupported = lerr.ErrUnsupported
	// ErrClosed reports use of a closed file.
	ErrClosed = lerr.ErrClosed
	// ErrInvalidArgument reports a bad argument (an unknown column, a row out of range).
	ErrInvalidArgument = lerr.ErrInvalidArgument
	// ErrWriterClosed reports use of a Writer after Close or Abort.
	ErrWriterClosed = lerr.ErrWriterClosed
	// ErrSchemaMismatch reports a record batch whose schema differs from the
	// schema the Writer was created with.
	ErrSchemaMismatch = lerr.ErrSchemaMismatch
	// ErrUnsupportedType reports an Arrow type the writer cannot store (for the
	// chosen file version).
	ErrUnsupportedType = lerr.ErrUnsupportedType
	// ErrNoZoneSeed reports a column without a valid zone seed.
	ErrNoZoneSeed = fileread.ErrNoZoneSeed
)

// Errors of OpenDataset; they wrap the cause, so errors.Is also finds
// lanceio.ErrNotFound, ErrCorrupt and the like.
var (
	// ErrNotDataset: the URL is neither a Lance dataset nor a Lance file.
	ErrNotDataset = dataset.ErrNotDataset
	// ErrVersionNotFound: the dataset has no such version.
	ErrVersionNotFound = dataset.ErrVersionNotFound
	// ErrUnsupportedFeature: the manifest needs a reader feature this
	// package does not implement (see internal/dataset.CheckReaderFlags).
	ErrUnsupportedFeature = dataset.ErrUnsupportedFeature
)

// ErrCommitConflict is returned when a dataset write lost the race for the
// next version to a concurrent write it is incompatible with (a delete of a
// fragment another writer deleted from or removed, a create of an existing
// dataset), or when its retries ran out.
var ErrCommitConflict = dataset.ErrCommitConflict
