package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// makeHistory creates a dataset of four versions with our writer: a
// create, two appends and a delete (so a deletion file too).
func makeHistory(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	dir, ds := makeTagDataset(t)
	next, err := ds.Delete(ctx, "a % 3 = 0")
	if err != nil {
		t.Fatal(err)
	}
	next.Close()
	return dir
}

const restorePy = `
import lance, json, sys
uri, mode = sys.argv[1], sys.argv[2]
if mode == "restore":
    lance.dataset(uri, version=int(sys.argv[3])).restore()
ds = lance.dataset(uri)
tx = ds.get_transactions(1)[0]
print(json.dumps({"version": ds.version,
                  "rows": sorted(ds.to_table().to_pylist(), key=lambda r: r["a"]),
                  "op": type(tx.operation).__name__ if tx else None,
                  "frags": [f.fragment_id for f in ds.get_fragments()]}))
`

// TestRestoreMatchesPylance restores version 2 of a four-version dataset
// with us and, on a copy, with pylance: both commit version 5 with
// version 2's rows and fragments and a Restore transaction, and pylance
// reads ours; an append after our restore gets a new fragment id.
func TestRestoreMatchesPylance(t *testing.T) {
	if datasetPython() == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	dir := makeHistory(t)
	twin := filepath.Join(t.TempDir(), "twin")
	copyTreeCP(t, dir, twin)
	old, err := OpenDataset(ctx, dir, WithVersion(2))
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	got, err := old.Restore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version() != 5 || old.Version() != 2 {
		t.Fatalf("restore: new version %d, old %d", got.Version(), old.Version())
	}
	ours := runPython(t, restorePy, dir, "read")
	theirs := runPython(t, restorePy, twin, "restore", "2")
	if string(ours) != string(theirs) {
		t.Errorf("after restore of version 2\n ours:   %s\n pylance: %s", ours, theirs)
	}
	var o struct {
		Op   string
		Rows []map[string]any
	}
	if err := json.Unmarshal(ours, &o); err != nil {
		t.Fatal(err)
	}
	if o.Op != "Restore" || len(o.Rows) != 50 {
		t.Errorf("restore read by pylance: op %q, %d rows (want Restore, 50)", o.Op, len(o.Rows))
	}
	rdr, _ := rowsReader(t, memory.NewGoAllocator(), 1000, 5, 5)
	app, err := got.Append(ctx, rdr)
	got.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	frags, err := app.Fragments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[uint64]bool{}
	for _, f := range frags {
		if ids[f.ID] {
			t.Errorf("fragment id %d twice after restore + append", f.ID)
		}
		ids[f.ID] = true
	}
	if !ids[3] {
		t.Errorf("append after a restore of version 2 (fragments 0, 1) took ids %v; want the next id of the latest, 3", ids)
	}
}

const cleanupPy = `
import lance, json, sys, datetime
uri = sys.argv[1]
ds = lance.dataset(uri)
st = ds.cleanup_old_versions(older_than=datetime.timedelta(0), delete_unverified=sys.argv[2] == "1",
                             error_if_tagged_old_versions=False)
print(json.dumps({"bytes_removed": st.bytes_removed, "old_versions": st.old_versions}))
`

const readVersionsPy = `
import lance, json, sys
uri = sys.argv[1]
ds = lance.dataset(uri)
out = {}
for v in ds.versions():
    out[v["version"]] = sorted(lance.dataset(uri, version=v["version"]).to_table().to_pylist(), key=lambda r: r["a"])
print(json.dumps(out))
`

// TestCleanupMatchesPylance cleans up every old version of a tagged
// dataset with us and, on a copy, with pylance: the same versions and
// the same files go, the same bytes are counted, and pylance reads every
// version left.
func TestCleanupMatchesPylance(t *testing.T) {
	if datasetPython() == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	for _, unverified := range []bool{false, true} {
		dir := makeHistory(t)
		ds, err := OpenDataset(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := ds.CreateTag(ctx, "keep", 2); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		twin := filepath.Join(t.TempDir(), "twin")
		copyTreeCP(t, dir, twin)

		_, err = ds.Cleanup(ctx, CleanupOptions{OlderThan: time.Nanosecond, DeleteUnverified: unverified})
		if !errors.Is(err, ErrTaggedVersions) {
			t.Errorf("cleanup of a tagged version: %v, want ErrTaggedVersions", err)
		}
		st, err := ds.Cleanup(ctx, CleanupOptions{OlderThan: time.Nanosecond, DeleteUnverified: unverified, IgnoreTaggedOldVersions: true})
		ds.Close()
		if err != nil {
			t.Fatal(err)
		}
		flag := "0"
		if unverified {
			flag = "1"
		}
		var py CleanupStats
		if err := json.Unmarshal(runPython(t, cleanupPy, twin, flag), &py); err != nil {
			t.Fatal(err)
		}
		if st.OldVersions != py.OldVersions || st.BytesRemoved != py.BytesRemoved || st.OldVersions != 2 {
			t.Errorf("unverified=%v: we removed %d versions, %d bytes; pylance %d, %d (want 2 versions)",
				unverified, st.OldVersions, st.BytesRemoved, py.OldVersions, py.BytesRemoved)
		}
		if a, b := fileList(t, dir), fileList(t, twin); !slices.Equal(a, b) {
			t.Errorf("unverified=%v: files left\n ours:   %v\n pylance: %v", unverified, a, b)
		}
		ours, theirs := runPython(t, readVersionsPy, dir), runPython(t, readVersionsPy, twin)
		if string(ours) != string(theirs) {
			t.Errorf("unverified=%v: versions left\n ours:   %s\n pylance: %s", unverified, ours, theirs)
		}
	}
}

// fileList lists the files under dir, relative and sorted.
func fileList(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

const autoCleanupPy = `
import lance, json, sys, pyarrow as pa
uri, mode = sys.argv[1], sys.argv[2]
if mode == "create":
    lance.write_dataset(pa.table({"a": pa.array([1, 2], pa.int64()), "s": ["x", "y"]}), uri,
                        auto_cleanup_options={"interval": 2, "older_than_seconds": 0})
elif mode == "append":
    for i in range(3):
        lance.write_dataset(pa.table({"a": pa.array([i], pa.int64()), "s": ["z"]}), uri, mode="append")
ds = lance.dataset(uri)
print(json.dumps(sorted(v["version"] for v in ds.versions())))
`

// TestAutoCleanupMatchesPylance appends three times to a dataset whose
// config asks for a cleanup every second version, with us and with
// pylance: the same versions are left.
func TestAutoCleanupMatchesPylance(t *testing.T) {
	if datasetPython() == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ds")
	twin := filepath.Join(t.TempDir(), "twin")
	runPython(t, autoCleanupPy, dir, "create")
	runPython(t, autoCleanupPy, twin, "create")
	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		time.Sleep(2 * time.Millisecond)
		rdr, _ := rowsReader(t, memory.NewGoAllocator(), i, 1, 1)
		next, err := ds.Append(ctx, rdr)
		ds.Close()
		if err != nil {
			t.Fatal(err)
		}
		ds = next
	}
	ds.Close()
	ours := runPython(t, autoCleanupPy, dir, "read")
	theirs := runPython(t, autoCleanupPy, twin, "append")
	if string(ours) != string(theirs) {
		t.Errorf("versions left: ours %s, pylance %s", ours, theirs)
	}
	if string(ours) == "[1, 2, 3, 4]\n" {
		t.Errorf("no version was cleaned up: %s", ours)
	}
}
