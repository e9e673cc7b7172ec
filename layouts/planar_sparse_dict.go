package layouts

import (
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/lancego/lancego/codecs"
)

// Chunked values of a sparse page hold one value per terminal slot, nulls
// included. With a variable-width dictionary, gathering every slot spent
// half a scan of a 50%-null string column copying the strings of null
// slots; DecodeChunked gathers only the materialized ones (the leaf
// bitmap says which) and leaves the others empty.

// DecodeChunked appends the chunked values of terminal slots [lo, hi)
// (ValueRows of the rows read), which are the Mini page's rows, from the
// chunks of span (one byte slice per chunk, in order) to vals, one per
// leaf slot among them: the stored value of every materialized slot, an
// empty one elsewhere where the page has a variable-width dictionary
// (otherwise every slot's stored value, as MiniBlockPage.DecodeRows).
// Terminal slots the structure drops (under null parents) are skipped.
func (p *SparsePage) DecodeChunked(span ChunkSpan, chunks [][]byte, lo, hi uint64, vals *Values, memo *ChunkMemo) error {
	m := p.Mini
	if m == nil {
		return fmt.Errorf("%w: sparse page without chunked values", ErrCorrupt)
	}
	if p.tree.raw != nil {
		return p.decodeKeptSlots(span, chunks, lo, hi, vals, memo)
	}
	if p.tree.leaf.Validity == nil || m.Dictionary == nil || m.Dictionary.Kind != codecs.KindVariable {
		var discard Levels
		return m.DecodeRows(span, chunks, lo, hi, &discard, vals, memo)
	}
	if len(chunks) != span.Last-span.First+1 || span.First < 0 || span.Last >= len(m.Chunks) {
		return fmt.Errorf("%w: %d chunk buffers for span %v", ErrCorrupt, len(chunks), span)
	}
	base := m.Chunks[span.First].FirstRow
	if lo < base || lo > hi || hi > p.terminal() {
		return fmt.Errorf("%w: leaf slots [%d,%d) outside chunks %v", ErrCorrupt, lo, hi, span)
	}
	dict := m.Dictionary
	vals.InitShape(dict)
	if err := vals.checkShape(dict); err != nil {
		return err
	}
	if n := p.tree.matRank(hi) - p.tree.matRank(lo); dict.NumValues > 0 {
		vals.reserveGather(dict, hi-lo, n*uint64(len(dict.Data))/dict.NumValues*9/8)
	}
	memo.evictBefore(span.First)
	for i, b := range chunks {
		dc, err := m.decodeChunkMemo(span.First+i, b, memo)
		if err != nil {
			return err
		}
		n := dc.Values.NumValues
		if a, z := max(lo, base), min(hi, base+n); a < z {
			if err := p.gatherMaterialized(vals, &dc.Values, a-base, z-base, a); err != nil {
				return err
			}
		}
		base += n
	}
	if base < hi {
		return fmt.Errorf("%w: leaf slots [%d,%d): chunks %v hold %d", ErrCorrupt, lo, hi, span, base)
	}
	return nil
}

// gatherMaterialized appends dict[idx[i]] for the indices [from, to) of
// idx whose leaf slot (slot0 for from, counting up) is materialized, an
// empty value for the others.
func (p *SparsePage) gatherMaterialized(vals *Values, idx *codecs.Block, from, to, slot0 uint64) error {
	dict := p.Mini.Dictionary
	if idx.Kind != codecs.KindFixed || idx.BitsPerValue%8 != 0 || idx.BitsPerValue == 0 ||
		idx.BitsPerValue > 64 || len(idx.FSL) > 0 {
		return fmt.Errorf("%w: dictionary indices are not fixed-width integers", ErrCorrupt)
	}
	w := idx.BitsPerValue / 8
	if to > idx.NumValues || uint64(len(idx.Data)) < to*w {
		return fmt.Errorf("%w: dictionary index block too short", ErrCorrupt)
	}
	if w == 4 && p.dictFlat32 {
		return gatherValid32(vals, dict, idx.Data[from*4:to*4], p.tree.leaf.Validity, slot0)
	}
	valid := p.tree.leaf.Validity
	for i := from; i < to; { // runs of materialized slots, then of others
		j := i + 1
		on := isSet(valid, int32(slot0+i-from))
		for j < to && isSet(valid, int32(slot0+j-from)) == on {
			j++
		}
		if !on {
			vals.AppendEmpty(int(j - i))
		} else if err := vals.AppendGather(dict, idx, i, j); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// gatherValid32 is gatherFlat32 over the 32-bit indices ix of slots
// slot0, slot0+1, ... that appends a value only where valid has the
// slot's bit set (an empty one elsewhere, its index unread). The
// dictionary's offsets passed checkedOffsets32. It leaves vals as it was
// on error.
func gatherValid32(vals *Values, dict *codecs.Block, ix, valid []byte, slot0 uint64) error {
	n := uint32(dict.NumValues)
	table := dict.Offsets[:(dict.NumValues+1)*4]
	src := dict.Data
	data, offs := vals.Data, growOffsets(vals.Offsets, len(ix)/4)
	last := offs[len(offs)-1]
	s := slot0
	for i := 0; i+4 <= len(ix); i, s = i+4, s+1 {
		if valid[s/8]&(1<<(s%8)) == 0 {
			offs = append(offs, last)
			continue
		}
		k := binary.LittleEndian.Uint32(ix[i:])
		if k >= n {
			return fmt.Errorf("%w: dictionary index %d of %d entries", ErrCorrupt, k, n)
		}
		var l int
		data, l = vals.appendEntry32(data, src, table, k)
		last += int64(l)
		offs = append(offs, last)
	}
	vals.Data, vals.Offsets = data, offs
	vals.N += len(ix) / 4
	return nil
}

// flatDict32 reports whether a chunked page's dictionary is variable-width
// with 32-bit offsets that checkedOffsets32 accepts (checked once, when
// the page initializes, rather than per gather).
func flatDict32(m *MiniBlockPage) bool {
	d := m.Dictionary
	return d != nil && d.Kind == codecs.KindVariable && d.OffsetBits == 32 && checkedOffsets32(d)
}

// decodeKeptSlots is DecodeChunked for a page whose structure drops
// terminal slots: the slots [lo, hi) are decoded into scratch, and the
// value of each leaf slot among them (a placeholder where it is not
// materialized) is appended.
func (p *SparsePage) decodeKeptSlots(span ChunkSpan, chunks [][]byte, lo, hi uint64, vals *Values, memo *ChunkMemo) error {
	var inner Values
	var discard Levels
	if err := p.Mini.DecodeRows(span, chunks, lo, hi, &discard, &inner, memo); err != nil {
		return err
	}
	if inner.Kind == 0 {
		return nil
	}
	src := inner.Block()
	raw := p.tree.raw
	s := sort.Search(len(raw), func(i int) bool { return uint64(raw[i]) >= lo })
	idx := make([]int32, 0, hi-lo)
	for ; s < len(raw) && uint64(raw[s]) < hi; s++ {
		if p.tree.materialized(uint64(s)) {
			idx = append(idx, int32(uint64(raw[s])-lo))
		} else {
			idx = append(idx, -1)
		}
	}
	return scatter(vals, &src, idx, nil)
}
