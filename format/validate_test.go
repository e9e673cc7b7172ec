package format

import (
	"errors"
	"strings"
	"testing"

	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/format/pb/filepb"
)

// TestValidSynthetic checks that the synthetic base file parses.
func TestValidSynthetic(t *testing.T) {
	m := parseWhole(t, buildFile(t, validSpec(t)))
	if m.NumRows != 100 || m.NumColumns() != 2 || m.Version != V2_1 {
		t.Fatalf("got rows %d cols %d version %v", m.NumRows, m.NumColumns(), m.Version)
	}
	r, err := m.PageRanges(1, 1)
	if err != nil || len(r) != 1 || r[0] != (Range{192, 10}) {
		t.Fatalf("PageRanges = %v, %v", r, err)
	}
}

// TestValidation mutates the synthetic file and checks each rule.
func TestValidation(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*fileSpec)
		want   error
		msg    string
	}{
		{"buffer outside file", func(s *fileSpec) {
			s.columns[1].Pages[1].BufferOffsets[0] = 1 << 40
		}, ErrCorrupt, "column 1 page 1: buffer 0 [offset 1099511627776, size 10] outside file of"},
		{"buffer overflow", func(s *fileSpec) {
			s.columns[0].Pages[0].BufferSizes[0] = ^uint64(0)
		}, ErrCorrupt, "column 0 page 0: buffer 0"},
		{"buffer into metadata", func(s *fileSpec) {
			s.columns[0].Pages[0].BufferSizes[0] = 257
		}, ErrCorrupt, "overlaps the metadata"},
		{"misaligned buffer", func(s *fileSpec) {
			s.columns[0].Pages[1].BufferOffsets[0] = 65
		}, ErrCorrupt, "not 64-byte aligned"},
		{"offsets/sizes mismatch", func(s *fileSpec) {
			s.columns[0].Pages[0].BufferSizes = nil
		}, ErrCorrupt, "1 buffer offsets but 0 buffer sizes"},
		{"column buffers mismatch", func(s *fileSpec) {
			s.columns[0].BufferOffsets = []uint64{0}
		}, ErrCorrupt, "column 0: 1 buffer offsets"},
		{"row sum", func(s *fileSpec) { s.numRows = 101 }, ErrCorrupt, "pages hold 100 rows, file has 101"},
		{"priority", func(s *fileSpec) {
			s.columns[1].Pages[1].Priority = 0
		}, ErrCorrupt, "column 1 page 1: priority 0 != first row 50"},
		{"row overflow", func(s *fileSpec) {
			s.columns[0].Pages[1].Length = ^uint64(0)
		}, ErrCorrupt, "row count overflows"},
		{"indirect out of range", func(s *fileSpec) {
			s.columns[0].Pages[0].Encoding = &file2pb.Encoding{Location: &file2pb.Encoding_Indirect{
				Indirect: &file2pb.DeferredEncoding{BufferLocation: 1 << 50, BufferLength: 1}}}
		}, ErrCorrupt, "indirect encoding"},
		{"schema has fewer columns", func(s *fileSpec) { s.fields = s.fields[:1] }, ErrCorrupt, "schema implies 1"},
		{"no schema columns", func(s *fileSpec) { s.fields = nil }, ErrCorrupt, "schema implies 0"},
		{"unknown parent", func(s *fileSpec) { s.fields[1].ParentId = 7 }, ErrCorrupt, "parent id 7"},
		{"bad logical type", func(s *fileSpec) { s.fields[1].LogicalType = "int33" }, ErrCorrupt, "int33"},
		{"version 2.4", func(s *fileSpec) { s.minor = 4 }, ErrUnsupportedVersion, "2.4"},
		{"legacy", func(s *fileSpec) { s.major, s.minor = 0, 2 }, ErrUnsupportedVersion, "legacy v1 file"},
		{"no global buffers", func(s *fileSpec) {
			s.mutate = func(f *Footer) { f.NumGlobalBuffers = 0 }
		}, ErrCorrupt, "no global buffers"},
		{"cmo table not before gbo", func(s *fileSpec) {
			s.mutate = func(f *Footer) { f.CMOTableStart -= 16 }
		}, ErrCorrupt, "does not end at GBO table start"},
		{"too many columns", func(s *fileSpec) {
			s.mutate = func(f *Footer) { f.NumColumns = ^uint32(0) }
		}, ErrCorrupt, "CMO table"},
		{"meta start after cmo", func(s *fileSpec) {
			s.mutate = func(f *Footer) { f.ColumnMetaStart = f.CMOTableStart + 1 }
		}, ErrCorrupt, "after CMO table start"},
		{"too many global buffers", func(s *fileSpec) {
			s.mutate = func(f *Footer) { f.NumGlobalBuffers = 1 << 31 }
		}, ErrCorrupt, "overlaps the footer"},
		{"gbo table huge", func(s *fileSpec) {
			s.mutate = func(f *Footer) { f.GBOTableStart = ^uint64(0) - 8; f.CMOTableStart = f.GBOTableStart - 32 }
		}, ErrCorrupt, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := validSpec(t)
			tt.modify(&s)
			b := buildFile(t, s)
			_, need, err := ParseTail(uint64(len(b)), b)
			if !errors.Is(err, tt.want) || need != nil {
				t.Fatalf("err = %v (need %v), want %v", err, need, tt.want)
			}
			if !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), "format: ") {
				t.Fatalf("error %q does not contain %q", err, tt.msg)
			}
		})
	}
}

