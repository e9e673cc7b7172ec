package format

import (
	"cmp"
	"encoding/binary"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/format/pb/filepb"
)

// ParseTail parses the metadata of a Lance v2 file of fileSize bytes from
// tail, which must hold exactly the last len(tail) bytes of the file, i.e.
// [fileSize-len(tail), fileSize).
//
// If tail is long enough, ParseTail returns the validated metadata. If not,
// it returns a nil *FileMetadata and the Range that is missing directly in
// front of tail; the caller reads it, prepends it to tail and calls ParseTail
// again. When tail already covers the footer and the global buffer offset
// table (always true for tails of DefaultTailSize unless a file has more
// than ~4000 global buffers), one additional read is enough; a shorter
// tail may need two.
//
// Errors wrap ErrCorrupt, ErrUnsupportedVersion or ErrInvalidArgument.
func ParseTail(fileSize uint64, tail []byte) (*FileMetadata, *Range, error) {
	t := tailBuf{fileSize: fileSize, data: tail}
	if err := t.check(); err != nil {
		return nil, nil, err
	}
	if need := t.need(fileSize - FooterSize); need != nil {
		return nil, need, nil
	}
	footer, err := ParseFooter(tail)
	if err != nil {
		return nil, nil, err
	}
	version, _ := footer.Version()
	if err := footer.validate(fileSize); err != nil {
		return nil, nil, err
	}
	if need := t.need(footer.GBOTableStart); need != nil {
		return nil, need, nil
	}
	m := &FileMetadata{Footer: footer, Version: version, FileSize: fileSize}
	if m.GlobalBuffers, err = parseGBOTable(t, footer, version); err != nil {
		return nil, nil, err
	}
	if need := t.need(metadataStart(footer, m.GlobalBuffers[0])); need != nil {
		return nil, need, nil
	}
	if err := m.parseMetadataRegion(t); err != nil {
		return nil, nil, err
	}
	return m, nil, nil
}

// RangeReader reads the bytes of one range of a file. It must return exactly
// r.Length bytes or an error.
type RangeReader func(r Range) ([]byte, error)

// ReadMetadata opens a file of fileSize bytes with read: it reads the last
// tailSize bytes (DefaultTailSize if tailSize is 0), then any missing prefix
// ParseTail asks for, and returns the parsed metadata.
func ReadMetadata(fileSize, tailSize uint64, read RangeReader) (*FileMetadata, error) {
	if tailSize == 0 {
		tailSize = DefaultTailSize
	}
	tailSize = min(tailSize, fileSize)
	r := Range{fileSize - tailSize, tailSize}
	tail, err := readExact(read, r)
	if err != nil {
		return nil, err
	}
	for range 4 {
		m, need, err := ParseTail(fileSize, tail)
		if err != nil || need == nil {
			return m, err
		}
		prefix, err := readExact(read, *need)
		if err != nil {
			return nil, err
		}
		tail = append(prefix, tail...)
	}
	return nil, corruptf("metadata region still incomplete after 4 reads")
}

// readExact calls read and checks the returned length.
func readExact(read RangeReader, r Range) ([]byte, error) {
	b, err := read(r)
	if err != nil {
		return nil, err
	}
	if uint64(len(b)) != r.Length {
		return nil, invalidArgf("read of %v returned %d bytes", r, len(b))
	}
	return b, nil
}

// tailBuf is the caller's tail together with the file size.
type tailBuf struct {
	fileSize uint64
	data     []byte
}

// start returns the file offset of data[0].
func (t tailBuf) start() uint64 { return t.fileSize - uint64(len(t.data)) }

// check validates the file size and the tail length.
func (t tailBuf) check() error {
	if uint64(len(t.data)) > t.fileSize {
		return invalidArgf("tail of %d bytes is longer than the file (%d bytes)", len(t.data), t.fileSize)
	}
	if t.fileSize < FooterSize {
		return corruptf("file of %d bytes is shorter than the %d-byte footer", t.fileSize, FooterSize)
	}
	return nil
}

// need returns the missing range if offset lies before the tail, else nil.
func (t tailBuf) need(offset uint64) *Range {
	if offset >= t.start() {
		return nil
	}
	return &Range{offset, t.start() - offset}
}

// slice returns the bytes of r; r must lie inside the tail.
func (t tailBuf) slice(r Range) []byte {
	lo := r.Offset - t.start()
	return t.data[lo : lo+r.Length]
}

// parseGBOTable decodes and validates the global buffer offset table.
func parseGBOTable(t tailBuf, f Footer, v Version) ([]Range, error) {
	table := t.slice(Range{f.GBOTableStart, uint64(f.NumGlobalBuffers) * offsetEntrySize})
	out := make([]Range, f.NumGlobalBuffers)
	for i := range out {
		r := readEntry(table, i)
		if !r.within(0, f.ColumnMetaStart) {
			return nil, corruptf("global buffer %d %v outside data region [0, %d) of file of %d bytes",
				i, r, f.ColumnMetaStart, t.fileSize)
		}
		if v.Structural() && r.Offset%pageAlignment != 0 {
			return nil, corruptf("global buffer %d %v not %d-byte aligned", i, r, pageAlignment)
		}
		out[i] = r
	}
	return out, nil
}

