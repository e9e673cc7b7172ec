package lance

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestPylance20Files writes 2.0 files with pylance 14.0.2 at test time
// (testdata/pylance/gen.py --versions 2.0: every case pylance accepts as
// 2.0, including the 2.0-only cases of all scalar types, nested lists and
// structs, multi-page columns, compression and legacy blobs), which gen.py
// checks against pylance's own read, and compares our scan and takes with
// the values pylance read.
func TestPylance20Files(t *testing.T) {
	py := lancePython()
	if py == "" {
		t.Skip("no pylance venv (set LANCE_PY or create .ci/venv)")
	}
	dir := t.TempDir()
	cmd := exec.Command(py, "gen.py", "--versions", "2.0", "--out", dir)
	cmd.Dir = filepath.Join("testdata", "pylance")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen.py: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "2.0", "*.lance"))
	if len(files) < 10 {
		t.Fatalf("gen.py wrote %d 2.0 files", len(files))
	}
	ctx := context.Background()
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) { checkCorpusFile(ctx, t, path) })
	}
}