// TestGlobalBufferValidation covers GBO table entries.
func TestGlobalBufferValidation(t *testing.T) {
	b := buildFile(t, validSpec(t))
	f, err := ParseFooter(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pos, size uint64
		msg       string
	}{
		{f.ColumnMetaStart, 1, "outside data region"},
		{^uint64(0) - 63, 64, "outside data region"},
		{1, 10, "not 64-byte aligned"},
	} {
		c := append([]byte(nil), b...)
		putUint64(c[f.GBOTableStart:], tc.pos)
		putUint64(c[f.GBOTableStart+8:], tc.size)
		_, _, err := ParseTail(uint64(len(c)), c)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("gb0 (%d,%d): %v, want %q", tc.pos, tc.size, err, tc.msg)
		}
	}
}

// TestGB0NotDescriptor checks that a GB0 that is not a FileDescriptor fails.
func TestGB0NotDescriptor(t *testing.T) {
	s := validSpec(t)
	b := buildFile(t, s)
	m := parseWhole(t, b)
	gb0 := m.GlobalBuffers[0]
	c := append([]byte(nil), b...)
	for i := gb0.Offset; i < gb0.Offset+gb0.Length; i++ {
		c[i] = 0xff
	}
	if _, _, err := ParseTail(uint64(len(c)), c); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "global buffer 0") {
		t.Fatalf("err = %v", err)
	}
}

// TestEmptyDescriptorSchema rejects a FileDescriptor without schema.
func TestEmptyDescriptorSchema(t *testing.T) {
	fd := mustMarshal(t, &filepb.FileDescriptor{Length: 0})
	if err := (&FileMetadata{GlobalBuffers: []Range{{}}}).decodeDescriptor(fd); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("err = %v", err)
	}
}

// putUint64 writes v little-endian.
func putUint64(b []byte, v uint64) {
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}

// TestOverlappingColumnMetadata rejects CMO entries sharing bytes.
func TestOverlappingColumnMetadata(t *testing.T) {
	b := buildFile(t, validSpec(t))
	f, err := ParseFooter(b)
	if err != nil {
		t.Fatal(err)
	}
	copy(b[f.CMOTableStart+16:f.CMOTableStart+32], b[f.CMOTableStart:f.CMOTableStart+16])
	_, _, err = ParseTail(uint64(len(b)), b)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "overlaps column") {
		t.Fatalf("err = %v", err)
	}
}
