package scheduler

import "errors"

// Sentinel errors of this package. Read errors from the Object are passed
// through unchanged (classify them with lanceio's sentinels).
var (
	// ErrClosed: the Scheduler was closed.
	ErrClosed = errors.New("scheduler: closed")
	// ErrInvalidRange: a range has a negative offset or length.
	ErrInvalidRange = errors.New("scheduler: invalid range")
	// ErrCanceled: the request was canceled before it completed (also
	// matches the context's error when a context caused it).
	ErrCanceled = errors.New("scheduler: canceled")
)
