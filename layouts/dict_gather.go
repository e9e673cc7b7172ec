package layouts

import (
	"encoding/binary"
	"fmt"

	"github.com/lancego/lancego/codecs"
)

// dictPad is the zero padding after a dictTable's bytes: a value of up to
// dictPad bytes is copied as one fixed-size block wherever it starts.
const dictPad = 32

// maxDictTableBytes bounds the dictionaries prepared as tables (their bytes
// are copied once per page); larger ones gather through the checked path.
const maxDictTableBytes = 64 << 20

// dictTable is a page's variable-width dictionary prepared once, when the
// page is initialized, for the gathers that expand its indices: the
// offsets are checked (non-decreasing, within the data) and widened or
// narrowed to 32 bits, and the bytes are followed by dictPad bytes, so
// that per value a gather checks only the index and copies a short value
// as one fixed-size block. It is immutable (pages are shared).
type dictTable struct {
	offs   []uint32 // n+1 offsets into data
	data   []byte   // the values' bytes, then dictPad zero bytes
	n      uint32   // entries
	maxLen uint32   // longest entry
	mean   uint32   // mean entry length, rounded up
}

// bytesFor returns the bytes to reserve for n values gathered from t: what
// gatherWords needs when every value fits a block, else the mean entry's
// share with an eighth more (a gather needing more grows by doubling).
func (t *dictTable) bytesFor(n uint64) uint64 {
	if t.maxLen <= dictPad {
		return n*uint64(wordsFor(t.maxLen)) + dictPad
	}
	return n*uint64(t.mean)*9/8 + dictPad
}

// newDictTable prepares d, or returns nil when d is not a variable-width
// dictionary whose offsets are sound and whose size suits a table (the
// checked gather then reports what is wrong with it).
func newDictTable(d *codecs.Block) *dictTable {
	if d == nil || d.Kind != codecs.KindVariable || d.NumValues >= 1<<31 || len(d.Data) > maxDictTableBytes ||
		d.OffsetBits != 32 && d.OffsetBits != 64 || uint64(len(d.Offsets)) < (d.NumValues+1)*uint64(d.OffsetBits/8) {
		return nil
	}
	t := &dictTable{offs: make([]uint32, d.NumValues+1), n: uint32(d.NumValues)}
	var prev uint64
	for i := range t.offs {
		o := readOffset(d.Offsets, d.OffsetBits, uint64(i))
		if o < prev || o > uint64(len(d.Data)) {
			return nil
		}
		if i > 0 {
			t.maxLen = max(t.maxLen, uint32(o-prev))
		}
		t.offs[i], prev = uint32(o), o
	}
	if t.n > 0 {
		t.mean = uint32((prev - uint64(t.offs[0]) + uint64(t.n) - 1) / uint64(t.n))
	}
	t.data = make([]byte, prev+dictPad)
	copy(t.data, d.Data[t.offs[0]:prev])
	if t.offs[0] != 0 { // rebase (Lance's first offset is 0; a file may differ)
		base := t.offs[0]
		for i := range t.offs {
			t.offs[i] -= base
		}
		t.data = t.data[:prev-uint64(base)+dictPad]
	}
	return t
}

// gatherTable appends t's values for the 32-bit little-endian indices ix
// (4 bytes each). Values of up to dictPad bytes are copied as fixed-size
// blocks into bytes reserved up front (n times the longest value, when
// no value is longer than dictPad; else measured in a first pass), so the
// loop grows nothing. It leaves v as it was on error.
func (v *Values) gatherTable(t *dictTable, ix []byte) error {
	n := len(ix) / 4
	v.growOffsetsMem(n)
	offs := v.Offsets
	base := offs[len(offs)-1] - int64(len(v.Data)) // offsets run ahead of v's bytes by base
	out := offs[len(offs) : len(offs)+n]
	var err error
	if t.maxLen <= dictPad {
		err = v.gatherWords(t, ix, out, wordsFor(t.maxLen), base)
	} else {
		err = v.gatherSized(t, ix, out, base)
	}
	if err != nil {
		return err
	}
	v.Offsets = offs[:len(offs)+n]
	v.N += n
	v.gathered = t
	return nil
}

