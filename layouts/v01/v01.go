// Package v01 decodes legacy Lance data files (the v1 format, footer
// version 0.1 or 0.2, written by Lance before 2.0 and by pylance with
// data_storage_version="legacy"): the footer, the metadata with its batch
// offsets, the page table, and the plain, binary and list-position pages
// of one batch of one field. It does no I/O.
//
// A legacy file has no schema of its own: its fields (with their ids)
// come from the dataset's manifest. Every field id from the smallest to
// the largest has one page per batch in the page table; structs have
// empty pages and no validity, lists store n+1 positions into their
// child's page of the same batch, and only variable-width values can be
// null (an empty value of a nullable field reads as null).
package v01

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/layouts"
	"github.com/lancego/lancego/layouts/v20"
)

// FooterSize is the size of a legacy file's footer: metadata position
// (u64), major and minor version (u16 each) and the magic "LANC".
const FooterSize = 16

// Errors wrap the layouts sentinels.
var (
	ErrCorrupt     = layouts.ErrCorrupt
	ErrUnsupported = layouts.ErrUnsupported
)

// Footer is a legacy file's footer.
type Footer struct {
	MetadataPosition uint64
	Major, Minor     uint16
}

// ParseFooter decodes the footer from the last 16 bytes of tail.
func ParseFooter(tail []byte, fileSize uint64) (Footer, error) {
	if len(tail) < FooterSize || fileSize < FooterSize+4 || uint64(len(tail)) > fileSize {
		return Footer{}, fmt.Errorf("%w: legacy file shorter than its footer", ErrCorrupt)
	}
	b := tail[len(tail)-FooterSize:]
	if string(b[12:]) != format.Magic {
		return Footer{}, fmt.Errorf("%w: bad magic %q: not a Lance file", ErrCorrupt, b[12:])
	}
	f := Footer{MetadataPosition: binary.LittleEndian.Uint64(b), Major: binary.LittleEndian.Uint16(b[8:]),
		Minor: binary.LittleEndian.Uint16(b[10:])}
	if f.Major != 0 || f.Minor > 2 {
		return Footer{}, fmt.Errorf("%w: footer version %d.%d is not a legacy file", ErrUnsupported, f.Major, f.Minor)
	}
	if f.MetadataPosition > fileSize-FooterSize-4 {
		return Footer{}, fmt.Errorf("%w: metadata at %d in a file of %d bytes", ErrCorrupt, f.MetadataPosition, fileSize)
	}
	return f, nil
}

// Metadata is a legacy file's decoded metadata.
type Metadata struct {
	// BatchStarts holds each batch's first row and, last, the row count.
	BatchStarts []uint64
	// PageTablePosition is where the page table starts.
	PageTablePosition uint64
	// ManifestPosition is where the embedded schema starts (0: none).
	ManifestPosition uint64
}

// NumBatches returns the number of batches.
func (m *Metadata) NumBatches() int { return len(m.BatchStarts) - 1 }

// ParseMetadata decodes the length-prefixed Metadata protobuf in b (the
// bytes from the metadata position up to the footer).
func ParseMetadata(b []byte) (*Metadata, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: metadata shorter than its length prefix", ErrCorrupt)
	}
	n := uint64(binary.LittleEndian.Uint32(b))
	if n > uint64(len(b)-4) {
		return nil, fmt.Errorf("%w: metadata of %d bytes in %d", ErrCorrupt, n, len(b)-4)
	}
	var pm filepb.Metadata
	if err := proto.Unmarshal(b[4:4+n], &pm); err != nil {
		return nil, fmt.Errorf("%w: decoding Metadata: %v", ErrCorrupt, err)
	}
	offs := pm.GetBatchOffsets()
	m := &Metadata{PageTablePosition: pm.GetPageTablePosition(), ManifestPosition: pm.GetManifestPosition(),
		BatchStarts: []uint64{0}}
	for i, o := range offs {
		if i == 0 && o == 0 {
			continue // Lance starts the list with 0
		}
		if o < 0 || uint64(o) < m.BatchStarts[len(m.BatchStarts)-1] {
			return nil, fmt.Errorf("%w: batch offsets decrease at %d", ErrCorrupt, i)
		}
		m.BatchStarts = append(m.BatchStarts, uint64(o))
	}
	return m, nil
}

// Page is one field's page of one batch: where it starts and its length
// in values (list positions: lists + 1).
type Page struct {
	Position, Length uint64
}

