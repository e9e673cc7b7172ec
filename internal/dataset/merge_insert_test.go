package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// mergeScript makes the target with pylance (argv[1]), or, given a twin
// and the options, runs pylance's merge_insert on the twin and prints
// both datasets sorted by key, with pylance's stats.
const mergeScript = `import sys, json, lance, pyarrow as pa
def src():
    return pa.table({"id": pa.array([2, 3, 11, 12, 12, None], pa.int64()),
                     "v": pa.array(["x2", "x3", "x11", "x12", "y12", "xn"]),
                     "f": pa.array([2.5, None, 11.5, 12.5, 13.5, 0.0])})
if sys.argv[1] == "make":
    t = pa.table({"id": pa.array(range(10), pa.int64()), "v": pa.array(["v%d" % i for i in range(10)]),
                  "f": pa.array([i * 1.0 for i in range(10)])})
    lance.write_dataset(t, sys.argv[2], max_rows_per_file=4)
    lance.dataset(sys.argv[2]).delete("id = 5")
    import pyarrow.ipc as ipc
    with ipc.new_file(sys.argv[3], src().schema) as w:
        w.write_table(src())
    sys.exit(0)
ours, twin, matched, notm, bysrc = sys.argv[1:6]
b = lance.dataset(twin).merge_insert("id")
if matched == "update-all": b = b.when_matched_update_all()
elif matched == "delete": b = b.when_matched_delete()
elif matched == "fail": b = b.when_matched_fail()
if notm == "insert-all": b = b.when_not_matched_insert_all()
if bysrc == "delete": b = b.when_not_matched_by_source_delete()
try:
    st = b.execute(src())
except Exception as e:
    print(json.dumps({"error": str(e)})); sys.exit(0)
def dump(uri):
    ds = lance.dataset(uri)
    rows = ds.to_table().to_pylist()
    rows.sort(key=lambda r: (r["id"] is None, r["id"] or 0, r["v"]))
    return {"version": ds.version, "rows": rows}
print(json.dumps({"ours": dump(ours), "twin": dump(twin), "stats": st}))
`

func TestMergeInsertMatchesPylance(t *testing.T) {
	py := datasetPython()
	if py == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	for _, tc := range []struct {
		matched, notMatched, bySource string
		o                             MergeInsertOptions
	}{
		{"update-all", "insert-all", "keep", MergeInsertOptions{}},
		{"do-nothing", "insert-all", "keep", MergeInsertOptions{WhenMatched: MatchedDoNothing}},
		{"update-all", "do-nothing", "keep", MergeInsertOptions{WhenNotMatched: NotMatchedDoNothing}},
		{"delete", "do-nothing", "keep", MergeInsertOptions{WhenMatched: MatchedDelete, WhenNotMatched: NotMatchedDoNothing}},
		{"update-all", "insert-all", "delete", MergeInsertOptions{WhenNotMatchedBySource: NotMatchedBySourceDelete}},
		{"fail", "insert-all", "keep", MergeInsertOptions{WhenMatched: MatchedFail}},
	} {
		t.Run(tc.matched+"-"+tc.notMatched+"-"+tc.bySource, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ds")
			srcFile := filepath.Join(t.TempDir(), "src.arrow")
			if out, err := exec.Command(py, "-c", mergeScript, "make", dir, srcFile).CombinedOutput(); err != nil {
				t.Fatalf("pylance: %v\n%s", err, out)
			}
			twin := filepath.Join(t.TempDir(), "twin")
			copyTreeCP(t, dir, twin)
			ds, err := OpenDataset(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ds.Close()
			src := ipcReader(t, memory.NewGoAllocator(), srcFile)
			defer src.Release()
			tc.o.On = []string{"id"}
			out, st, err := ds.MergeInsert(ctx, src, tc.o)
			b, perr := exec.Command(py, "-c", mergeScript, dir, twin, tc.matched, tc.notMatched, tc.bySource).CombinedOutput()
			if perr != nil {
				t.Fatalf("pylance: %v\n%s", perr, b)
			}
			var got struct {
				Error      string
				Ours, Twin struct {
					Version uint64
					Rows    []map[string]any
				}
				Stats map[string]uint64
			}
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("%v: %s", err, b)
			}
			if got.Error != "" {
				if err == nil {
					t.Fatalf("pylance fails (%s), we do not", got.Error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			if st.Inserted != got.Stats["num_inserted_rows"] || st.Updated != got.Stats["num_updated_rows"] || st.Deleted != got.Stats["num_deleted_rows"] {
				t.Errorf("stats %+v, pylance %v", st, got.Stats)
			}
			if got.Ours.Version != got.Twin.Version {
				t.Errorf("version %d, pylance's %d", got.Ours.Version, got.Twin.Version)
			}
			if o, w := mustJSON(t, got.Ours.Rows), mustJSON(t, got.Twin.Rows); o != w {
				t.Errorf("pylance reads our merge as\n%s\npylance's own merge gives\n%s", o, w)
			}
		})
	}
}

func TestMergeInsertErrors(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ds")
	mem := memory.NewGoAllocator()
	rdr, _ := rowsReader(t, mem, 0, 20, 10)
	ds, err := CreateDataset(ctx, dir, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	src, _ := rowsReader(t, mem, 0, 5, 5)
	defer src.Release()
	if _, _, err := ds.MergeInsert(ctx, src, MergeInsertOptions{}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("no keys: %v", err)
	}
	if _, _, err := ds.MergeInsert(ctx, src, MergeInsertOptions{On: []string{"nope"}}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown key: %v", err)
	}
	other, _ := array.NewRecordReader(arrow.NewSchema([]arrow.Field{{Name: "z", Type: arrow.PrimitiveTypes.Int8}}, nil), nil)
	defer other.Release()
	if _, _, err := ds.MergeInsert(ctx, other, MergeInsertOptions{On: []string{"z"}}); !errors.Is(err, ErrSchemaMismatch) {
		t.Errorf("other schema: %v", err)
	}
}
