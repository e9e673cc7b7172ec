package lance_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
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

// TestWriterManyBatchesFixedWidth writes fixed-width columns without
// nulls (the concatenation fast path) and with nulls in three batches of
// every type the writer takes, and reads back exactly the concatenated
// input.
func TestWriterManyBatchesFixedWidth(t *testing.T) {
	ctx := context.Background()
	mem := memory.DefaultAllocator
	types := []arrow.DataType{
		arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Uint64,
		arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Float16,
		arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64, arrow.FixedWidthTypes.Time64us,
		arrow.FixedWidthTypes.Duration_ms, &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"},
		&arrow.Decimal128Type{Precision: 20, Scale: 3}, &arrow.FixedSizeBinaryType{ByteWidth: 5},
	}
	for i, dt := range types {
		for _, nulls := range []bool{false, true} {
			version := []string{"2.1", "2.2", "2.3"}[i%3] // each type at one version, every version covered
			schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: dt, Nullable: nulls}}, nil)
			path := filepath.Join(t.TempDir(), "fixed.lance")
			w, err := lance.Create(ctx, path, schema, lance.WithFileVersion(version))
			if err != nil {
				t.Fatalf("%s: %v", dt, err)
			}
			var parts []arrow.Array
			for b := range 3 {
				a := fillFixed(mem, dt, 40000+b*1000, b, nulls)
				parts = append(parts, a)
				rec := array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len()))
				if err := w.Write(ctx, rec); err != nil {
					t.Fatalf("%s: %v", dt, err)
				}
				rec.Release()
			}
			if err := w.Close(ctx); err != nil {
				t.Fatalf("%s: %v", dt, err)
			}
			checkReadBack(t, path, parts, fmt.Sprintf("%s (nulls %v, %s)", dt, nulls, version))
		}
	}
}

// checkReadBack reads every row of the one-column file at path and fails
// unless it is the concatenation of parts, which it releases.
func checkReadBack(t *testing.T, path string, parts []arrow.Array, what string) {
	t.Helper()
	ctx := context.Background()
	want, err := array.Concatenate(parts, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	for _, a := range parts {
		a.Release()
	}
	f, err := lance.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := f.Take(ctx, seqRows(want.Len()), nil)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	defer rec.Release()
	if !array.Equal(rec.Column(0), want) {
		t.Fatalf("%s: values read back differ", what)
	}
}

func seqRows(n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(i)
	}
	return out
}

// fillFixed builds n values of dt from seed, every 7th null when nulls.
func fillFixed(mem memory.Allocator, dt arrow.DataType, n, seed int, nulls bool) arrow.Array {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for i := range n {
		if nulls && i%7 == 3 {
			b.AppendNull()
			continue
		}
		v := int64(i*2654435761+seed*97) % 100000
		switch bb := b.(type) {
		case *array.Int8Builder:
			bb.Append(int8(v))
		case *array.Uint16Builder:
			bb.Append(uint16(v))
		case *array.Int32Builder:
			bb.Append(int32(v))
		case *array.Uint64Builder:
			bb.Append(uint64(v))
		case *array.Float32Builder:
			bb.Append(float32(v) / 7)
		case *array.Float64Builder:
			bb.Append(float64(v) / 7)
		case *array.Float16Builder:
			bb.Append(float16.New(float32(v % 2000)))
		case *array.Date32Builder:
			bb.Append(arrow.Date32(v))
		case *array.Date64Builder:
			bb.Append(arrow.Date64(v * 86400000))
		case *array.Time64Builder:
			bb.Append(arrow.Time64(v))
		case *array.DurationBuilder:
			bb.Append(arrow.Duration(v))
		case *array.TimestampBuilder:
			bb.Append(arrow.Timestamp(v))
		case *array.Decimal128Builder:
			bb.Append(decimal128.FromI64(v))
		case *array.FixedSizeBinaryBuilder:
			bb.Append([]byte{byte(v), byte(v >> 8), byte(v >> 16), 1, 2})
		}
	}
	return b.NewArray()
}

// TestWriterManyBatchesNested writes nested columns with nulls and empty
// lists at every layer (and without any) in three batches and reads back
// exactly the concatenated input: the shredder's and gather's fast paths
// for lists, structs and dense strings.
func TestWriterManyBatchesNested(t *testing.T) {
	ctx := context.Background()
	mem := memory.DefaultAllocator
	shapes := []struct {
		dt   arrow.DataType
		cell func(i int, nulls bool) string
	}{
		{arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32)), func(i int, nulls bool) string {
			switch {
			case nulls && i%11 == 0:
				return "null"
			case i%5 == 0:
				return "[]"
			case nulls && i%7 == 0:
				return fmt.Sprintf("[[%d, null], null, []]", i)
			}
			return fmt.Sprintf("[[%d, %d], [%d]]", i, i+1, i%3)
		}},
		{arrow.StructOf(arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
			arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}), func(i int, nulls bool) string {
			switch {
			case nulls && i%13 == 0:
				return `{"tags": null, "name": null}`
			case i%4 == 0:
				return fmt.Sprintf(`{"tags": [], "name": "n%d"}`, i)
			case nulls && i%6 == 0:
				return fmt.Sprintf(`{"tags": ["a%d", null], "name": "n%d"}`, i, i)
			}
			return fmt.Sprintf(`{"tags": ["a%d", "b"], "name": "n%d"}`, i%17, i)
		}},
	}
	for _, sh := range shapes {
		for _, version := range []string{"2.1", "2.2", "2.3"} {
			for _, nulls := range []bool{false, true} {
				schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: sh.dt, Nullable: true}}, nil)
				path := filepath.Join(t.TempDir(), "nested.lance")
				w, err := lance.Create(ctx, path, schema, lance.WithPageBudget(256<<10), lance.WithFileVersion(version))
				if err != nil {
					t.Fatal(err)
				}
				var parts []arrow.Array
				for b := range 3 {
					var sb strings.Builder
					sb.WriteString("[")
					for i := range 20000 {
						if i > 0 {
							sb.WriteString(",")
						}
						sb.WriteString(sh.cell(i+b*20000, nulls))
					}
					sb.WriteString("]")
					a, _, err := array.FromJSON(mem, sh.dt, strings.NewReader(sb.String()))
					if err != nil {
						t.Fatal(err)
					}
					parts = append(parts, a)
					rec := array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len()))
					if err := w.Write(ctx, rec); err != nil {
						t.Fatalf("%s: %v", sh.dt, err)
					}
					rec.Release()
				}
				if err := w.Close(ctx); err != nil {
					t.Fatal(err)
				}
				checkReadBack(t, path, parts, fmt.Sprintf("%s (nulls %v, %s)", sh.dt, nulls, version))
			}
		}
	}
}
