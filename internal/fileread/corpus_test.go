package fileread

import (
	"context"
	"github.com/lancego/lancego/internal/testkit"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/internal/valuejson"
)

// corpusDirs returns the folders of real Lance files with expected values:
// the shared corpus (when present) and the project's own golden sets.
func corpusDirs(t *testing.T) []string {
	var dirs []string
	shared := os.Getenv("LANCE_CORPUS")
	if shared == "" {
		shared = filepath.Join("..", "..", "..", "shared", "corpus")
	}
	if _, err := os.Stat(shared); err == nil {
		for _, v := range []string{"2.0", "2.1", "2.2", "2.3"} {
			dirs = append(dirs, filepath.Join(shared, v))
		}
	} else {
		t.Logf("shared corpus %s not found (set LANCE_CORPUS): using testdata only", shared)
	}
	for _, g := range []string{"../../testdata/corpus/*", "../../testdata/pylance/*"} {
		m, _ := filepath.Glob(g)
		for _, d := range m {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// loadExpected reads a corpus .expected.json (testkit.LoadExpected).
func loadExpected(t *testing.T, path string) (int, any) { return testkit.LoadExpected(t, path) }

// recordsJSON is recs in the corpus JSON form (testkit.RecordsJSON).
func recordsJSON(t *testing.T, schema *arrow.Schema, recs []arrow.RecordBatch) (any, any) {
	return testkit.RecordsJSON(t, schema, recs)
}

// eachCorpusFile runs fn as a subtest for every real Lance file of the
// corpus, with the file's expected values; it fails when there is none.
func eachCorpusFile(t *testing.T, fn func(t *testing.T, path string, want any)) {
	n := 0
	for _, dir := range corpusDirs(t) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.lance"))
		for _, path := range files {
			n++
			t.Run(filepath.Base(dir)+"/"+filepath.Base(path), func(t *testing.T) {
				_, want := loadExpected(t, path[:len(path)-len(".lance")]+".expected.json")
				fn(t, path, want)
			})
		}
	}
	if n == 0 {
		t.Fatal("no corpus files found")
	}
}

func TestCorpusScanAndTake(t *testing.T) {
	ctx := context.Background()
	eachCorpusFile(t, func(t *testing.T, path string, _ any) { checkCorpusFile(ctx, t, path) })
}

func checkCorpusFile(ctx context.Context, t *testing.T, path string) {
	exp := path[:len(path)-len(".lance")] + ".expected.json"
	wantRows, wantCols := loadExpected(t, exp)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f, err := Open(ctx, path, WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checkFileReads(ctx, t, f, wantRows, wantCols)
}

// checkFileReads scans f and takes rows from it, comparing with the
// expected rows and columns of a corpus file.
func checkFileReads(ctx context.Context, t *testing.T, f *File, wantRows int, wantCols any) {
	if int(f.NumRows()) != wantRows {
		t.Fatalf("rows = %d, want %d", f.NumRows(), wantRows)
	}
	var recs []arrow.RecordBatch
	for rec, err := range f.Batches(ctx, ScanOptions{BatchSize: 777}) {
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	_, got := recordsJSON(t, f.Schema(), recs)
	for _, r := range recs {
		r.Release()
	}
	if ok, diff := valuejson.EqualJSON(wantCols, got); !ok {
		t.Fatalf("scan differs: %s", diff)
	}
	checkTake(ctx, t, f, wantCols.(map[string]any))
	checkSingleRowTakes(ctx, t, f, wantCols.(map[string]any))
	checkRangeScans(ctx, t, f, wantCols.(map[string]any))
}

// checkRangeScans scans row ranges small and large (small ones read the
// rows of pages they need little of like a take, scan_range.go) and
// compares them with the expected values of those rows.
func checkRangeScans(ctx context.Context, t *testing.T, f *File, want map[string]any) {
	n := f.NumRows()
	rng := rand.New(rand.NewPCG(n, 11))
	for range 4 {
		if n == 0 {
			return
		}
		from := rng.Uint64N(n)
		to := from + 1 + rng.Uint64N(min(n-from, 1+n/3))
		var recs []arrow.RecordBatch
		for rec, err := range f.Batches(ctx, ScanOptions{From: from, To: to, BatchSize: 50}) {
			if err != nil {
				t.Fatalf("scan [%d, %d): %v", from, to, err)
			}
			recs = append(recs, rec)
		}
		_, got := recordsJSON(t, f.Schema(), recs)
		for _, r := range recs {
			r.Release()
		}
		sub := map[string]any{}
		for name, col := range want {
			sub[name] = col.([]any)[from:to]
		}
		if ok, diff := valuejson.EqualJSON(sub, got); !ok {
			t.Fatalf("scan [%d, %d) differs: %s", from, to, diff)
		}
	}
}

// checkSingleRowTakes takes rows one at a time, so that pages whose only
// row asked is null (no stored value to learn a shape from) are covered.
func checkSingleRowTakes(ctx context.Context, t *testing.T, f *File, want map[string]any) {
	n := f.NumRows()
	for r := uint64(0); r < n && r < 24; r++ {
		rec, err := f.Take(ctx, []uint64{r}, nil)
		if err != nil {
			t.Fatalf("take [%d]: %v", r, err)
		}
		_, got := recordsJSON(t, f.Schema(), []arrow.RecordBatch{rec})
		rec.Release()
		sub := map[string]any{}
		for name, col := range want {
			sub[name] = []any{col.([]any)[r]}
		}
		if ok, diff := valuejson.EqualJSON(sub, got); !ok {
			t.Fatalf("take [%d] differs: %s", r, diff)
		}
	}
}

// checkTake takes random rows in random order (with duplicates) and
// compares them with the expected values of those rows.
func checkTake(ctx context.Context, t *testing.T, f *File, want map[string]any) {
	rng := rand.New(rand.NewPCG(uint64(f.NumRows()), 7))
	if f.NumRows() == 0 {
		return
	}
	rows := make([]uint64, 0, 40)
	for range 30 {
		rows = append(rows, rng.Uint64N(f.NumRows()))
	}
	rows = append(rows, rows[0], 0, f.NumRows()-1)
	if f.NumRows() > 3 {
		rows = append(rows, 1, 2, 3)
	}
	rec, err := f.Take(ctx, rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	_, got := recordsJSON(t, f.Schema(), []arrow.RecordBatch{rec})
	sub := map[string]any{}
	for name, col := range want {
		vals := col.([]any)
		picked := make([]any, len(rows))
		for i, r := range rows {
			picked[i] = vals[r]
		}
		sub[name] = picked
	}
	if ok, diff := valuejson.EqualJSON(sub, got); !ok {
		t.Fatalf("take %v differs: %s", rows, diff)
	}
}
