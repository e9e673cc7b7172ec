package format

import (
	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/format/pb/filepb"
)

// DefaultTailSize is the recommended size of the speculative tail read
// (64 KiB, as Lance uses for object stores). With such a tail most files
// open in one read, and at most one more read is needed.
const DefaultTailSize = 64 << 10

// FileMetadata is everything ParseTail learns from the end of a Lance v2
// file: the footer, the offset tables, the decoded file descriptor (global
// buffer 0), the per-column metadata and the resolved schema. Page data and
// column metadata buffers are not read.
type FileMetadata struct {
	// Footer is the v2 footer. A legacy v1 file has none: its reader fills
	// ColumnMetaStart with the page table's position, CMOTableStart and
	// GBOTableStart with the metadata's, and leaves GlobalBuffers empty.
	Footer   Footer
	Version  Version
	FileSize uint64
	// GlobalBuffers holds the ranges from the GBO table; index 0 is the
	// serialized FileDescriptor.
	GlobalBuffers []Range
	// ColumnMetadataRanges holds the ranges from the CMO table, one per column.
	ColumnMetadataRanges []Range
	// NumRows is the number of top-level rows (FileDescriptor.length).
	NumRows uint64
	// Descriptor is the raw FileDescriptor decoded from global buffer 0.
	Descriptor *filepb.FileDescriptor
	// Columns holds the decoded ColumnMetadata, one per column. Page
	// lengths count rows: those Lance stores in items (columns below a
	// fixed-size list of structs, see Schema.RowScale) are divided.
	Columns []*file2pb.ColumnMetadata
	// SchemaMetadata is the schema-level key/value metadata.
	SchemaMetadata map[string]string
	// Schema is the resolved field tree with Arrow types and column indices.
	Schema *Schema

	numGlobalBufferBytes uint64
}

// NumColumns returns the number of columns recorded in the footer.
func (m *FileMetadata) NumColumns() int { return len(m.Columns) }

// MetadataRange returns the byte range that holds all metadata read at open:
// from the start of global buffer 0 (or column metadata 0 if earlier) to the
// end of the file. Caching its length lets a later open use a single read.
// Without global buffers (a legacy file) it starts at column metadata 0
// (there: the page table). It never extends beyond the file.
func (m *FileMetadata) MetadataRange() Range {
	start := m.Footer.ColumnMetaStart
	if len(m.GlobalBuffers) > 0 {
		start = metadataStart(m.Footer, m.GlobalBuffers[0])
	}
	start = min(start, m.FileSize)
	return Range{start, m.FileSize - start}
}

// NumGlobalBufferBytes returns the sum of the sizes of all global buffers.
func (m *FileMetadata) NumGlobalBufferBytes() uint64 { return m.numGlobalBufferBytes }

// NumDataBytes returns the bytes before the column metadata that are not
// global buffers (page data, column buffers and padding), computed as Lance
// does: ColumnMetaStart - Σ global buffer sizes (saturating at 0).
func (m *FileMetadata) NumDataBytes() uint64 {
	if m.numGlobalBufferBytes > m.Footer.ColumnMetaStart {
		return 0
	}
	return m.Footer.ColumnMetaStart - m.numGlobalBufferBytes
}

// NumColumnMetadataBytes returns the size of the column metadata plus the
// CMO table: GBOTableStart - ColumnMetaStart (saturating at 0).
func (m *FileMetadata) NumColumnMetadataBytes() uint64 {
	if m.Footer.GBOTableStart < m.Footer.ColumnMetaStart {
		return 0
	}
	return m.Footer.GBOTableStart - m.Footer.ColumnMetaStart
}

// NumFooterBytes returns the size of the metadata region read at open
// (global buffer 0 through the end of the file), as Lance reports it.
func (m *FileMetadata) NumFooterBytes() uint64 { return m.MetadataRange().Length }

// page returns the page at (col, page) or an ErrInvalidArgument error.
func (m *FileMetadata) page(col, page int) (*file2pb.ColumnMetadata_Page, error) {
	if col < 0 || col >= len(m.Columns) {
		return nil, invalidArgf("column %d out of range [0, %d)", col, len(m.Columns))
	}
	pages := m.Columns[col].GetPages()
	if page < 0 || page >= len(pages) {
		return nil, invalidArgf("column %d: page %d out of range [0, %d)", col, page, len(pages))
	}
	return pages[page], nil
}

// Page returns the metadata of page `page` of column `col`.
func (m *FileMetadata) Page(col, page int) (*file2pb.ColumnMetadata_Page, error) {
	return m.page(col, page)
}

// PageRanges returns the byte ranges of the buffers of one page, in buffer
// order. The ranges were validated to lie inside the data region at open.
func (m *FileMetadata) PageRanges(col, page int) ([]Range, error) {
	p, err := m.page(col, page)
	if err != nil {
		return nil, err
	}
	return zipRanges(p.GetBufferOffsets(), p.GetBufferSizes()), nil
}

// ColumnBufferRanges returns the byte ranges of the column-level buffers of
// column col (used by 2.0 dictionaries; usually empty in 2.1+).
func (m *FileMetadata) ColumnBufferRanges(col int) ([]Range, error) {
	if col < 0 || col >= len(m.Columns) {
		return nil, invalidArgf("column %d out of range [0, %d)", col, len(m.Columns))
	}
	c := m.Columns[col]
	return zipRanges(c.GetBufferOffsets(), c.GetBufferSizes()), nil
}

// ColumnDataRanges returns the ranges of every page buffer of column col, in
// page order, followed by its column-level buffers.
func (m *FileMetadata) ColumnDataRanges(col int) ([]Range, error) {
	out, err := m.ColumnBufferRanges(col)
	if err != nil {
		return nil, err
	}
	var pages []Range
	for _, p := range m.Columns[col].GetPages() {
		pages = append(pages, zipRanges(p.GetBufferOffsets(), p.GetBufferSizes())...)
	}
	return append(pages, out...), nil
}

// zipRanges pairs offsets and sizes (validated to have equal length).
func zipRanges(offsets, sizes []uint64) []Range {
	n := min(len(offsets), len(sizes))
	out := make([]Range, n)
	for i := range n {
		out[i] = Range{offsets[i], sizes[i]}
	}
	return out
}

// metadataStart returns where the metadata region read at open begins.
func metadataStart(f Footer, gb0 Range) uint64 {
	return min(gb0.Offset, f.ColumnMetaStart)
}
