package lance

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestPylance20Files writes 2.0 files with pylance 14.0.2 at test time
// (testdata/pylance/gen.py --versions 2.0 --all-2.0: every case pylance accepts as
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
	cmd := exec.Command(py, "gen.py", "--versions", "2.0", "--all-2.0", "--out", dir)
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

// TestV20ColdTakes takes rows from freshly opened 2.0 files, before any
// scan has cached their pages, so takes read only their rows' bytes from
// pages of fixed-width and binary values (takeWindowsV20), and compares
// with expected.json; a single-row take of a file larger than two open tails must read
// less than the file.
func TestV20ColdTakes(t *testing.T) {
	ctx := context.Background()
	for _, dir := range corpusDirs(t) {
		if filepath.Base(dir) != "2.0" {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.lance"))
		for _, path := range files {
			t.Run(filepath.Base(dir)+"/"+filepath.Base(path), func(t *testing.T) {
				_, wantCols := loadExpected(t, path[:len(path)-len(".lance")]+".expected.json")
				want := wantCols.(map[string]any)
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				f, err := Open(ctx, path, WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if f.NumRows() > 1 && f.Metadata().FileSize > 2*DefaultTailSize { // smaller files come whole with the tail
					rec, err := f.Take(ctx, []uint64{f.NumRows() / 2}, nil)
					if err != nil {
						t.Fatal(err)
					}
					rec.Release()
					if st := f.Stats(); uint64(st.BytesRead) >= f.Metadata().FileSize {
						t.Errorf("a one-row take read %d bytes of a %d-byte file", st.BytesRead, f.Metadata().FileSize)
					}
				}
				checkTake(ctx, t, f, want)
			})
		}
	}
}
