package fileread

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/layouts"
	"github.com/lancego/lancego/layouts/v01"
)

// LegacyLayout is what a legacy v1 file's footer, metadata and page table
// say (File.Legacy): its batches and, for every field id the page table
// covers, one page per batch.
type LegacyLayout struct {
	// MetadataPosition is where the metadata (batch offsets) starts.
	MetadataPosition uint64
	// PageTablePosition is where the page table starts.
	PageTablePosition uint64
	// ManifestPosition is where the embedded schema starts (0: none).
	ManifestPosition uint64
	// BatchStarts holds each batch's first row and, last, the row count.
	BatchStarts []uint64
	// Columns holds one entry per field id of the page table, in id order.
	Columns []LegacyColumn
}

// LegacyColumn is the page table row of one field id.
type LegacyColumn struct {
	// FieldID is the field id; Field the dotted path of the schema field
	// read from it ("" when the schema has none, e.g. a dropped field).
	FieldID int32
	Field   string
	// Encoding is how its pages store values: "plain", "var-binary"
	// (64-bit positions, then the bytes), "dictionary" (plain indices),
	// "list" (positions into the child's page), "struct" (no data) or ""
	// when unknown.
	Encoding string
	// Details are type facts: the value type, bits per value, where the
	// dictionary values are.
	Details []string
	// Pages holds the page of each batch (Length counts values, or list
	// positions).
	Pages []v01.Page
	// PageBytes holds, per page, the bytes stored at its position (plain
	// values or positions; 0 when unknown).
	PageBytes []uint64
}

// Legacy describes a legacy v1 file's layout, or returns nil for a v2 file.
func (f *File) Legacy() *LegacyLayout {
	l := f.legacy
	if l == nil {
		return nil
	}
	out := &LegacyLayout{MetadataPosition: l.footer.MetadataPosition, PageTablePosition: l.meta.PageTablePosition,
		ManifestPosition: l.meta.ManifestPosition, BatchStarts: append([]uint64(nil), l.meta.BatchStarts...)}
	byID := map[int32]LegacyColumn{}
	for _, top := range f.fields {
		l.describe(top, "", byID)
	}
	for i, pages := range l.pages {
		id := l.minID + int32(i)
		c, ok := byID[id]
		if !ok {
			c = LegacyColumn{FieldID: id, Pages: append([]v01.Page(nil), pages...), PageBytes: make([]uint64, len(pages))}
		}
		out.Columns = append(out.Columns, c)
	}
	return out
}

// describe records the encoding of fld and its children by field id.
func (l *legacyFile) describe(fld *layouts.Field, parent string, out map[int32]LegacyColumn) {
	path := fld.Name
	if parent != "" {
		path = parent + "." + fld.Name
	}
	c := LegacyColumn{FieldID: l.ids[fld], Field: path, Encoding: legacyEncoding(fld.Type)}
	c.Details = append(c.Details, fld.Type.String())
	if bits, dims, err := v01.FixedWidth(fld.Type); err == nil && c.Encoding == "plain" {
		c.Details = append(c.Details, fmt.Sprintf("%d bits/value", bits))
		if len(dims) > 0 {
			c.Details = append(c.Details, fmt.Sprintf("dimensions %v", dims))
		}
	}
	if dt, ok := fld.Type.(*arrow.DictionaryType); ok {
		c.Details = append(c.Details, fmt.Sprintf("indices %s", dt.IndexType))
		if d := l.dicts[fld]; d != nil {
			c.Details = append(c.Details, fmt.Sprintf("%d dictionary values at %d", d.GetLength(), d.GetOffset()))
		}
	}
	if fld.Nullable && c.Encoding == "var-binary" {
		c.Details = append(c.Details, "empty reads as null")
	}
	if i := int(c.FieldID - l.minID); i >= 0 && i < len(l.pages) {
		for _, p := range l.pages[i] {
			c.Pages = append(c.Pages, p)
			c.PageBytes = append(c.PageBytes, legacyPageBytes(c.Encoding, fld.Type, p.Length))
		}
	}
	out[c.FieldID] = c
	for _, k := range fld.Children {
		l.describe(k, path, out)
	}
}

// legacyEncoding names how a legacy file stores a field of type dt.
func legacyEncoding(dt arrow.DataType) string {
	switch dt.ID() {
	case arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY:
		return "var-binary"
	case arrow.DICTIONARY:
		return "dictionary"
	case arrow.LIST, arrow.LARGE_LIST:
		return "list"
	case arrow.STRUCT:
		return "struct"
	}
	if _, _, err := v01.FixedWidth(dt); err == nil {
		return "plain"
	}
	return ""
}

// legacyPageBytes returns the bytes a page of length n (values; lists:
// positions) stores at its position: plain values, indices or positions.
func legacyPageBytes(enc string, dt arrow.DataType, n uint64) uint64 {
	switch enc {
	case "var-binary":
		return (n + 1) * 8 // n values have n+1 positions
	case "list":
		if dt.ID() == arrow.LARGE_LIST {
			return n * 8
		}
		return n * 4
	case "dictionary":
		dt = dt.(*arrow.DictionaryType).IndexType
	case "plain":
	default:
		return 0
	}
	lo, hi, _, err := v01.FixedRange(dt, 0, n)
	if err != nil {
		return 0
	}
	return hi - lo
}

// legacyFooter fills a v2 footer's offsets with their legacy counterparts
// (format.FileMetadata.Footer): the page table is the column metadata and
// the metadata starts both offset tables.
func legacyFooter(ft v01.Footer, lm *v01.Metadata) format.Footer {
	return format.Footer{ColumnMetaStart: lm.PageTablePosition, CMOTableStart: ft.MetadataPosition,
		GBOTableStart: ft.MetadataPosition, MajorVersion: ft.Major, MinorVersion: ft.Minor}
}
