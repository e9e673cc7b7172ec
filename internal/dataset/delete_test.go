package dataset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/lancego/lancego/internal/fileread"
	"github.com/lancego/lancego/internal/filewriter"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestDatasetDeleteConflicts: a delete rebases over an append, but two
// deletes of the same fragment from one version conflict (and the second
// runs again on the latest version, unless retries are off); a store
// without conditional writes refuses to write.
func TestDatasetDeleteConflicts(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, _ := rowsReader(t, mem, 0, 200, 200)
	ds, err := CreateDataset(ctx, dir, rdr, WithMaxRowsPerFile(100))
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	rdr, _ = rowsReader(t, mem, 1000, 10, 10)
	appended, err := ds.Append(ctx, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	appended.Close()
	d1, err := ds.Delete(ctx, "a < 5") // read at version 1, commits on 2
	if err != nil {
		t.Fatalf("delete after a concurrent append: %v", err)
	}
	defer d1.Close()
	if d1.Version() != 3 || len(readRows(t, d1)) != 205 {
		t.Fatalf("delete rebased on the append: version %d, %d rows", d1.Version(), len(readRows(t, d1)))
	}
	if _, err := ds.Delete(ctx, "a = 7", WithCommitRetries(0)); !errors.Is(err, ErrCommitConflict) {
		t.Fatalf("second delete of fragment 0 from version 1: %v, want ErrCommitConflict", err)
	}
	if d2, err := ds.Delete(ctx, "a = 150"); err != nil {
		t.Fatalf("delete of another fragment from version 1: %v", err)
	} else {
		if len(readRows(t, d2)) != 204 {
			t.Fatalf("after two compatible deletes: %d rows", len(readRows(t, d2)))
		}
		d2.Close()
	}
	// with retries (the default), as Lance's: run again on the latest version
	if d3, err := ds.Delete(ctx, "a = 7"); err != nil {
		t.Fatalf("retried delete of fragment 0 from version 1: %v", err)
	} else {
		if d3.Version() != 5 || len(readRows(t, d3)) != 203 {
			t.Fatalf("retried delete: version %d, %d rows", d3.Version(), len(readRows(t, d3)))
		}
		d3.Close()
	}
	rdr, _ = rowsReader(t, mem, 0, 10, 10)
	defer rdr.Release()
	if _, err := CreateDataset(ctx, "mem://ds", rdr); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("create on mem:// without a commit lock: %v, want ErrUnsupported", err)
	}
}

