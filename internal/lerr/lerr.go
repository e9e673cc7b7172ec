// Package lerr holds the sentinel errors shared by lancego's packages, so
// that errors.Is matches across them: a corrupt page found by codecs, by
// layouts or by format wraps the one ErrCorrupt, and the root package
// re-exports these values under its own names (lance.ErrInvalidArgument is
// lerr.ErrInvalidArgument).
package lerr

import "errors"

// ErrCorrupt reports bytes that contradict the Lance format or their own
// description: a bad magic number, a length, count or offset that does not
// fit the buffer it refers to, undecodable metadata. format.ErrCorrupt,
// codecs.ErrCorrupt and layouts.ErrCorrupt are this value.
var ErrCorrupt = errors.New("corrupt Lance data")

// ErrInvalidArgument reports a bad argument to the root package (an unknown
// column, a row out of range, a bad writer option).
var ErrInvalidArgument = errors.New("lance: invalid argument")

// ErrWriterClosed reports use of a Writer after Close or Abort.
var ErrWriterClosed = errors.New("lance: writer is closed")

// ErrSchemaMismatch reports a record batch whose schema differs from the
// schema the Writer was created with.
var ErrSchemaMismatch = errors.New("lance: record batch schema does not match the writer schema")

// ErrUnsupportedType reports an Arrow type the writer cannot store (for the
// chosen file version).
var ErrUnsupportedType = errors.New("lance: unsupported type for writing")

// ErrUnsupported reports a valid Lance feature lancego cannot read or
// write (a file version, an encoding, a dataset operation).
var ErrUnsupported = errors.New("lance: unsupported")

// ErrClosed reports use of a closed file or dataset.
var ErrClosed = errors.New("lance: file is closed")
