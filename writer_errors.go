package lance

import "errors"

// ErrWriterClosed reports use of a Writer after Close or Abort.
var ErrWriterClosed = errors.New("lance: writer is closed")

// ErrSchemaMismatch reports a record batch whose schema differs from the
// schema the Writer was created with.
var ErrSchemaMismatch = errors.New("lance: record batch schema does not match the writer schema")

// ErrUnsupportedType reports an Arrow type the writer cannot store (for the
// chosen file version).
var ErrUnsupportedType = errors.New("lance: unsupported type for writing")