// gatherWords is gatherTable for dictionaries whose values all fit in
// width (8, 16 or dictPad) bytes: each value is copied as one block of
// width bytes, the next one overwriting the excess.
func (v *Values) gatherWords(t *dictTable, ix []byte, out []int64, width int, base int64) error {
	data := v.roomFor(v.Data, len(out)*width+dictPad)
	dst := data[len(data):cap(data)]
	src, offs, pos := t.data, t.offs, 0
	for j := range out {
		k := binary.LittleEndian.Uint32(ix[4*j:])
		if k >= t.n {
			return fmt.Errorf("%w: dictionary index %d of %d entries", ErrCorrupt, k, t.n)
		}
		lo, hi := offs[k], offs[k+1]
		switch width {
		case 8:
			*(*[8]byte)(dst[pos:]) = *(*[8]byte)(src[lo:])
		case 16:
			*(*[16]byte)(dst[pos:]) = *(*[16]byte)(src[lo:])
		default:
			*(*[dictPad]byte)(dst[pos:]) = *(*[dictPad]byte)(src[lo:])
		}
		pos += int(hi - lo)
		out[j] = base + int64(len(data)+pos)
	}
	v.Data = data[:len(data)+pos]
	return nil
}

// gatherSized is gatherTable for dictionaries with values longer than
// dictPad: a first pass checks the indices and writes the offsets, then
// the bytes are reserved exactly and copied, short values as blocks.
func (v *Values) gatherSized(t *dictTable, ix []byte, out []int64, base int64) error {
	offs, total := t.offs, 0
	for j := range out {
		k := binary.LittleEndian.Uint32(ix[4*j:])
		if k >= t.n {
			return fmt.Errorf("%w: dictionary index %d of %d entries", ErrCorrupt, k, t.n)
		}
		total += int(offs[k+1] - offs[k])
		out[j] = int64(total)
	}
	data := v.roomFor(v.Data, total+dictPad)
	dst := data[len(data) : len(data)+total+dictPad]
	src, pos := t.data, 0
	for j := range out {
		k := binary.LittleEndian.Uint32(ix[4*j:])
		lo, hi := offs[k], offs[k+1]
		if hi-lo <= dictPad {
			*(*[dictPad]byte)(dst[pos:]) = *(*[dictPad]byte)(src[lo:])
		} else {
			copy(dst[pos:], src[lo:hi])
		}
		pos += int(hi - lo)
		out[j] += base + int64(len(data))
	}
	v.Data = data[:len(data)+pos]
	return nil
}

// wordsFor returns the block width (8, 16 or dictPad bytes) gatherWords
// copies values of up to maxLen bytes as.
func wordsFor(maxLen uint32) int {
	switch {
	case maxLen <= 8:
		return 8
	case maxLen <= 16:
		return 16
	}
	return dictPad
}

// appendDict appends dict[idx[i]] for i in [from, to) as AppendGather
// does, through t (dict prepared by newDictTable) when there is one and
// the indices are 32-bit.
func (v *Values) appendDict(t *dictTable, dict, idx *codecs.Block, from, to uint64) error {
	if t == nil || idx.Kind != codecs.KindFixed || idx.BitsPerValue != 32 || len(idx.FSL) > 0 ||
		from > to || to > idx.NumValues || uint64(len(idx.Data)) < to*4 {
		return v.AppendGather(dict, idx, from, to)
	}
	if v.Kind == 0 {
		v.initFrom(dict)
	}
	if v.checkShape(dict) != nil {
		return v.AppendGather(dict, idx, from, to) // reports it
	}
	return v.gatherTable(t, idx.Data[from*4:to*4])
}
