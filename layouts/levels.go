package layouts

import (
	"encoding/binary"
	"fmt"
	"slices"
	"unsafe"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// decodeLevels decodes n u16 levels compressed with a block codec.
func decodeLevels(enc *pb.CompressiveEncoding, b []byte, n uint64) ([]uint16, error) {
	blk, err := codecs.DecodeBlock(enc, b, n)
	if err != nil {
		return nil, err
	}
	return levelsOf(blk, n)
}

// levelsOf checks that a decoded block holds n u16 levels and returns them.
func levelsOf(blk codecs.Block, n uint64) ([]uint16, error) {
	if blk.Kind != codecs.KindFixed || blk.BitsPerValue != 16 || len(blk.FSL) > 0 {
		return nil, fmt.Errorf("%w: levels decode to %d-bit values, want 16", ErrCorrupt, blk.BitsPerValue)
	}
	if blk.NumValues != n || uint64(len(blk.Data)) < 2*n {
		return nil, fmt.Errorf("%w: %d levels decoded, want %d", ErrCorrupt, blk.NumValues, n)
	}
	return rawLevels(blk.Data[:2*n]), nil
}

// rawLevels converts little-endian u16 bytes to levels. On little-endian
// machines an aligned buffer is reinterpreted in place (no copy); callers
// never modify levels.
func rawLevels(b []byte) []uint16 {
	n := len(b) / 2
	if n == 0 {
		return []uint16{}
	}
	if isLittleEndian() && uintptr(unsafe.Pointer(&b[0]))%2 == 0 {
		return unsafe.Slice((*uint16)(unsafe.Pointer(&b[0])), n)
	}
	out := make([]uint16, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return out
}

// rawLevelsCap views b (8-byte aligned, as Go allocates byte slices of
// at least 8 bytes) as levels to fill; on a big-endian machine, or if b is
// not aligned, it returns a fresh slice instead.
func rawLevelsCap(b []byte) []uint16 {
	if len(b) < 2 || !isLittleEndian() || uintptr(unsafe.Pointer(&b[0]))%2 != 0 {
		return make([]uint16, len(b)/2)
	}
	return unsafe.Slice((*uint16)(unsafe.Pointer(&b[0])), len(b)/2)
}

// isLittleEndian reports the machine's byte order.
func isLittleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// sliceLevels returns entries [from, to) of lv.
func sliceLevels(lv Levels, from, to int) Levels {
	out := Levels{N: to - from}
	if lv.Rep != nil {
		out.Rep = lv.Rep[from:to]
	}
	if lv.Def != nil {
		out.Def = lv.Def[from:to]
	}
	return out
}

// AppendLevels appends src to dst; a side (rep or def) stays absent only
// if absent in both (otherwise zeros fill in).
func AppendLevels(dst *Levels, src Levels) { appendLevels(dst, src) }

func appendLevels(dst *Levels, src Levels) {
	if dst.N == 0 && dst.Rep == nil && dst.Def == nil {
		// Share src instead of copying; the clipped capacity makes a later
		// append copy rather than write into src's backing array.
		*dst = Levels{N: src.N, Rep: clip(src.Rep), Def: clip(src.Def)}
		return
	}
	dst.Rep = appendSide(dst.Rep, dst.N, src.Rep, src.N)
	dst.Def = appendSide(dst.Def, dst.N, src.Def, src.N)
	dst.N += src.N
}

// appendLevelParts appends copies of parts to dst, growing each side once
// (a side absent from a part but present elsewhere is filled with zeros);
// a side dst does not have yet is a buffer lent by arena (if not nil).
func appendLevelParts(dst *Levels, parts []Levels, arena *ChunkArena) {
	n := dst.N
	hasRep, hasDef := dst.Rep != nil, dst.Def != nil
	for i := range parts {
		n += parts[i].N
		hasRep, hasDef = hasRep || parts[i].Rep != nil, hasDef || parts[i].Def != nil
	}
	dst.Rep = appendSideParts(dst.Rep, hasRep, dst.N, n, parts, arena, func(l *Levels) []uint16 { return l.Rep })
	dst.Def = appendSideParts(dst.Def, hasDef, dst.N, n, parts, arena, func(l *Levels) []uint16 { return l.Def })
	dst.N = n
}

// appendSideParts appends one side of parts to dst (dstN entries so far,
// nil if the side was absent) with room for n entries in all.
func appendSideParts(dst []uint16, has bool, dstN, n int, parts []Levels, arena *ChunkArena, side func(*Levels) []uint16) []uint16 {
	if !has {
		return nil
	}
	if dst == nil {
		dst = append(arena.levelBuffer(n), make([]uint16, dstN)...)
	} else {
		dst = slices.Grow(dst, n-len(dst))
	}
	for i := range parts {
		if s := side(&parts[i]); s != nil {
			dst = append(dst, s...)
		} else {
			dst = append(dst, make([]uint16, parts[i].N)...)
		}
	}
	return dst
}

// appendLevelsCopy is appendLevels that never shares src's memory.
func appendLevelsCopy(dst *Levels, src Levels) {
	if dst.N == 0 && dst.Rep == nil && dst.Def == nil {
		*dst = Levels{N: src.N, Rep: cloneSide(src.Rep), Def: cloneSide(src.Def)}
		return
	}
	appendLevels(dst, src)
}

func cloneSide(s []uint16) []uint16 {
	if s == nil {
		return nil
	}
	return append(make([]uint16, 0, len(s)), s...)
}

func appendSide(dst []uint16, dstN int, src []uint16, srcN int) []uint16 {
	if dst == nil && src == nil {
		return nil
	}
	if dst == nil {
		dst = make([]uint16, dstN, dstN+srcN)
	}
	if src == nil {
		return append(dst, make([]uint16, srcN)...)
	}
	return append(dst, src...)
}

// visibleBefore counts visible entries among lv's first n entries.
func visibleBefore(lv Levels, n int, maxVisible uint16) int {
	if lv.Def == nil {
		return n
	}
	c := 0
	for _, d := range lv.Def[:n] {
		c += b2i(d <= maxVisible)
	}
	return c
}

// clip limits a slice's capacity to its length.
func clip(s []uint16) []uint16 {
	if s == nil {
		return nil
	}
	return s[:len(s):len(s)]
}

// LevelEncoder compresses rep or def levels with a block codec (Enc),
// chunk by chunk: flat u16, inline bit-packing, out-of-line bit-packing at
// Width bits, or (2.2) the RLE block form.
type LevelEncoder struct {
	Enc    *pb.CompressiveEncoding
	Width  int  // out-of-line bit-packing width (0 = flat 16, inline or rle)
	RLE    bool // 2.2 RLE block form
	Inline bool // inline bit-packing (a width word per 1024 levels)
	// RunBits is the width of the RLE form's run lengths: 8 (or 0), 16, 32.
	RunBits int
}

// Encode compresses one chunk's levels.
func (c LevelEncoder) Encode(levels []uint16) []byte {
	var tmp []byte
	return c.EncodeTo(&tmp, levels)
}

// EncodeTo is Encode using *tmp as scratch: the result is appended to it.
func (c LevelEncoder) EncodeTo(tmp *[]byte, levels []uint16) []byte {
	at := len(*tmp)
	*tmp = AppendU16s(*tmp, levels)
	raw := (*tmp)[at:]
	if !c.RLE && !c.Inline && c.Width == 0 {
		return raw
	}
	out := len(*tmp)
	switch {
	case c.RLE:
		*tmp, _ = codecs.EncodeRLEBlock(*tmp, raw, 16, max(c.RunBits, 8), uint64(len(levels)))
	case c.Inline:
		*tmp, _ = codecs.EncodeInlineBitpacking(*tmp, raw, 16, uint64(len(levels)))
	default:
		*tmp, _ = codecs.EncodeOutOfLineBitpacking(*tmp, raw, 16, c.Width, uint64(len(levels)))
	}
	return (*tmp)[out:]
}

// AppendU16s appends levels as little-endian bytes.
func AppendU16s(dst []byte, levels []uint16) []byte {
	at := len(dst)
	dst = append(dst, make([]byte, 2*len(levels))...)
	out := dst[at:]
	for i, l := range levels {
		binary.LittleEndian.PutUint16(out[2*i:], l)
	}
	return dst
}

// U16Bytes returns levels as little-endian bytes.
func U16Bytes(levels []uint16) []byte {
	out := make([]byte, 2*len(levels))
	for i, l := range levels {
		binary.LittleEndian.PutUint16(out[2*i:], l)
	}
	return out
}
