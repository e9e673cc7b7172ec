package layouts

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/lancego/lancego/codecs"
)

// CanGather reports whether single rows of the page can be read from
// their chunk by GatherChunkRows: no lists or repetition, no FSST, values
// plain flat or inline bit-packed words of 8–64 bits (one value an entry,
// as directWidth) or 32-bit indices into a prepared dictionary
// (dictIndices), and definition levels, if any, out-of-line bit-packed
// 16-bit levels (read one by one from the packed bits).
func (p *MiniBlockPage) CanGather() bool {
	t, _, _ := p.gatherWidth()
	if t == 0 || p.Layout.GetRepCompression() != nil {
		return false
	}
	def := p.Layout.GetDefCompression()
	if def == nil {
		return true
	}
	_, ok := defPacking(p)
	return ok
}

// gatherWidth is the word width GatherChunkRows reads a row's value (or
// dictionary index, dict) as: valueWidth, or 32 for dictIndices pages.
func (p *MiniBlockPage) gatherWidth() (t int, flat, dict bool) {
	if t, flat = p.valueWidth(); t > 0 {
		return t, flat, false
	}
	if ok, flat := p.dictIndices(); ok {
		return 32, flat, true
	}
	return 0, false, false
}

// valueWidth is directWidth without its levels condition: the word width
// of plain flat or inline bit-packed values (0 if the values are not).
func (p *MiniBlockPage) valueWidth() (t int, flat bool) {
	if p.Dictionary != nil || p.fsst != nil || p.Set.HasLists() {
		return 0, false
	}
	var bits uint64
	vc := p.Layout.GetValueCompression()
	if f := vc.GetFlat(); f != nil && f.GetData() == nil {
		bits, flat = f.GetBitsPerValue(), true
	} else if ib := vc.GetInlineBitpacking(); ib != nil && ib.GetValues() == nil {
		bits = ib.GetUncompressedBitsPerValue()
	}
	switch bits {
	case 8, 16, 32, 64:
		return int(bits), flat
	}
	return 0, false
}

// defPacking returns the packed width of a page's definition levels when
// they are out-of-line bit-packed 16-bit levels.
func defPacking(p *MiniBlockPage) (int, bool) {
	o := p.Layout.GetDefCompression().GetOutOfLineBitpacking()
	if o == nil || o.GetUncompressedBitsPerValue() != 16 {
		return 0, false
	}
	f := o.GetValues().GetFlat()
	if f == nil || f.GetData() != nil || f.GetBitsPerValue() > 16 {
		return 0, false
	}
	return int(f.GetBitsPerValue()), true
}

// ChunkOfRow returns the chunk holding page row row on a page without
// lists (CanGather), trying chunk hint and the one after it first (a
// sorted take's next row), and false when no chunk holds it.
func (p *MiniBlockPage) ChunkOfRow(row uint64, hint int) (int, bool) {
	for i := hint; i >= 0 && i < len(p.Chunks) && i <= hint+1; i++ {
		if p.chunkHolds(i, row) {
			return i, true
		}
	}
	if len(p.Chunks) == 0 || row >= p.NumRows {
		return 0, false
	}
	i := p.chunkStartingRow(row)
	return i, p.chunkHolds(i, row)
}

// chunkHolds reports whether the values of chunk i (one a row: no lists)
// include page row row.
func (p *MiniBlockPage) chunkHolds(i int, row uint64) bool {
	c := &p.Chunks[i]
	return row >= c.FirstRow && row-c.FirstRow < c.NumValues
}

// GatherChunkRows appends the levels and values of page rows rows (in the
// order given, repeats allowed), all in chunk i whose bytes are b, on a
// page CanGather accepts: the chunk's header and block headers are read
// once and each row's value (and definition level) straight from the
// chunk, one call for all of a take's rows in the chunk so that their
// memory reads overlap. Every row is checked against the chunk.
func (p *MiniBlockPage) GatherChunkRows(i int, b []byte, rows []uint64, lv *Levels, vals *Values) error {
	t, flat, dict := p.gatherWidth()
	if t == 0 || i < 0 || i >= len(p.Chunks) {
		return fmt.Errorf("%w: chunk %d of %d cannot be gathered", ErrCorrupt, i, len(p.Chunks))
	}
	c := p.Chunks[i]
	if uint64(len(b)) != c.Size {
		return fmt.Errorf("%w: chunk %d has %d bytes, want %d", ErrCorrupt, i, len(b), c.Size)
	}
	var bufArr [1][]byte
	h, bufs, err := p.parseChunkHeader(b, bufArr[:0])
	if err != nil {
		return fmt.Errorf("chunk %d: %w", i, err)
	}
	if len(bufs) != 1 {
		return fmt.Errorf("%w: chunk %d has %d value buffers, want 1", ErrCorrupt, i, len(bufs))
	}
	var def codecs.OutOfLineBitpacked
	if p.Layout.GetDefCompression() != nil {
		if def, err = p.chunkDefs(i, h); err != nil {
			return err
		}
	}
	if dict {
		err = p.gatherDictValues(i, bufs[0], flat, rows, vals)
	} else {
		err = p.gatherValues(i, bufs[0], t, flat, rows, vals)
	}
	if err != nil {
		return err
	}
	appendGatheredLevels(lv, &def, rows, c.FirstRow)
	return nil
}

