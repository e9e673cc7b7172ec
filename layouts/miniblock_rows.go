package layouts

import (
	"fmt"
	"slices"

	"github.com/lancego/lancego/codecs"
)

// DecodeRows decodes page rows [from, to) from the chunks of span, whose
// bytes are given in order (one slice per chunk), and appends their levels
// and values to lv and vals.
//
// memo, when not nil, keeps decoded chunks across calls so that rows taken
// one by one from the same chunk decode it once.
//
// Values are always copied out of the chunks, never aliased: once the
// read's levels and memo are dropped, nothing refers to the chunks' bytes,
// so a scan can reuse a page's read buffer for later reads.
func (p *MiniBlockPage) DecodeRows(span ChunkSpan, chunks [][]byte, from, to uint64, lv *Levels, vals *Values, memo *ChunkMemo) error {
	if len(chunks) != span.Last-span.First+1 {
		return fmt.Errorf("%w: %d chunk buffers for span %v", ErrCorrupt, len(chunks), span)
	}
	if t, flat := p.directWidth(); t > 0 {
		return p.decodeDirectRows(t, flat, span, chunks, from, to, lv, vals, memo)
	}
	if ok, flat := p.dictDirect(); ok && to-from > 1 {
		return p.decodeDictDirectRows(flat, span, chunks, from, to, lv, vals, memo)
	}
	memo.evictBefore(span.First)
	var inline [2]DecodedChunk // most pieces touch one or two chunks
	blocks := inline[:0]
	for i, b := range chunks {
		dc, err := p.decodeChunkMemo(span.First+i, b, memo)
		if err != nil {
			return err
		}
		blocks = append(blocks, dc)
	}
	if len(blocks) > 1 {
		parts, vlo, vhi, err := p.locateSpan(span, blocks, from, to)
		if err != nil {
			return err
		}
		appendLevelParts(lv, parts, memo.lender())
		return p.appendValues(blocks, uint64(vlo), uint64(vhi), vals)
	}
	// One chunk's levels are used in place (copied if they live in an
	// arena buffer).
	all := blocks[0].Levels
	lo, hi, vlo, vhi, err := p.locateRows(span, all, from, to, memo)
	if err != nil {
		return err
	}
	if blocks[0].lent.any() {
		appendLevelsCopy(lv, sliceLevels(all, lo, hi))
	} else {
		appendLevels(lv, sliceLevels(all, lo, hi))
	}
	return p.appendValues(blocks, uint64(vlo), uint64(vhi), vals)
}

// locateSpan finds rows [from, to) in the decoded chunks of a span of
// several chunks and returns their levels (a part of each chunk's) and the
// visible values [vlo, vhi) they hold, counted from the span's first value.
// Only the first chunk is searched for the first row and only the last
// one for the end: the chunk table says which rows start where, and the
// chunks between are taken whole.
func (p *MiniBlockPage) locateSpan(span ChunkSpan, blocks []DecodedChunk, from, to uint64) (parts []Levels, vlo, vhi int, err error) {
	fc, lc := p.Chunks[span.First], p.Chunks[span.Last]
	first, last := blocks[0].Levels, blocks[len(blocks)-1].Levels
	if from < fc.FirstRow || to < lc.FirstRow {
		return nil, 0, 0, fmt.Errorf("%w: rows [%d,%d) outside chunks %v", ErrCorrupt, from, to, span)
	}
	lo, ok := p.rowEntry(first, from-fc.FirstRow)
	if !ok || lo >= first.N {
		return nil, 0, 0, fmt.Errorf("%w: row %d not found in chunk %d", ErrCorrupt, from, span.First)
	}
	hi, ok := p.rowEntry(last, to-lc.FirstRow)
	if !ok {
		hi = last.N
	}
	parts = make([]Levels, len(blocks))
	for i := range blocks {
		parts[i] = blocks[i].Levels
		if i < len(blocks)-1 {
			vhi += p.visibleIn(blocks[i])
		}
	}
	parts[0] = sliceLevels(first, lo, first.N)
	parts[len(parts)-1] = sliceLevels(last, 0, hi)
	vlo = lo
	if p.Set.HasLists() {
		vlo = visibleBefore(first, lo, p.Set.MaxVisibleDef)
		vhi += visibleBefore(last, hi, p.Set.MaxVisibleDef)
	} else {
		vhi += hi
	}
	return parts, vlo, vhi, nil
}

// rowEntry returns the index of the entry where a chunk's k-th starting
// row starts (without lists, entry k), and false when the chunk's levels
// do not reach it.
func (p *MiniBlockPage) rowEntry(lv Levels, k uint64) (int, bool) {
	if !p.Set.HasLists() {
		if k > uint64(lv.N) {
			return 0, false
		}
		return int(k), true
	}
	i := nthRowStart(lv.Rep, 0, k, p.Set.MaxRep)
	return i, i >= 0
}

