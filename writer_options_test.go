package lance

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// TestWithFileVersionReadOnly: asking to write 2.0 or legacy says those
// versions are read only (ErrUnsupported as well as ErrInvalidArgument),
// an unknown version is only an invalid argument, and no file is created.
func TestWithFileVersionReadOnly(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil)
	tests := []struct {
		version     string
		readOnly    bool
		wantMessage string
	}{
		{"2.0", true, "Lance 2.0 files are read, not written"},
		{"0.3", true, "Lance 0.3 files are read, not written"},
		{"0.1", true, "Lance 0.1 files are read, not written"},
		{"0.2", true, "Lance 0.2 files are read, not written"},
		{"legacy", true, "Lance legacy files are read, not written"},
		{"2.4", false, `file version "2.4" (want 2.1, 2.2 or 2.3)`},
		{"stable", false, `file version "stable"`},
	}
	for _, tc := range tests {
		t.Run(tc.version, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.lance")
			w, err := Create(context.Background(), path, schema, WithFileVersion(tc.version))
			if err == nil {
				w.Close(context.Background())
				t.Fatal("Create succeeded")
			}
			if !errors.Is(err, ErrInvalidArgument) || errors.Is(err, ErrUnsupported) != tc.readOnly {
				t.Errorf("err = %v: ErrInvalidArgument %v, ErrUnsupported %v (want %v)", err,
					errors.Is(err, ErrInvalidArgument), errors.Is(err, ErrUnsupported), tc.readOnly)
			}
			if !strings.Contains(err.Error(), tc.wantMessage) {
				t.Errorf("err = %q, want it to contain %q", err, tc.wantMessage)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused Create left %s (%v)", path, err)
			}
		})
	}
}
