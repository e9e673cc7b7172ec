package layouts

import (
	"fmt"

	"github.com/lancego/lancego/codecs"
)

// DecodeRows decodes page rows [from, to) from the chunks of span, whose
// bytes are given in order (one slice per chunk), and appends their levels
// and values to lv and vals.
//
// memo, when not nil, keeps decoded chunks across calls so that rows taken
// one by one from the same chunk decode it once.
func (p *MiniBlockPage) DecodeRows(span ChunkSpan, chunks [][]byte, from, to uint64, lv *Levels, vals *Values, memo ChunkMemo) error {
	if len(chunks) != span.Last-span.First+1 {
		return fmt.Errorf("%w: %d chunk buffers for span %v", ErrCorrupt, len(chunks), span)
	}
	var all Levels
	blocks := make([]DecodedChunk, 0, len(chunks))
	for i, b := range chunks {
		dc, err := p.decodeChunkMemo(span.First+i, b, memo)
		if err != nil {
			return err
		}
		blocks = append(blocks, dc)
		if len(chunks) == 1 {
			all = dc.Levels
		} else {
			appendLevels(&all, dc.Levels)
		}
	}
	first := p.Chunks[span.First]
	lo, hi, err := p.entryRange(all, first, from, to)
	if err != nil {
		return err
	}
	appendLevels(lv, sliceLevels(all, lo, hi))
	vlo := visibleBefore(all, lo, p.Set.MaxVisibleDef)
	vhi := vlo + visibleBefore(sliceLevels(all, lo, hi), hi-lo, p.Set.MaxVisibleDef)
	return p.appendValues(blocks, uint64(vlo), uint64(vhi), vals)
}

// entryRange finds the level entries of rows [from, to) in the levels of a
// run of chunks starting with chunk first.
func (p *MiniBlockPage) entryRange(all Levels, first MiniBlockChunk, from, to uint64) (int, int, error) {
	if !p.Set.HasLists() {
		lo, hi := from-first.FirstRow, to-first.FirstRow
		if hi > uint64(all.N) {
			return 0, 0, fmt.Errorf("%w: rows [%d,%d) beyond decoded chunks", ErrCorrupt, from, to)
		}
		return int(lo), int(hi), nil
	}
	// Row starts are entries whose repetition level is MaxRep; a preamble
	// (the tail of an earlier row) comes before the first of them.
	want := from - first.FirstRow
	n := to - from
	lo, hi := -1, all.N
	var seen uint64
	for i, r := range all.Rep {
		if r != p.Set.MaxRep {
			continue
		}
		if seen == want {
			lo = i
		}
		if seen == want+n {
			hi = i
			break
		}
		seen++
	}
	if lo < 0 {
		return 0, 0, fmt.Errorf("%w: row %d not found in its chunks", ErrCorrupt, from)
	}
	return lo, hi, nil
}

// appendValues appends visible values [vlo, vhi) of the decoded chunks,
// translating dictionary indices when the page has a dictionary.
func (p *MiniBlockPage) appendValues(blocks []DecodedChunk, vlo, vhi uint64, vals *Values) error {
	if len(blocks) > 1 && p.Dictionary == nil && p.fsst == nil {
		vals.InitShape(&blocks[0].Values)
		vals.reserve(vhi - vlo)
	}
	var base uint64
	for i := range blocks {
		b := &blocks[i].Values
		lo, hi := max(vlo, base), min(vhi, base+b.NumValues)
		if lo < hi {
			var err error
			if p.Dictionary != nil {
				err = vals.AppendGather(p.Dictionary, b, lo-base, hi-base)
			} else if p.fsst != nil {
				err = p.appendFSST(vals, b, lo-base, hi-base)
			} else {
				err = vals.Append(b, lo-base, hi-base)
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

// ChunkMemo caches decoded chunks of one page by chunk index.
type ChunkMemo map[int]DecodedChunk

func (p *MiniBlockPage) decodeChunkMemo(i int, b []byte, memo ChunkMemo) (DecodedChunk, error) {
	if dc, ok := memo[i]; ok {
		return dc, nil
	}
	dc, err := p.DecodeChunk(i, b)
	if err == nil && memo != nil {
		memo[i] = dc
	}
	return dc, err
}

// appendFSST decompresses values [lo, hi) of a chunk of FSST strings.
func (p *MiniBlockPage) appendFSST(vals *Values, b *codecs.Block, lo, hi uint64) error {
	if b.Kind != codecs.KindVariable || (b.OffsetBits != 32 && b.OffsetBits != 64) ||
		hi > b.NumValues || uint64(len(b.Offsets)) < (b.NumValues+1)*uint64(b.OffsetBits/8) {
		return fmt.Errorf("%w: fsst chunk is not a variable block", ErrCorrupt)
	}
	w := uint64(b.OffsetBits / 8)
	sub := *b
	sub.NumValues, sub.Offsets = hi-lo, b.Offsets[lo*w:(hi+1)*w]
	out, err := p.fsst.DecompressBlock(sub)
	if err != nil {
		return err
	}
	return vals.Append(&out, 0, out.NumValues)
}
