package indices

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// DecodeRoaring decodes a portable 32-bit roaring bitmap (RoaringFormatSpec,
// cookies 12346 and 12347): Lance's fragment_bitmap, FTS deleted_fragments
// and the per-fragment payloads of a RowAddrTreeMap. Empty input is an empty
// bitmap. It reports how many bytes the bitmap used.
func DecodeRoaring(b []byte) (*roaring.Bitmap, int, error) {
	bm := roaring.New()
	if len(b) == 0 {
		return bm, 0, nil
	}
	n, err := safeRead(func() (int64, error) { return bm.ReadFrom(bytes.NewReader(b)) })
	if err != nil {
		return nil, 0, fmt.Errorf("%w: roaring bitmap of %d bytes: %v", ErrCorrupt, len(b), err)
	}
	return bm, int(n), nil
}

// safeRead runs a third-party decoder, turning a panic on hostile bytes
// into an error (the roaring package validates most, not all, inputs).
func safeRead(f func() (int64, error)) (n int64, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = 0, fmt.Errorf("decoder panic: %v", r)
		}
	}()
	return f()
}

// RowAddrEntry is one fragment of a RowAddrTreeMap: either every row of the
// fragment (Full) or the fragment-local offsets in Rows.
type RowAddrEntry struct {
	Fragment uint32
	Full     bool
	Rows     *roaring.Bitmap // nil when Full
}

// RowAddrTreeMap is Lance's serialized set of row addresses
// (fragment << 32 | offset): BITMAP and LABEL_LIST bitmaps, null sets of
// LABEL_LIST, ZONEMAP, BLOOMFILTER and RTREE.
type RowAddrTreeMap struct {
	Entries []RowAddrEntry
}

// Contains reports whether the 64-bit address addr is in the set.
func (t *RowAddrTreeMap) Contains(addr uint64) bool {
	frag, off := uint32(addr>>32), uint32(addr)
	for i := range t.Entries {
		e := &t.Entries[i]
		if e.Fragment == frag {
			return e.Full || e.Rows.Contains(off)
		}
	}
	return false
}

// DecodeRowAddrTreeMap decodes Lance's RowAddrTreeMap serialization:
// u32 LE entry count, then per entry u32 fragment id, u32 byte length and a
// portable roaring bitmap of that length (length 0 = the whole fragment).
func DecodeRowAddrTreeMap(b []byte) (*RowAddrTreeMap, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: row address set of %d bytes", ErrCorrupt, len(b))
	}
	n := binary.LittleEndian.Uint32(b)
	pos := 4
	if uint64(n)*8 > uint64(len(b)-pos) {
		return nil, fmt.Errorf("%w: row address set claims %d entries in %d bytes", ErrCorrupt, n, len(b))
	}
	t := &RowAddrTreeMap{Entries: make([]RowAddrEntry, 0, n)}
	for i := uint32(0); i < n; i++ {
		if len(b)-pos < 8 {
			return nil, fmt.Errorf("%w: row address set entry %d truncated at byte %d", ErrCorrupt, i, pos)
		}
		frag := binary.LittleEndian.Uint32(b[pos:])
		size := binary.LittleEndian.Uint32(b[pos+4:])
		pos += 8
		if uint64(size) > uint64(len(b)-pos) {
			return nil, fmt.Errorf("%w: row address set entry %d (fragment %d): %d bytes at byte %d of %d",
				ErrCorrupt, i, frag, size, pos, len(b))
		}
		e := RowAddrEntry{Fragment: frag, Full: size == 0}
		if size > 0 {
			bm, _, err := DecodeRoaring(b[pos : pos+int(size)])
			if err != nil {
				return nil, fmt.Errorf("row address set entry %d (fragment %d): %w", i, frag, err)
			}
			e.Rows = bm
		}
		pos += int(size)
		t.Entries = append(t.Entries, e)
	}
	return t, nil
}

// DecodeRoaringTreemap decodes the roaring-rs RoaringTreemap format (u64 LE
// count, then per bitmap u32 high key and a portable roaring bitmap without
// a length), which is the portable 64-bit roaring format of roaring64: NGRAM
// posting lists.
func DecodeRoaringTreemap(b []byte) (*roaring64.Bitmap, error) {
	if len(b) < 8 {
		return nil, fmt.Errorf("%w: roaring treemap of %d bytes", ErrCorrupt, len(b))
	}
	// Each bitmap takes at least 4 (key) + 8 (header) bytes: bound the count
	// before the decoder allocates by it.
	if c := binary.LittleEndian.Uint64(b); c > uint64(len(b)-8)/12 {
		return nil, fmt.Errorf("%w: roaring treemap claims %d bitmaps in %d bytes", ErrCorrupt, c, len(b))
	}
	bm := roaring64.New()
	if _, err := safeRead(func() (int64, error) { return bm.ReadFrom(bytes.NewReader(b)) }); err != nil {
		return nil, fmt.Errorf("%w: roaring treemap of %d bytes: %v", ErrCorrupt, len(b), err)
	}
	return bm, nil
}

// AppendRowAddrTreeMap appends the RowAddrTreeMap serialization of the
// row addresses addrs (sorted ascending, no duplicates) to dst: one entry
// per fragment, each a portable roaring bitmap of the offsets (never the
// whole-fragment form), as Lance's BITMAP writer leaves them.
func AppendRowAddrTreeMap(dst []byte, addrs []uint64) ([]byte, error) {
	var frags int
	for i := range addrs {
		if i > 0 && addrs[i] <= addrs[i-1] {
			return nil, fmt.Errorf("row address set: address %d after %d (not ascending)", addrs[i], addrs[i-1])
		}
		if i == 0 || addrs[i]>>32 != addrs[i-1]>>32 {
			frags++
		}
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(frags))
	offs := make([]uint32, 0, min(len(addrs), 1<<16))
	var buf bytes.Buffer
	for lo := 0; lo < len(addrs); {
		frag := addrs[lo] >> 32
		hi := lo
		offs = offs[:0]
		for hi < len(addrs) && addrs[hi]>>32 == frag {
			offs = append(offs, uint32(addrs[hi]))
			hi++
		}
		bm := roaring.BitmapOf(offs...)
		buf.Reset()
		if _, err := bm.WriteTo(&buf); err != nil {
			return nil, err
		}
		dst = binary.LittleEndian.AppendUint32(dst, uint32(frag))
		dst = binary.LittleEndian.AppendUint32(dst, uint32(buf.Len()))
		dst = append(dst, buf.Bytes()...)
		lo = hi
	}
	return dst, nil
}
