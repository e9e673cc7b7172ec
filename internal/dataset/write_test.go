package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/lancego/lancego/internal/filewriter"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// wrow is one row of the test table (a int64, s string).
type wrow struct {
	A int64
	S string
}

var writeSchema = arrow.NewSchema([]arrow.Field{
	{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// rowsReader returns rows [from, from+n) as batches of batch rows.
func rowsReader(t testing.TB, mem memory.Allocator, from, n, batch int) (array.RecordReader, []wrow) {
	var recs []arrow.RecordBatch
	var rows []wrow
	for off := 0; off < n; off += batch {
		b := array.NewRecordBuilder(mem, writeSchema)
		for i := off; i < min(n, off+batch); i++ {
			r := wrow{int64(from + i), fmt.Sprintf("s%d", from+i)}
			b.Field(0).(*array.Int64Builder).Append(r.A)
			b.Field(1).(*array.StringBuilder).Append(r.S)
			rows = append(rows, r)
		}
		recs = append(recs, b.NewRecordBatch())
		b.Release()
	}
	rdr, err := array.NewRecordReader(writeSchema, recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		r.Release()
	}
	return rdr, rows
}

// readRows reads a dataset version with our reader, sorted by a.
func readRows(t testing.TB, ds *Dataset) []wrow {
	var out []wrow
	for rec, err := range ds.Batches(context.Background(), DatasetScanOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		a := rec.Column(0).(*array.Int64)
		s := rec.Column(1).(*array.String)
		for i := 0; i < int(rec.NumRows()); i++ {
			out = append(out, wrow{a.Value(i), strings.Clone(s.Value(i))}) // the scan recycles buffers
		}
		rec.Release()
	}
	slices.SortFunc(out, func(x, y wrow) int { return int(x.A - y.A) })
	return out
}

// pylanceRows returns every version of the dataset as pylance reads it
// (nil without LANCE_PY), after appending n rows with pylance if n > 0.
func pylanceRows(t testing.TB, dir string, n int) map[uint64][]wrow {
	return pylanceRun(t, dir, "append", n)
}

// pylanceRun runs dataset_rows.py with mode ("append" or "create") n.
func pylanceRun(t testing.TB, dir, mode string, n int) map[uint64][]wrow {
	return pylanceRunOpts(t, dir, nil, mode, n)
}

// pylanceRunOpts is pylanceRun with pylance storage options (for s3://).
func pylanceRunOpts(t testing.TB, dir string, so map[string]string, mode string, n int) map[uint64][]wrow {
	py := datasetPython()
	if py == "" {
		return nil
	}
	args := []string{filepath.Join("..", "..", "testdata", "pylance", "dataset_rows.py"), dir}
	if n > 0 {
		args = append(args, mode, fmt.Sprint(n))
	}
	cmd := exec.Command(py, args...)
	if so != nil {
		b, _ := json.Marshal(so)
		cmd.Env = append(os.Environ(), "LANCE_STORAGE_OPTIONS="+string(b))
	}
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("pylance: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var raw map[uint64][][2]any
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatal(err)
	}
	res := map[uint64][]wrow{}
	for v, rows := range raw {
		res[v] = []wrow{}
		for _, r := range rows {
			res[v] = append(res[v], wrow{int64(r[0].(float64)), r[1].(string)})
		}
	}
	return res
}

func sortRows(r []wrow) []wrow {
	r = slices.Clone(r)
	slices.SortFunc(r, func(x, y wrow) int { return int(x.A - y.A) })
	return r
}

func TestDatasetWriteVersions(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	want := map[uint64][]wrow{}

	rdr, rows := rowsReader(t, mem, 0, 2500, 700)
	ds, err := CreateDataset(ctx, dir, rdr, WithMaxRowsPerFile(1000))
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	if ds.Version() != 1 || ds.NumFragments() != 3 {
		t.Fatalf("create: version %d, %d fragments; want 1, 3", ds.Version(), ds.NumFragments())
	}
	want[1] = rows
	all := rows

	rdr, rows = rowsReader(t, mem, 5000, 300, 128)
	ds2, err := ds.Append(ctx, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	all = append(slices.Clone(all), rows...)
	want[2] = all

	ds3, err := ds2.Delete(ctx, "a < 1000 OR a >= 5290")
	if err != nil {
		t.Fatal(err)
	}
	var kept []wrow
	for _, r := range all {
		if !(r.A < 1000 || r.A >= 5290) {
			kept = append(kept, r)
		}
	}
	want[3] = kept
	if ds3.NumFragments() != 3 {
		t.Fatalf("delete: %d fragments, want 3 (the first dropped)", ds3.NumFragments())
	}

	ds4, err := ds3.Delete(ctx, "a >= 1000 AND a < 1990") // 990 rows of one fragment
	if err != nil {
		t.Fatal(err)
	}
	var kept2 []wrow
	for _, r := range kept {
		if !(r.A >= 1000 && r.A < 1990) {
			kept2 = append(kept2, r)
		}
	}
	want[4] = kept2

	rdr, rows = rowsReader(t, mem, 9000, 10, 10)
	ds5, err := ds4.Overwrite(ctx, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	want[5] = rows

	for _, d := range []*Dataset{ds, ds2, ds3, ds4, ds5} {
		defer d.Close()
	}
	for v := uint64(1); v <= 5; v++ {
		d, err := OpenDataset(ctx, dir, WithVersion(v))
		if err != nil {
			t.Fatal(err)
		}
		if got := readRows(t, d); !slices.Equal(got, sortRows(want[v])) {
			t.Errorf("version %d: we read %d rows, want %d", v, len(got), len(want[v]))
		}
		d.Close()
	}
	py := pylanceRows(t, dir, 0)
	if py == nil {
		t.Skip("no LANCE_PY: pylance check skipped")
	}
	for v := uint64(1); v <= 5; v++ {
		if !slices.Equal(py[v], sortRows(want[v])) {
			t.Errorf("version %d: pylance reads %d rows, want %d", v, len(py[v]), len(want[v]))
		}
	}
}

func TestDatasetAppendSchemaMismatch(t *testing.T) {
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
	before := listTree(t, dir)
	other := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil)
	bad, _ := array.NewRecordReader(other, nil)
	defer bad.Release()
	if _, err := ds.Append(ctx, bad); !errors.Is(err, ErrSchemaMismatch) {
		t.Fatalf("append with another schema: %v, want ErrSchemaMismatch", err)
	}
	if after := listTree(t, dir); !slices.Equal(before, after) {
		t.Fatalf("a failed append left files:\n%v\n%v", before, after)
	}
}

func listTree(t testing.TB, dir string) []string {
	var out []string
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && filepath.Base(p) != "latest_version_hint.json" {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDatasetWriteCanceled cancels a write between data upload and commit:
// nothing becomes visible and the data files written are removed.
func TestDatasetWriteCanceled(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, _ := rowsReader(t, mem, 0, 10, 10)
	ds, err := CreateDataset(context.Background(), dir, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	before := listTree(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	rdr, _ = rowsReader(t, mem, 100, 3000, 500)
	defer rdr.Release()
	_, err = ds.Append(ctx, rdr, WithMaxRowsPerFile(1000), WithWriteProgress(func(rows uint64) {
		if rows >= 2500 {
			cancel()
		}
	}))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled append: %v", err)
	}
	if after := listTree(t, dir); !slices.Equal(before, after) {
		t.Fatalf("a canceled append left files:\n%v\n%v", before, after)
	}
	d, err := OpenDataset(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Version() != 1 || len(readRows(t, d)) != 10 {
		t.Fatalf("after a canceled append: version %d", d.Version())
	}
}

// TestDatasetConcurrentAppends races four appenders and then a delete;
// every committed row is there exactly once, for us and for pylance, and
// pylance appends to the result.
func TestDatasetConcurrentAppends(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, all := rowsReader(t, mem, 0, 100, 100)
	ds, err := CreateDataset(ctx, dir, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	var wg sync.WaitGroup
	var mu sync.Mutex
	errs := make([]error, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 3 {
				rdr, rows := rowsReader(t, mem, 10000*(w+1)+100*k, 50, 25)
				d, err := ds.Append(ctx, rdr)
				rdr.Release()
				if err != nil {
					errs[w] = err
					return
				}
				d.Close()
				mu.Lock()
				all = append(all, rows...)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	latest, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer latest.Close()
	if latest.Version() != 13 {
		t.Fatalf("latest version %d, want 13", latest.Version())
	}
	if got := readRows(t, latest); !slices.Equal(got, sortRows(all)) {
		t.Fatalf("we read %d rows, want %d", len(got), len(all))
	}
	del, err := latest.Delete(ctx, "a >= 20000 AND a < 30000")
	if err != nil {
		t.Fatal(err)
	}
	defer del.Close()
	var kept []wrow
	for _, r := range all {
		if r.A < 20000 || r.A >= 30000 {
			kept = append(kept, r)
		}
	}
	if got := readRows(t, del); !slices.Equal(got, sortRows(kept)) {
		t.Fatalf("after delete we read %d rows, want %d", len(got), len(kept))
	}
	// pylance commits an append read at version 1: its conflict
	// resolution reads our transaction files of versions 2-14.
	py := pylanceRun(t, dir, "stale", 7)
	if py == nil {
		t.Skip("no LANCE_PY: pylance check skipped")
	}
	if !slices.Equal(py[14], sortRows(kept)) {
		t.Fatalf("pylance reads %d rows of version 14, want %d", len(py[14]), len(kept))
	}
	if len(py[15]) != len(kept)+7 {
		t.Fatalf("pylance append: version 15 has %d rows, want %d", len(py[15]), len(kept)+7)
	}
	after, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer after.Close()
	if after.Version() != 15 || len(readRows(t, after)) != len(kept)+7 {
		t.Fatalf("we read version %d after pylance's append", after.Version())
	}
}

// TestDatasetDeleteBitmap deletes more than 5,000 rows of a fragment (a
// roaring deletion file, as Lance writes) and checks the data file sizes
// recorded in the manifest against the files.
func TestDatasetDeleteBitmap(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, rows := rowsReader(t, mem, 0, 7000, 4096)
	ds, err := CreateDataset(ctx, dir, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	frags, err := ds.Fragments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frags {
		for _, df := range f.DataFiles {
			fi, err := os.Stat(filepath.Join(dir, "data", df.Path))
			if err != nil || uint64(fi.Size()) != df.Size {
				t.Fatalf("data file %s: manifest size %d, file %v %v", df.Path, df.Size, fi.Size(), err)
			}
		}
	}
	d2, err := ds.Delete(ctx, "a < 5500")
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if m, _ := filepath.Glob(filepath.Join(dir, "_deletions", "0-1-*.bin")); len(m) != 1 {
		t.Fatalf("deletion files %v, want one roaring .bin", m)
	}
	want := rows[5500:]
	if got := readRows(t, d2); !slices.Equal(got, want) {
		t.Fatalf("we read %d rows, want %d", len(got), len(want))
	}
	if py := pylanceRows(t, dir, 0); py != nil && !slices.Equal(py[2], want) {
		t.Fatalf("pylance reads %d rows, want %d", len(py[2]), len(want))
	}
}

// TestDatasetAppendToPylance appends to a dataset pylance created; both
// read the result.
func TestDatasetAppendToPylance(t *testing.T) {
	if datasetPython() == "" {
		t.Skip("no LANCE_PY")
	}
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	pylanceRun(t, dir, "create", 50)
	ds, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	rdr, rows := rowsReader(t, mem, 50, 30, 30)
	d2, err := ds.Append(ctx, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	first, all := rowsReader(t, mem, 0, 50, 50) // what pylance wrote
	first.Release()
	all = append(all, rows...)
	if got := readRows(t, d2); !slices.Equal(got, all) {
		t.Fatalf("we read %d rows, want %d", len(got), len(all))
	}
	py := pylanceRows(t, dir, 0)
	if !slices.Equal(py[2], all) || len(py[1]) != 50 {
		t.Fatalf("pylance reads %d rows of version 2, want %d", len(py[2]), len(all))
	}
}

// TestDatasetMaxBytesPerFile splits fragments by bytes written: a data
// file ends after the batch that takes the bytes it sent to storage to the
// limit (the file writer sends in 1 MiB pieces), so each closed file but
// the last has at least the limit and at most a piece and a batch more;
// the rows stay in order, and pylance reads the same rows.
func TestDatasetMaxBytesPerFile(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		maxBytes uint64
		minFrags int
	}{
		{"default", DefaultMaxBytesPerFile, 1},
		{"1MiB", 1 << 20, 3},
		{"2MiB", 2 << 20, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ds")
			rdr, rows := randRowsReader(t, 300_000, 1_000)
			defer rdr.Release()
			ds, err := CreateDataset(ctx, dir, rdr, WithMaxBytesPerFile(tc.maxBytes),
				WithFileOptions(filewriter.WithPageBudget(64<<10)))
			if err != nil {
				t.Fatal(err)
			}
			defer ds.Close()
			checkByteSplit(t, ds, tc.maxBytes, tc.minFrags)
			if py := pylanceRows(t, dir, 0); py != nil && !slices.Equal(sortRows(py[1]), sortRows(rows)) {
				t.Fatalf("pylance reads %d rows, want %d", len(py[1]), len(rows))
			}
			got := scanRows(t, ds)
			for i := range min(len(got), len(rows)) {
				if got[i] != rows[i] {
					t.Fatalf("row %d: %v, want %v", i, got[i], rows[i])
				}
			}
			if len(got) != len(rows) {
				t.Fatalf("read %d rows, want %d", len(got), len(rows))
			}
		})
	}
}

// randRowsReader returns n rows of random a (below 2^52: exact as JSON
// numbers, and hardly compressible) in batches of batch rows.
func randRowsReader(t testing.TB, n, batch int) (array.RecordReader, []wrow) {
	r := rand.New(rand.NewPCG(7, uint64(n)))
	var recs []arrow.RecordBatch
	var rows []wrow
	for off := 0; off < n; off += batch {
		b := array.NewRecordBuilder(memory.DefaultAllocator, writeSchema)
		for i := off; i < min(n, off+batch); i++ {
			w := wrow{int64(r.Uint64N(1 << 52)), fmt.Sprintf("s%d", i)}
			b.Field(0).(*array.Int64Builder).Append(w.A)
			b.Field(1).(*array.StringBuilder).Append(w.S)
			rows = append(rows, w)
		}
		recs = append(recs, b.NewRecordBatch())
		b.Release()
	}
	rdr, err := array.NewRecordReader(writeSchema, recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		rec.Release()
	}
	return rdr, rows
}

// scanRows reads a dataset version in its order.
func scanRows(t testing.TB, ds *Dataset) []wrow {
	var out []wrow
	for rec, err := range ds.Batches(context.Background(), DatasetScanOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		a, s := rec.Column(0).(*array.Int64), rec.Column(1).(*array.String)
		for i := 0; i < int(rec.NumRows()); i++ {
			out = append(out, wrow{a.Value(i), strings.Clone(s.Value(i))}) // the scan recycles buffers
		}
		rec.Release()
	}
	return out
}

// checkByteSplit checks the fragments of ds against a byte limit: at
// least minFrags of them, every one but the last at least maxBytes long
// and at most a 1 MiB piece and a batch's pages over it.
func checkByteSplit(t *testing.T, ds *Dataset, maxBytes uint64, minFrags int) {
	frags, err := ds.Fragments(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(frags) < minFrags {
		t.Fatalf("%d fragments, want at least %d", len(frags), minFrags)
	}
	for i, f := range frags[:len(frags)-1] {
		size := f.DataFiles[0].Size
		if size < maxBytes || size > maxBytes+(1<<20)+(256<<10) {
			t.Fatalf("fragment %d: %d bytes (%d rows), limit %d", i, size, f.PhysicalRows, maxBytes)
		}
	}
}

// TestDatasetAppendReaderFails appends from a reader that fails after
// five of its seven batches (two full data files and part of a third):
// the append returns the reader's error (not the cancellation of the
// files being written) and leaves nothing.
func TestDatasetAppendReaderFails(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(t.TempDir(), "ds")
	rdr, rows := rowsReader(t, mem, 0, 10, 10)
	ds, err := CreateDataset(ctx, dir, rdr)
	rdr.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	before := listTree(t, dir)
	src, _ := rowsReader(t, mem, 100, 3500, 500)
	defer src.Release()
	broken := errors.New("source broke")
	n := 0
	failing := array.ReaderFromIter(writeSchema, func(yield func(arrow.RecordBatch, error) bool) {
		for src.Next() {
			if n++; n > 5 {
				yield(nil, broken)
				return
			}
			if !yield(src.RecordBatch(), nil) {
				return
			}
		}
	})
	defer failing.Release()
	if _, err := ds.Append(ctx, failing, WithMaxRowsPerFile(1000)); !errors.Is(err, broken) {
		t.Fatalf("append from a failing reader: %v, want the reader's error", err)
	}
	if after := listTree(t, dir); !slices.Equal(before, after) {
		t.Fatalf("a failed append left files:\n%v\n%v", before, after)
	}
	d, err := OpenDataset(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Version() != 1 || !slices.Equal(readRows(t, d), rows) {
		t.Fatalf("after the failed append: version %d", d.Version())
	}
}
