package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
)

// updateMakeScript writes, with pylance, a dataset of 3 fragments plus an
// appended one, with a deletion, optionally with stable row ids.
const updateMakeScript = `import sys, lance, pyarrow as pa
uri, stable = sys.argv[1], sys.argv[2] == "1"
n = 30
t = pa.table({"id": pa.array(range(n), pa.int64()),
              "x": pa.array([i * 0.5 for i in range(n)], pa.float64()),
              "i": pa.array([i % 7 for i in range(n)], pa.int32()),
              "s": pa.array(["s%d" % i if i % 4 else None for i in range(n)], pa.string())})
lance.write_dataset(t, uri, max_rows_per_file=10, enable_stable_row_ids=stable)
lance.write_dataset(pa.table({"id": pa.array(range(n, n + 6), pa.int64()),
    "x": pa.array([1.0] * 6), "i": pa.array([3] * 6, pa.int32()), "s": pa.array(["a"] * 6)}), uri, mode="append")
lance.dataset(uri).delete("id = 4 OR id = 25")
`

// updateCompareScript applies the same update with pylance to a copy of
// the original (argv[2]) and prints both datasets as pylance reads them.
const updateCompareScript = `import sys, json, lance
ours, twin, sets, where = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4] or None
r = lance.dataset(twin).update(sets, where=where)
def dump(uri):
    ds = lance.dataset(uri)
    cols = ["id", "x", "i", "s", "_rowid"]
    if ds.has_stable_row_ids if hasattr(ds, "has_stable_row_ids") else False:
        pass
    try:
        t = ds.to_table(columns=cols + ["_row_created_at_version", "_row_last_updated_at_version"])
    except Exception:
        t = ds.to_table(columns=cols)
    return {"version": ds.version, "rows": t.to_pylist(), "frags": [f.count_rows() for f in ds.get_fragments()]}
print(json.dumps({"ours": dump(ours), "twin": dump(twin), "updated": r["num_rows_updated"]}))
`

func TestUpdateMatchesPylance(t *testing.T) {
	py := datasetPython()
	if py == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	cases := []struct {
		name  string
		set   map[string]string
		where string
	}{
		{"expr-where", map[string]string{"x": "x * 2", "s": "'u'"}, "id % 3 = 0"},
		{"int-literal-cast", map[string]string{"i": "i + 100"}, "s IS NULL"},
		{"all-rows", map[string]string{"s": "concat(s, '!')"}, ""},
		{"whole-fragment", map[string]string{"x": "0.25"}, "id >= 10 AND id < 20"},
	}
	for _, stable := range []bool{false, true} {
		for _, tc := range cases {
			name := tc.name
			if stable {
				name += "-stable"
			}
			t.Run(name, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "ds")
				flag := "0"
				if stable {
					flag = "1"
				}
				if out, err := exec.Command(py, "-c", updateMakeScript, dir, flag).CombinedOutput(); err != nil {
					t.Fatalf("pylance: %v\n%s", err, out)
				}
				twin := filepath.Join(t.TempDir(), "twin")
				copyTreeCP(t, dir, twin)
				ds, err := OpenDataset(ctx, dir)
				if err != nil {
					t.Fatal(err)
				}
				defer ds.Close()
				out, n, err := ds.Update(ctx, tc.set, tc.where)
				if err != nil {
					t.Fatal(err)
				}
				defer out.Close()
				sets, _ := json.Marshal(tc.set)
				b, err := exec.Command(py, "-c", updateCompareScript, dir, twin, string(sets), tc.where).CombinedOutput()
				if err != nil {
					t.Fatalf("pylance: %v\n%s", err, b)
				}
				var got struct {
					Ours, Twin struct {
						Version uint64
						Rows    []map[string]any
						Frags   []int
					}
					Updated uint64
				}
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatalf("%v: %s", err, b)
				}
				if n != got.Updated {
					t.Errorf("rows updated: %d, pylance %d", n, got.Updated)
				}
				if got.Ours.Version != got.Twin.Version || out.Version() != got.Twin.Version {
					t.Errorf("version: ours %d (pylance reads %d), pylance's update %d", out.Version(), got.Ours.Version, got.Twin.Version)
				}
				o, w := mustJSON(t, got.Ours.Rows), mustJSON(t, got.Twin.Rows)
				if o != w {
					t.Errorf("pylance reads our update as\n%s\npylance's own update gives\n%s", o, w)
				}
				if mustJSON(t, got.Ours.Frags) != mustJSON(t, got.Twin.Frags) {
					t.Errorf("fragment row counts %v, pylance's %v", got.Ours.Frags, got.Twin.Frags)
				}
				// the version read stays as it was
				if c, err := ds.CountRows(ctx); err != nil || c != 34 {
					t.Errorf("old version: %d rows, %v", c, err)
				}
			})
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestUpdateErrors(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, _ := rowsReader(t, memory.NewGoAllocator(), 0, 50, 25)
	ds, err := CreateDataset(ctx, dir, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	col := ds.Schema().Field(0).Name
	for _, tc := range []struct {
		set   map[string]string
		where string
		want  error
	}{
		{nil, "", ErrInvalidArgument},
		{map[string]string{"nope": "1"}, "", ErrInvalidArgument},
		{map[string]string{"a.b": "1"}, "", ErrUnsupported},
		{map[string]string{col: "1 +"}, "", nil},
		{map[string]string{col: "1"}, "nope > 1", nil},
	} {
		_, _, err := ds.Update(ctx, tc.set, tc.where)
		if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("Update(%v, %q) = %v, want %v", tc.set, tc.where, err, tc.want)
		}
	}
	out, n, err := ds.Update(ctx, map[string]string{col: col}, "false")
	if err != nil || n != 0 || out != ds {
		t.Errorf("update of no row: %v %d %v", out == ds, n, err)
	}
}

// TestUpdateRetriesOnConflict: an update from a version that a concurrent
// delete has since changed runs again on the latest version (as Lance's
// does); with no retries it fails with ErrCommitConflict.
func TestUpdateRetriesOnConflict(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, _ := rowsReader(t, memory.NewGoAllocator(), 0, 40, 20)
	ds, err := CreateDataset(ctx, dir, rdr, WithMaxRowsPerFile(20))
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	col := ds.Schema().Field(0).Name
	other, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	d2, err := other.Delete(ctx, col+" = 3")
	if err != nil {
		t.Fatal(err)
	}
	d2.Close()
	if _, _, err := ds.Update(ctx, map[string]string{col: col + " + 1000"}, col+" < 5", WithCommitRetries(0)); !errors.Is(err, ErrCommitConflict) {
		t.Fatalf("without retries: %v, want ErrCommitConflict", err)
	}
	out, n, err := ds.Update(ctx, map[string]string{col: col + " + 1000"}, col+" < 5")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if n != 4 || out.Version() != 3 {
		t.Fatalf("updated %d rows into version %d, want 4 rows (row 3 deleted concurrently) into version 3", n, out.Version())
	}
	e, _ := expr.Parse(col + " >= 1000")
	if c, err := out.CountRowsWhere(ctx, e); err != nil || c != 4 {
		t.Fatalf("%d updated rows read back, %v", c, err)
	}
}
