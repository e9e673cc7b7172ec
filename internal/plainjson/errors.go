package plainjson

import "errors"

// ErrUnsupported is returned (wrapped, naming the column and type) for an
// Arrow type this package has no JSON form for, such as unions or a
// decimal whose scale is out of range.
var ErrUnsupported = errors.New("plainjson: unsupported")
