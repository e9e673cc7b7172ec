package dataset

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// compactMake writes, with pylance, five small appended fragments, one
// with deletions, then a large one and two more small ones.
const compactMake = `import sys, lance, pyarrow as pa
uri, stable = sys.argv[1], sys.argv[2] == "1"
def tab(lo, hi):
    return pa.table({"id": pa.array(range(lo, hi), pa.int64()), "s": pa.array(["s%d" % i for i in range(lo, hi)])})
for i in range(5):
    lance.write_dataset(tab(i * 10, (i + 1) * 10), uri, mode="append" if i else "create", enable_stable_row_ids=stable)
lance.dataset(uri).delete("id < 3 OR id = 15")
lance.write_dataset(tab(100, 400), uri, mode="append")
lance.write_dataset(tab(500, 505), uri, mode="append")
lance.write_dataset(tab(600, 604), uri, mode="append")
lance.dataset(uri).update({"s": "'u'"}, where="id = 601")
`

const compactCompare = `import sys, json, lance
ours, twin, target, stable = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
m = lance.dataset(twin).optimize.compact_files(target_rows_per_fragment=target)
def dump(uri):
    ds = lance.dataset(uri)
    cols = ["id", "s", "_rowid"]
    if stable:
        cols += ["_row_created_at_version", "_row_last_updated_at_version"]
    return {"version": ds.version, "rows": ds.to_table(columns=cols).to_pylist(),
            "frags": [[f.fragment_id, f.metadata.physical_rows] for f in ds.get_fragments()]}
print(json.dumps({"ours": dump(ours), "twin": dump(twin),
    "metrics": [m.fragments_removed, m.fragments_added, m.files_removed, m.files_added]}))
`

func TestCompactMatchesPylance(t *testing.T) {
	py := datasetPython()
	if py == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	for _, stable := range []bool{false, true} {
		for _, target := range []uint64{25, 1 << 20} {
			flag := map[bool]string{false: "0", true: "1"}[stable]
			t.Run("stable="+flag+"/target="+strconv.FormatUint(target, 10), func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "ds")
				if out, err := exec.Command(py, "-c", compactMake, dir, flag).CombinedOutput(); err != nil {
					t.Fatalf("pylance: %v\n%s", err, out)
				}
				twin := filepath.Join(t.TempDir(), "twin")
				copyTreeCP(t, dir, twin)
				ds, err := OpenDataset(ctx, dir)
				if err != nil {
					t.Fatal(err)
				}
				defer ds.Close()
				out, st, err := ds.Compact(ctx, CompactOptions{TargetRowsPerFragment: target})
				if err != nil {
					t.Fatal(err)
				}
				defer out.Close()
				b, err := exec.Command(py, "-c", compactCompare, dir, twin, strconv.FormatUint(target, 10), flag).CombinedOutput()
				if err != nil {
					t.Fatalf("pylance: %v\n%s", err, b)
				}
				var got struct {
					Ours, Twin struct {
						Version uint64
						Rows    []map[string]any
						Frags   [][2]uint64
					}
					Metrics [4]int
				}
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatalf("%v: %s", err, b)
				}
				if m := [4]int{st.FragmentsRemoved, st.FragmentsAdded, st.FilesRemoved, st.FilesAdded}; m != got.Metrics {
					t.Errorf("metrics %v, pylance %v", m, got.Metrics)
				}
				if got.Ours.Version != got.Twin.Version || out.Version() != got.Twin.Version {
					t.Errorf("version %d (pylance reads %d), pylance's %d", out.Version(), got.Ours.Version, got.Twin.Version)
				}
				if o, w := mustJSON(t, got.Ours.Frags), mustJSON(t, got.Twin.Frags); o != w {
					t.Errorf("fragments %s, pylance's %s", o, w)
				}
				if o, w := mustJSON(t, got.Ours.Rows), mustJSON(t, got.Twin.Rows); o != w {
					t.Errorf("pylance reads our compaction as\n%s\npylance's own gives\n%s", o, w)
				}
			})
		}
	}
}
