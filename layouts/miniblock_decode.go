package layouts

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// ChunkSpan is an inclusive range of chunk indices.
type ChunkSpan struct{ First, Last int }

// ChunksForRows returns the chunks that hold page rows [from, to).
func (p *MiniBlockPage) ChunksForRows(from, to uint64) (ChunkSpan, error) {
	if from >= to || to > p.NumRows {
		return ChunkSpan{}, fmt.Errorf("%w: rows [%d,%d) of a page of %d", ErrCorrupt, from, to, p.NumRows)
	}
	first := p.chunkStartingRow(from)
	last := first
	if to-1 >= p.chunkRowEnd(first) {
		last = p.chunkStartingRow(to - 1)
	}
	// Only the last row starting in a chunk can continue past it.
	if c := p.Chunks[last]; to-1 != c.FirstRow+c.RowsStarting-1 {
		return ChunkSpan{First: first, Last: last}, nil
	}
	for last+1 < len(p.Chunks) && p.Chunks[last].Trailer {
		last++
		if p.Chunks[last].RowsStarting > 0 || !p.Chunks[last].Trailer {
			break
		}
	}
	return ChunkSpan{First: first, Last: last}, nil
}

// chunkStartingRow returns the chunk in which row r starts.
func (p *MiniBlockPage) chunkStartingRow(r uint64) int {
	var i int
	if len(p.rowEnds) == len(p.Chunks) {
		i, _ = slices.BinarySearch(p.rowEnds, r+1) // the first end > r
	} else {
		i = sort.Search(len(p.Chunks), func(i int) bool { return p.chunkRowEnd(i) > r })
	}
	if i == len(p.Chunks) {
		i--
	}
	return i
}

// chunkRowEnd is one past the last row starting in chunk i.
func (p *MiniBlockPage) chunkRowEnd(i int) uint64 {
	return p.Chunks[i].FirstRow + p.Chunks[i].RowsStarting
}

// DecodedChunk is one chunk's levels and values.
type DecodedChunk struct {
	Levels Levels
	Values codecs.Block
	// lent are the arena buffers the levels and values live in; when
	// there are any, they must be copied before they outlive the chunk.
	lent lentBuffers
}

// lentBuffers are the (at most three: repetition, definition, values)
// arena buffers a decoded chunk lives in, kept inline.
type lentBuffers struct {
	bufs [3][]byte
	n    int
}

// any reports whether the chunk lives in arena buffers.
func (l *lentBuffers) any() bool { return l.n > 0 }

// add records b; a fourth buffer is left to the garbage collector.
func (l *lentBuffers) add(b []byte) {
	if l.n < len(l.bufs) {
		l.bufs[l.n] = b
		l.n++
	}
}

// DecodeChunk decodes one chunk's bytes (exactly Chunks[i].Size of them).
func (p *MiniBlockPage) DecodeChunk(i int, b []byte) (DecodedChunk, error) {
	return p.decodeChunk(i, b, nil)
}

// decodeChunk decodes chunk i, into buffers lent by arena when not nil.
func (p *MiniBlockPage) decodeChunk(i int, b []byte, arena *ChunkArena) (DecodedChunk, error) {
	c := p.Chunks[i]
	if uint64(len(b)) != c.Size {
		return DecodedChunk{}, fmt.Errorf("%w: chunk %d has %d bytes, want %d", ErrCorrupt, i, len(b), c.Size)
	}
	var bufArr [4][]byte
	h, bufs, err := p.parseChunkHeader(b, bufArr[:0])
	if err != nil {
		return DecodedChunk{}, fmt.Errorf("chunk %d: %w", i, err)
	}
	var out DecodedChunk
	out.Levels.N = int(h.numLevels)
	if h.rep != nil {
		if out.Levels.Rep, err = out.decodeLevels(arena, p.Layout.GetRepCompression(), h.rep, h.numLevels); err != nil {
			return out, fmt.Errorf("chunk %d repetition levels: %w", i, err)
		}
	}
	if h.def != nil {
		if out.Levels.Def, err = out.decodeLevels(arena, p.Layout.GetDefCompression(), h.def, h.numLevels); err != nil {
			return out, fmt.Errorf("chunk %d definition levels: %w", i, err)
		}
	}
	if h.rep == nil && h.def == nil {
		out.Levels.N = int(c.NumValues)
	}
	enc := p.Layout.GetValueCompression()
	if p.fsst != nil {
		enc = p.fsstInner // compressed strings; see appendValues
	}
	switch {
	case isCodec23(enc):
		out.Values, err = decodeCodec23(enc, bufs, c.NumValues)
	case arena == nil:
		out.Values, err = codecs.DecodeMiniBlock(enc, bufs, c.NumValues)
	default:
		var kept []byte
		s := arena.get()
		out.Values, kept, err = arena.dec.DecodeMiniBlockScratch(s, enc, bufs, c.NumValues)
		out.lend(arena, s, kept)
	}
	if err != nil {
		return out, fmt.Errorf("chunk %d values: %w", i, err)
	}
	if out.Values.NumValues != c.NumValues {
		return out, fmt.Errorf("%w: chunk %d decoded %d values, want %d", ErrCorrupt, i, out.Values.NumValues, c.NumValues)
	}
	return out, nil
}

