package plainjson

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// testBatch is a two-row batch of an int64, a uint64, a float64 and a
// string column, with extremes and a null.
func testBatch(t *testing.T) arrow.RecordBatch {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "u", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64},
		{Name: "s", Type: arrow.BinaryTypes.String},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{math.MaxInt64, 0}, []bool{true, false})
	b.Field(1).(*array.Uint64Builder).AppendValues([]uint64{math.MaxUint64, 0}, nil)
	b.Field(2).(*array.Float64Builder).AppendValues([]float64{math.NaN(), 0.1}, nil)
	b.Field(3).(*array.StringBuilder).AppendValues([]string{"a\"b", "é\n"}, nil)
	rec := b.NewRecordBatch()
	t.Cleanup(rec.Release)
	return rec
}

// TestWriterArrayAndLines: the same batch as one JSON array and as JSON
// Lines, written twice to see the separators between batches.
func TestWriterArrayAndLines(t *testing.T) {
	rec := testBatch(t)
	row0 := `{"i":9223372036854775807,"u":18446744073709551615,"f":"NaN","s":"a\"b"}`
	row1 := `{"i":null,"u":0,"f":0.1,"s":"é\n"}`
	for _, tc := range []struct {
		lines bool
		want  string
	}{
		{false, "[" + row0 + ",\n" + row1 + ",\n" + row0 + ",\n" + row1 + "]\n"},
		{true, row0 + "\n" + row1 + "\n" + row0 + "\n" + row1 + "\n"},
	} {
		var out bytes.Buffer
		w := NewWriter(&out, tc.lines)
		for range 2 {
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if out.String() != tc.want {
			t.Errorf("lines=%v:\n got %s\nwant %s", tc.lines, out.String(), tc.want)
		}
		if !tc.lines && !json.Valid(out.Bytes()) {
			t.Errorf("not valid JSON: %s", out.String())
		}
	}
}

// TestWriterNoRows: an array with no rows is [], JSON Lines print nothing.
func TestWriterNoRows(t *testing.T) {
	for lines, want := range map[bool]string{false: "[]\n", true: ""} {
		var out bytes.Buffer
		w := NewWriter(&out, lines)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("lines=%v: %q, want %q", lines, out.String(), want)
		}
	}
}
