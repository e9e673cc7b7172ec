package layouts

import (
	"errors"

	"github.com/lancego/lancego/internal/lerr"
)

// ErrCorrupt reports page bytes or page metadata that contradict each other.
//
// It is lerr.ErrCorrupt, the one corrupt-data sentinel of lancego: errors.Is
// matches it whichever package found the corruption.
var ErrCorrupt = lerr.ErrCorrupt

// ErrUnsupported reports a valid page shape this package cannot decode yet.
var ErrUnsupported = errors.New("layouts: unsupported page")
