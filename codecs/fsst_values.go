package codecs

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/lancego/lancego/internal/uninit"
)

// AppendValues FSST-decompresses values [lo, hi) of the variable block in,
// appending their bytes to dst and, after each value, the length of dst
// (the value's end offset in dst) to ends. It returns the grown slices.
//
// It is the path for short strings and short runs, where the block
// decoder's eight-code groups rarely fill inside one value: the codes are
// decoded in one loop, four at a time while none is an escape, with one
// capacity check and no call per value. Only the
// offsets of [lo, hi] are read, each checked against the previous one and
// the data length, so a run costs nothing for the rest of the block.
// Errors are Decompress's, for the first value that has one.
func (t *FSSTTable) AppendValues(dst []byte, ends []int64, in Block, lo, hi uint64) ([]byte, []int64, error) {
	s0, sN, err := fsstRunBounds(in, lo, hi)
	if err != nil {
		return dst, ends, err
	}
	d := t.decoder()
	if !t.Compressed || d == nil {
		return t.appendValuesGeneric(dst, ends, in, lo, hi)
	}
	// Reserve for the run at twice its compressed size (typical FSST
	// ratios are below that) and grow per value only when a value's worst
	// case (8 bytes a code) might not fit: no measuring pass over the codes.
	if uint64(maxAppend-len(dst)) < 2*(sN-s0)+16 {
		return dst, ends, fmt.Errorf("%w: fsst: %d compressed bytes exceed the address space", ErrCorrupt, sN-s0)
	}
	dst = uninit.Grow(dst, int(2*(sN-s0))+16)
	out := dst[:cap(dst)]
	pos := len(dst)
	base := len(ends)
	ends = slices.Grow(ends, int(hi-lo))[:base+int(hi-lo)]
	w := uint64(in.OffsetBits / 8)
	offs := in.Offsets[(lo+1)*w : (hi+1)*w] // each value's end (fsstRunBounds checked the table)
	s := s0
	for k := range int(hi - lo) {
		var e uint64
		if w == 4 {
			e = uint64(binary.LittleEndian.Uint32(offs[4*k:]))
		} else {
			e = binary.LittleEndian.Uint64(offs[8*k:])
		}
		if e < s || e > sN {
			i := lo + uint64(k)
			return out[:pos], ends[:base+k], fmt.Errorf("%w: fsst value %d bytes [%d,%d) outside [%d,%d)", ErrCorrupt, i, s, e, s0, sN)
		}
		if worst := int(e-s)*fsstMaxExpansion + 8; len(out)-pos < worst {
			out = uninit.Grow(out[:pos], worst)
			out = out[:cap(out)]
		}
		var err error
		if pos, err = d.decodeInto(out, pos, in.Data[s:e]); err != nil {
			return out[:pos], ends[:base+k], err
		}
		ends[base+k] = int64(pos)
		s = e
	}
	return out[:pos], ends, nil
}

// decodeInto decodes one value's codes into out at pos and returns the
// new position; out must have room for 8 bytes a code plus 8 past pos.
// Codes go four at a time while none is an escape or undefined, the rest
// one at a time in line (short values end there).
func (d *fsstDecoder) decodeInto(out []byte, pos int, codes []byte) (int, error) {
	p := 0
	for ; p+4 <= len(codes); p += 4 {
		q := codes[p : p+4 : p+4]
		l0, l1, l2, l3 := d.ln[q[0]], d.ln[q[1]], d.ln[q[2]], d.ln[q[3]]
		if (l0|l1|l2|l3)&fsstBad != 0 {
			break
		}
		binary.LittleEndian.PutUint64(out[pos:pos+8], d.syms[q[0]])
		pos += int(l0)
		binary.LittleEndian.PutUint64(out[pos:pos+8], d.syms[q[1]])
		pos += int(l1)
		binary.LittleEndian.PutUint64(out[pos:pos+8], d.syms[q[2]])
		pos += int(l2)
		binary.LittleEndian.PutUint64(out[pos:pos+8], d.syms[q[3]])
		pos += int(l3)
	}
	for p < len(codes) {
		c := codes[p]
		l := d.ln[c]
		if l&fsstBad == 0 {
			binary.LittleEndian.PutUint64(out[pos:pos+8], d.syms[c])
			pos += int(l)
			p++
			continue
		}
		if c != fsstEscape || p+1 == len(codes) {
			return pos, d.codeError(c)
		}
		out[pos] = codes[p+1]
		pos++
		p += 2
	}
	return pos, nil
}

// codeError is the error for a code that cannot be decoded: an undefined
// code, or an escape code that ends its value. Kept out of line so the
// decoding loop stays small.
func (d *fsstDecoder) codeError(c byte) error {
	if c != fsstEscape {
		return fmt.Errorf("%w: fsst: code %d >= %d symbols", ErrCorrupt, c, d.n)
	}
	return fmt.Errorf("%w: fsst: escape code at end of string", ErrCorrupt)
}

// maxAppend bounds what AppendValues may grow dst to.
const maxAppend = math.MaxInt / 2

// fsstRunBounds checks in's shape and returns the compressed byte range of
// values [lo, hi).
func fsstRunBounds(in Block, lo, hi uint64) (uint64, uint64, error) {
	if in.Kind != KindVariable || (in.OffsetBits != 32 && in.OffsetBits != 64) {
		return 0, 0, fmt.Errorf("%w: fsst: expected a variable-width block with 32 or 64-bit offsets", ErrCorrupt)
	}
	w := uint64(in.OffsetBits / 8)
	if lo > hi || hi > in.NumValues || in.NumValues >= uint64(len(in.Offsets))/w {
		return 0, 0, fmt.Errorf("%w: fsst: values [%d,%d) of a block of %d with %d offset bytes", ErrCorrupt, lo, hi, in.NumValues, len(in.Offsets))
	}
	s0, sN := offsetAt(in, lo), offsetAt(in, hi)
	if s0 > sN || sN > uint64(len(in.Data)) {
		return 0, 0, fmt.Errorf("%w: fsst: values [%d,%d) span bytes [%d,%d) of %d", ErrCorrupt, lo, hi, s0, sN, len(in.Data))
	}
	return s0, sN, nil
}

// appendValuesGeneric is AppendValues for uncompressed blocks and tables
// without a decoding layout: value by value through Decompress.
func (t *FSSTTable) appendValuesGeneric(dst []byte, ends []int64, in Block, lo, hi uint64) ([]byte, []int64, error) {
	s := offsetAt(in, lo)
	for i := lo; i < hi; i++ {
		e := offsetAt(in, i+1)
		if e < s || e > uint64(len(in.Data)) {
			return dst, ends, fmt.Errorf("%w: fsst value %d bytes [%d,%d) outside %d", ErrCorrupt, i, s, e, len(in.Data))
		}
		var err error
		if dst, err = t.Decompress(dst, in.Data[s:e]); err != nil {
			return dst, ends, err
		}
		ends = append(ends, int64(len(dst)))
		s = e
	}
	return dst, ends, nil
}
