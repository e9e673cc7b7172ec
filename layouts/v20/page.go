// Package v20 decodes the pages of Lance 2.0 files: the
// lance.encodings.ArrayEncoding tree (flat, nullable, bit-packed, constant,
// binary, FSST, dictionary, fixed-size binary and list, packed struct) and
// the offsets pages of list columns.
//
// A 2.0 file stores every field as a column — structs and lists too — and
// each page's encoding describes that column only. This package never does
// I/O: the caller fetches a page's buffers, makes a Page once (which
// decompresses what must be decompressed whole) and asks it for rows. The
// results are codecs.Blocks plus validity bitmaps, which Leaf and List
// accumulate into the layouts package's path nodes and values.
package v20

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodingspb"
	"github.com/lancego/lancego/layouts"
)

// Errors wrap the layouts sentinels so callers test one set.
var (
	// ErrCorrupt reports page bytes or metadata that contradict each other.
	ErrCorrupt = layouts.ErrCorrupt
	// ErrUnsupported reports a valid encoding this package cannot decode.
	ErrUnsupported = layouts.ErrUnsupported
)

// maxDepth bounds the nesting of an encoding tree.
const maxDepth = 32

// maxRows bounds the values a page may claim, so that a hostile row count
// cannot make the decoder allocate without limit.
const maxRows = 1 << 40

// Buffers are the bytes a page's encoding refers to: its own page buffers
// and its column's buffers (2.0 file buffers are not used by Lance).
type Buffers struct {
	Page   [][]byte
	Column [][]byte
	// PageBase, when set, gives the offset inside page buffer i at which
	// Page[i] starts (a window of the buffer; see BinaryWindow). Only the
	// bytes buffer of a binary page may be such a window.
	PageBase []uint64
}

// Page is one decoded-on-demand 2.0 page: its encoding, the Arrow type it
// holds, its row count and its buffers, with everything that must be
// decoded whole (compressed buffers, dictionaries, FSST tables) prepared
// by NewPage. A Page is immutable and safe for concurrent use.
type Page struct {
	enc  *pb.ArrayEncoding
	dt   arrow.DataType
	rows uint64
	bufs Buffers
	// prepared holds what NewPage decoded whole, keyed by encoding node.
	prepared map[any]any
	size     int64
	// lazy pages unpack bit-packed values per range (NewViewedPage).
	lazy bool
}

// NewPage prepares a page holding rows values of type dt encoded as enc.
// For a list column's page (a List encoding) dt is ignored.
func NewPage(enc *pb.ArrayEncoding, dt arrow.DataType, rows uint64, bufs Buffers) (*Page, error) {
	return newPage(enc, dt, rows, bufs, false)
}

// newPage is NewPage; lazy leaves bit-packed values packed (NewViewedPage).
func newPage(enc *pb.ArrayEncoding, dt arrow.DataType, rows uint64, bufs Buffers, lazy bool) (*Page, error) {
	if enc == nil || enc.GetArrayEncoding() == nil {
		return nil, fmt.Errorf("%w: page without an encoding", ErrCorrupt)
	}
	if rows > maxRows {
		return nil, fmt.Errorf("%w: page of %d rows", ErrCorrupt, rows)
	}
	p := &Page{enc: enc, dt: dt, rows: rows, bufs: bufs, lazy: lazy}
	for _, b := range bufs.Page {
		p.size += int64(len(b))
	}
	for _, b := range bufs.Column {
		p.size += int64(len(b))
	}
	if l := enc.GetList(); l != nil {
		if err := p.prepare(l.GetOffsets(), arrow.PrimitiveTypes.Uint64, rows, 0); err != nil {
			return nil, err
		}
		return p, nil
	}
	if err := p.prepare(enc, dt, rows, 0); err != nil {
		return nil, err
	}
	return p, nil
}

// Rows returns the number of values (rows) the page holds.
func (p *Page) Rows() uint64 { return p.rows }

// Size returns the bytes the page keeps (its buffers and prepared data).
func (p *Page) Size() int64 { return p.size }

// Decoded is rows [from, to) of a page.
type Decoded struct {
	// Block holds to-from values (null slots hold placeholders).
	Block codecs.Block
	// Validity is a bitmap of to-from bits, nil when every value is valid.
	Validity []byte
}

// Decode returns rows [from, to) of a value page.
func (p *Page) Decode(from, to uint64) (Decoded, error) {
	if from > to || to > p.rows {
		return Decoded{}, fmt.Errorf("%w: rows [%d,%d) of a page of %d", ErrCorrupt, from, to, p.rows)
	}
	if p.enc.GetList() != nil || p.enc.GetStruct() != nil {
		return Decoded{}, fmt.Errorf("%w: a list or struct page holds no values", ErrCorrupt)
	}
	b, v, err := p.decode(p.enc, p.dt, p.rows, from, to, 0)
	if err != nil {
		return Decoded{}, err
	}
	if b.NumValues != to-from {
		return Decoded{}, fmt.Errorf("%w: decoded %d values, want %d", ErrCorrupt, b.NumValues, to-from)
	}
	return Decoded{Block: b, Validity: v}, nil
}

// buffer returns the bytes of a buffer reference.
func (p *Page) buffer(ref *pb.Buffer) ([]byte, error) {
	if ref == nil {
		return nil, fmt.Errorf("%w: encoding without a buffer", ErrCorrupt)
	}
	var list [][]byte
	switch ref.GetBufferType() {
	case pb.Buffer_page:
		list = p.bufs.Page
	case pb.Buffer_column:
		list = p.bufs.Column
	default:
		return nil, fmt.Errorf("%w: %v buffers", ErrUnsupported, ref.GetBufferType())
	}
	i := ref.GetBufferIndex()
	if uint64(i) >= uint64(len(list)) {
		return nil, fmt.Errorf("%w: %v buffer %d of %d", ErrCorrupt, ref.GetBufferType(), i, len(list))
	}
	return list[i], nil
}

// keep records what prepare decoded for an encoding node (the map is made
// only for pages that need it: most sub-pages of a take need none).
func (p *Page) keep(node, v any) {
	if p.prepared == nil {
		p.prepared = map[any]any{}
	}
	p.prepared[node] = v
}

// pageBase returns where a page buffer's bytes start in the buffer.
func (p *Page) pageBase(ref *pb.Buffer) uint64 {
	i := ref.GetBufferIndex()
	if ref.GetBufferType() != pb.Buffer_page || uint64(i) >= uint64(len(p.bufs.PageBase)) {
		return 0
	}
	return p.bufs.PageBase[i]
}

// errUnknown reports an encoding node this package does not read.
func errUnknown(enc *pb.ArrayEncoding) error {
	if enc.GetArrayEncoding() == nil {
		return fmt.Errorf("%w: empty array encoding", ErrCorrupt)
	}
	return fmt.Errorf("%w: 2.0 array encoding %T", ErrUnsupported, enc.GetArrayEncoding())
}

// IsCorrupt reports whether err is a corruption error of this package.
func IsCorrupt(err error) bool { return errors.Is(err, ErrCorrupt) }
