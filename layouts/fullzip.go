package layouts

import (
	"encoding/binary"
	"fmt"
	"sync/atomic"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lebits"
)

// FullZipPage is a full-zip page after initialization (repetition index
// decoded when the page has one). Immutable; safe for concurrent use.
type FullZipPage struct {
	Layout  *pb.FullZipLayout
	Set     LayerSet
	NumRows uint64
	// DataSize is the size of the zipped data buffer.
	DataSize uint64
	// RepIndex holds NumRows+1 byte offsets of row starts, when present.
	RepIndex []uint64
	cwBytes  uint64
	// valueBytes is the width of fixed-width values (0 for variable).
	valueBytes uint64
	// lenBytes is the width of variable-width length prefixes.
	lenBytes uint64
	// direct says variable-width values are stored plain or FSST-compressed
	// with fsst (set), so rows decode straight into the accumulator.
	direct bool
	fsst   *codecs.FSSTTable
	// expand is the decoded/stored byte ratio of the page's FSST values
	// last seen, in sixteenths (0 before the first piece); see
	// fsstReserve.
	expand atomic.Uint32
}

// NewFullZipPage parses a full-zip page's layout and repetition index
// (nil when the page has none).
func NewFullZipPage(l *pb.FullZipLayout, numRows, dataSize uint64, repIndex []byte) (*FullZipPage, error) {
	set, err := NewLayerSet(l.GetLayers())
	if err != nil {
		return nil, err
	}
	p := &FullZipPage{Layout: l, Set: set, NumRows: numRows, DataSize: dataSize}
	if l.GetBitsRep() > 16 || l.GetBitsDef() > 16 {
		return nil, fmt.Errorf("%w: control word of %d+%d bits", ErrCorrupt, l.GetBitsRep(), l.GetBitsDef())
	}
	switch bits := l.GetBitsRep() + l.GetBitsDef(); {
	case bits == 0:
	case bits <= 8:
		p.cwBytes = 1
	case bits <= 16:
		p.cwBytes = 2
	default:
		p.cwBytes = 4
	}
	switch d := l.GetDetails().(type) {
	case *pb.FullZipLayout_BitsPerValue:
		if d.BitsPerValue == 0 || d.BitsPerValue%8 != 0 {
			return nil, fmt.Errorf("%w: full-zip values of %d bits", ErrUnsupported, d.BitsPerValue)
		}
		p.valueBytes = uint64(d.BitsPerValue / 8)
	case *pb.FullZipLayout_BitsPerOffset:
		if d.BitsPerOffset != 32 && d.BitsPerOffset != 64 {
			return nil, fmt.Errorf("%w: full-zip lengths of %d bits", ErrCorrupt, d.BitsPerOffset)
		}
		p.lenBytes = uint64(d.BitsPerOffset / 8)
	default:
		return nil, fmt.Errorf("%w: full-zip page without value width", ErrCorrupt)
	}
	if repIndex != nil {
		if p.RepIndex, err = parseRepIndex(repIndex, numRows, dataSize); err != nil {
			return nil, err
		}
	}
	if p.lenBytes > 0 {
		if err := p.detectDirect(l.GetValueCompression()); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// detectDirect recognizes Variable and Fsst(Variable) value compression,
// whose values decode without an intermediate block.
func (p *FullZipPage) detectDirect(enc *pb.CompressiveEncoding) error {
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_Variable:
		p.direct = true
	case *pb.CompressiveEncoding_Fsst:
		if _, ok := c.Fsst.GetValues().GetCompression().(*pb.CompressiveEncoding_Variable); !ok {
			return nil
		}
		t, err := codecs.ParseFSSTTable(c.Fsst.GetSymbolTable())
		if err != nil {
			return err
		}
		p.direct, p.fsst = true, t
	}
	return nil
}

func parseRepIndex(b []byte, rows, dataSize uint64) ([]uint64, error) {
	if rows+1 == 0 || uint64(len(b))%(rows+1) != 0 {
		return nil, fmt.Errorf("%w: repetition index of %d bytes for %d rows", ErrCorrupt, len(b), rows)
	}
	w := uint64(len(b)) / (rows + 1)
	if w != 1 && w != 2 && w != 4 && w != 8 {
		return nil, fmt.Errorf("%w: repetition index entries of %d bytes", ErrCorrupt, w)
	}
	out := make([]uint64, rows+1)
	for i := range out {
		out[i] = lebits.Uint(b[uint64(i)*w:], int(w))
		if out[i] > dataSize || i > 0 && out[i] < out[i-1] {
			return nil, fmt.Errorf("%w: repetition index entry %d = %d (data %d bytes)", ErrCorrupt, i, out[i], dataSize)
		}
	}
	return out, nil
}

// NeedsRepIndex reports whether rows can only be located through the index.
func (p *FullZipPage) NeedsRepIndex() bool {
	return p.valueBytes == 0 || p.Set.HasLists()
}

// RowBytes returns the byte range of rows [from, to) in the data buffer.
func (p *FullZipPage) RowBytes(from, to uint64) (uint64, uint64, error) {
	if from >= to || to > p.NumRows {
		return 0, 0, fmt.Errorf("%w: rows [%d,%d) of a page of %d", ErrCorrupt, from, to, p.NumRows)
	}
	if p.RepIndex != nil {
		return p.RepIndex[from], p.RepIndex[to], nil
	}
	if p.NeedsRepIndex() {
		return 0, 0, fmt.Errorf("%w: full-zip page without repetition index", ErrCorrupt)
	}
	stride := p.cwBytes + p.valueBytes
	if to > p.DataSize/stride {
		return 0, 0, fmt.Errorf("%w: %d rows of %d bytes exceed data of %d", ErrCorrupt, to, stride, p.DataSize)
	}
	return from * stride, to * stride, nil
}

// DecodeRows parses the zipped bytes of whole rows (as located by RowBytes)
// and appends their levels and values.
func (p *FullZipPage) DecodeRows(b []byte, lv *Levels, vals *Values) error {
	if p.cwBytes == 0 && p.valueBytes > 0 {
		return p.decodePlainFixed(b, lv, vals)
	}
	if p.direct {
		return p.decodeDirect(b, lv, vals)
	}
	var raw Levels
	var fixed []byte
	var offs []byte
	var data []byte
	var validPos []int // visible entry ordinals that carry a stored value
	visible := 0
	r := byteReader{b: b}
	for r.off < uint64(len(b)) && r.err == nil {
		def, ok := p.nextEntry(&r, &raw)
		if !ok {
			break
		}
		if def > p.Set.MaxVisibleDef {
			continue
		}
		if p.valueBytes > 0 {
			fixed = append(fixed, r.take(p.valueBytes)...)
			visible++
			continue
		}
		if def == 0 {
			n := r.lenPrefix(p.lenBytes)
			offs = binary.LittleEndian.AppendUint64(offs, uint64(len(data)))
			data = append(data, r.take(n)...)
			validPos = append(validPos, visible)
		}
		visible++
	}
	if r.err != nil {
		return r.err
	}
	if !p.Set.HasLists() {
		raw.Rep = nil
	}
	if p.Layout.GetBitsDef() == 0 {
		raw.Def = nil
	}
	if err := p.appendZipped(fixed, offs, data, validPos, visible, vals); err != nil {
		return err
	}
	appendLevels(lv, raw)
	return nil
}

// nextEntry reads one zipped entry's control word (if the page has
// levels), appends its levels to raw and returns its def level; false when
// the control word runs past the data (r.err says why).
func (p *FullZipPage) nextEntry(r *byteReader, raw *Levels) (uint16, bool) {
	raw.N++
	if p.cwBytes == 0 {
		return 0, true
	}
	cw := uint32(lebits.Uint(r.take(p.cwBytes), int(p.cwBytes)))
	if r.err != nil {
		raw.N--
		return 0, false
	}
	bits := p.Layout.GetBitsDef()
	def := uint16(cw & (uint32(1)<<bits - 1))
	raw.Rep = append(raw.Rep, uint16(cw>>bits))
	raw.Def = append(raw.Def, def)
	return def, true
}

func (r *byteReader) lenPrefix(w uint64) uint64 {
	b := r.take(w)
	if b == nil {
		return 0
	}
	return lebits.Uint(b, int(w))
}

func (p *FullZipPage) appendZipped(fixed, offs, data []byte, validPos []int, visible int, vals *Values) error {
	enc := p.Layout.GetValueCompression()
	if p.valueBytes > 0 {
		blk, err := codecs.DecodeFullZipFixed(enc, fixed, uint64(visible))
		if err != nil {
			return err
		}
		return vals.Append(&blk, 0, blk.NumValues)
	}
	offs = binary.LittleEndian.AppendUint64(offs, uint64(len(data)))
	in := codecs.Block{Kind: codecs.KindVariable, NumValues: uint64(len(validPos)), Data: data, Offsets: offs, OffsetBits: 64}
	blk, err := codecs.DecodeFullZipVariable(enc, in)
	if err != nil {
		return err
	}
	if blk.NumValues != uint64(len(validPos)) {
		return fmt.Errorf("%w: %d values decoded, want %d", ErrCorrupt, blk.NumValues, len(validPos))
	}
	vals.InitShape(&blk)
	if len(validPos) == visible {
		return vals.Append(&blk, 0, blk.NumValues) // no nulls: one append
	}
	next := 0
	for i, pos := range validPos {
		vals.AppendEmpty(pos - next)
		if err := vals.Append(&blk, uint64(i), uint64(i+1)); err != nil {
			return err
		}
		next = pos + 1
	}
	vals.AppendEmpty(visible - next)
	return nil
}

// CopiesValues reports whether DecodeRows copies everything it keeps out
// of the bytes it is given (values and levels), so the bytes may be a
// view released once it returns: every page but one of fixed-width values
// without control words, whose bytes are handed on uncopied.
func (p *FullZipPage) CopiesValues() bool {
	return p.cwBytes != 0 || p.valueBytes == 0
}

// decodePlainFixed handles pages without control words: the bytes are the
// values back to back, handed to the codec (and on to Arrow) uncopied.
func (p *FullZipPage) decodePlainFixed(b []byte, lv *Levels, vals *Values) error {
	if uint64(len(b))%p.valueBytes != 0 {
		return fmt.Errorf("%w: %d bytes of %d-byte values", ErrCorrupt, len(b), p.valueBytes)
	}
	n := uint64(len(b)) / p.valueBytes
	blk, err := codecs.DecodeFullZipFixed(p.Layout.GetValueCompression(), b, n)
	if err != nil {
		return err
	}
	appendLevels(lv, Levels{N: int(n)})
	return vals.Append(&blk, 0, blk.NumValues)
}

// decodeDirect is DecodeRows for plain or FSST variable-width values: each
// stored value is copied or decompressed straight into vals.
func (p *FullZipPage) decodeDirect(b []byte, lv *Levels, vals *Values) error {
	shape := codecs.Block{Kind: codecs.KindVariable, OffsetBits: 64}
	vals.InitShape(&shape)
	if err := vals.checkShape(&shape); err != nil {
		return err
	}
	if vals.Offsets[len(vals.Offsets)-1] != int64(len(vals.Data)) {
		return fmt.Errorf("%w: string accumulator out of step", ErrCorrupt)
	}
	// Room for the piece's values at once: its bytes (values plus their
	// length prefixes and levels), times the FSST expansion (fsstReserve).
	if grow := uint64(len(b)); grow < 1<<31 {
		if p.fsst != nil {
			grow = p.fsstReserve(grow)
		}
		vals.growData(int(grow))
	}
	start := len(vals.Data)
	var raw Levels
	r := byteReader{b: b}
	for r.off < uint64(len(b)) && r.err == nil {
		def, ok := p.nextEntry(&r, &raw)
		if !ok {
			break
		}
		if def > p.Set.MaxVisibleDef {
			continue
		}
		if def == 0 {
			if err := p.appendValue(&r, vals); err != nil {
				return err
			}
		}
		vals.Offsets = append(vals.Offsets, int64(len(vals.Data)))
		vals.N++
	}
	if r.err != nil {
		return r.err
	}
	if p.fsst != nil {
		p.noteExpansion(uint64(len(b)), uint64(len(vals.Data)-start))
	}
	if !p.Set.HasLists() {
		raw.Rep = nil
	}
	if p.Layout.GetBitsDef() == 0 {
		raw.Def = nil
	}
	appendLevels(lv, raw)
	return nil
}

// appendValue reads one length-prefixed value and appends its bytes.
func (p *FullZipPage) appendValue(r *byteReader, vals *Values) error {
	v := r.take(r.lenPrefix(p.lenBytes))
	if r.err != nil {
		return r.err
	}
	if p.fsst == nil {
		vals.Data = append(vals.Data, v...)
		return nil
	}
	if worst := len(v)*fsstValueExpansion + fsstValueSlack; cap(vals.Data)-len(vals.Data) < worst {
		vals.growData(worst) // geometric, in the allocator's memory
	}
	var err error
	vals.Data, err = p.fsst.Decompress(vals.Data, v)
	return err
}
