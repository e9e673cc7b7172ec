package v01

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/layouts/v20"
)

// goldenFile returns the committed legacy data file's bytes.
func goldenFile(tb testing.TB) []byte {
	m, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "legacy", "legacy_small", "data", "*.lance"))
	if len(m) != 1 {
		tb.Fatalf("golden legacy file missing: %v", m)
	}
	b, err := os.ReadFile(m[0])
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestGoldenFooterAndMetadata(t *testing.T) {
	b := goldenFile(t)
	ft, err := ParseFooter(b, uint64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMetadata(b[ft.MetadataPosition : len(b)-FooterSize])
	if err != nil {
		t.Fatal(err)
	}
	// 10 rows in batches of 4 (max_rows_per_group=4)
	if ft.Major != 0 || ft.Minor != 2 || len(m.BatchStarts) != 4 || m.BatchStarts[3] != 10 || m.BatchStarts[1] != 4 {
		t.Fatalf("footer %+v, metadata %+v", ft, m)
	}
	fields, err := EmbeddedFields(b[m.ManifestPosition:ft.MetadataPosition])
	if err != nil || len(fields) == 0 || fields[0].GetName() != "i" {
		t.Fatalf("embedded schema: %v %v", fields, err)
	}
}

// FuzzDecoders runs the legacy parsers and page decoders on arbitrary
// bytes: values or an error, never a panic or an unbounded allocation.
func FuzzDecoders(f *testing.F) {
	b := goldenFile(f)
	f.Add(b, uint16(3), uint16(5))
	f.Add(b[len(b)-600:], uint16(0), uint16(2))
	f.Fuzz(func(t *testing.T, b []byte, n, which uint16) {
		size := uint64(len(b))
		if ft, err := ParseFooter(b, size); err == nil {
			if m, err := ParseMetadata(b[ft.MetadataPosition : size-FooterSize]); err == nil && m.PageTablePosition < size {
				_, _ = ParsePageTable(b[m.PageTablePosition:], 0, int32(which%8), m.NumBatches(), size)
			}
		}
		_, _ = EmbeddedFields(b)
		k := uint64(n % 512)
		if half := uint64(len(b)) / 2; (k+1)*8 <= half {
			_, _ = DecodeBinary(b[:(k+1)*8], b[half:], k, which%2 == 0)
			var l v20.List
			_, _, _ = AppendLists(&l, b[:(k+1)*4], 4, k)
		}
		types := []arrow.DataType{arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int32,
			arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float32), &arrow.Decimal128Type{Precision: 10}}
		dt := types[int(which)%len(types)]
		if lo, hi, bit, err := FixedRange(dt, 0, k); err == nil && hi <= uint64(len(b)) {
			_, _ = DecodeFixed(dt, b[lo:hi], bit, k)
		}
	})
}
