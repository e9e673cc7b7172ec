package dataset

import "github.com/lancego/lancego/internal/lerr"

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
