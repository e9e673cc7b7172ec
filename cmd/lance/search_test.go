package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lancego/lancego/internal/testkit"
)

// TestSearchMatchesPylance: lance search prints the rows pylance's
// to_table(nearest=..., prefilter=True) returns, in its order; --postfilter
// gives pylance's default; bad input is a clear error.
func TestSearchMatchesPylance(t *testing.T) {
	py := testkit.LancePython()
	if py == "" {
		t.Skip("no pylance (set LANCE_PY)")
	}
	dir := filepath.Join(t.TempDir(), "ds")
	script := `
import json, sys, lance, numpy as np, pyarrow as pa
rng = np.random.default_rng(3)
v = rng.standard_normal((300, 8)).astype('float32')
t = pa.table({'id': pa.array(range(300)), 'vec': pa.FixedSizeListArray.from_arrays(pa.array(v.ravel()), 8)})
ds = lance.write_dataset(t, sys.argv[1], max_rows_per_file=100)
ds.delete('id % 5 = 0')
q = [float(x) for x in rng.standard_normal(8)]
out = {'q': q}
for pre in [True, False]:
    r = ds.to_table(nearest={'column': 'vec', 'q': q, 'k': 6, 'metric': 'cosine', 'use_index': False},
                    filter='id > 150', prefilter=pre, columns=['id'])
    out[str(pre)] = r['id'].to_pylist()
print(json.dumps(out))
`
	raw, err := exec.Command(py, "-c", script, dir).Output()
	if err != nil {
		t.Fatalf("pylance: %v", err)
	}
	var want map[string]any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	qv, _ := json.Marshal(want["q"])
	for _, post := range []bool{false, true} {
		args := []string{"search", dir, "--column", "vec", "--vector", string(qv), "--k", "6", "--metric", "cosine",
			"--filter", "id > 150", "--columns", "id", "--format", "table"}
		key := "True"
		if post {
			args = append(args, "--postfilter")
			key = "False"
		}
		var out, errb bytes.Buffer
		if err := run(context.Background(), args, &out, &errb); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
			got = append(got, strings.Fields(line)[0])
		}
		var exp []string
		for _, id := range want[key].([]any) {
			b, _ := json.Marshal(id)
			exp = append(exp, string(b))
		}
		if strings.Join(got, ",") != strings.Join(exp, ",") {
			t.Errorf("postfilter=%v: ids %v, pylance %v", post, got, exp)
		}
	}
	for _, bad := range [][]string{
		{"search", dir, "--column", "vec", "--vector", "[1,2]", "--k", "3"},
		{"search", dir, "--column", "id", "--vector", string(qv), "--k", "3"},
		{"search", dir, "--column", "vec", "--vector", string(qv), "--k", "0"},
		{"search", dir, "--column", "vec", "--vector", string(qv), "--metric", "manhattan"},
		{"search", dir, "--column", "vec", "--vector", "[1,2"},
		{"search", dir, "--vector", string(qv)},
	} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), bad, &out, &errb); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
