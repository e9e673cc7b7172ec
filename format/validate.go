package format

import (
	"fmt"

	"github.com/lancego/lancego/format/pb/file2pb"
)

// validateColumns applies the per-column rules: page buffers and column
// buffers inside the data region (and 64-byte aligned page buffers for
// 2.1+), matching offset/size list lengths, Σ page lengths == NumRows and
// each page's priority equal to its first row. The row rules apply to 2.1+
// only: 2.0 pages of nested columns count items, and 2.0 writes priority 0.
// Pages of columns below a fixed-size list of structs count items
// (Schema.RowScale per row) while their priorities count rows: their
// lengths are divided into rows here.
func (m *FileMetadata) validateColumns() error {
	for i, c := range m.Columns {
		if err := m.validateColumn(i, c); err != nil {
			return err
		}
	}
	return nil
}

// validateColumn checks one column.
func (m *FileMetadata) validateColumn(col int, c *file2pb.ColumnMetadata) error {
	where := fmt.Sprintf("column %d", col)
	if err := m.checkBuffers(where, c.GetBufferOffsets(), c.GetBufferSizes(), false); err != nil {
		return err
	}
	if err := m.checkEncodingLocation(where, c.GetEncoding()); err != nil {
		return err
	}
	structural := m.Version.Structural()
	scale := uint64(1)
	if structural && m.Schema != nil {
		scale = m.Schema.RowScale(col)
	}
	var rows uint64
	for p, page := range c.GetPages() {
		where := fmt.Sprintf("column %d page %d", col, p)
		if structural && page.GetPriority() != rows {
			return corruptf("%s: priority %d != first row %d", where, page.GetPriority(), rows)
		}
		if err := m.checkBuffers(where, page.GetBufferOffsets(), page.GetBufferSizes(), structural); err != nil {
			return err
		}
		if err := m.checkEncodingLocation(where, page.GetEncoding()); err != nil {
			return err
		}
		if page.GetLength()%scale != 0 {
			return corruptf("%s: length %d is not a multiple of the %d items per row of a fixed-size list of structs", where, page.GetLength(), scale)
		}
		var ok bool
		if rows, ok = checkedAdd(rows, page.GetLength()/scale); !ok {
			return corruptf("%s: row count overflows", where)
		}
	}
	if structural && rows != m.NumRows {
		return corruptf("column %d: pages hold %d rows, file has %d", col, rows, m.NumRows)
	}
	if scale > 1 { // pages count items: make them count rows (priorities already do)
		for _, page := range c.GetPages() {
			page.Length /= scale
		}
	}
	return nil
}

// checkBuffers validates a parallel offsets/sizes list: equal lengths, every
// buffer inside the file and before global buffer 0 / the column metadata, optionally aligned.
func (m *FileMetadata) checkBuffers(where string, offsets, sizes []uint64, aligned bool) error {
	if len(offsets) != len(sizes) {
		return corruptf("%s: %d buffer offsets but %d buffer sizes", where, len(offsets), len(sizes))
	}
	for i := range offsets {
		r := Range{offsets[i], sizes[i]}
		if !r.within(0, m.FileSize) {
			return corruptf("%s: buffer %d %v outside file of %d bytes", where, i, r, m.FileSize)
		}
		if limit := m.MetadataRange().Offset; !r.within(0, limit) {
			return corruptf("%s: buffer %d %v overlaps the metadata starting at %d", where, i, r, limit)
		}
		if aligned && r.Offset%pageAlignment != 0 {
			return corruptf("%s: buffer %d %v not %d-byte aligned", where, i, r, pageAlignment)
		}
	}
	return nil
}

// checkEncodingLocation validates the range of an indirect encoding.
func (m *FileMetadata) checkEncodingLocation(where string, enc *file2pb.Encoding) error {
	ind := enc.GetIndirect()
	if ind == nil {
		return nil
	}
	r := Range{ind.GetBufferLocation(), ind.GetBufferLength()}
	if !r.within(0, m.FileSize-FooterSize) {
		return corruptf("%s: indirect encoding %v outside file of %d bytes", where, r, m.FileSize)
	}
	return nil
}
