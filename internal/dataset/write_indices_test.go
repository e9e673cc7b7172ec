package dataset

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// pyIndexState is what testdata/write_indices.py state prints.
type pyIndexState struct {
	Version    int                `json:"version"`
	Rows       int                `json:"rows"`
	Indices    []map[string]any   `json:"indices"`
	Describe   [][]any            `json:"describe"`
	IDs        []int64            `json:"ids"`
	Plans      map[string]string  `json:"plans"`
	Answers    map[string][]int64 `json:"answers"`
	Scans      map[string][]int64 `json:"scans"`
	FTS        map[string][][2]float64
	FTSExpect  map[string][]int64 `json:"fts_expect"`
	Nearest    map[string][]int64 `json:"nearest"`
	Txn        string             `json:"txn"`
	normalized string
}

func indexPy(t *testing.T, args ...string) []byte {
	t.Helper()
	py := datasetPython()
	if py == "" {
		t.Skip("no LANCE_PY: pylance checks skipped")
	}
	cmd := exec.Command(py, append([]string{filepath.Join("testdata", "write_indices.py")}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("write_indices.py %v: %v\n%s", args, err, stderr)
	}
	return out
}

// indexState asks pylance for dir's indices, plans and answers; paths in
// plans are made relative so two copies compare equal.
func indexState(t *testing.T, dir string) *pyIndexState {
	t.Helper()
	out := indexPy(t, "state", dir)
	s := strings.ReplaceAll(string(out), strings.TrimPrefix(dir, "/"), "DS")
	var st pyIndexState
	if err := json.Unmarshal([]byte(s), &st); err != nil {
		t.Fatalf("state of %s: %v\n%s", dir, err, out)
	}
	st.normalized = s
	return &st
}

// checkIndexedAnswers: pylance's index answers are the answers of a scan
// without indices (filters), of the documents' words (full text), and a
// row's own vector finds it first (nearest); the plans use the indices.
func checkIndexedAnswers(t *testing.T, st *pyIndexState, indexed bool) {
	t.Helper()
	for f, want := range st.Scans {
		if !slices.Equal(st.Answers[f], want) {
			t.Errorf("filter %q: pylance with indices %v, scan %v", f, st.Answers[f], want)
		}
		if indexed && !strings.Contains(st.Plans[f], "ScalarIndexQuery") {
			t.Errorf("filter %q: plan uses no index:\n%s", f, st.Plans[f])
		}
	}
	for q, want := range st.FTSExpect {
		var got []int64
		for _, r := range st.FTS[q] {
			got = append(got, int64(r[0]))
		}
		if !slices.Equal(got, want) {
			t.Errorf("full text %q: %d rows, want %d", q, len(got), len(want))
		}
	}
	for q, ids := range st.Nearest {
		if len(ids) == 0 || ids[0] != int64(atoi(q)) {
			t.Errorf("nearest to row %s: %v", q, ids)
		}
		if indexed && !strings.Contains(st.Plans["nearest:"+q], "ANNSubIndex: name=vec_idx") {
			t.Errorf("nearest %s: plan uses no vector index:\n%s", q, st.Plans["nearest:"+q])
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func ipcReader(t *testing.T, mem memory.Allocator, path string) array.RecordReader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var recs []arrow.RecordBatch
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatch(i)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	rdr, err := array.NewRecordReader(r.Schema(), recs)
	if err != nil {
		t.Fatal(err)
	}
	return rdr
}

func copyTreeCP(t *testing.T, src, dst string) {
	t.Helper()
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
}

// twinOps applies ops to the twin dataset with pylance.
func twinOps(t *testing.T, dir string, ops ...[2]string) {
	t.Helper()
	b, _ := json.Marshal(ops)
	p := filepath.Join(t.TempDir(), "ops.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	indexPy(t, "twin", dir, p)
}

// sameState: our writes leave pylance the state its own writes leave on
// a copy of the dataset: the same indices (uuids, fields, coverage,
// versions), plans, rows and answers (full-text scores included).
func sameState(t *testing.T, step string, ours, twin *pyIndexState) {
	t.Helper()
	if ours.normalized != twin.normalized {
		a, b := *ours, *twin
		a.normalized, b.normalized = "", ""
		for _, f := range []string{"Version", "Rows", "Indices", "Describe", "IDs", "Plans", "Answers", "FTS", "Nearest", "Txn"} {
			x, y := reflect.ValueOf(a).FieldByName(f).Interface(), reflect.ValueOf(b).FieldByName(f).Interface()
			if !reflect.DeepEqual(x, y) {
				t.Errorf("%s: %s differs:\nours  %v\npylance %v", step, f, x, y)
			}
		}
	}
}

// TestWriteKeepsIndices: pylance builds BTREE, BITMAP, INVERTED and
// IVF_PQ indices; we append and delete (the Go API), pylance does the
// same on a copy, and it then lists, plans with and answers from the
// indices identically on both; a delete that empties every covered
// fragment keeps every index, as pylance 14.0.2 does (the Rust sources'
// retention rule would drop the vector one); an overwrite drops them all.
func TestWriteKeepsIndices(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tmp := t.TempDir()
	ours, twin, newRows := filepath.Join(tmp, "a.lance"), filepath.Join(tmp, "b.lance"), filepath.Join(tmp, "new.arrow")
	indexPy(t, "build", ours, newRows)
	copyTreeCP(t, ours, twin)
	before := indexState(t, ours)
	checkIndexedAnswers(t, before, true)

	ds, err := OpenDataset(ctx, ours)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	rdr := ipcReader(t, mem, newRows)
	d2, err := ds.Append(ctx, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if ix, err := d2.Indices(ctx); err != nil || len(ix) != 4 {
		t.Fatalf("our listing after our append: %d indices, %v", len(ix), err)
	}
	twinOps(t, twin, [2]string{"append", newRows})
	st := indexState(t, ours)
	sameState(t, "append", st, indexState(t, twin))
	checkIndexedAnswers(t, st, true)
	if len(st.Indices) != 4 || st.Txn != "Append" || st.Rows != 700 {
		t.Fatalf("after append: %d indices, txn %s, %d rows", len(st.Indices), st.Txn, st.Rows)
	}
	for _, x := range st.Indices {
		if !reflect.DeepEqual(x["fragment_ids"], []any{0.0, 1.0, 2.0}) {
			t.Fatalf("index %v: the new fragment is not unindexed", x)
		}
	}

	const del = "id < 5 OR id = 650 OR (id >= 200 AND id < 400)"
	d3, err := d2.Delete(ctx, del)
	if err != nil {
		t.Fatal(err)
	}
	defer d3.Close()
	twinOps(t, twin, [2]string{"delete", del})
	st = indexState(t, ours)
	sameState(t, "delete", st, indexState(t, twin))
	checkIndexedAnswers(t, st, true)
	if len(st.Indices) != 4 || st.Txn != "Delete" || slices.Contains(st.IDs, 650) || slices.Contains(st.IDs, 250) {
		t.Fatalf("after delete: %d indices, txn %s", len(st.Indices), st.Txn)
	}

	const delAll = "id < 600"
	d4, err := d3.Delete(ctx, delAll)
	if err != nil {
		t.Fatal(err)
	}
	defer d4.Close()
	twinOps(t, twin, [2]string{"delete", delAll})
	st = indexState(t, ours)
	sameState(t, "delete of every indexed fragment", st, indexState(t, twin))
	checkIndexedAnswers(t, st, false)
	if len(st.Indices) != 4 {
		t.Fatalf("after deleting every indexed fragment: %v (pylance 14.0.2 keeps all four)", st.Indices)
	}

	rdr = ipcReader(t, mem, newRows)
	d5, err := d4.Overwrite(ctx, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer d5.Close()
	twinOps(t, twin, [2]string{"overwrite", newRows})
	st = indexState(t, ours)
	sameState(t, "overwrite", st, indexState(t, twin))
	if len(st.Indices) != 0 || st.Txn != "Overwrite" {
		t.Fatalf("after overwrite: %v, txn %s", st.Indices, st.Txn)
	}
}

// TestWriteKeepsFragReuseIndex: after pylance compacts with a deferred
// index remap (a __lance_frag_reuse system index beside id_idx), our
// append and delete keep both entries, as pylance's own writes on a copy
// do, and pylance's index answers are its scan's.
func TestWriteKeepsFragReuseIndex(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tmp := t.TempDir()
	ours, twin, newRows := filepath.Join(tmp, "a.lance"), filepath.Join(tmp, "b.lance"), filepath.Join(tmp, "new.arrow")
	indexPy(t, "build_reuse", ours, newRows)
	copyTreeCP(t, ours, twin)
	ds, err := OpenDataset(ctx, ours)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	rdr := ipcReader(t, mem, newRows)
	d2, err := ds.Append(ctx, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	const del = "id = 3 OR id = 310"
	d3, err := d2.Delete(ctx, del)
	if err != nil {
		t.Fatal(err)
	}
	defer d3.Close()
	twinOps(t, twin, [2]string{"append", newRows}, [2]string{"delete", del})
	a, b := string(indexPy(t, "simple_state", ours)), string(indexPy(t, "simple_state", twin))
	if a != b {
		t.Fatalf("pylance's view of our writes:\n%s\nof its own:\n%s", a, b)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(a), &st); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a, fragReuseIndexName) || !strings.Contains(a, `"id_idx"`) {
		t.Fatalf("indices after our writes: %v", st["indices"])
	}
	for k, v := range st {
		if r, ok := v.([]any); ok && strings.HasPrefix(k, "id ") {
			if !reflect.DeepEqual(r[0], r[1]) || r[2] != true {
				t.Fatalf("filter %q: indexed %v, scan %v, plan uses id_idx %v", k, r[0], r[1], r[2])
			}
		}
	}
}
