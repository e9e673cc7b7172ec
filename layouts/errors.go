package layouts

import "errors"

// ErrCorrupt reports page bytes or page metadata that contradict each other.
var ErrCorrupt = errors.New("layouts: corrupt page")

// ErrUnsupported reports a valid page shape this package cannot decode yet.
var ErrUnsupported = errors.New("layouts: unsupported page")