// PageTableSize returns the byte size of the page table of fields
// [minID, maxID] and n batches, or an error when it cannot exist.
func PageTableSize(minID, maxID int32, n int, fileSize uint64) (uint64, error) {
	if maxID < minID || minID < 0 || n < 0 {
		return 0, fmt.Errorf("%w: field ids [%d, %d], %d batches", ErrCorrupt, minID, maxID, n)
	}
	size := uint64(maxID-minID+1) * uint64(n) * 16
	if size > fileSize {
		return 0, fmt.Errorf("%w: page table of %d bytes in a file of %d", ErrCorrupt, size, fileSize)
	}
	return size, nil
}

// ParsePageTable decodes the page table: pages[id-minID][batch].
func ParsePageTable(b []byte, minID, maxID int32, n int, fileSize uint64) ([][]Page, error) {
	size, err := PageTableSize(minID, maxID, n, fileSize)
	if err != nil {
		return nil, err
	}
	if uint64(len(b)) < size {
		return nil, fmt.Errorf("%w: page table needs %d bytes, have %d", ErrCorrupt, size, len(b))
	}
	out := make([][]Page, maxID-minID+1)
	for f := range out {
		out[f] = make([]Page, n)
		for k := range out[f] {
			e := b[(f*n+k)*16:]
			p := Page{Position: binary.LittleEndian.Uint64(e), Length: binary.LittleEndian.Uint64(e[8:])}
			if p.Position > fileSize || p.Length > fileSize*8+1 {
				return nil, fmt.Errorf("%w: field %d batch %d page at %d of %d values in a file of %d bytes",
					ErrCorrupt, int(minID)+f, k, p.Position, p.Length, fileSize)
			}
			out[f][k] = p
		}
	}
	return out, nil
}

