package format

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// expectedFile is the part of a corpus expected.json this package checks.
type expectedFile struct {
	FooterVersion []int            `json:"footer_version"`
	NumRows       uint64           `json:"num_rows"`
	Schema        []map[string]any `json:"schema"`
}

// TestCorpus parses every corpus file and checks version, row count, column
// count, page layouts and the Arrow schema against expected.json.
func TestCorpus(t *testing.T) {
	for _, path := range corpusFiles(t) {
		name := filepath.Base(filepath.Dir(path)) + "/" + strings.TrimSuffix(filepath.Base(path), ".lance")
		t.Run(name, func(t *testing.T) {
			checkCorpusFile(t, path)
		})
	}
}

// checkCorpusFile runs every corpus check for one file.
func checkCorpusFile(t *testing.T, path string) {
	data := readFile(t, path)
	var exp expectedFile
	if err := json.Unmarshal(readFile(t, strings.TrimSuffix(path, ".lance")+".expected.json"), &exp); err != nil {
		t.Fatal(err)
	}
	m := parseWhole(t, data)
	if got := []int{int(m.Footer.MajorVersion), int(m.Footer.MinorVersion)}; !reflect.DeepEqual(got, exp.FooterVersion) {
		t.Errorf("footer version %v, want %v", got, exp.FooterVersion)
	}
	if m.NumRows != exp.NumRows {
		t.Errorf("NumRows %d, want %d", m.NumRows, exp.NumRows)
	}
	if m.Schema.NumColumns != m.NumColumns() {
		t.Errorf("schema implies %d columns, footer has %d", m.Schema.NumColumns, m.NumColumns())
	}
	checkPages(t, m)
	checkArrowSchema(t, m, exp.Schema)
	checkTailReads(t, data, m)
}

// checkPages decodes every page layout (2.1+) or checks the 2.0 error.
func checkPages(t *testing.T, m *FileMetadata) {
	for c, col := range m.Columns {
		for p, page := range col.GetPages() {
			pl, err := DecodePageLayout(page)
			if !m.Version.Structural() {
				if !errors.Is(err, ErrUnsupportedEncoding) {
					t.Fatalf("column %d page %d: 2.0 page gave %v, want ErrUnsupportedEncoding", c, p, err)
				}
				continue
			}
			if err != nil || pl.GetLayout() == nil {
				t.Fatalf("column %d page %d: %v", c, p, err)
			}
			if _, err := m.PageRanges(c, p); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// checkArrowSchema compares top-level Arrow fields with expected.json.
func checkArrowSchema(t *testing.T, m *FileMetadata, want []map[string]any) {
	s := m.Schema.ArrowSchema()
	if s.NumFields() != len(want) {
		t.Fatalf("%d top-level fields, want %d", s.NumFields(), len(want))
	}
	for i, f := range s.Fields() {
		got := normalizeJSON(t, arrowFieldJSON(f))
		exp := normalizeJSON(t, want[i])
		if !reflect.DeepEqual(got, exp) {
			g, _ := json.Marshal(got)
			e, _ := json.Marshal(exp)
			t.Errorf("field %d:\n got %s\nwant %s", i, g, e)
		}
	}
}

// checkTailReads opens the file from short tails and through ReadMetadata.
func checkTailReads(t *testing.T, data []byte, want *FileMetadata) {
	size := uint64(len(data))
	for _, n := range []uint64{0, 1, 40, 64, 500, 4096} {
		n = min(n, size)
		reads := 0
		m, err := ReadMetadata(size, n, func(r Range) ([]byte, error) {
			reads++
			return data[r.Offset : r.Offset+r.Length], nil
		})
		if err != nil {
			t.Fatalf("tail %d: %v", n, err)
		}
		if m.NumRows != want.NumRows || m.NumColumns() != want.NumColumns() {
			t.Fatalf("tail %d: metadata differs", n)
		}
		if n >= size-m.Footer.GBOTableStart && reads > 2 {
			t.Errorf("tail %d: %d reads, want ≤ 2", n, reads)
		}
	}
	if mr := want.MetadataRange(); true {
		m, need, err := ParseTail(size, data[mr.Offset:])
		if err != nil || need != nil || m == nil {
			t.Fatalf("metadata range %v: need %v, err %v", mr, need, err)
		}
		_, need, err = ParseTail(size, data[mr.Offset+1:])
		if err != nil || need == nil || *need != (Range{mr.Offset, 1}) {
			t.Fatalf("metadata range minus 1: need %v, err %v", need, err)
		}
	}
}
