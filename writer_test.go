package lance

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/internal/testkit"
)

// randSchema is the schema of the property tests (testkit.RandSchema).
func randSchema(withMap bool) *arrow.Schema { return testkit.RandSchema(withMap) }

// randBatch fills a batch of n random rows (testkit.RandBatch).
func randBatch(mem memory.Allocator, schema *arrow.Schema, r *rand.Rand, n int) arrow.RecordBatch {
	return testkit.RandBatch(mem, schema, r, n)
}

// roundTrip writes recs and compares what our reader returns.
func roundTrip(t *testing.T, schema *arrow.Schema, recs []arrow.RecordBatch, opts ...WriterOption) string {
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
	_, want := recordsJSON(t, schema, recs)
	_, got := readAllJSON(ctx, t, path)
	if ok, diff := valuejsonEqual(want, got); !ok {
		t.Fatalf("round trip differs: %s", diff)
	}
	return path
}

func TestWriterRandomRoundTrip(t *testing.T) {
	for _, ver := range []string{"2.1", "2.2", "2.3"} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(ver, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				r := rand.New(rand.NewPCG(seed, 42))
				schema := randSchema(ver != "2.1")
				var recs []arrow.RecordBatch
				for _, n := range []int{0, 1, 700, 3000, 5} {
					recs = append(recs, randBatch(mem, schema, r, n))
				}
				path := roundTrip(t, schema, recs, WithFileVersion(ver), WithPageBudget(64<<10))
				for _, rec := range recs {
					rec.Release()
				}
				if py := lancePython(); py != "" && seed == 1 {
					verifyJSONWithLance(t, py, path)
				}
			})
		}
	}
}

// verifyJSONWithLance writes our reader's JSON of path and has real Lance
// compare against it.
func verifyJSONWithLance(t *testing.T, py, path string) {
	f, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	exp := writeExpectedJSON(t, f)
	verifyWithLance(t, py, path, exp)
}

func TestWriterHostile(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	build := func(fill func(s *array.StringBuilder, l *array.ListBuilder)) arrow.RecordBatch {
		b := array.NewRecordBuilder(mem, schema)
		defer b.Release()
		fill(b.Field(0).(*array.StringBuilder), b.Field(1).(*array.ListBuilder))
		return b.NewRecordBatch()
	}
	cases := map[string]func(s *array.StringBuilder, l *array.ListBuilder){
		"empty": func(s *array.StringBuilder, l *array.ListBuilder) {},
		"all_null": func(s *array.StringBuilder, l *array.ListBuilder) {
			for i := 0; i < 100; i++ {
				s.AppendNull()
				l.AppendNull()
			}
		},
		"huge_value": func(s *array.StringBuilder, l *array.ListBuilder) {
			s.Append(strings.Repeat("huge value ", 1<<17))
			l.Append(true)
		},
		"deep_offsets": func(s *array.StringBuilder, l *array.ListBuilder) {
			for i := 0; i < 10000; i++ {
				s.Append("x")
				l.Append(true)
			}
			s.Append("y")
			l.Append(true)
			for i := 0; i < 10000; i++ {
				l.ValueBuilder().(*array.Int32Builder).Append(int32(i))
			}
		},
	}
	for name, fill := range cases {
		for _, ver := range []string{"2.1", "2.2"} {
			t.Run(name+"/"+ver, func(t *testing.T) {
				rec := build(fill)
				defer rec.Release()
				path := roundTrip(t, schema, []arrow.RecordBatch{rec, rec}, WithFileVersion(ver))
				if py := lancePython(); py != "" {
					verifyJSONWithLance(t, py, path)
				}
			})
		}
	}
}

func TestWriterAbortLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	w, err := Create(ctx, filepath.Join(dir, "a.lance"), schema)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := w.Close(ctx); err == nil {
		t.Fatal("Close with a cancelled context succeeded")
	}
	w2, err := Create(context.Background(), filepath.Join(dir, "b.lance"), schema)
	if err != nil {
		t.Fatal(err)
	}
	w2.Abort()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left behind: %v", ents)
	}
}
