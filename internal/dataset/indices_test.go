package dataset

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

	"github.com/lancego/lancego/internal/testkit"
)

// makeIndexDatasets runs the spec's make_indices.py (pylance) into a temp
// directory and returns it; skips without pylance or the script.
func makeIndexDatasets(t *testing.T) string {
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

// pyIndex is what pylance's list_indices/describe_indices say of a segment.
type pyIndex struct {
	Name      string   `json:"name"`
	UUID      string   `json:"uuid"`
	Fields    []string `json:"fields"`
	Version   uint64   `json:"version"`
	Fragments []uint32 `json:"fragments"`
	TypeURL   string   `json:"type_url"`
	RowsIdx   uint64   `json:"rows"`
}

const listIndicesPy = `
import json, sys, lance
ds = lance.dataset(sys.argv[1])
desc = {d.name: d for d in ds.describe_indices()}
out = []
for i in ds.list_indices():
    d = desc[i["name"]]
    out.append(dict(name=i["name"], uuid=i["uuid"], fields=i["fields"], version=i["version"],
        fragments=sorted(i["fragment_ids"]), type_url=d.type_url, rows=d.num_rows_indexed))
print(json.dumps(out))
`

// TestIndicesMatchPylance lists the indices of pylance-built datasets
// (several segments, unindexed fragments, stable row ids, every type) and
// compares them with list_indices/describe_indices.
func TestIndicesMatchPylance(t *testing.T) {
	dir := makeIndexDatasets(t)
	py := testkit.LancePython()
	names := []string{"scalar.lance", "scalar_delta.lance", "scalar_opt.lance", "stable_rowid.lance",
		"vec_ivf_pq_delta.lance", "vec_ivf_pq_opt.lance", "vec_ivf_hnsw_sq.lance", "vec_ivf_rq.lance",
		"fts_default.lance", "extra_minhash.lance", "extra_rtree.lance", "btree_big.lance", "vec_ivf_pq_legacy.lance"}
	ctx := context.Background()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			out, err := exec.Command(py, "-c", listIndicesPy, path).Output()
			if err != nil {
				t.Fatalf("pylance: %v", err)
			}
			var want []pyIndex
			if err := json.Unmarshal(out, &want); err != nil {
				t.Fatal(err)
			}
			ds, err := OpenDataset(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer ds.Close()
			idx, err := ds.Indices(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var got []pyIndex
			rows := map[string]uint64{}
			for _, x := range idx {
				if x.Type == "UNKNOWN" {
					t.Errorf("index %s: unknown type", x.Name)
				}
				rows[x.Name] = x.RowsIndexed()
				for _, s := range x.Segments {
					got = append(got, pyIndex{Name: x.Name, UUID: s.UUIDString(), Fields: x.Columns,
						Version: s.DatasetVersion, Fragments: s.Fragments(), TypeURL: s.DetailsTypeURL})
				}
			}
			for i := range want {
				if want[i].Fragments == nil {
					want[i].Fragments = []uint32{}
				}
			}
			for i := range got {
				if got[i].Fragments == nil {
					got[i].Fragments = []uint32{}
				}
			}
			key := func(s []pyIndex) func(i, j int) bool {
				return func(i, j int) bool { return s[i].UUID < s[j].UUID }
			}
			sort.Slice(want, key(want))
			sort.Slice(got, key(got))
			for i := range want {
				if rows[want[i].Name] != want[i].RowsIdx {
					t.Errorf("%s: rows indexed %d, pylance %d", want[i].Name, rows[want[i].Name], want[i].RowsIdx)
				}
				want[i].RowsIdx = 0
			}
			wj, _ := json.Marshal(want)
			gj, _ := json.Marshal(got)
			if string(wj) != string(gj) {
				t.Errorf("indices differ\n got %s\nwant %s", gj, wj)
			}
		})
	}
}
