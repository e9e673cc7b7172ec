package codecs

import "errors"

// ErrCorrupt reports encoded bytes that contradict their own description:
// a length, count or offset that does not fit the buffer it refers to.
var ErrCorrupt = errors.New("codecs: corrupt data")

// ErrUnsupported reports an encoding that is valid Lance but not decodable by
// this package (for example a 2.3-only codec, or a context that forbids it).
var ErrUnsupported = errors.New("codecs: unsupported encoding")
