package lerr_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/lerr"
	"github.com/lancego/lancego/layouts"
)

// TestOneErrCorrupt checks that a corruption reported by any package
// matches every package's ErrCorrupt.
func TestOneErrCorrupt(t *testing.T) {
	all := []error{lerr.ErrCorrupt, format.ErrCorrupt, codecs.ErrCorrupt, layouts.ErrCorrupt}
	for i, from := range all {
		err := fmt.Errorf("page 3: %w", from)
		for j, target := range all {
			if !errors.Is(err, target) {
				t.Errorf("error wrapping sentinel %d does not match sentinel %d", i, j)
			}
		}
	}
}
