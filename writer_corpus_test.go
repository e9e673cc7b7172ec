package lance

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/internal/testkit"
	"github.com/lancego/lancego/internal/valuejson"
)

// lancePython returns the venv python with pylance, or "" when absent.
func lancePython() string { return testkit.LancePython() }

// loadExpected reads a corpus .expected.json (testkit.LoadExpected).
func loadExpected(t *testing.T, path string) (int, any) { return testkit.LoadExpected(t, path) }

// recordsJSON is recs in the corpus JSON form (testkit.RecordsJSON).
func recordsJSON(t *testing.T, schema *arrow.Schema, recs []arrow.RecordBatch) (any, any) {
	return testkit.RecordsJSON(t, schema, recs)
}

// rewriteErr reads src with our reader and writes it to dst with our
// writer at version, in batches of batch rows.
func rewriteErr(ctx context.Context, src, dst, version string, batch int) error {
	f, err := Open(ctx, src)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := Create(ctx, dst, f.Schema(), WithFileVersion(version))
	if err != nil {
		return err
	}
	for rec, err := range f.Batches(ctx, ScanOptions{BatchSize: batch}) {
		if err != nil {
			w.Abort()
			return err
		}
		err = w.Write(ctx, rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	return w.Close(ctx)
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
	_, got := recordsJSON(t.(*testing.T), f.Schema(), recs)
	for _, r := range recs {
		r.Release()
	}
	return f.NumRows(), got
}

// TestWriterCorpus rewrites every 2.1/2.2 corpus file with our writer, reads
// it back with our reader and (when pylance is available) with real Lance.
func TestWriterCorpus(t *testing.T) {
	ctx := context.Background()
	py := lancePython()
	only := os.Getenv("LANCE_WRITER_CASES")
	dir := t.TempDir()
	var batch lanceBatch
	for _, ver := range []string{"2.1", "2.2"} {
		files, _ := filepath.Glob(filepath.Join("..", "shared", "corpus", ver, "*.lance"))
		for _, src := range files {
			name := strings.TrimSuffix(filepath.Base(src), ".lance")
			if only != "" && !strings.Contains(","+only+",", ","+name+",") {
				continue
			}
			t.Run(ver+"/"+name, func(t *testing.T) {
				dst := filepath.Join(dir, ver+"_"+name+".lance")
				exp := strings.TrimSuffix(src, ".lance") + ".expected.json"
				if corpusRewrite(ctx, t, src, dst, exp, ver) && !lanceCannotRead[name] {
					batch.add(ver+"/"+name, dst, exp)
				}
			})
		}
	}
	batch.run(t, py)
}

// lanceCannotRead lists corpus cases the pylance single-file reader cannot
// read back as values (blob v2 columns come back as descriptors).
var lanceCannotRead = map[string]bool{"blob_v2": true}

// corpusRewrite rewrites src to dst with our writer and checks our reader
// returns exp; it reports whether the file was written.
func corpusRewrite(ctx context.Context, t *testing.T, src, dst, exp, ver string) bool {
	if err := rewriteErr(ctx, src, dst, ver, 777); errors.Is(err, ErrUnsupportedType) {
		t.Skipf("not written yet: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	wantRows, want := loadExpected(t, exp)
	rows, got := readAllJSON(ctx, t, dst)
	if int(rows) != wantRows {
		t.Fatalf("rows %d, want %d", rows, wantRows)
	}
	if ok, diff := valuejsonEqual(want, got); !ok {
		t.Fatalf("our reader: %s", diff)
	}
	return true
}

// verifyWithLance runs testdata/pylance/verify.py on a file.
func verifyWithLance(t *testing.T, py, file, expected string) {
	testkit.VerifyWithLance(t, py, file, expected)
}

func valuejsonEqual(a, b any) (bool, string) { return valuejson.EqualJSON(a, b) }

// writeExpectedJSON writes the corpus-style expected.json of f (schema from
// the real Lance side is not checked: --ignore-metadata is not needed since
// the schema comes from our reader).
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
