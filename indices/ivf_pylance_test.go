package indices_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/internal/dataset"
	"github.com/lancego/lancego/internal/testkit"
)

// buildIndexDatasets runs the spec's make_indices.py (pylance) into a temp dir.
func buildIndexDatasets(t *testing.T) string {
	t.Helper()
	py := testkit.LancePython()
	script := "/work/shared/spec/indices/make_indices.py"
	if s := os.Getenv("LANCE_INDICES_SCRIPT"); s != "" {
		script = s
	}
	if py == "" {
		t.Skip("pylance not available (LANCE_PY)")
	}
	if _, err := os.Stat(script); err != nil {
		t.Skip("make_indices.py not available")
	}
	dir := t.TempDir()
	if out, err := exec.Command(py, script, dir).CombinedOutput(); err != nil {
		t.Fatalf("make_indices.py: %v\n%s", err, out)
	}
	return dir
}

// nearestPy prints, for several query vectors (rows of the dataset, shifted),
// pylance's index-only nearest rows and the live row ids.
const nearestPy = `
import json, sys, lance, numpy as np
ds = lance.dataset(sys.argv[1]); k = int(sys.argv[2]); nprobes = int(sys.argv[3])
vecs = ds.to_table(columns=["vec"]).column("vec").to_numpy(zero_copy_only=False)
live = ds.to_table(columns=[], with_row_id=True).column("_rowid").to_pylist()
out = {"live": live, "queries": []}
for i in (0, 17, 333, 640):
    q = np.asarray(vecs[i], dtype=np.float32) + np.float32(0.25)
    t = ds.to_table(nearest={"column": "vec", "q": q, "k": k, "nprobes": nprobes},
                    with_row_id=True, fast_search=True, columns=[])
    out["queries"].append({"q": q.tolist(), "ids": t.column("_rowid").to_pylist(),
                           "dist": t.column("_distance").to_pylist()})
print(json.dumps(out))
`

type nearestWant struct {
	Live    []uint64 `json:"live"`
	Queries []struct {
		Q    []float32 `json:"q"`
		IDs  []uint64  `json:"ids"`
		Dist []float32 `json:"dist"`
	} `json:"queries"`
}

// TestVectorSearchMatchesPylance composes an index search from the
// primitives (probe partitions, search each of every segment, drop deleted
// rows, merge top k) and compares rows and distances with pylance's
// to_table(nearest=..., fast_search=True) for IVF_FLAT and IVF_PQ of each
// metric (8- and 4-bit, delta segments).
func TestVectorSearchMatchesPylance(t *testing.T) {
	dir := buildIndexDatasets(t)
	py := testkit.LancePython()
	ctx := context.Background()
	cases := []struct {
		name      string
		k, nprobe int
	}{
		{"vec_ivf_flat.lance", 10, 1}, {"vec_ivf_flat.lance", 25, 2}, {"vec_ivf_flat_cos.lance", 10, 2},
		{"vec_ivf_flat_dot.lance", 10, 1}, {"vec_ivf_pq.lance", 10, 1}, {"vec_ivf_pq.lance", 30, 3},
		{"vec_ivf_pq_full.lance", 10, 2}, {"vec_ivf_pq_4bit.lance", 10, 2}, {"vec_ivf_pq_cos.lance", 10, 2},
		{"vec_ivf_pq_dot.lance", 10, 2}, {"vec_ivf_pq_delta.lance", 12, 2}, {"vec_ivf_pq_opt.lance", 12, 2},
		{"vec_ivf_sq.lance", 10, 1}, {"vec_ivf_sq_full.lance", 15, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			out, err := exec.Command(py, "-c", nearestPy, path, itoa(c.k), itoa(c.nprobe)).Output()
			if err != nil {
				t.Fatalf("pylance: %v", err)
			}
			var want nearestWant
			if err := json.Unmarshal(out, &want); err != nil {
				t.Fatal(err)
			}
			ds, err := dataset.OpenDataset(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer ds.Close()
			idx, err := ds.Indices(ctx)
			if err != nil || len(idx) != 1 {
				t.Fatalf("indices: %v %v", idx, err)
			}
			var vis []*indices.VectorIndex
			for i := range idx[0].Segments {
				vi, err := indices.OpenVector(ctx, ds.IndexOpener(), &idx[0].Segments[i].IndexMetadata)
				if err != nil {
					t.Fatal(err)
				}
				defer vi.Close()
				vis = append(vis, vi)
			}
			live := map[uint64]bool{}
			for _, id := range want.Live {
				live[id] = true
			}
			for qi, q := range want.Queries {
				got := search(t, ctx, vis, q.Q, c.k, c.nprobe, live)
				if len(got) != len(q.IDs) {
					t.Fatalf("query %d: %d rows, pylance %d", qi, len(got), len(q.IDs))
				}
				last := q.Dist[len(q.Dist)-1]
				for i := range got {
					// Rows tied with the k-th distance are cut where Lance's
					// heap cuts them (not by row id): compare their distances only.
					tied := q.Dist[i] == last && len(q.IDs) == c.k
					if (!tied && got[i].RowID != q.IDs[i]) || !close(got[i].Dist, q.Dist[i]) {
						t.Errorf("query %d row %d: (%d, %g), pylance (%d, %g)", qi, i, got[i].RowID, got[i].Dist, q.IDs[i], q.Dist[i])
					}
				}
			}
		})
	}
}

// search probes nprobe partitions of every segment, keeps live rows and
// merges the top k by (distance, row id).
func search(t *testing.T, ctx context.Context, vis []*indices.VectorIndex, q []float32, k, nprobe int, live map[uint64]bool) []indices.Candidate {
	var all []indices.Candidate
	for _, vi := range vis {
		ps, err := vi.ProbePartitions(q, nprobe)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			cs, err := vi.SearchPartition(ctx, p, q, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cs {
				if live[c.RowID] {
					all = append(all, c)
				}
			}
		}
	}
	indices.SortCandidates(all)
	if len(all) > k {
		all = all[:k]
	}
	return all
}

func close(a, b float32) bool {
	d := math.Abs(float64(a - b))
	return d <= 1e-3*math.Max(1, math.Abs(float64(b)))
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
