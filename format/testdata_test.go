package format

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// tailSeed is a file size with the last bytes of that file.
type tailSeed struct {
	name     string
	fileSize uint64
	tail     []byte
}

// loadSeeds returns the whole files in testdata/ and the metadata tails in
// testdata/tails/ (named <name>.<file size>.tail).
func loadSeeds(t testing.TB) []tailSeed {
	var seeds []tailSeed
	files, _ := filepath.Glob("testdata/*.lance")
	for _, p := range files {
		b := readFile(t, p)
		seeds = append(seeds, tailSeed{filepath.Base(p), uint64(len(b)), b})
	}
	tails, _ := filepath.Glob("testdata/tails/*.tail")
	for _, p := range tails {
		parts := strings.Split(strings.TrimSuffix(filepath.Base(p), ".tail"), ".")
		size, err := strconv.ParseUint(parts[len(parts)-1], 10, 64)
		if err != nil {
			t.Fatalf("%s: bad size in name", p)
		}
		seeds = append(seeds, tailSeed{filepath.Base(p), size, readFile(t, p)})
	}
	if len(seeds) == 0 {
		t.Fatal("no testdata seeds")
	}
	return seeds
}

// seedByName returns the parsed metadata of the seed whose name has prefix.
func seedByName(t *testing.T, prefix string) *FileMetadata {
	t.Helper()
	for _, s := range loadSeeds(t) {
		if strings.HasPrefix(s.name, prefix) {
			m, need, err := ParseTail(s.fileSize, s.tail)
			if err != nil || need != nil {
				t.Fatalf("%s: need %v, err %v", s.name, need, err)
			}
			return m
		}
	}
	t.Fatalf("no seed %s", prefix)
	return nil
}

// TestTestdataParses parses every seed and checks its pages.
func TestTestdataParses(t *testing.T) {
	for _, s := range loadSeeds(t) {
		m, need, err := ParseTail(s.fileSize, s.tail)
		if err != nil || need != nil {
			t.Fatalf("%s: need %v, err %v", s.name, need, err)
		}
		if m.Schema.NumColumns != m.NumColumns() {
			t.Errorf("%s: schema implies %d columns, footer %d", s.name, m.Schema.NumColumns, m.NumColumns())
		}
		for c, col := range m.Columns {
			for p, page := range col.GetPages() {
				_, err := DecodePageLayout(page)
				if m.Version.Structural() && err != nil {
					t.Errorf("%s: column %d page %d: %v", s.name, c, p, err)
				}
				if !m.Version.Structural() && !errors.Is(err, ErrUnsupportedEncoding) {
					t.Errorf("%s: 2.0 page gave %v", s.name, err)
				}
			}
		}
	}
}

// TestBlobV2Schema checks the descriptor attachment of blob v2.
func TestBlobV2Schema(t *testing.T) {
	m := seedByName(t, "v2.2_blob_v2")
	blob := m.Schema.Fields[1]
	if !blob.BlobV2 || blob.Column != 1 || len(blob.Children) != 0 || len(blob.BlobDescriptor) != 5 {
		t.Fatalf("blob field: v2=%v col=%d children=%d desc=%d", blob.BlobV2, blob.Column, len(blob.Children), len(blob.BlobDescriptor))
	}
	want := []string{"kind", "position", "size", "blob_id", "blob_uri"}
	for i, d := range blob.BlobDescriptor {
		if d.Name != want[i] || d.Column != -1 || d.ArrowType == nil {
			t.Errorf("descriptor %d: %s col %d", i, d.Name, d.Column)
		}
	}
	af := blob.ArrowField()
	if ext, _ := af.Metadata.GetValue(ArrowExtensionNameKey); ext != BlobV2ExtensionName {
		t.Errorf("extension %q", ext)
	}
	if got := af.Type.String(); got != "struct<data: large_binary nullable, uri: utf8 nullable>" {
		t.Errorf("blob type %s", got)
	}
}

// TestMapAndPackedSchema checks map types and packed struct columns.
func TestMapAndPackedSchema(t *testing.T) {
	m := seedByName(t, "v2.2_map_utf8_int32")
	mt, ok := m.Schema.Fields[0].ArrowType.(*arrow.MapType)
	if !ok || mt.KeyType().ID() != arrow.STRING || mt.ItemField().Type.ID() != arrow.INT32 || !mt.ItemField().Nullable {
		t.Fatalf("map type %v", m.Schema.Fields[0].ArrowType)
	}
	p := seedByName(t, "v2.1_meta_packed_struct")
	sp := p.Schema.Fields[1]
	if !sp.Packed || sp.Column != 3 || sp.Children[0].Column != -1 || p.Schema.ColumnField(3) != sp {
		t.Fatalf("packed struct: packed=%v col=%d", sp.Packed, sp.Column)
	}
	p0 := seedByName(t, "v2.0_meta_packed_struct")
	if p0.Schema.NumColumns != 5 || p0.Schema.Fields[1].Column != 4 || p0.Schema.Fields[0].Children[2].Column != 3 {
		t.Fatalf("2.0 packed struct columns: %d", p0.Schema.NumColumns)
	}
}

// TestDerivedNumbers checks the derived byte counts on a whole file.
func TestDerivedNumbers(t *testing.T) {
	b, err := os.ReadFile("testdata/v2.1_dictionary_type.lance")
	if err != nil {
		t.Fatal(err)
	}
	m := parseWhole(t, b)
	f := m.Footer
	if m.NumColumnMetadataBytes() != f.GBOTableStart-f.ColumnMetaStart {
		t.Error("NumColumnMetadataBytes")
	}
	if m.NumDataBytes()+m.NumGlobalBufferBytes() != f.ColumnMetaStart {
		t.Error("NumDataBytes")
	}
	if m.NumFooterBytes() != uint64(len(b))-m.GlobalBuffers[0].Offset {
		t.Error("NumFooterBytes")
	}
	if m.Version.String() != "2.1" || m.Version.Major() != 2 || m.Version.Minor() != 1 {
		t.Errorf("version %v", m.Version)
	}
	ranges, err := m.ColumnDataRanges(0)
	if err != nil || len(ranges) != 3 {
		t.Fatalf("ColumnDataRanges: %v %v", ranges, err)
	}
	if _, err := m.PageRanges(1, 0); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("PageRanges out of range: %v", err)
	}
}
