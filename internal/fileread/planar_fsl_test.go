package fileread

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDenseFixedSizeListOfStructsUnsupported: pylance 14.0.2 writes a
// fixed-size list of structs into dense pages unless the field asks for
// sparse structure (and reads those back with the wrong row count itself);
// reading one is ErrUnsupported, naming the page, while the file's other
// columns read.
func TestDenseFixedSizeListOfStructsUnsupported(t *testing.T) {
	py := lancePython()
	if py == "" {
		t.Skip("needs LANCE_PY (pylance 14.0.2)")
	}
	path := filepath.Join(t.TempDir(), "fsl_struct_dense.lance")
	script := `import sys, pyarrow as pa, lance.file as lf
t = pa.table({"f": pa.array([[{"x": i}, None] for i in range(10)], pa.list_(pa.struct([("x", pa.int64())]), 2)),
              "g": pa.array(range(10), pa.int32())})
w = lf.LanceFileWriter(sys.argv[1], t.schema, version="2.3"); w.write_batch(t); w.close()`
	if out, err := exec.Command(py, "-c", script, path).CombinedOutput(); err != nil {
		t.Fatalf("pylance: %v\n%s", err, out)
	}
	ctx := context.Background()
	f, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = f.Take(ctx, []uint64{3}, []string{"f"})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "dense page") || !strings.Contains(err.Error(), "page 0") {
		t.Fatalf("err = %v, want ErrUnsupported naming the page", err)
	}
	rec, err := f.Take(ctx, []uint64{3}, []string{"g"})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	if rec.NumRows() != 1 {
		t.Fatalf("%d rows", rec.NumRows())
	}
}