// FixedWidth returns the bits per value of a plain-encoded type (1 for
// booleans) and its fixed-size-list dimensions, outer first.
func FixedWidth(dt arrow.DataType) (bits uint64, dims []uint64, err error) {
	for {
		t, ok := dt.(*arrow.FixedSizeListType)
		if !ok {
			break
		}
		if t.Len() <= 0 || t.Len() > 1<<16 {
			return 0, nil, fmt.Errorf("%w: %s", ErrUnsupported, t)
		}
		dims = append(dims, uint64(t.Len()))
		dt = t.Elem()
	}
	fw, ok := dt.(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth() == 0 || (fw.BitWidth() != 1 && fw.BitWidth()%8 != 0) {
		return 0, nil, fmt.Errorf("%w: plain values of type %s", ErrUnsupported, dt)
	}
	if _, isDict := dt.(*arrow.DictionaryType); isDict {
		return 0, nil, fmt.Errorf("%w: dictionary values are not plain", ErrUnsupported)
	}
	return uint64(fw.BitWidth()), dims, nil
}

// FixedRange returns the bytes of values [from, to) of a plain page
// relative to its position, and the bit offset of value from in them
// (booleans only).
func FixedRange(dt arrow.DataType, from, to uint64) (lo, hi, bitOff uint64, err error) {
	bits, dims, err := FixedWidth(dt)
	if err != nil {
		return 0, 0, 0, err
	}
	per := uint64(1)
	for _, d := range dims {
		per *= d
	}
	if bits == 1 {
		return from * per / 8, (to*per + 7) / 8, from * per % 8, nil
	}
	w := per * bits / 8
	return from * w, to * w, 0, nil
}

// DecodeFixed decodes n plain values of dt from b (the bytes FixedRange
// named; bitOff is its bit offset). Plain values are never null.
func DecodeFixed(dt arrow.DataType, b []byte, bitOff, n uint64) (v20.Decoded, error) {
	bits, dims, err := FixedWidth(dt)
	if err != nil {
		return v20.Decoded{}, err
	}
	items := n
	for _, d := range dims {
		items *= d
	}
	blk := codecs.Block{Kind: codecs.KindFixed, NumValues: n, BitsPerValue: bits}
	for _, d := range dims {
		blk.FSL = append(blk.FSL, codecs.FSLLayer{Dimension: d})
	}
	if bits == 1 {
		if uint64(len(b))*8 < bitOff+items {
			return v20.Decoded{}, fmt.Errorf("%w: %d bytes for %d booleans", ErrCorrupt, len(b), items)
		}
		out := make([]byte, (items+7)/8)
		for i := uint64(0); i < items; i++ {
			k := bitOff + i
			if b[k/8]&(1<<(k%8)) != 0 {
				out[i/8] |= 1 << (i % 8)
			}
		}
		blk.Data = out
		return v20.Decoded{Block: blk}, nil
	}
	if uint64(len(b)) != items*(bits/8) {
		return v20.Decoded{}, fmt.Errorf("%w: %d bytes for %d values of %d bits", ErrCorrupt, len(b), items, bits)
	}
	blk.Data = b
	return v20.Decoded{Block: blk}, nil
}

// Span returns the first and last of n+1 little-endian positions of
// width bytes (4 or 8) in b, checking they do not decrease overall.
func Span(b []byte, width, n uint64) (first, last uint64, err error) {
	if (width != 4 && width != 8) || uint64(len(b)) != (n+1)*width {
		return 0, 0, fmt.Errorf("%w: %d bytes for %d positions of %d bytes", ErrCorrupt, len(b), n+1, width)
	}
	first, last = pos(b, width, 0), pos(b, width, n)
	if last < first {
		return 0, 0, fmt.Errorf("%w: positions decrease (%d after %d)", ErrCorrupt, last, first)
	}
	return first, last, nil
}

// pos reads position i.
func pos(b []byte, w, i uint64) uint64 {
	if w == 4 {
		return uint64(int64(int32(binary.LittleEndian.Uint32(b[4*i:]))))
	}
	return binary.LittleEndian.Uint64(b[8*i:])
}

// DecodeBinary decodes n variable-width values from their n+1 absolute
// 64-bit positions and the bytes [positions[0], positions[n]). When
// nullable, an empty value is null (Lance's legacy reader does so).
func DecodeBinary(positions, data []byte, n uint64, nullable bool) (v20.Decoded, error) {
	first, last, err := Span(positions, 8, n)
	if err != nil {
		return v20.Decoded{}, err
	}
	if uint64(len(data)) != last-first {
		return v20.Decoded{}, fmt.Errorf("%w: %d value bytes, positions span %d", ErrCorrupt, len(data), last-first)
	}
	offs := make([]byte, 8*(n+1))
	var valid []byte
	prev := first
	for i := uint64(0); i < n; i++ {
		p := pos(positions, 8, i+1)
		if p < prev || p > last {
			return v20.Decoded{}, fmt.Errorf("%w: position %d decreases or exceeds the data", ErrCorrupt, i+1)
		}
		if nullable && p == prev {
			if valid == nil {
				valid = make([]byte, (n+7)/8)
				for k := range valid {
					valid[k] = 0xFF
				}
			}
			valid[i/8] &^= 1 << (i % 8)
		}
		binary.LittleEndian.PutUint64(offs[8*(i+1):], p-first)
		prev = p
	}
	blk := codecs.Block{Kind: codecs.KindVariable, NumValues: n, OffsetBits: 64, Offsets: offs, Data: data}
	return v20.Decoded{Block: blk, Validity: valid}, nil
}

// AppendLists appends n lists from n+1 positions of width bytes to acc
// (legacy lists are never null) and returns the item range they cover.
func AppendLists(acc *v20.List, positions []byte, width, n uint64) (from, to uint64, err error) {
	first, last, err := Span(positions, width, n)
	if err != nil {
		return 0, 0, err
	}
	prev := first
	for i := uint64(1); i <= n; i++ {
		p := pos(positions, width, i)
		if p < prev || p > last {
			return 0, 0, fmt.Errorf("%w: list position %d decreases", ErrCorrupt, i)
		}
		acc.Add(p-prev, true)
		prev = p
	}
	return first, last, nil
}

// EmbeddedFields decodes the schema a legacy file embeds at its manifest
// position (a u32 length, then a lance.table.Manifest whose field 1 is the
// repeated lance.file.Field schema): the only place that records where
// this file's dictionary values are. Only field 1 is read.
func EmbeddedFields(b []byte) ([]*filepb.Field, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: embedded schema shorter than its length prefix", ErrCorrupt)
	}
	n := uint64(binary.LittleEndian.Uint32(b))
	if n > uint64(len(b)-4) {
		return nil, fmt.Errorf("%w: embedded schema of %d bytes in %d", ErrCorrupt, n, len(b)-4)
	}
	msg := b[4 : 4+n]
	var out []*filepb.Field
	for len(msg) > 0 {
		num, typ, k := protowire.ConsumeTag(msg)
		if k < 0 {
			return nil, fmt.Errorf("%w: embedded schema: %v", ErrCorrupt, protowire.ParseError(k))
		}
		msg = msg[k:]
		k = protowire.ConsumeFieldValue(num, typ, msg)
		if k < 0 {
			return nil, fmt.Errorf("%w: embedded schema: %v", ErrCorrupt, protowire.ParseError(k))
		}
		if num == 1 && typ == protowire.BytesType {
			v, _ := protowire.ConsumeBytes(msg)
			f := &filepb.Field{}
			if err := proto.Unmarshal(v, f); err != nil {
				return nil, fmt.Errorf("%w: embedded schema field: %v", ErrCorrupt, err)
			}
			out = append(out, f)
		}
		msg = msg[k:]
	}
	return out, nil
}