// readEntry decodes entry i of an offset table.
func readEntry(table []byte, i int) Range {
	e := table[i*offsetEntrySize:]
	return Range{binary.LittleEndian.Uint64(e), binary.LittleEndian.Uint64(e[8:])}
}

// parseMetadataRegion decodes global buffer 0, the CMO table and every
// column metadata, validates them and resolves the schema.
func (m *FileMetadata) parseMetadataRegion(t tailBuf) error {
	if err := m.sumGlobalBuffers(); err != nil {
		return err
	}
	if err := m.decodeDescriptor(t.slice(m.GlobalBuffers[0])); err != nil {
		return err
	}
	if err := m.decodeColumns(t); err != nil {
		return err
	}
	// The schema comes first so that a valid file of an unsupported shape
	// is reported as unsupported rather than as inconsistent pages.
	if err := m.resolveSchema(); err != nil {
		return err
	}
	return m.validateColumns()
}

// sumGlobalBuffers computes Σ global buffer sizes without overflow.
func (m *FileMetadata) sumGlobalBuffers() error {
	var sum uint64
	for i, r := range m.GlobalBuffers {
		var ok bool
		if sum, ok = checkedAdd(sum, r.Length); !ok {
			return corruptf("global buffer %d: total global buffer size overflows", i)
		}
	}
	m.numGlobalBufferBytes = sum
	return nil
}

// decodeDescriptor decodes global buffer 0 as a FileDescriptor.
func (m *FileMetadata) decodeDescriptor(b []byte) error {
	fd := &filepb.FileDescriptor{}
	if err := proto.Unmarshal(b, fd); err != nil {
		return corruptWrap(err, "global buffer 0 %v: decoding FileDescriptor", m.GlobalBuffers[0])
	}
	if fd.GetSchema() == nil {
		return corruptf("global buffer 0 %v: FileDescriptor has no schema", m.GlobalBuffers[0])
	}
	m.Descriptor = fd
	m.NumRows = fd.GetLength()
	m.SchemaMetadata = stringMap(fd.GetSchema().GetMetadata())
	return nil
}

// decodeColumns reads the CMO table and decodes every ColumnMetadata.
func (m *FileMetadata) decodeColumns(t tailBuf) error {
	f := m.Footer
	table := t.slice(Range{f.CMOTableStart, uint64(f.NumColumns) * offsetEntrySize})
	m.ColumnMetadataRanges = make([]Range, f.NumColumns)
	for i := range m.ColumnMetadataRanges {
		r := readEntry(table, i)
		if !r.within(f.ColumnMetaStart, f.CMOTableStart) {
			return corruptf("column %d: metadata %v outside column metadata region [%d, %d)",
				i, r, f.ColumnMetaStart, f.CMOTableStart)
		}
		m.ColumnMetadataRanges[i] = r
	}
	if err := checkDisjoint(m.ColumnMetadataRanges); err != nil {
		return err
	}
	m.Columns = make([]*file2pb.ColumnMetadata, f.NumColumns)
	for i, r := range m.ColumnMetadataRanges {
		cm := &file2pb.ColumnMetadata{}
		if err := proto.Unmarshal(t.slice(r), cm); err != nil {
			return corruptWrap(err, "column %d: decoding ColumnMetadata %v", i, r)
		}
		m.Columns[i] = cm
	}
	return nil
}

// checkDisjoint rejects overlapping column metadata ranges, which would let
// a small file make the decoder do quadratic work.
func checkDisjoint(rs []Range) error {
	idx := make([]int, len(rs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(rs[a].Offset, rs[b].Offset) })
	for k := 1; k < len(idx); k++ {
		prev, cur := rs[idx[k-1]], rs[idx[k]]
		if prev.Offset+prev.Length > cur.Offset { // no overflow: both validated in-file
			return corruptf("column %d: metadata %v overlaps column %d metadata %v", idx[k], cur, idx[k-1], prev)
		}
	}
	return nil
}

// resolveSchema builds the field tree and checks the implied column count.
func (m *FileMetadata) resolveSchema() error {
	s, err := BuildSchema(m.Descriptor.GetSchema(), m.Version)
	if err != nil {
		return err
	}
	m.Schema = s
	if m.Version.Structural() && s.NumColumns != len(m.Columns) {
		return corruptf("footer has %d columns but the schema implies %d", len(m.Columns), s.NumColumns)
	}
	return nil
}

// stringMap converts protobuf bytes-valued metadata to strings.
func stringMap(in map[string][]byte) map[string]string {
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = string(v)
	}
	return out
}
