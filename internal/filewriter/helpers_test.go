package filewriter

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/internal/fileread"
	"github.com/lancego/lancego/internal/testkit"
	"github.com/lancego/lancego/internal/valuejson"
)

// roundTrip writes recs with Create and checks that the reader returns
// them; it returns the file's path.
func roundTrip(t *testing.T, schema *arrow.Schema, recs []arrow.RecordBatch, opts ...Option) string {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rt.lance")
	w, err := Create(ctx, path, schema, opts...)
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
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	f, err := fileread.Open(ctx, path, fileread.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []arrow.RecordBatch
	for rec, err := range f.Batches(ctx, fileread.ScanOptions{BatchSize: 1000}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rec)
	}
	_, gotJSON := testkit.RecordsJSON(t, f.Schema(), got)
	for _, r := range got {
		r.Release()
	}
	_, want := testkit.RecordsJSON(t, schema, recs)
	if ok, diff := valuejson.EqualJSON(want, gotJSON); !ok {
		t.Fatalf("round trip differs: %s", diff)
	}
	return path
}
