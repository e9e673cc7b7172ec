package indices

import (
	"errors"
	"fmt"

	"github.com/lancego/lancego/internal/lerr"
)

// ErrCorrupt reports index bytes that contradict Lance's index formats: a
// length, count or offset that does not fit, an undecodable message or
// row set. It is the project-wide lerr.ErrCorrupt, so errors.Is matches
// lance.ErrCorrupt, format.ErrCorrupt and the others.
var ErrCorrupt = lerr.ErrCorrupt

// ErrUnsupported reports a valid index lancego cannot read: an unknown
// type URL, an index version newer than the reader knows, a layout not
// implemented. Callers fall back to scanning, as Lance does. It is
// lerr.ErrUnsupported.
var ErrUnsupported = lerr.ErrUnsupported

// ErrNotFound reports a missing index, index file or partition.
var ErrNotFound = errors.New("lance: index not found")

// ErrInvalidQuery reports a query an index cannot answer: a vector of the
// wrong dimension, an unknown metric. It is lerr.ErrInvalidArgument.
var ErrInvalidQuery = lerr.ErrInvalidArgument

// ErrKeyType reports a scalar query key that cannot be compared with the
// index column (a string key for an integer column, ...). The planner
// then evaluates the filter by scanning.
var ErrKeyType = errors.New("lance: index query key does not match the index column type")

// errInverted is wrapped by every malformed-INVERTED-index error; it is an
// ErrCorrupt, so errors.Is(err, ErrCorrupt) holds for them too.
var errInverted = fmt.Errorf("%w: inverted index", ErrCorrupt)
