package layouts

import (
	"fmt"

	"github.com/lancego/lancego/codecs"
)

// directWidth returns the word width of a page whose chunks can be decoded
// straight into the accumulator (0 if they cannot): no levels, no lists,
// no dictionary, and values that are plain inline bit-packed integers or
// flat words (flat reports which), so a chunk's n values are exactly n
// rows of fixed-width words.
func (p *MiniBlockPage) directWidth() (t int, flat bool) {
	l := p.Layout
	if l.GetRepCompression() != nil || l.GetDefCompression() != nil {
		return 0, false
	}
	return p.valueWidth()
}

// decodeDirectRows is DecodeRows for pages with a direct width t: the
// asked values of each chunk are unpacked straight into vals' own buffer
// (no chunk block, no copy, no memo: a chunk's block headers are read
// again per call, which costs less than decoding the chunk whole). Flat
// chunks are copied into vals whole or in part.
func (p *MiniBlockPage) decodeDirectRows(t int, flat bool, span ChunkSpan, chunks [][]byte, from, to uint64, lv *Levels, vals *Values, memo *ChunkMemo) error {
	memo.evictBefore(span.First)
	shape := codecs.Block{Kind: codecs.KindFixed, BitsPerValue: uint64(t)}
	vals.InitShape(&shape)
	if err := vals.checkShape(&shape); err != nil {
		return err
	}
	slack := uint64(codecs.FastLanesBlockValues) // unpacking writes a block of slack
	if flat {
		slack = 0
	}
	vals.reserve(to - from + slack)
	for i, b := range chunks {
		ci := span.First + i
		c := p.Chunks[ci]
		lo, hi := max(from, c.FirstRow)-c.FirstRow, min(to, c.FirstRow+c.NumValues)-c.FirstRow
		if lo >= hi {
			continue
		}
		if flat {
			if err := p.copyFlatChunk(ci, b, t/8, lo, hi, vals); err != nil {
				return err
			}
			continue
		}
		if err := p.unpackChunkInto(ci, b, t, lo, hi, vals); err != nil {
			return err
		}
	}
	appendLevels(lv, Levels{N: int(to - from)})
	return nil
}

// copyFlatChunk appends values [lo, hi) of flat chunk i (w bytes each) to
// vals' data.
func (p *MiniBlockPage) copyFlatChunk(i int, b []byte, w int, lo, hi uint64, vals *Values) error {
	buf, err := p.directBuffer(i, b, vals, w)
	if err != nil {
		return err
	}
	if need := p.Chunks[i].NumValues * uint64(w); uint64(len(buf)) < need {
		return fmt.Errorf("%w: chunk %d: %d flat values of %d bytes need %d bytes, have %d", ErrCorrupt, i, p.Chunks[i].NumValues, w, need, len(buf))
	}
	vals.Data = append(vals.Data, buf[lo*uint64(w):hi*uint64(w)]...)
	vals.N += int(hi - lo)
	return nil
}

// directBuffer checks chunk i of a direct page and returns its one value
// buffer; vals must hold w bytes per value so far.
func (p *MiniBlockPage) directBuffer(i int, b []byte, vals *Values, w int) ([]byte, error) {
	if uint64(len(b)) != p.Chunks[i].Size {
		return nil, fmt.Errorf("%w: chunk %d has %d bytes, want %d", ErrCorrupt, i, len(b), p.Chunks[i].Size)
	}
	var bufArr [1][]byte
	_, bufs, err := p.parseChunkHeader(b, bufArr[:0])
	if err != nil {
		return nil, fmt.Errorf("chunk %d: %w", i, err)
	}
	if len(bufs) != 1 {
		return nil, fmt.Errorf("%w: chunk %d has %d value buffers, want 1", ErrCorrupt, i, len(bufs))
	}
	if uint64(len(vals.Data)) != uint64(vals.N)*uint64(w) {
		return nil, fmt.Errorf("%w: value accumulator out of step", ErrCorrupt)
	}
	return bufs[0], nil
}

// unpackChunkInto appends values [lo, hi) of chunk i to vals' data,
// decoding only the blocks, or within a block only the values, asked for
// (a row taken alone reads its value straight from the packed bits).
func (p *MiniBlockPage) unpackChunkInto(i int, b []byte, t int, lo, hi uint64, vals *Values) error {
	c := p.Chunks[i]
	buf, err := p.directBuffer(i, b, vals, t/8)
	if err != nil {
		return err
	}
	var data []byte
	if lo == 0 && hi == c.NumValues {
		data, err = codecs.DecodeInlineBitpacking(vals.Data, buf, t, c.NumValues)
	} else {
		data, err = codecs.DecodeInlineBitpackingRange(vals.Data, buf, t, c.NumValues, lo, hi)
	}
	if err != nil {
		return fmt.Errorf("chunk %d values: %w", i, err)
	}
	vals.Data = data
	vals.N += int(hi - lo)
	return nil
}
