package vector

import "github.com/lancego/lancego/internal/lerr"

// ErrInvalidArgument reports a bad query: an unknown metric, vectors of
// different dimensions, a NaN in the query, an unsupported element type.
// It is the project-wide lerr.ErrInvalidArgument, so errors.Is matches
// lance.ErrInvalidArgument.
var ErrInvalidArgument = lerr.ErrInvalidArgument
