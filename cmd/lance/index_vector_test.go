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

// TestIndexCreateVector: `lance index create --type ivf_pq|ivf_sq|ivf_flat`
// builds a vector index on a pylance-written dataset; `index list` shows
// it; pylance uses it (its plan names the index) and returns for each
// query the rows `lance search --nprobes` returns from it, in order.
// Bad vector options are clear errors.
func TestIndexCreateVector(t *testing.T) {
	py := testkit.LancePython()
	if py == "" {
		t.Skip("no pylance (set LANCE_PY)")
	}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ds")
	write := `
import sys, lance, numpy as np, pyarrow as pa
rng = np.random.default_rng(5)
v = rng.standard_normal((3000, 16)).astype('float32')
t = pa.table({'id': pa.array(range(3000)), 'vec': pa.FixedSizeListArray.from_arrays(pa.array(v.ravel()), 16)})
lance.write_dataset(t, sys.argv[1], max_rows_per_file=1000)
`
	if out, err := exec.Command(py, "-c", write, dir).CombinedOutput(); err != nil {
		t.Fatalf("pylance write: %v\n%s", err, out)
	}
	runCLI := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		err := run(ctx, args, &out, &errb)
		return out.String(), err
	}
	queries := `[[0.1,-0.2,0.3,0.5,-1,0.2,0.7,0,0.4,-0.3,0.9,0.1,-0.5,0.2,0.3,-0.1],[1,1,-1,0,0.5,0.5,-0.5,2,0,0,1,-1,0.3,0.2,0.1,0]]`
	search := `
import sys, json, lance
ds = lance.dataset(sys.argv[1])
out = []
for q in json.loads(sys.argv[2]):
    kw = dict(column='vec', q=q, k=5, nprobes=3, metric=sys.argv[3])
    plan = ds.scanner(nearest=kw, columns=['id']).explain_plan()
    out.append({'ids': ds.to_table(nearest=kw, columns=['id'])['id'].to_pylist(), 'ann': 'ANN' in plan or 'IVF' in plan})
print(json.dumps(out))
`
	var qs [][]float64
	if err := json.Unmarshal([]byte(queries), &qs); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ typ, metric string }{{"ivf_pq", "l2"}, {"ivf_sq", "cosine"}, {"ivf_flat", "dot"}} {
		args := []string{"index", "create", dir, "--column", "vec", "--type", tc.typ, "--metric", tc.metric,
			"--num-partitions", "6", "--seed", "7"}
		if tc.typ == "ivf_pq" {
			args = append(args, "--num-sub-vectors", "4")
		}
		out, err := runCLI(args...)
		if err != nil || !strings.Contains(out, "created index vec_idx") || !strings.Contains(out, strings.ToUpper(tc.typ)+" on vec") {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		raw, err := exec.Command(py, "-c", search, dir, queries, tc.metric).Output()
		if err != nil {
			t.Fatalf("pylance search (%s): %v", tc.typ, err)
		}
		var want []struct {
			IDs []int64 `json:"ids"`
			ANN bool    `json:"ann"`
		}
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		for i, q := range qs {
			if !want[i].ANN {
				t.Errorf("%s: pylance did not plan with the index", tc.typ)
			}
			qv, _ := json.Marshal(q)
			got, err := runCLI("search", dir, "--column", "vec", "--vector", string(qv), "--k", "5", "--nprobes", "3",
				"--metric", tc.metric, "--columns", "id", "--format", "json")
			if err != nil {
				t.Fatalf("lance search: %v", err)
			}
			var rows []struct {
				ID int64 `json:"id"`
			}
			if err := json.Unmarshal([]byte(got), &rows); err != nil {
				t.Fatalf("search output %q: %v", got, err)
			}
			var ids []int64
			for _, r := range rows {
				ids = append(ids, r.ID)
			}
			if !equalInt64(ids, want[i].IDs) {
				t.Errorf("%s query %d: lance search %v, pylance %v (both from our index)", tc.typ, i, ids, want[i].IDs)
			}
		}
	}
	for _, bad := range [][]string{
		{"index", "create", dir, "--column", "vec", "--type", "ivf_pq"},                            // no sub-vectors
		{"index", "create", dir, "--column", "vec", "--type", "ivf_pq", "--num-sub-vectors", "5"},  // does not divide 16
		{"index", "create", dir, "--column", "vec", "--type", "ivf_flat", "--metric", "manhattan"}, // unknown metric
		{"index", "create", dir, "--column", "id", "--type", "ivf_flat"},                           // not a vector column
		{"index", "create", dir, "--column", "vec", "--type", "ivf_pq", "--num-sub-vectors", "4", "--num-bits", "6"},
	} {
		if _, err := runCLI(bad...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

func equalInt64(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
