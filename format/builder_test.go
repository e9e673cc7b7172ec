package format

import (
	"encoding/binary"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/format/pb/filepb"
)

// fileSpec describes a synthetic Lance file for tests.
type fileSpec struct {
	major, minor uint16
	data         []byte // page data written at offset 0
	fields       []*filepb.Field
	numRows      uint64
	columns      []*file2pb.ColumnMetadata
	// mutate, if set, may change the footer before it is written.
	mutate func(*Footer)
}

// buildFile serializes spec in the Rust writer's region order.
func buildFile(t testing.TB, s fileSpec) []byte {
	t.Helper()
	out := pad64(append([]byte(nil), s.data...))
	fd := &filepb.FileDescriptor{Schema: &filepb.Schema{Fields: s.fields}, Length: s.numRows}
	gb0 := mustMarshal(t, fd)
	gb0Pos := uint64(len(out))
	out = append(out, gb0...)
	f := Footer{ColumnMetaStart: uint64(len(out)), NumGlobalBuffers: 1,
		NumColumns: uint32(len(s.columns)), MajorVersion: s.major, MinorVersion: s.minor}
	var cmo []byte
	for _, c := range s.columns {
		b := mustMarshal(t, c)
		cmo = binary.LittleEndian.AppendUint64(cmo, uint64(len(out)))
		cmo = binary.LittleEndian.AppendUint64(cmo, uint64(len(b)))
		out = append(out, b...)
	}
	f.CMOTableStart = uint64(len(out))
	out = append(out, cmo...)
	f.GBOTableStart = uint64(len(out))
	out = binary.LittleEndian.AppendUint64(out, gb0Pos)
	out = binary.LittleEndian.AppendUint64(out, uint64(len(gb0)))
	if s.mutate != nil {
		s.mutate(&f)
	}
	return AppendFooter(out, f)
}

// pad64 pads b with 0x48 to a multiple of 64 bytes.
func pad64(b []byte) []byte {
	for len(b)%64 != 0 {
		b = append(b, 0x48)
	}
	return b
}

// mustMarshal serializes a protobuf message.
func mustMarshal(t testing.TB, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// anyEncoding wraps msg in Any with the given type URL as a direct encoding.
func anyEncoding(t testing.TB, typeURL string, msg proto.Message) *file2pb.Encoding {
	a := &anypb.Any{TypeUrl: typeURL, Value: mustMarshal(t, msg)}
	return &file2pb.Encoding{Location: &file2pb.Encoding_Direct{
		Direct: &file2pb.DirectEncoding{Encoding: mustMarshal(t, a)}}}
}

// constantPage returns a page of rows rows starting at first with a
// constant layout and the given buffers.
func constantPage(t testing.TB, first, rows uint64, offsets, sizes []uint64) *file2pb.ColumnMetadata_Page {
	pl := &encodings21pb.PageLayout{Layout: &encodings21pb.PageLayout_ConstantLayout{
		ConstantLayout: &encodings21pb.ConstantLayout{}}}
	return &file2pb.ColumnMetadata_Page{
		BufferOffsets: offsets, BufferSizes: sizes, Length: rows, Priority: first,
		Encoding: anyEncoding(t, "/"+PageLayoutMessage, pl),
	}
}

// field returns a stored schema field.
func field(name string, id, parent int32, lt string, md map[string]string) *filepb.Field {
	f := &filepb.Field{Name: name, Id: id, ParentId: parent, LogicalType: lt, Nullable: true}
	if md != nil {
		f.Metadata = map[string][]byte{}
		for k, v := range md {
			f.Metadata[k] = []byte(v)
		}
	}
	return f
}

// validSpec returns a 2.1 file with two int32 columns of 100 rows, each with
// two pages of 50 rows and one 64-byte buffer per page.
func validSpec(t testing.TB) fileSpec {
	cols := make([]*file2pb.ColumnMetadata, 2)
	for c := range cols {
		base := uint64(c) * 128
		cols[c] = &file2pb.ColumnMetadata{Pages: []*file2pb.ColumnMetadata_Page{
			constantPage(t, 0, 50, []uint64{base}, []uint64{64}),
			constantPage(t, 50, 50, []uint64{base + 64}, []uint64{10}),
		}}
	}
	return fileSpec{
		major: 2, minor: 1, data: make([]byte, 256), numRows: 100, columns: cols,
		fields: []*filepb.Field{field("a", 0, -1, "int32", nil), field("b", 1, -1, "int32", nil)},
	}
}