// visibleIn returns how many values a whole chunk's entries hold: its
// visible entries with lists, every entry without.
func (p *MiniBlockPage) visibleIn(dc DecodedChunk) int {
	if !p.Set.HasLists() {
		return dc.Levels.N
	}
	return int(dc.Values.NumValues)
}

// locateRows returns the level entries [lo, hi) of rows [from, to) in all
// (the levels of span's single chunk) and the visible values [vlo, vhi)
// they hold. Without lists every entry is a row and carries a value
// (levels above the maximum are rejected when unraveled). With lists, the
// memo's cursor lets rows taken one by one in ascending order resume the
// chunk's scan where the last ones ended instead of rescanning it.
func (p *MiniBlockPage) locateRows(span ChunkSpan, all Levels, from, to uint64, memo *ChunkMemo) (lo, hi, vlo, vhi int, err error) {
	first := p.Chunks[span.First]
	if !p.Set.HasLists() {
		lo, hi, err = p.entryRange(all, first, from, to)
		return lo, hi, lo, hi, err
	}
	if from < first.FirstRow || to < from || len(all.Rep) < all.N {
		return 0, 0, 0, 0, fmt.Errorf("%w: rows [%d,%d) outside chunk %d", ErrCorrupt, from, to, span.First)
	}
	return memo.locateList(span.First, all, from-first.FirstRow, to-from, p.Set)
}

// entryRange finds the level entries of rows [from, to) in the levels of
// chunk first (rowEntry for both ends).
func (p *MiniBlockPage) entryRange(all Levels, first MiniBlockChunk, from, to uint64) (int, int, error) {
	lo, ok := p.rowEntry(all, from-first.FirstRow)
	if !ok {
		return 0, 0, fmt.Errorf("%w: row %d not found in its chunks", ErrCorrupt, from)
	}
	hi, ok := p.rowEntry(all, to-first.FirstRow)
	if !ok {
		if !p.Set.HasLists() {
			return 0, 0, fmt.Errorf("%w: rows [%d,%d) beyond decoded chunks", ErrCorrupt, from, to)
		}
		hi = all.N // the last row ends with the chunk
	}
	return lo, hi, nil
}

// nthRowStart returns the index of the row start (an entry with repetition
// level maxRep) that has k row starts before it in rep[at:], or -1. The
// only branch taken per entry is the loop's exit test, so random row
// lengths cost no mispredictions.
func nthRowStart(rep []uint16, at int, k uint64, maxRep uint16) int {
	var seen uint64
	for i := at; i < len(rep); i++ {
		seen += uint64(b2i(rep[i] == maxRep))
		if seen > k {
			return i
		}
	}
	return -1
}

// gatheredBytes is the dictionary bytes values [vlo, vhi) of the decoded
// chunks gather: counted when the dictionary has more entries than the
// values, else estimated from its mean entry (a pass over the indices
// was ~7% of a scan of short dictionary strings; a gather that needs more
// grows its bytes by doubling).
func (p *MiniBlockPage) gatheredBytes(blocks []DecodedChunk, vlo, vhi uint64) uint64 {
	if t := p.dict; t != nil && t.maxLen <= dictPad {
		return t.bytesFor(vhi - vlo) // what gatherWords needs
	}
	if d := p.Dictionary; d.NumValues > 0 && d.NumValues <= vhi-vlo {
		return (vhi - vlo) * uint64(len(d.Data)) / d.NumValues * 9 / 8
	}
	var base, total uint64
	for i := range blocks {
		b := &blocks[i].Values
		if lo, hi := max(vlo, base), min(vhi, base+b.NumValues); lo < hi {
			total += gatherSize(p.Dictionary, b, lo-base, hi-base)
		}
		base += b.NumValues
	}
	return total
}

// appendValues appends visible values [vlo, vhi) of the decoded chunks,
// translating dictionary indices when the page has a dictionary.
func (p *MiniBlockPage) appendValues(blocks []DecodedChunk, vlo, vhi uint64, vals *Values) error {
	if len(blocks) > 1 && p.Dictionary == nil && p.fsst == nil {
		vals.InitShape(&blocks[0].Values)
		vals.reserve(vhi - vlo)
	}
	if len(blocks) > 1 && p.fsst != nil {
		reserveFSST(blocks, vlo, vhi, vals)
	}
	if len(blocks) > 1 && p.Dictionary != nil && p.Dictionary.Kind == codecs.KindVariable {
		vals.InitShape(p.Dictionary)
		vals.reserveGather(p.Dictionary, vhi-vlo, p.gatheredBytes(blocks, vlo, vhi))
	}
	var base uint64
	for i := range blocks {
		b := &blocks[i].Values
		lo, hi := max(vlo, base), min(vhi, base+b.NumValues)
		if lo < hi {
			var err error
			if p.Dictionary != nil {
				err = vals.appendDict(p.dict, p.Dictionary, b, lo-base, hi-base)
			} else if p.fsst != nil {
				err = p.appendFSST(vals, b, lo-base, hi-base)
			} else {
				err = vals.appendBlock(b, lo-base, hi-base, false)
			}
			if err != nil {
				return err
			}
		} else if p.Dictionary != nil {
			vals.InitShape(p.Dictionary)
		} else {
			vals.InitShape(b)
		}
		base += b.NumValues
	}
	if base < vhi {
		return fmt.Errorf("%w: levels expect %d values, chunks hold %d", ErrCorrupt, vhi, base)
	}
	return nil
}

