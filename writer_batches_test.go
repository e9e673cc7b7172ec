package lance_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	lance "github.com/lancego/lancego"
)

// TestWriterManyBatchesDictionary writes Arrow dictionary columns without
// nulls in several batches, each batch with a dictionary of its own (the
// writer concatenates a page's batches, unifying them), and reads the
// values back: the bench's dictionary column once crashed here.
func TestWriterManyBatchesDictionary(t *testing.T) {
	ctx := context.Background()
	mem := memory.DefaultAllocator
	for _, kt := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Uint32} {
		dt := &arrow.DictionaryType{IndexType: kt, ValueType: arrow.BinaryTypes.String}
		schema := arrow.NewSchema([]arrow.Field{{Name: "d", Type: dt}}, nil)
		path := filepath.Join(t.TempDir(), "dict.lance")
		w, err := lance.Create(ctx, path, schema, lance.WithPageBudget(1<<20))
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for b := range 6 {
			db := array.NewDictionaryBuilder(mem, dt).(*array.BinaryDictionaryBuilder)
			for i := range 20000 {
				s := fmt.Sprintf("v%d", (i*7+b*3)%(10+b))
				_ = db.AppendString(s)
				want = append(want, s)
			}
			a := db.NewArray()
			rec := array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len()))
			if err := w.Write(ctx, rec); err != nil {
				t.Fatal(err)
			}
			rec.Release()
			a.Release()
			db.Release()
		}
		if err := w.Close(ctx); err != nil {
			t.Fatal(err)
		}
		f, err := lance.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rec, err := range f.Batches(ctx, lance.ScanOptions{}) {
			if err != nil {
				t.Fatal(err)
			}
			col := rec.Column(0)
			for i := 0; i < col.Len(); i++ {
				got = append(got, col.ValueStr(i))
			}
			rec.Release()
		}
		f.Close()
		if len(got) != len(want) {
			t.Fatalf("%s keys: %d rows back, want %d", kt, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s keys: row %d = %q, want %q", kt, i, got[i], want[i])
			}
		}
	}
}
