package fileread

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDenseFixedSizeListOfStructs: pylance 14.0.2 writes a fixed-size
// list of structs into dense pages unless the field asks for sparse
// structure (2.2, and 2.3 by default), counting the pages in items; beside
// columns of other item counts (which its own file reader refuses to read
// together) every column scans and takes to pylance's values, taken alone.
func TestDenseFixedSizeListOfStructs(t *testing.T) {
	py := lancePython()
	if py == "" {
		t.Skip("needs LANCE_PY (pylance 14.0.2)")
	}
	for _, v := range []string{"2.2", "2.3"} {
		t.Run(v, func(t *testing.T) {
			dir := t.TempDir()
			path, exp := filepath.Join(dir, "f.lance"), filepath.Join(dir, "f.expected.json")
			script := `import sys, json, pyarrow as pa, lance.file as lf
sys.path.insert(0, sys.argv[4])
import lancejson
st = pa.struct([("x", pa.int64()), ("s", pa.utf8())])
f = [None if i % 7 == 0 else [{"x": i, "s": "s%d" % i}, None if i % 3 else {"x": None, "s": None}, {"x": -i, "s": None}] for i in range(3000)]
t = pa.table({"f": pa.array(f, pa.list_(st, 3)), "g": pa.array(range(3000), pa.int32()),
              "h": pa.array([{"v": None if i % 5 == 0 else [{"x": i}, None]} for i in range(3000)], pa.struct([("v", pa.list_(pa.struct([("x", pa.int64())]), 2))]))})
w = lf.LanceFileWriter(sys.argv[1], t.schema, version=sys.argv[3], data_cache_bytes=16 * 1024); w.write_batch(t); w.close()
cols = {}
for name in t.column_names:
    got = lf.LanceFileReader(sys.argv[1], columns=[name]).read_all().to_table()
    cols[name] = lancejson.array_json(got.column(name))
json.dump({"num_rows": t.num_rows, "columns": cols}, open(sys.argv[2], "w"))`
			pyDir, _ := filepath.Abs("../../testdata/pylance")
			if out, err := exec.Command(py, "-c", script, path, exp, v, pyDir).CombinedOutput(); err != nil {
				t.Fatalf("pylance: %v\n%s", err, out)
			}
			out, err := exec.Command(py, filepath.Join(pyDir, "inspect_lance.py"), path).CombinedOutput()
			if err != nil {
				t.Fatalf("inspect: %v\n%s", err, out)
			}
			if strings.Contains(string(out), "sparse") || strings.Count(string(out), "page(s)") != 4 {
				t.Fatalf("want dense pages in 4 columns:\n%s", out)
			}
			ctx := context.Background()
			f, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			n, want := loadExpected(t, exp)
			checkFileReads(ctx, t, f, n, want)
		})
	}
}
