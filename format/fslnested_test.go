package format

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/format/pb/filepb"
)

// fslStructFields is the stored schema pylance 14.0.2 writes for a
// fixed_size_list<struct<a: int32, b: list<int32>>, 2> and an int32.
func fslStructFields() []*filepb.Field {
	return []*filepb.Field{
		field("fs", 0, -1, "fixed_size_list:struct:2", nil),
		field("item", 1, 0, "struct", nil),
		field("a", 2, 1, "int32", nil),
		field("b", 3, 1, "list", nil),
		field("item", 4, 3, "int32", nil),
		field("g", 5, -1, "int32", nil),
	}
}

// TestFixedSizeListOfStructSchema: a fixed_size_list:struct:n field is a
// nested fixed-size list whose leaves are columns, each with a row scale
// of n (pages count items).
func TestFixedSizeListOfStructSchema(t *testing.T) {
	s, err := BuildSchema(&filepb.Schema{Fields: fslStructFields()}, V2_3)
	if err != nil {
		t.Fatal(err)
	}
	want := arrow.FixedSizeListOfField(2, arrow.Field{Name: "item", Nullable: true, Type: arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.ListOfField(arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), Nullable: true})})
	if got := s.Fields[0].ArrowType; !arrow.TypeEqual(got, want) {
		t.Fatalf("type %s, want %s", got, want)
	}
	if s.NumColumns != 3 || s.Fields[0].Column != -1 || s.Fields[0].Children[0].Children[0].Column != 0 {
		t.Fatalf("columns: %d", s.NumColumns)
	}
	for col, scale := range []uint64{2, 2, 1} {
		if got := s.RowScale(col); got != scale {
			t.Errorf("RowScale(%d) = %d, want %d", col, got, scale)
		}
	}
}

func TestFixedSizeListOfStructSchemaErrors(t *testing.T) {
	edit := func(f func([]*filepb.Field)) []*filepb.Field {
		fields := fslStructFields()
		f(fields)
		return fields
	}
	for _, tc := range []struct {
		name   string
		fields []*filepb.Field
		want   error
		msg    string
	}{
		{"dimension 0", edit(func(f []*filepb.Field) { f[0].LogicalType = "fixed_size_list:struct:0" }), ErrCorrupt, "bad dimension"},
		{"dimension junk", edit(func(f []*filepb.Field) { f[0].LogicalType = "fixed_size_list:struct:x" }), ErrCorrupt, "bad dimension"},
		{"item not a struct", []*filepb.Field{field("fs", 0, -1, "fixed_size_list:struct:2", nil),
			field("item", 1, 0, "int32", nil)}, ErrCorrupt, "item must be a struct"},
		{"two children", edit(func(f []*filepb.Field) { f[2].ParentId = 0 }), ErrCorrupt, "needs 1 child fields, has 2"},
		{"packed item", edit(func(f []*filepb.Field) { f[1].Metadata = map[string][]byte{PackedKey: []byte("true")} }), ErrUnsupportedEncoding, "packed"},
		{"dimensions overflow", []*filepb.Field{field("fs", 0, -1, "fixed_size_list:struct:2147483647", nil),
			field("item", 1, 0, "struct", nil), field("fs2", 2, 1, "fixed_size_list:struct:3", nil),
			field("item", 3, 2, "struct", nil), field("x", 4, 3, "int8", nil)}, ErrCorrupt, "past 2^32"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := BuildSchema(&filepb.Schema{Fields: tc.fields}, V2_3)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want %v mentioning %q", err, tc.want, tc.msg)
			}
		})
	}
}

// fslStructSpec is a 2.3 file of fslStructFields with 100 rows in two
// pages per column of 30 and 70 rows (the first two columns count items).
func fslStructSpec(t testing.TB) fileSpec {
	var cols []*file2pb.ColumnMetadata
	for c := range 3 {
		base := uint64(c) * 128
		scale := uint64(2)
		if c == 2 {
			scale = 1
		}
		cols = append(cols, &file2pb.ColumnMetadata{Pages: []*file2pb.ColumnMetadata_Page{
			constantPage(t, 0, 30*scale, []uint64{base}, []uint64{64}),
			constantPage(t, 30, 70*scale, []uint64{base + 64}, []uint64{10}),
		}})
	}
	return fileSpec{major: 2, minor: 3, data: make([]byte, 384), numRows: 100, columns: cols, fields: fslStructFields()}
}

// TestFixedSizeListOfStructPageRows: pages below a fixed-size list of
// structs count items (rows × 2) while their priorities count rows;
// ParseTail checks both and leaves page lengths in rows.
func TestFixedSizeListOfStructPageRows(t *testing.T) {
	spec := func() fileSpec { return fslStructSpec(t) }
	m := parseWhole(t, buildFile(t, spec()))
	for c := range 3 {
		if p := m.Columns[c].GetPages(); p[0].GetLength() != 30 || p[1].GetLength() != 70 {
			t.Fatalf("column %d page lengths %d, %d; want 30, 70 rows", c, p[0].GetLength(), p[1].GetLength())
		}
	}
	for _, tc := range []struct {
		name string
		edit func(*fileSpec)
		msg  string
	}{
		{"length not a multiple", func(s *fileSpec) { s.columns[0].Pages[1].Length = 139 }, "column 0 page 1: length 139 is not a multiple of the 2"},
		{"rows counted as items", func(s *fileSpec) { s.columns[1].Pages[1].Priority = 60 }, "column 1 page 1: priority 60 != first row 30"},
		{"sum", func(s *fileSpec) { s.columns[1].Pages[1].Length = 70 }, "column 1: pages hold 65 rows, file has 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := spec()
			tc.edit(&s)
			b := buildFile(t, s)
			_, _, err := ParseTail(uint64(len(b)), b)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want ErrCorrupt mentioning %q", err, tc.msg)
			}
		})
	}
}
