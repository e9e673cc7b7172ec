package layouts

import (
	"fmt"

	"github.com/lancego/lancego/codecs"
)

// dictDirect reports whether a dictionary page's rows can be gathered
// straight from its chunks: dictIndices, and no levels, so a chunk's n
// values are exactly n rows' indices. flat says how they are stored.
func (p *MiniBlockPage) dictDirect() (ok, flat bool) {
	l := p.Layout
	if l.GetRepCompression() != nil || l.GetDefCompression() != nil {
		return false, false
	}
	return p.dictIndices()
}

// dictIndices reports whether a dictionary page's values are 32-bit
// indices into a prepared dictionary (dictTable), stored flat or inline
// bit-packed (what Lance writes), one an entry (no lists or FSST); flat
// says which.
func (p *MiniBlockPage) dictIndices() (ok, flat bool) {
	l := p.Layout
	if p.dict == nil || p.fsst != nil || p.Set.HasLists() {
		return false, false
	}
	if f := l.GetValueCompression().GetFlat(); f != nil && f.GetData() == nil {
		return f.GetBitsPerValue() == 32, true
	}
	if ib := l.GetValueCompression().GetInlineBitpacking(); ib != nil && ib.GetValues() == nil {
		return ib.GetUncompressedBitsPerValue() == 32, false
	}
	return false, false
}

// decodeDictDirectRows is DecodeRows for runs of rows of dictDirect pages
// (a scan's batches): the indices of rows [from, to) are unpacked from
// each chunk, only the blocks asked for (DecodeInlineBitpackingRange),
// into a scratch buffer lent by the memo's arena, and gathered through
// the page's table; no chunk block, levels or memo entry is made. A
// take's short row runs are gathered per chunk instead (GatherChunkRows,
// gatherDictValues): all of a chunk's asked rows in one call.
func (p *MiniBlockPage) decodeDictDirectRows(flat bool, span ChunkSpan, chunks [][]byte, from, to uint64, lv *Levels, vals *Values, memo *ChunkMemo) error {
	memo.evictBefore(span.First)
	vals.InitShape(p.Dictionary)
	if err := vals.checkShape(p.Dictionary); err != nil {
		return err
	}
	if to-from > 1 && to-from <= 1<<28 { // a batch: its bytes at once
		vals.growOffsetsMem(int(to - from))
		vals.growData(int(min(p.dict.bytesFor(to-from), maxGatherReserve)))
	}
	var arena *ChunkArena
	if memo != nil {
		arena = memo.arena
	}
	scratch := arena.get()
	defer func() { arena.put(scratch) }()
	for i, b := range chunks {
		ci := span.First + i
		c := p.Chunks[ci]
		lo, hi := max(from, c.FirstRow)-c.FirstRow, min(to, c.FirstRow+c.NumValues)-c.FirstRow
		if lo >= hi {
			continue
		}
		ix, err := p.chunkIndices(ci, b, flat, lo, hi, scratch[:0])
		if err != nil {
			return err
		}
		if !flat {
			scratch = ix
		}
		if err := vals.gatherTable(p.dict, ix); err != nil {
			return fmt.Errorf("chunk %d: %w", ci, err)
		}
	}
	appendLevels(lv, Levels{N: int(to - from)})
	return nil
}

// chunkIndices returns the 32-bit indices [lo, hi) of chunk i (bytes b):
// a part of the chunk's buffer when flat, else unpacked into dst.
func (p *MiniBlockPage) chunkIndices(i int, b []byte, flat bool, lo, hi uint64, dst []byte) ([]byte, error) {
	c := p.Chunks[i]
	if uint64(len(b)) != c.Size {
		return nil, fmt.Errorf("%w: chunk %d has %d bytes, want %d", ErrCorrupt, i, len(b), c.Size)
	}
	var bufArr [1][]byte
	_, bufs, err := p.parseChunkHeader(b, bufArr[:0])
	if err != nil {
		return nil, fmt.Errorf("chunk %d: %w", i, err)
	}
	if len(bufs) != 1 {
		return nil, fmt.Errorf("%w: chunk %d has %d value buffers, want 1", ErrCorrupt, i, len(bufs))
	}
	if flat {
		if uint64(len(bufs[0])) < c.NumValues*4 {
			return nil, fmt.Errorf("%w: chunk %d: %d flat indices need %d bytes, have %d", ErrCorrupt, i, c.NumValues, c.NumValues*4, len(bufs[0]))
		}
		return bufs[0][lo*4 : hi*4], nil
	}
	out, err := codecs.DecodeInlineBitpackingRange(dst, bufs[0], 32, c.NumValues, lo, hi)
	if err != nil {
		return nil, fmt.Errorf("chunk %d indices: %w", i, err)
	}
	if uint64(len(out)) != (hi-lo)*4 {
		return nil, fmt.Errorf("%w: chunk %d: %d index bytes for %d rows", ErrCorrupt, i, len(out), hi-lo)
	}
	return out, nil
}

// gatherBatch is how many rows' dictionary indices gatherDictValues reads
// into its stack buffer before expanding them through the table.
const gatherBatch = 128

// gatherDictValues appends the dictionary entries of rows (all in chunk
// i) to vals: their 32-bit indices are read from the chunk's value buffer
// buf (flat, or gathered from the inline bit-packed blocks), a batch at a
// time into a stack buffer, and expanded through the page's table, which
// checks each index against the dictionary's size.
func (p *MiniBlockPage) gatherDictValues(i int, buf []byte, flat bool, rows []uint64, vals *Values) error {
	c := p.Chunks[i]
	vals.InitShape(p.Dictionary)
	if err := vals.checkShape(p.Dictionary); err != nil {
		return err
	}
	if flat && uint64(len(buf)) < c.NumValues*4 {
		return fmt.Errorf("%w: chunk %d: %d flat indices need %d bytes, have %d", ErrCorrupt, i, c.NumValues, c.NumValues*4, len(buf))
	}
	var ixArr [gatherBatch * 4]byte
	for len(rows) > 0 {
		part := rows[:min(len(rows), gatherBatch)]
		rows = rows[len(part):]
		ix, err := gatherIndices(ixArr[:0], buf, flat, c, part)
		if err != nil {
			return fmt.Errorf("chunk %d indices: %w", i, err)
		}
		if err := vals.gatherTable(p.dict, ix); err != nil {
			return fmt.Errorf("chunk %d: %w", i, err)
		}
	}
	return nil
}

// gatherIndices appends the 32-bit indices of rows of chunk c (value
// buffer buf, flat ones checked to hold the chunk's values) to dst.
func gatherIndices(dst, buf []byte, flat bool, c MiniBlockChunk, rows []uint64) ([]byte, error) {
	if !flat {
		return codecs.GatherInlineBitpacking(dst, buf, 32, c.NumValues, rows, c.FirstRow)
	}
	for _, r := range rows {
		k := r - c.FirstRow
		if r < c.FirstRow || k >= c.NumValues {
			return dst, fmt.Errorf("%w: row %d outside the chunk's rows [%d,%d)", ErrCorrupt, r, c.FirstRow, c.FirstRow+c.NumValues)
		}
		dst = append(dst, buf[k*4:k*4+4]...)
	}
	return dst, nil
}
