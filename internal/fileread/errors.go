package fileread

import (
	"errors"

	"github.com/lancego/lancego/internal/lerr"
)

// The package's sentinel errors. Most are internal/lerr's, shared by every
// package; the root package re-exports all of them.
var (
	// ErrUnsupported reports a valid Lance file feature this reader cannot read.
	ErrUnsupported = lerr.ErrUnsupported
	// ErrClosed reports use of a closed file.
	ErrClosed = lerr.ErrClosed
	// ErrInvalidArgument reports a bad argument (an unknown column, a row out of range).
	ErrInvalidArgument = lerr.ErrInvalidArgument
	// ErrNoZoneSeed reports a column without a valid zone seed.
	ErrNoZoneSeed = errors.New("lance: no valid zone seed")
)
