package layouts

import (
	"fmt"

	"github.com/lancego/lancego/codecs"
)

// directWidth returns the word width of a page whose chunks can be decoded
// straight into the accumulator (0 if they cannot): no levels, no lists,
// no dictionary, and values that are plain inline bit-packed integers, so
// a chunk's n values are exactly n rows of fixed-width words.
func (p *MiniBlockPage) directWidth() int {
	l := p.Layout
	if l.GetRepCompression() != nil || l.GetDefCompression() != nil || p.Dictionary != nil ||
		p.fsst != nil || p.Set.HasLists() {
		return 0
	}
	ib := l.GetValueCompression().GetInlineBitpacking()
	if ib == nil || ib.GetValues() != nil {
		return 0
	}
	switch t := ib.GetUncompressedBitsPerValue(); t {
	case 8, 16, 32, 64:
		return int(t)
	}
	return 0
}

// decodeDirectRows is DecodeRows for pages with a direct width t: chunks
// wholly inside [from, to) are unpacked into vals' own buffer (no chunk
// block, no copy); the chunks at the edges go through the memo.
func (p *MiniBlockPage) decodeDirectRows(t int, span ChunkSpan, chunks [][]byte, from, to uint64, lv *Levels, vals *Values, memo *ChunkMemo) error {
	memo.evictBefore(span.First)
	shape := codecs.Block{Kind: codecs.KindFixed, BitsPerValue: uint64(t)}
	vals.InitShape(&shape)
	if err := vals.checkShape(&shape); err != nil {
		return err
	}
	vals.reserve(to - from + codecs.FastLanesBlockValues) // unpacking writes a block of slack
	for i, b := range chunks {
		ci := span.First + i
		c := p.Chunks[ci]
		lo, hi := max(from, c.FirstRow)-c.FirstRow, min(to, c.FirstRow+c.NumValues)-c.FirstRow
		if lo >= hi {
			continue
		}
		if lo == 0 && hi == c.NumValues {
			if err := p.unpackChunkInto(ci, b, t, vals); err != nil {
				return err
			}
			continue
		}
		dc, err := p.decodeChunkMemo(ci, b, memo)
		if err != nil {
			return err
		}
		if err := vals.appendBlock(&dc.Values, lo, hi, !dc.lent.any()); err != nil {
			return err
		}
	}
	appendLevels(lv, Levels{N: int(to - from)})
	return nil
}

// unpackChunkInto appends all values of chunk i to vals' data.
func (p *MiniBlockPage) unpackChunkInto(i int, b []byte, t int, vals *Values) error {
	c := p.Chunks[i]
	if uint64(len(b)) != c.Size {
		return fmt.Errorf("%w: chunk %d has %d bytes, want %d", ErrCorrupt, i, len(b), c.Size)
	}
	var bufArr [1][]byte
	_, bufs, err := p.parseChunkHeader(b, bufArr[:0])
	if err != nil {
		return fmt.Errorf("chunk %d: %w", i, err)
	}
	if len(bufs) != 1 {
		return fmt.Errorf("%w: chunk %d has %d value buffers, want 1", ErrCorrupt, i, len(bufs))
	}
	if uint64(len(vals.Data)) != uint64(vals.N)*uint64(t/8) {
		return fmt.Errorf("%w: value accumulator out of step", ErrCorrupt)
	}
	data, err := codecs.DecodeInlineBitpacking(vals.Data, bufs[0], t, c.NumValues)
	if err != nil {
		return fmt.Errorf("chunk %d values: %w", i, err)
	}
	vals.Data = data
	vals.N += int(c.NumValues)
	return nil
}
