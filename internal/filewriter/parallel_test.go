package filewriter

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// parallelBatches builds batches whose columns flush together and whose
// long strings are FSST-compressed in several pieces.
func parallelBatches(t *testing.T, mem memory.Allocator) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "text", Type: arrow.BinaryTypes.String},
		{Name: "short", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "list", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "vec", Type: arrow.FixedSizeListOf(8, arrow.PrimitiveTypes.Float32)},
	}, nil)
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau")
	r := rand.New(rand.NewPCG(7, 11))
	var recs []arrow.RecordBatch
	for b := 0; b < 3; b++ {
		bld := array.NewRecordBuilder(mem, schema)
		for i := 0; i < 6000; i++ {
			bld.Field(0).(*array.Int64Builder).Append(int64(b*6000 + i))
			var sb strings.Builder
			for sb.Len() < 300+r.IntN(400) {
				sb.WriteString(words[r.IntN(len(words))])
				sb.WriteByte(' ')
			}
			bld.Field(1).(*array.StringBuilder).Append(sb.String())
			if r.IntN(5) == 0 {
				bld.Field(2).AppendNull()
			} else {
				bld.Field(2).(*array.StringBuilder).Append(words[r.IntN(len(words))] + words[r.IntN(len(words))])
			}
			lb := bld.Field(3).(*array.ListBuilder)
			if r.IntN(7) == 0 {
				lb.AppendNull()
			} else {
				lb.Append(true)
				for k := r.IntN(5); k > 0; k-- {
					lb.ValueBuilder().(*array.Int32Builder).Append(r.Int32N(1000))
				}
			}
			fb := bld.Field(4).(*array.FixedSizeListBuilder)
			fb.Append(true)
			for k := 0; k < 8; k++ {
				fb.ValueBuilder().(*array.Float32Builder).Append(r.Float32())
			}
		}
		rec := bld.NewRecordBatch()
		bld.Release()
		// a slice: arrays with non-zero offsets
		recs = append(recs, rec.NewSlice(100, rec.NumRows()))
		rec.Release()
	}
	return schema, recs
}

// checkedBatches returns parallelBatches built with a checked allocator;
// the batches are released, and the allocator checked for leaks, when the
// test ends.
func checkedBatches(t *testing.T) (*arrow.Schema, []arrow.RecordBatch) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	schema, recs := parallelBatches(t, mem)
	t.Cleanup(func() {
		for _, r := range recs {
			r.Release()
		}
	})
	return schema, recs
}

// TestWriterParallelDeterministic checks that concurrent encoding writes the
// same bytes as one goroutine and that the file reads back.
func TestWriterParallelDeterministic(t *testing.T) {
	schema, recs := checkedBatches(t)
	ctx := context.Background()
	dir := t.TempDir()
	for _, ver := range []string{"2.1", "2.2"} {
		var files [][]byte
		for _, procs := range []int{1, 4} {
			prev := runtime.GOMAXPROCS(procs)
			path := filepath.Join(dir, ver+".lance")
			w, err := Create(ctx, path, schema, WithFileVersion(ver), WithPageBudget(1<<20))
			if err != nil {
				runtime.GOMAXPROCS(prev)
				t.Fatal(err)
			}
			for _, rec := range recs {
				if err := w.Write(ctx, rec); err != nil {
					runtime.GOMAXPROCS(prev)
					t.Fatal(err)
				}
			}
			err = w.Close(ctx)
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, b)
		}
		if !bytes.Equal(files[0], files[1]) {
			t.Fatalf("%s: concurrent encoding wrote different bytes (%d vs %d)", ver, len(files[0]), len(files[1]))
		}
		roundTrip(t, schema, recs, WithFileVersion(ver), WithPageBudget(1<<20))
	}
}
