package lance

import (
	"errors"

	"github.com/lancego/lancego/internal/lerr"
)

// ErrUnsupported reports a valid Lance file feature this reader cannot read.
var ErrUnsupported = errors.New("lance: unsupported")

// ErrClosed reports use of a closed file.
var ErrClosed = errors.New("lance: file is closed")

// ErrInvalidArgument reports a bad argument (an unknown column, a row out of range).
var ErrInvalidArgument = lerr.ErrInvalidArgument

// ErrWriterClosed reports use of a Writer after Close or Abort.
var ErrWriterClosed = lerr.ErrWriterClosed

// ErrSchemaMismatch reports a record batch whose schema differs from the
// schema the Writer was created with.
var ErrSchemaMismatch = lerr.ErrSchemaMismatch

// ErrUnsupportedType reports an Arrow type the writer cannot store (for the
// chosen file version).
var ErrUnsupportedType = lerr.ErrUnsupportedType
