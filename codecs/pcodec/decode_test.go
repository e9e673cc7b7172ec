package pcodec

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// goldenDir holds small .pco files written by the real pco (testdata/pcodec/gen.py).
const goldenDir = "../../testdata/pcodec/golden"

// checkDir decodes every NAME.pco in dir and compares with NAME.raw bit for bit.
func checkDir(t *testing.T, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.pco"))
	if len(files) == 0 {
		t.Fatalf("no .pco files in %s", dir)
	}
	sort.Strings(files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".pco")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(f, ".pco") + ".raw")
			if err != nil {
				t.Fatal(err)
			}
			got, typ, err := Decompress(nil, src, 1<<20)
			if err != nil {
				t.Fatalf("decompress: %v", err)
			}
			if !bytes.Equal(got, want) {
				wb := int(typ.Bits() / 8)
				for i := 0; i < len(want)/wb && i*wb < len(got); i++ {
					if !bytes.Equal(got[i*wb:(i+1)*wb], want[i*wb:(i+1)*wb]) {
						t.Fatalf("%v: %d bytes vs %d; first difference at value %d: % x vs % x", typ, len(got), len(want), i, got[i*wb:(i+1)*wb], want[i*wb:(i+1)*wb])
					}
				}
				t.Fatalf("%v: %d bytes, want %d", typ, len(got), len(want))
			}
		})
	}
}

// TestDecodeGolden decodes the committed files written by pco 1.0.4.
func TestDecodeGolden(t *testing.T) { checkDir(t, goldenDir) }

// TestDecodeRealPco writes fresh files with the real pco (LANCE_PY with
// pcodec importable) over every float type, mode and delta encoding it
// chooses, and decodes them here.
func TestDecodeRealPco(t *testing.T) {
	py := os.Getenv("LANCE_PY")
	if py == "" {
		t.Skip("LANCE_PY not set")
	}
	if err := exec.Command(py, "-c", "import pcodec").Run(); err != nil {
		t.Skip("pcodec not importable by LANCE_PY (pip install -r testdata/pcodec/requirements.txt)")
	}
	dir := t.TempDir()
	if out, err := exec.Command(py, "../../testdata/pcodec/gen.py", dir).CombinedOutput(); err != nil {
		t.Fatalf("gen.py: %v\n%s", err, out)
	}
	checkDir(t, dir)
}
