package lance_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	lance "github.com/lancego/lancego"
)

// TestWithSyncSameBytes checks that WithSync(false) changes only what Close
// fsyncs: the file has the same bytes as a synced one, reads back, and no
// temporary file is left behind.
func TestWithSyncSameBytes(t *testing.T) {
	ctx := context.Background()
	b := array.NewInt64Builder(memory.DefaultAllocator)
	for i := range 10000 {
		b.Append(int64(i * 3))
	}
	col := b.NewArray()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
	dir := t.TempDir()
	got := map[bool][]byte{}
	for _, sync := range []bool{true, false} {
		path := filepath.Join(dir, map[bool]string{true: "synced.lance", false: "unsynced.lance"}[sync])
		w, err := lance.Create(ctx, path, schema, lance.WithSync(sync))
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(ctx, rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(ctx); err != nil {
			t.Fatal(err)
		}
		if got[sync], err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
		r, err := lance.Open(ctx, path)
		if err != nil {
			t.Fatalf("sync=%v: %v", sync, err)
		}
		if n := r.NumRows(); n != 10000 {
			t.Fatalf("sync=%v: %d rows", sync, n)
		}
		r.Close()
	}
	if !bytes.Equal(got[true], got[false]) {
		t.Fatal("WithSync(false) wrote different bytes")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Fatalf("%d entries in the folder, want 2 (a temporary file left?)", len(ents))
	}
}
