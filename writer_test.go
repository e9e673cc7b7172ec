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
)

// randSchema is the schema of the property tests.
func randSchema(withMap bool) *arrow.Schema {
	item := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true})
	fs := []arrow.Field{
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "u8", Type: arrow.PrimitiveTypes.Uint8},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		{Name: "ls", Type: arrow.ListOf(item), Nullable: true},
		{Name: "ll", Type: arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int16)), Nullable: true},
		{Name: "v", Type: arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float32), Nullable: true},
		{Name: "big", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}
	if withMap {
		fs = append(fs, arrow.Field{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

// randBatch fills a batch of n random rows (nulls everywhere allowed).
func randBatch(mem memory.Allocator, schema *arrow.Schema, r *rand.Rand, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, f := range schema.Fields() {
		depth := 0
		if !f.Nullable {
			depth = -1 // no nulls in non-nullable columns
		}
		for j := 0; j < n; j++ {
			appendRandom(b.Field(i), r, depth)
		}
	}
	return b.NewRecordBatch()
}

// appendRandom appends one random value (maybe null) to bld.
func appendRandom(bld array.Builder, r *rand.Rand, depth int) {
	if r.IntN(8) == 0 && depth >= 0 {
		bld.AppendNull()
		return
	}
	switch b := bld.(type) {
	case *array.Int32Builder:
		b.Append(r.Int32N(1000) - 500)
	case *array.Uint8Builder:
		b.Append(uint8(r.IntN(16)))
	case *array.Int64Builder:
		b.Append(r.Int64())
	case *array.Int16Builder:
		b.Append(int16(r.IntN(100)))
	case *array.Float64Builder:
		b.Append(r.Float64())
	case *array.Float32Builder:
		b.Append(r.Float32())
	case *array.BooleanBuilder:
		b.Append(r.IntN(2) == 0)
	case *array.StringBuilder:
		b.Append(strings.Repeat("ab", r.IntN(10)))
	case *array.LargeStringBuilder:
		b.Append(strings.Repeat("xyz", r.IntN(20)))
	case *array.BinaryBuilder:
		b.Append(make([]byte, r.IntN(600)))
	case *array.StructBuilder:
		b.Append(true)
		for i := 0; i < b.NumField(); i++ {
			appendRandom(b.FieldBuilder(i), r, depth+1)
		}
	case *array.FixedSizeListBuilder:
		b.Append(true)
		for k := 0; k < 3; k++ {
			appendRandom(b.ValueBuilder(), r, depth+1)
		}
	case *array.MapBuilder:
		b.Append(true)
		for k := r.IntN(3); k > 0; k-- {
			b.KeyBuilder().(*array.StringBuilder).Append(string(rune('a' + k)))
			appendRandom(b.ItemBuilder(), r, depth+1)
		}
	case *array.ListBuilder:
		b.Append(true)
		for k := r.IntN(4); k > 0; k-- {
			appendRandom(b.ValueBuilder(), r, depth+1)
		}
	}
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
