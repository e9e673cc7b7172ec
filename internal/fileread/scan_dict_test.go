package fileread

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/filewriter"
	"github.com/lancego/lancego/layouts"
)

// writeDictFile writes n rows of a low-cardinality string column "s"
// (every 7th row null), a high-cardinality one "u" and an int64 "i", in
// several pages per column (small page budget), at 2.1.
func writeDictFile(t *testing.T, n int) string {
	t.Helper()
	ctx := context.Background()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "u", Type: arrow.BinaryTypes.String},
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	path := filepath.Join(t.TempDir(), "dict.lance")
	w, err := filewriter.Create(ctx, path, schema, filewriter.WithFileVersion("2.1"), filewriter.WithPageBudget(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewGoAllocator()
	for start := 0; start < n; start += 10000 {
		b := array.NewRecordBuilder(mem, schema)
		for r := start; r < min(n, start+10000); r++ {
			if r%7 == 3 {
				b.Field(0).(*array.StringBuilder).AppendNull()
			} else {
				b.Field(0).(*array.StringBuilder).Append(fmt.Sprintf("value-%02d-%s", r%11, "padding"))
			}
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("unique-%d", r*7919))
			b.Field(2).(*array.Int64Builder).Append(int64(r))
		}
		rec := b.NewRecordBatch()
		b.Release()
		err := w.Write(ctx, rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestScanDictionary: with ScanOptions.Dictionary a dictionary-paged
// string column comes back as dictionary<int32, utf8> arrays whose values
// equal the expanded scan's, across page boundaries (batch sizes that do
// not divide the pages), with nulls, and nothing leaks; other columns
// are unchanged.
func TestScanDictionary(t *testing.T) {
	ctx := context.Background()
	const n = 50_000
	path := writeDictFile(t, n)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f, err := Open(ctx, path, WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !f.dictColumn(0) {
		t.Fatal("column s is not stored in dictionary pages; the test needs them")
	}
	if len(f.meta.Columns[0].GetPages()) < 2 {
		t.Fatalf("column s has %d pages, want several", len(f.meta.Columns[0].GetPages()))
	}
	if f.dictColumn(2) {
		t.Fatal("int64 column reported as dictionary column")
	}
	for _, batch := range []int{8192, 3001} {
		rd, err := f.Scan(ctx, ScanOptions{Columns: []string{"s", "u", "i"}, BatchSize: batch, Dictionary: true})
		if err != nil {
			t.Fatal(err)
		}
		dt, ok := rd.Schema().Field(0).Type.(*arrow.DictionaryType)
		if !ok || dt.IndexType.ID() != arrow.INT32 || dt.ValueType.ID() != arrow.STRING {
			t.Fatalf("schema of s: %s, want dictionary<int32, utf8>", rd.Schema().Field(0).Type)
		}
		if rd.Schema().Field(2).Type.ID() != arrow.INT64 {
			t.Fatalf("schema of i changed: %s", rd.Schema().Field(2).Type)
		}
		row := 0
		for rd.Next() {
			rec := rd.RecordBatch()
			if !arrow.TypeEqual(rec.Schema().Field(0).Type, dt) {
				t.Fatalf("batch schema %s", rec.Schema().Field(0).Type)
			}
			d := rec.Column(0).(*array.Dictionary)
			vals := d.Dictionary().(*array.String)
			for j := 0; j < d.Len(); j++ {
				r := row + j
				if r%7 == 3 {
					if d.IsValid(j) {
						t.Fatalf("row %d: want null", r)
					}
					continue
				}
				want := fmt.Sprintf("value-%02d-%s", r%11, "padding")
				if !d.IsValid(j) || vals.Value(d.GetValueIndex(j)) != want {
					t.Fatalf("batch %d row %d: got %q, want %q", batch, r, vals.Value(d.GetValueIndex(j)), want)
				}
			}
			if got := rec.Column(2).(*array.Int64).Value(0); got != int64(row) {
				t.Fatalf("i at row %d = %d", row, got)
			}
			row += d.Len()
		}
		if err := rd.Err(); err != nil {
			t.Fatal(err)
		}
		rd.Release()
		if row != n {
			t.Fatalf("scanned %d rows, want %d", row, n)
		}
	}
	for _, err := range f.Batches(ctx, ScanOptions{Dictionary: true, Filter: expr.Gt(expr.Col("i"), expr.Lit(5))}) {
		if !errors.Is(err, ErrInvalidArgument) {
			t.Fatalf("Dictionary with Filter: %v, want ErrInvalidArgument", err)
		}
		break
	}
}

// TestFixIndicesRejects: an index beyond its page's dictionary is an
// error in a valid slot and cleared to 0 in a null one.
func TestFixIndicesRejects(t *testing.T) {
	dict := array.NewStringBuilder(memory.NewGoAllocator())
	dict.AppendValues([]string{"a", "b"}, nil)
	d := dict.NewArray()
	defer d.Release()
	st := &pageState{}
	mk := func() *layouts.Values {
		return &layouts.Values{Data: []byte{1, 0, 0, 0, 9, 0, 0, 0}, N: 2, Bits: 32}
	}
	v := mk()
	if err := fixIndices(v, nil, []dictSeg{{st, 0, 2}}, []arrow.Array{d}); err == nil {
		t.Fatal("index 9 of 2 entries accepted in a valid slot")
	}
	v = mk()
	if err := fixIndices(v, []byte{0b01}, []dictSeg{{st, 0, 2}}, []arrow.Array{d}); err != nil {
		t.Fatal(err)
	}
	if v.Data[4] != 0 || v.Data[0] != 1 {
		t.Fatalf("indices %v, want [1 0]", v.Data)
	}
}

// TestScanDictionaryCorpus: pylance's dictionary-paged string files
// (nullable with def levels, general(lz4) dictionaries at 2.2, dense
// planar pages at 2.3) scan as dictionary arrays equal to the expanded
// scan, value by value, with nothing leaked.
func TestScanDictionaryCorpus(t *testing.T) {
	ctx := context.Background()
	found := 0
	for _, dir := range corpusDirs(t) {
		path := filepath.Join(dir, "strings_dict.lance")
		if _, err := os.Stat(path); err != nil {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			f, err := Open(ctx, path, WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			plain := collectStrings(t, f, ScanOptions{BatchSize: 999})
			dicts := 0
			rd, err := f.Scan(ctx, ScanOptions{BatchSize: 999, Dictionary: true})
			if err != nil {
				t.Fatal(err)
			}
			defer rd.Release()
			for c := range rd.Schema().NumFields() {
				if _, ok := rd.Schema().Field(c).Type.(*arrow.DictionaryType); ok {
					dicts++
				}
			}
			if dicts == 0 && f.v20 == nil {
				t.Fatalf("no column of %s read as dictionary", path)
			}
			row := 0
			for rd.Next() {
				rec := rd.RecordBatch()
				for c, col := range rec.Columns() {
					for j := range col.Len() {
						if got, want := stringAt(col, j), plain[c][row+j]; got != want {
							t.Fatalf("column %d row %d: %q, want %q", c, row+j, got, want)
						}
					}
				}
				row += int(rec.NumRows())
			}
			if err := rd.Err(); err != nil {
				t.Fatal(err)
			}
			found++
		})
	}
	if found == 0 {
		t.Skip("no strings_dict.lance in the corpus")
	}
}

// collectStrings scans f and returns each column's values as strings
// ("<null>" for nulls).
func collectStrings(t *testing.T, f *File, opts ScanOptions) [][]string {
	var out [][]string
	for rec, err := range f.Batches(context.Background(), opts) {
		if err != nil {
			t.Fatal(err)
		}
		if out == nil {
			out = make([][]string, rec.NumCols())
		}
		for c, col := range rec.Columns() {
			for j := range col.Len() {
				out[c] = append(out[c], stringAt(col, j))
			}
		}
		rec.Release()
	}
	return out
}

// stringAt renders value j of a string or dictionary-of-string array.
func stringAt(a arrow.Array, j int) string {
	if a.IsNull(j) {
		return "<null>"
	}
	if d, ok := a.(*array.Dictionary); ok {
		return d.Dictionary().ValueStr(d.GetValueIndex(j))
	}
	return a.ValueStr(j)
}
