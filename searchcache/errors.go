package searchcache

import "errors"

// Sentinel errors of this package.
var (
	// ErrTypeMismatch: a key holds a value of another type than asked for
	// (two callers use the same Key for different kinds of data).
	ErrTypeMismatch = errors.New("searchcache: cached value has a different type")
	// ErrNegativeSize: a loader reported a negative size.
	ErrNegativeSize = errors.New("searchcache: negative value size")
	// ErrLoadPanicked: the load a caller was waiting for panicked.
	ErrLoadPanicked = errors.New("searchcache: load panicked")
)
