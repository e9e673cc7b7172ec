package format

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/filepb"
)

// checkParseResult verifies the ParseTail contract for one call and
// exercises the accessors of a successful result.
func checkParseResult(t *testing.T, fileSize uint64, tail []byte, m *FileMetadata, need *Range, err error) {
	t.Helper()
	switch {
	case err != nil:
		if m != nil || need != nil {
			t.Fatalf("error %v with non-nil result", err)
		}
		if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupportedVersion) && !errors.Is(err, ErrInvalidArgument) &&
			!errors.Is(err, ErrUnsupportedEncoding) {
			t.Fatalf("error without sentinel: %v", err)
		}
	case need != nil:
		if m != nil || need.Length == 0 || need.Offset+need.Length != fileSize-uint64(len(tail)) {
			t.Fatalf("bad need %v for tail %d of %d", need, len(tail), fileSize)
		}
	default:
		checkMetadataInvariants(t, m)
	}
}

// checkMetadataInvariants checks a successfully parsed result.
func checkMetadataInvariants(t *testing.T, m *FileMetadata) {
	t.Helper()
	if m == nil || m.Schema == nil || len(m.Columns) != int(m.Footer.NumColumns) {
		t.Fatal("incomplete metadata")
	}
	_ = m.Schema.ArrowSchema()
	limit := m.MetadataRange().Offset
	for c, col := range m.Columns {
		for p := range col.GetPages() {
			rs, err := m.PageRanges(c, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				if !r.within(0, limit) {
					t.Fatalf("column %d page %d: range %v escapes data region", c, p, r)
				}
			}
			_, _ = DecodePageLayout(col.GetPages()[p])
		}
	}
	if m.Version.Structural() && m.Schema.NumColumns != len(m.Columns) {
		t.Fatal("column count mismatch accepted")
	}
}

// FuzzParseTail fuzzes the container parser with (file size, tail) pairs
// seeded from testdata.
func FuzzParseTail(f *testing.F) {
	for _, s := range loadSeeds(f) {
		f.Add(s.fileSize, s.tail)
		if len(s.tail) > 200 {
			f.Add(s.fileSize, s.tail[len(s.tail)-200:])
		}
	}
	fsl := buildFile(f, fslStructSpec(f)) // pages counted in items
	f.Add(uint64(len(fsl)), fsl)
	f.Fuzz(func(t *testing.T, fileSize uint64, tail []byte) {
		m, need, err := ParseTail(fileSize, tail)
		checkParseResult(t, fileSize, tail, m, need, err)
	})
}

// FuzzBuildSchema fuzzes the schema builder with serialized lance.file.Schema
// messages seeded from the testdata files.
func FuzzBuildSchema(f *testing.F) {
	for _, s := range loadSeeds(f) {
		m, need, err := ParseTail(s.fileSize, s.tail)
		if err != nil || need != nil {
			f.Fatalf("%s: %v", s.name, err)
		}
		b, err := proto.Marshal(m.Descriptor.GetSchema())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(m.Version.Minor()))
	}
	b, _ := proto.Marshal(&filepb.Schema{Fields: fslStructFields()})
	f.Add(b, uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, minor uint8) {
		pb := &filepb.Schema{}
		if proto.Unmarshal(data, pb) != nil {
			return
		}
		v := V2_0 + Version(minor%4)
		s, err := BuildSchema(pb, v)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupportedEncoding) {
				t.Fatalf("error without ErrCorrupt or ErrUnsupportedEncoding: %v", err)
			}
			return
		}
		checkSchemaInvariants(t, s)
	})
}

// checkSchemaInvariants checks columns and Arrow types of a built schema.
func checkSchemaInvariants(t *testing.T, s *Schema) {
	cols := 0
	s.Walk(func(f *Field) bool {
		if f.ArrowType == nil {
			t.Fatalf("field %d without Arrow type", f.ID)
		}
		if f.Column >= 0 {
			if s.ColumnField(f.Column) != f {
				t.Fatalf("field %d: column %d maps elsewhere", f.ID, f.Column)
			}
			cols++
		}
		return true
	})
	if cols != s.NumColumns {
		t.Fatalf("%d fields with columns, NumColumns %d", cols, s.NumColumns)
	}
	_ = s.ArrowSchema().String()
}

// FuzzParseLogicalType fuzzes the logical type parser.
func FuzzParseLogicalType(f *testing.F) {
	for _, s := range []string{
		"int32", "decimal:128:18:2", "decimal:256:50:5", "timestamp:us:UTC", "timestamp:ns:-",
		"time32:ms", "time64:ns", "duration:us", "fixed_size_binary:16", "fixed_size_list:float:128",
		"fixed_size_list:lance.bfloat16:8", "fixed_size_list:fixed_size_list:int8:2:3",
		"dict:string:int32:false", "date32:day", "date64:ms", "struct", "list.struct", "json",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, err := ParseLogicalType(s)
		if (typ == nil) == (err == nil) {
			t.Fatalf("%q: type %v, err %v", s, typ, err)
		}
		if err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%q: %v", s, err)
		}
		if typ != nil {
			_ = typ.String()
		}
	})
}
