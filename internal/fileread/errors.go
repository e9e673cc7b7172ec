package fileread

import "github.com/lancego/lancego/internal/lerr"

// ErrUnsupported reports a valid Lance file feature this reader cannot read.
var ErrUnsupported = lerr.ErrUnsupported

// ErrClosed reports use of a closed file.
var ErrClosed = lerr.ErrClosed

// ErrInvalidArgument reports a bad argument (an unknown column, a row out of range).
var ErrInvalidArgument = lerr.ErrInvalidArgument