// chunkDefs checks chunk i's definition levels (one per value: no lists)
// and returns a reader of them.
func (p *MiniBlockPage) chunkDefs(i int, h chunkHeader) (codecs.OutOfLineBitpacked, error) {
	c := p.Chunks[i]
	w, ok := defPacking(p)
	if !ok || h.def == nil || h.numLevels != c.NumValues {
		return codecs.OutOfLineBitpacked{}, fmt.Errorf("%w: chunk %d has %d definition levels for %d values", ErrCorrupt, i, h.numLevels, c.NumValues)
	}
	r, err := codecs.NewOutOfLineBitpacked(h.def, 16, w, c.NumValues)
	if err != nil {
		return r, fmt.Errorf("chunk %d definition levels: %w", i, err)
	}
	return r, nil
}

// gatherValues appends the values of rows (all checked to lie in chunk
// i) from the chunk's value buffer buf to vals.
func (p *MiniBlockPage) gatherValues(i int, buf []byte, t int, flat bool, rows []uint64, vals *Values) error {
	c := p.Chunks[i]
	shape := codecs.Block{Kind: codecs.KindFixed, BitsPerValue: uint64(t)}
	vals.InitShape(&shape)
	if err := vals.checkShape(&shape); err != nil {
		return err
	}
	w := t / 8
	if uint64(len(vals.Data)) != uint64(vals.N)*uint64(w) {
		return fmt.Errorf("%w: value accumulator out of step", ErrCorrupt)
	}
	vals.reserve(uint64(len(rows)))
	var err error
	if flat {
		err = gatherFlat(vals, buf, w, c, rows)
	} else {
		vals.Data, err = codecs.GatherInlineBitpacking(vals.Data, buf, t, c.NumValues, rows, c.FirstRow)
	}
	if err != nil {
		return fmt.Errorf("chunk %d values: %w", i, err)
	}
	vals.N += len(rows)
	return nil
}

// gatherFlat appends the w-byte values of rows of flat chunk c (value
// buffer buf) to vals' data.
func gatherFlat(vals *Values, buf []byte, w int, c MiniBlockChunk, rows []uint64) error {
	if need := c.NumValues * uint64(w); uint64(len(buf)) < need {
		return fmt.Errorf("%w: %d flat values of %d bytes need %d bytes, have %d", ErrCorrupt, c.NumValues, w, need, len(buf))
	}
	n := len(vals.Data)
	vals.Data = slices.Grow(vals.Data, len(rows)*w)[:n+len(rows)*w]
	out := vals.Data[n:]
	for j, r := range rows {
		k := r - c.FirstRow
		if r < c.FirstRow || k >= c.NumValues {
			vals.Data = vals.Data[:n]
			return fmt.Errorf("%w: row %d outside the chunk's rows [%d,%d)", ErrCorrupt, r, c.FirstRow, c.FirstRow+c.NumValues)
		}
		if w == 8 {
			binary.LittleEndian.PutUint64(out[j*8:], binary.LittleEndian.Uint64(buf[k*8:]))
		} else {
			copy(out[j*w:j*w+w], buf[k*uint64(w):(k+1)*uint64(w)])
		}
	}
	return nil
}

// appendGatheredLevels appends one entry a row to lv: the rows' definition
// levels from def when it has any, else none (every row valid).
func appendGatheredLevels(lv *Levels, def *codecs.OutOfLineBitpacked, rows []uint64, base uint64) {
	if def.Len() == 0 {
		appendLevels(lv, Levels{N: len(rows)})
		return
	}
	if lv.Def == nil {
		lv.Def = make([]uint16, lv.N, lv.N+len(rows))
	}
	lv.Def = def.AppendUint16s(slices.Grow(lv.Def, len(rows)), rows, base)
	if lv.Rep != nil {
		lv.Rep = append(lv.Rep, make([]uint16, len(rows))...)
	}
	lv.N += len(rows)
}
