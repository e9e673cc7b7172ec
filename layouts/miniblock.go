package layouts

import (
	"encoding/binary"
	"fmt"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// Page buffer indices of a mini-block page.
const (
	miniBlockMetaBuffer = 0
	miniBlockDataBuffer = 1
	miniBlockDictBuffer = 2
)

// MiniBlockChunk is one chunk of a mini-block page.
type MiniBlockChunk struct {
	// Offset and Size locate the chunk inside the page's data buffer.
	Offset, Size uint64
	// NumValues is the number of values (visible items) in the chunk.
	NumValues uint64
	// FirstRow is the page-relative row that starts first in the chunk.
	FirstRow uint64
	// RowsStarting is the number of rows that start in the chunk.
	RowsStarting uint64
	// Preamble says the chunk begins with the tail of a row from a previous chunk.
	Preamble bool
	// Trailer says the chunk's last row continues into the next chunk.
	Trailer bool
}

// MiniBlockPage is a mini-block page after initialization: chunk table,
// dictionary and repetition index decoded. It is immutable and safe for
// concurrent use, so it can live in the search cache.
type MiniBlockPage struct {
	Layout  *pb.MiniBlockLayout
	Set     LayerSet
	NumRows uint64
	Chunks  []MiniBlockChunk
	// Dictionary holds the decoded dictionary items, if the page has one.
	Dictionary *codecs.Block
	// dict is Dictionary prepared for expanding gathers (variable-width
	// dictionaries with sound offsets; nil otherwise).
	dict     *dictTable
	wordSize int
	// fsst, when the values are FSST strings (without a dictionary), is the
	// page's symbol table: chunks then decode to compressed strings and
	// only the values a read keeps are decompressed.
	fsst      *codecs.FSSTTable
	fsstInner *pb.CompressiveEncoding
	// rowEnds[i] is Chunks[i].FirstRow + Chunks[i].RowsStarting: the
	// chunk search of a take reads 8 bytes a chunk, not a whole chunk entry.
	rowEnds []uint64
}

// MiniBlockMeta are the initialization buffers of a mini-block page.
type MiniBlockMeta struct {
	ChunkWords, Dictionary, RepIndex []byte
}

// MiniBlockMetaBuffers returns the page buffer indices needed to initialize
// a mini-block page: chunk words, then the dictionary and repetition index
// when present (-1 for absent ones).
func MiniBlockMetaBuffers(l *pb.MiniBlockLayout, numBuffers int) (dict, repIndex int) {
	dict, repIndex = -1, -1
	next := miniBlockDictBuffer
	if l.GetDictionary() != nil {
		dict = next
		next++
	}
	if l.GetRepetitionIndexDepth() > 0 {
		repIndex = next
	}
	return dict, repIndex
}

// NewMiniBlockPage parses a mini-block page's metadata buffers.
func NewMiniBlockPage(l *pb.MiniBlockLayout, numRows, dataSize uint64, meta MiniBlockMeta) (*MiniBlockPage, error) {
	set, err := NewLayerSet(l.GetLayers())
	if err != nil {
		return nil, err
	}
	p := &MiniBlockPage{Layout: l, Set: set, NumRows: numRows, wordSize: 2}
	if l.GetHasLargeChunk() {
		p.wordSize = 4
	}
	if l.GetValueCompression() == nil {
		return nil, fmt.Errorf("%w: mini-block page without value compression", ErrCorrupt)
	}
	if err := p.parseChunks(meta.ChunkWords, dataSize); err != nil {
		return nil, err
	}
	if err := p.assignRows(meta.RepIndex); err != nil {
		return nil, err
	}
	p.indexRowEnds()
	if f := l.GetValueCompression().GetFsst(); f != nil && l.GetDictionary() == nil {
		if p.fsst, err = codecs.ParseFSSTTable(f.GetSymbolTable()); err != nil {
			return nil, err
		}
		p.fsstInner = f.GetValues()
	}
	if l.GetDictionary() != nil {
		if err := p.initDictionary(l, meta.Dictionary); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// initDictionary decodes the page's dictionary and prepares it for
// expanding gathers (newDictTable), the table's padded bytes then backing
// Dictionary too (one copy of the bytes per page).
func (p *MiniBlockPage) initDictionary(l *pb.MiniBlockLayout, buf []byte) error {
	d, err := codecs.DecodeBlock(l.GetDictionary(), buf, l.GetNumDictionaryItems())
	if err != nil {
		return fmt.Errorf("dictionary: %w", err)
	}
	p.Dictionary = &d
	p.dict = newDictTable(p.Dictionary)
	if p.dict != nil && p.dict.offs[0] == 0 {
		n := len(p.dict.data) - dictPad
		d.Data = p.dict.data[:n:n]
	}
	return nil
}

func (p *MiniBlockPage) parseChunks(words []byte, dataSize uint64) error {
	if len(words)%p.wordSize != 0 {
		return fmt.Errorf("%w: chunk table of %d bytes is not a multiple of %d", ErrCorrupt, len(words), p.wordSize)
	}
	n := len(words) / p.wordSize
	p.Chunks = make([]MiniBlockChunk, n)
	var off, items uint64
	total := p.Layout.GetNumItems()
	for i := 0; i < n; i++ {
		var w uint64
		if p.wordSize == 2 {
			w = uint64(binary.LittleEndian.Uint16(words[2*i:]))
		} else {
			w = uint64(binary.LittleEndian.Uint32(words[4*i:]))
		}
		size := ((w >> 4) + 1) * 8
		count := uint64(1) << (w & 0xF)
		if i == n-1 {
			if items > total {
				return fmt.Errorf("%w: chunks hold more than the page's %d items", ErrCorrupt, total)
			}
			count = total - items
			if w&0xF != 0 && count != uint64(1)<<(w&0xF) {
				return fmt.Errorf("%w: last chunk says %d values, page leaves %d", ErrCorrupt, uint64(1)<<(w&0xF), count)
			}
		}
		if count > size*255+4096 {
			return fmt.Errorf("%w: chunk %d claims %d values in %d bytes", ErrCorrupt, i, count, size)
		}
		if off+size > dataSize {
			return fmt.Errorf("%w: chunk %d [%d,+%d) beyond data buffer of %d bytes", ErrCorrupt, i, off, size, dataSize)
		}
		p.Chunks[i] = MiniBlockChunk{Offset: off, Size: size, NumValues: count}
		off += size
		items += count
	}
	if n == 0 && total != 0 {
		return fmt.Errorf("%w: no chunks for %d items", ErrCorrupt, total)
	}
	return nil
}

// assignRows computes each chunk's first row from the repetition index, or
// from value counts when the page has no repetition.
func (p *MiniBlockPage) assignRows(repIndex []byte) error {
	depth := uint64(p.Layout.GetRepetitionIndexDepth())
	if depth == 0 {
		if p.Set.HasLists() {
			return fmt.Errorf("%w: list page without a repetition index", ErrUnsupported)
		}
		var row uint64
		for i := range p.Chunks {
			c := &p.Chunks[i]
			c.FirstRow, c.RowsStarting = row, c.NumValues
			row += c.NumValues
		}
		return p.checkRowTotal(row)
	}
	stride := (depth + 1) * 8
	if depth > 16 || uint64(len(repIndex)) != stride*uint64(len(p.Chunks)) {
		return fmt.Errorf("%w: repetition index of %d bytes for %d chunks at depth %d", ErrCorrupt, len(repIndex), len(p.Chunks), depth)
	}
	var row uint64
	prevTrailer := false
	for i := range p.Chunks {
		c := &p.Chunks[i]
		ends := binary.LittleEndian.Uint64(repIndex[uint64(i)*stride:])
		partial := binary.LittleEndian.Uint64(repIndex[uint64(i)*stride+depth*8:])
		c.Preamble, c.Trailer = prevTrailer, partial > 0
		starting := ends
		if c.Trailer {
			starting++
		}
		if c.Preamble {
			if starting == 0 {
				return fmt.Errorf("%w: repetition index of chunk %d", ErrCorrupt, i)
			}
			starting--
		}
		if starting > p.NumRows {
			return fmt.Errorf("%w: chunk %d starts %d rows", ErrCorrupt, i, starting)
		}
		c.FirstRow, c.RowsStarting = row, starting
		row += starting
		prevTrailer = c.Trailer
	}
	return p.checkRowTotal(row)
}

// indexRowEnds fills rowEnds from the chunks' rows.
func (p *MiniBlockPage) indexRowEnds() {
	p.rowEnds = make([]uint64, len(p.Chunks))
	for i, c := range p.Chunks {
		p.rowEnds[i] = c.FirstRow + c.RowsStarting
	}
}

func (p *MiniBlockPage) checkRowTotal(rows uint64) error {
	if rows != p.NumRows {
		return fmt.Errorf("%w: chunks hold %d rows, page has %d", ErrCorrupt, rows, p.NumRows)
	}
	return nil
}
