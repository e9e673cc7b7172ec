package codecs

import (
	"errors"

	"github.com/lancego/lancego/internal/lerr"
)

// ErrCorrupt reports encoded bytes that contradict their own description:
// a length, count or offset that does not fit the buffer it refers to.
//
// It is lerr.ErrCorrupt, the one corrupt-data sentinel of lancego: errors.Is
// matches it whichever package found the corruption.
var ErrCorrupt = lerr.ErrCorrupt

// ErrUnsupported reports an encoding that is valid Lance but not decodable by
// this package (for example a 2.3-only codec, or a context that forbids it).
var ErrUnsupported = errors.New("codecs: unsupported encoding")
