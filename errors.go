package lance

import "errors"

// ErrUnsupported reports a valid Lance file feature this reader cannot read.
var ErrUnsupported = errors.New("lance: unsupported")

// ErrClosed reports use of a closed file.
var ErrClosed = errors.New("lance: file is closed")

// ErrInvalidArgument reports a bad argument (an unknown column, a row out of range).
var ErrInvalidArgument = errors.New("lance: invalid argument")