// Runs of at least fsstBulkValues FSST values averaging at least
// fsstBulkBytes compressed bytes are decompressed as one block; shorter runs
// (a take's rows) and short strings, whose codes rarely fill the block
// decoder's eight-code groups within one value, go value by value (faster
// there, measured on 8-24 character strings).
const (
	fsstBulkValues = 16
	fsstBulkBytes  = 24
)

// fsstReserveSlack is room reserved past twice a batch's compressed bytes,
// so that AppendValues' per-value worst-case check (eight bytes a code)
// rarely has to move the batch's data near its end.
const fsstReserveSlack = 4 << 10

// reserveFSST grows vals' bytes once for the FSST values [vlo, vhi) of
// blocks, at twice their compressed size (what AppendValues reserves per
// run), and its offsets for those values, so that the runs of a batch's
// chunks append without regrowing.
func reserveFSST(blocks []DecodedChunk, vlo, vhi uint64, vals *Values) {
	var comp, start uint64
	for i := range blocks {
		b := &blocks[i].Values
		lo, hi := max(vlo, start)-start, min(vhi, start+b.NumValues)
		hi = max(hi, start) - start // chunk-local [lo, hi), empty when outside
		start += b.NumValues
		w := uint64(b.OffsetBits / 8)
		if lo >= hi || b.Kind != codecs.KindVariable || (w != 4 && w != 8) || uint64(len(b.Offsets)) < (hi+1)*w {
			continue
		}
		if s, e := readOffset(b.Offsets, b.OffsetBits, lo), readOffset(b.Offsets, b.OffsetBits, hi); s <= e && e <= uint64(len(b.Data)) {
			comp += e - s
		}
	}
	if comp > 0 && comp < 1<<32 {
		vals.growData(int(2*comp) + fsstReserveSlack)
	}
	if n := int(vhi - vlo); vhi > vlo && vhi-vlo <= 1<<28 {
		if vals.Offsets == nil {
			vals.Offsets = append(vals.newOffsets(n+1), 0)
		} else {
			vals.Offsets = slices.Grow(vals.Offsets, n)
		}
	}
}

// appendFSSTBulk decompresses values [lo, hi) of b as one block, appending
// the bytes and their end offsets to vals.
func (p *MiniBlockPage) appendFSSTBulk(vals *Values, b *codecs.Block, lo, hi uint64) error {
	w := uint64(b.OffsetBits / 8)
	sub := *b
	sub.NumValues, sub.Offsets = hi-lo, b.Offsets[lo*w:(hi+1)*w]
	base := int64(len(vals.Data))
	data, out, err := p.fsst.AppendBlock(vals.Data, sub)
	if err != nil {
		return err
	}
	vals.Data = data
	offs := slices.Grow(vals.Offsets, int(hi-lo))
	for i := uint64(1); i <= hi-lo; i++ {
		offs = append(offs, base+int64(readOffset(out.Offsets, out.OffsetBits, i)))
	}
	vals.Offsets = offs
	vals.N += int(hi - lo)
	return nil
}

// appendFSST decompresses values [lo, hi) of a chunk of FSST strings
// straight into vals (no intermediate block).
func (p *MiniBlockPage) appendFSST(vals *Values, b *codecs.Block, lo, hi uint64) error {
	if b.Kind != codecs.KindVariable || (b.OffsetBits != 32 && b.OffsetBits != 64) ||
		hi > b.NumValues || uint64(len(b.Offsets)) < (b.NumValues+1)*uint64(b.OffsetBits/8) {
		return fmt.Errorf("%w: fsst chunk is not a variable block", ErrCorrupt)
	}
	if vals.Kind == 0 {
		vals.initFrom(b)
	}
	if err := vals.checkShape(b); err != nil {
		return err
	}
	if vals.Offsets[len(vals.Offsets)-1] != int64(len(vals.Data)) {
		return fmt.Errorf("%w: string accumulator out of step", ErrCorrupt)
	}
	if s, e := readOffset(b.Offsets, b.OffsetBits, lo), readOffset(b.Offsets, b.OffsetBits, hi); hi-lo >= fsstBulkValues && e >= s && e-s >= fsstBulkBytes*(hi-lo) {
		return p.appendFSSTBulk(vals, b, lo, hi)
	}
	data, offs, err := p.fsst.AppendValues(vals.Data, vals.Offsets, *b, lo, hi)
	vals.Data, vals.Offsets = data, offs
	if err != nil {
		return err
	}
	vals.N += int(hi - lo)
	return nil
}
