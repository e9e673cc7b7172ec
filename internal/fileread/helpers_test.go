package fileread

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/filewriter"
	"github.com/lancego/lancego/internal/testkit"
	"github.com/lancego/lancego/internal/valuejson"
)

// Local names of the helpers shared with the root package's tests
// (internal/testkit), and the ones that need this package's reader.

// lancePython returns the venv python with pylance, or "" when absent.
func lancePython() string { return testkit.LancePython() }

func valuejsonEqual(a, b any) (bool, string) { return valuejson.EqualJSON(a, b) }

// randSchema is the schema of the property tests (testkit.RandSchema).
func randSchema(withMap bool) *arrow.Schema { return testkit.RandSchema(withMap) }

// randBatch fills a batch of n random rows (testkit.RandBatch).
func randBatch(mem memory.Allocator, schema *arrow.Schema, r *rand.Rand, n int) arrow.RecordBatch {
	return testkit.RandBatch(mem, schema, r, n)
}

// verifyWithLance runs testdata/pylance/verify.py on a file.
func verifyWithLance(t *testing.T, py, file, expected string) {
	testkit.VerifyWithLance(t, py, file, expected)
}

// readAllJSON reads a file with our reader into the corpus JSON form.
func readAllJSON(ctx context.Context, t testing.TB, path string) (uint64, any) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	f, err := Open(ctx, path, WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []arrow.RecordBatch
	for rec, err := range f.Batches(ctx, ScanOptions{BatchSize: 1000}) {
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	_, got := testkit.RecordsJSON(t, f.Schema(), recs)
	for _, r := range recs {
		r.Release()
	}
	return f.NumRows(), got
}

// roundTrip writes recs with the file writer and compares what our reader
// returns; it returns the file's path.
func roundTrip(t *testing.T, schema *arrow.Schema, recs []arrow.RecordBatch, opts ...filewriter.Option) string {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rt.lance")
	w, err := filewriter.Create(ctx, path, schema, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	_, want := recordsJSON(t, schema, recs)
	_, got := readAllJSON(ctx, t, path)
	if ok, diff := valuejsonEqual(want, got); !ok {
		t.Fatalf("round trip differs: %s", diff)
	}
	return path
}

// writeExpectedJSON writes the corpus-style expected.json of f.
func writeExpectedJSON(t *testing.T, f *File) string {
	var recs []arrow.RecordBatch
	for rec, err := range f.Batches(context.Background(), ScanOptions{BatchSize: 1000}) {
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	return testkit.ExpectedJSON(t, f.Schema(), recs)
}