// TestCommittedByUs: a put that failed in appearance is recognized as ours
// by the transaction file the manifest names, and only then.
func TestCommittedByUs(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, _ := rowsReader(t, mem, 0, 10, 10)
	ds, err := CreateDataset(ctx, dir, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	cur, err := readLatest(ctx, ds.store)
	if err != nil {
		t.Fatal(err)
	}
	txn := cur.man.GetTransactionFile()
	if m, _ := filepath.Glob(filepath.Join(dir, "_transactions", txn)); txn == "" || len(m) != 1 {
		t.Fatalf("manifest names transaction file %q, found %v", txn, m)
	}
	key := ds.manKey
	for _, tc := range []struct {
		key, txn string
		want     bool
	}{{key, txn, true}, {key, "0-other.txn", false}, {key, "", false}, {"_versions/missing.manifest", txn, false}} {
		if got := committedByUs(ctx, ds.store, tc.key, tc.txn); got != tc.want {
			t.Errorf("committedByUs(%s, %q) = %v", tc.key, tc.txn, got)
		}
	}
}

// TestDatasetStableRowIDs: with stable row ids, new fragments get the next
// ids (create, append), deletes keep them, and pylance reads the same
// _rowid of every row as we do.
func TestDatasetStableRowIDs(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, _ := rowsReader(t, mem, 0, 250, 100)
	ds, err := CreateDataset(ctx, dir, rdr, WithStableRowIDs(), WithMaxRowsPerFile(100))
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	rdr, _ = rowsReader(t, mem, 1000, 30, 30)
	d2, err := ds.Append(ctx, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	d3, err := d2.Delete(ctx, "a >= 50 AND a < 120")
	if err != nil {
		t.Fatal(err)
	}
	defer d3.Close()
	// row a = i (i < 250) has id i; a = 1000 + j has id 250 + j.
	want := map[int64]uint64{}
	for i := int64(0); i < 250; i++ {
		if i < 50 || i >= 120 {
			want[i] = uint64(i)
		}
	}
	for j := int64(0); j < 30; j++ {
		want[1000+j] = uint64(250 + j)
	}
	got := map[int64]uint64{}
	for rec, err := range d3.Batches(ctx, DatasetScanOptions{ReadOptions: ReadOptions{WithRowID: true}}) {
		if err != nil {
			t.Fatal(err)
		}
		a, id := rec.Column(0).(*array.Int64), rec.Column(2).(*array.Uint64)
		for i := range int(rec.NumRows()) {
			got[a.Value(i)] = id.Value(i)
		}
		rec.Release()
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("row ids: got %d rows, want %d", len(got), len(want))
	}
	py := datasetPython()
	if py == "" {
		t.Skip("no LANCE_PY")
	}
	script := `import json, sys, lance
ds = lance.dataset(sys.argv[1])
t = ds.to_table(columns=["a"], with_row_id=True)
print(json.dumps(dict(zip(map(str, t.column("a").to_pylist()), t.column("_rowid").to_pylist()))))`
	out, err := exec.Command(py, "-c", script, dir).Output()
	if err != nil {
		t.Fatalf("pylance: %v", err)
	}
	var pyIDs map[int64]uint64
	if err := json.Unmarshal(out, &pyIDs); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(pyIDs) != fmt.Sprint(want) {
		t.Fatalf("pylance row ids differ: %d rows", len(pyIDs))
	}
	// pylance appends after our next_row_id.
	pylanceRows(t, dir, 5)
	if out, err = exec.Command(py, "-c", script, dir).Output(); err != nil {
		t.Fatalf("pylance: %v", err)
	}
	pyIDs = nil
	if err := json.Unmarshal(out, &pyIDs); err != nil {
		t.Fatal(err)
	}
	for j := range int64(5) {
		want[1_000_000+j] = uint64(280 + j)
	}
	if fmt.Sprint(pyIDs) != fmt.Sprint(want) {
		t.Fatalf("after a pylance append, row ids differ: %d rows", len(pyIDs))
	}
}

// TestDatasetZoneSeeds writes data files with zone seeds through
// WithFileOptions; a delete by filter uses them, and pylance reads every
// version.
func TestDatasetZoneSeeds(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, rows := rowsReader(t, mem, 0, 300, 64)
	ds, err := CreateDataset(ctx, dir, rdr, WithMaxRowsPerFile(100), WithFileOptions(filewriter.WithZoneSeeds(32)))
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	frags, err := ds.Fragments(ctx)
	if err != nil || len(frags) != 3 {
		t.Fatalf("fragments %v (%v)", frags, err)
	}
	f, err := fileread.Open(ctx, filepath.Join(dir, "data", frags[0].DataFiles[0].Path))
	if err != nil {
		t.Fatal(err)
	}
	_, seeded := f.Metadata().Schema.Metadata["lance.seed.a"]
	f.Close()
	if !seeded {
		t.Fatal("data file has no zone seed metadata")
	}
	d2, err := ds.Delete(ctx, "a >= 250")
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if got := readRows(t, d2); !slices.Equal(got, rows[:250]) {
		t.Fatalf("read %d rows, want 250", len(got))
	}
	if py := pylanceRows(t, dir, 0); py != nil && (!slices.Equal(py[1], rows) || !slices.Equal(py[2], rows[:250])) {
		t.Fatalf("pylance reads %d and %d rows", len(py[1]), len(py[2]))
	}
}

// TestDatasetDeletePrunesFragments deletes by a filter whose zone seeds
// exclude all but one zone of one fragment: the page bytes of every other
// fragment are overwritten with garbage first (and a scan shows that they
// are), yet the delete succeeds, deletes exactly the filter's rows, and
// the Stats counters show every other zone pruned.
func TestDatasetDeletePrunesFragments(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, rows := rowsReader(t, mem, 0, 8000, 500)
	ds, err := CreateDataset(ctx, dir, rdr, WithMaxRowsPerFile(1000), WithFileOptions(filewriter.WithZoneSeeds(250)))
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	frags, err := ds.Fragments(ctx)
	ds.Close()
	if err != nil || len(frags) != 8 {
		t.Fatalf("%d fragments (%v), want 8", len(frags), err)
	}
	for i, f := range frags {
		if i != 2 {
			spoilPages(t, filepath.Join(dir, "data", f.DataFiles[0].Path))
		}
	}
	if got := readRowsErr(ctx, dir); slices.Equal(got, rows) {
		t.Fatal("the spoiled pages read back intact: the test would prove nothing")
	}
	fresh, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	before := fresh.Stats()
	d2, err := fresh.Delete(ctx, "a >= 2100 AND a < 2200")
	if err != nil {
		t.Fatalf("delete read a pruned fragment: %v", err)
	}
	defer d2.Close()
	st := fresh.Stats()
	total, pruned := st.ZonesTotal-before.ZonesTotal, st.ZonesPruned-before.ZonesPruned
	if total != 32 || pruned != 31 {
		t.Fatalf("zones: %d checked, %d pruned; want 32 and 31", total, pruned)
	}
	after, err := d2.Fragments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range after {
		if want := map[bool]uint64{true: 100}[i == 2]; f.DeletedRows != want {
			t.Fatalf("fragment %d: %d rows deleted, want %d", i, f.DeletedRows, want)
		}
	}
}

// spoilPages overwrites every page buffer of a data file with 0xff,
// leaving its metadata (and zone seeds) intact.
func spoilPages(t *testing.T, path string) {
	f, err := fileread.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	md := f.Metadata()
	f.Close()
	out, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	for col := range md.NumColumns() {
		for page := range md.Columns[col].GetPages() {
			rs, err := md.PageRanges(col, page)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				if _, err := out.WriteAt(bytes.Repeat([]byte{0xff}, int(r.Length)), int64(r.Offset)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// readRowsErr reads the latest version of dir, nil on any error.
func readRowsErr(ctx context.Context, dir string) []wrow {
	d, err := OpenDataset(ctx, dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	var out []wrow
	for rec, err := range d.Batches(ctx, DatasetScanOptions{}) {
		if err != nil {
			return nil
		}
		a, s := rec.Column(0).(*array.Int64), rec.Column(1).(*array.String)
		for i := 0; i < int(rec.NumRows()); i++ {
			out = append(out, wrow{a.Value(i), strings.Clone(s.Value(i))})
		}
		rec.Release()
	}
	return out
}