// lend records kept, the buffer a decoder filled after borrowing s from
// the arena, as holding the chunk's data; s goes back if unused.
func (dc *DecodedChunk) lend(arena *ChunkArena, s, kept []byte) {
	if kept == nil {
		arena.put(s)
		return
	}
	if cap(kept) > 0 {
		dc.lent.add(kept)
	}
}

// decodeLevels decodes one side's levels, into an arena buffer when
// arena is not nil.
func (dc *DecodedChunk) decodeLevels(arena *ChunkArena, enc *pb.CompressiveEncoding, b []byte, n uint64) ([]uint16, error) {
	if arena == nil {
		return decodeLevels(enc, b, n)
	}
	s := arena.get()
	blk, kept, err := codecs.DecodeBlockScratch(s, enc, b, n)
	dc.lend(arena, s, kept)
	if err != nil {
		return nil, err
	}
	return levelsOf(blk, n)
}

type chunkHeader struct {
	numLevels uint64
	rep, def  []byte
}

// parseChunkHeader splits a chunk into its level and value buffers; the
// value buffers are appended to bufs and returned (callers pass an empty
// slice of a small array, so most chunks allocate nothing; it is kept out
// of chunkHeader, whose level buffers escape, so the array does not).
func (p *MiniBlockPage) parseChunkHeader(b []byte, bufs [][]byte) (chunkHeader, [][]byte, error) {
	var h chunkHeader
	nbuf := p.Layout.GetNumBuffers()
	hasRep, hasDef := p.Layout.GetRepCompression() != nil, p.Layout.GetDefCompression() != nil
	if nbuf > 64 {
		return h, nil, fmt.Errorf("%w: %d value buffers per chunk", ErrCorrupt, nbuf)
	}
	r := byteReader{b: b}
	h.numLevels = r.u16()
	var repSize, defSize uint64
	if hasRep {
		repSize = r.u16()
	}
	if hasDef {
		defSize = r.u16()
	}
	var sizeArr [8]uint64
	sizes := sizeArr[:0]
	if nbuf > uint64(len(sizeArr)) {
		sizes = make([]uint64, 0, nbuf)
	}
	sizes = sizes[:nbuf]
	for i := range sizes {
		if p.wordSize == 4 {
			sizes[i] = r.u32()
		} else {
			sizes[i] = r.u16()
		}
	}
	r.pad8()
	if hasRep {
		h.rep = r.take(repSize)
		r.pad8()
	}
	if hasDef {
		h.def = r.take(defSize)
		r.pad8()
	}
	bufs = bufs[:0]
	for _, s := range sizes {
		bufs = append(bufs, r.take(s))
		r.pad8()
	}
	if r.err != nil {
		return h, nil, r.err
	}
	return h, bufs, nil
}

// byteReader reads little-endian fields with sticky bounds errors.
type byteReader struct {
	b   []byte
	off uint64
	err error
}

func (r *byteReader) take(n uint64) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b))-r.off {
		r.err = fmt.Errorf("%w: field of %d bytes at %d overruns %d-byte chunk", ErrCorrupt, n, r.off, len(r.b))
		return nil
	}
	out := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return out
}

func (r *byteReader) u16() uint64 {
	if b := r.take(2); b != nil {
		return uint64(binary.LittleEndian.Uint16(b))
	}
	return 0
}

func (r *byteReader) u32() uint64 {
	if b := r.take(4); b != nil {
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return 0
}

func (r *byteReader) pad8() {
	if r.err != nil {
		return
	}
	p := (8 - r.off%8) % 8
	if p > uint64(len(r.b))-r.off {
		p = uint64(len(r.b)) - r.off
	}
	r.off += p
}
