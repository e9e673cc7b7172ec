package codecs

import (
	"fmt"
	"math"
	"slices"
)

// fsstDecoder is a symbol table laid out for decoding: 256 entries indexed
// by code (no bounds checks). ln[c] is the symbol length (1..8) of a
// defined code and fsstBad for the escape code and undefined codes, so
// or-ing the entries of eight codes tells whether any needs the slow path.
type fsstDecoder struct {
	syms [256]uint64
	ln   [256]uint8
	n    int // t.NumSymbols, for error messages
}

// fsstBad marks the escape code and undefined codes in fsstDecoder.ln.
const fsstBad = 0x80

// newFSSTDecoder lays t out for decoding. It reports false when a defined
// symbol's length is outside 1..8 (only possible for a table built by hand,
// ParseFSSTTable rejects it); such tables take the generic path.
func newFSSTDecoder(t *FSSTTable, d *fsstDecoder) bool {
	d.n = t.NumSymbols
	k := max(0, min(t.NumSymbols, fsstEscape))
	for i := range d.ln[k:] {
		d.ln[k+i] = fsstBad
	}
	for i := 0; i < k; i++ {
		l := t.Lens[i]
		if l < 1 || l > 8 {
			return false
		}
		d.syms[i], d.ln[i] = t.Symbols[i], l
	}
	return true
}

// decompressBlockAppend is AppendBlock for a table laid out in d and a
// validated block with compressed values. It measures the output first
// (decodedSize), grows dst once, then decodes the values' bytes as one
// stream into place, eight codes at a time while none is an escape or
// undefined (codes are independent, so groups may straddle values; the
// offset of a value ending inside a group is the group's start plus the
// lengths of its codes before the end), and token by token otherwise,
// which checks what Decompress checks at the same points, value by value.
// Symbols are stored as single 8-byte writes and the cursor advances by
// their length (the usual FSST trick).
func decompressBlockAppend(d *fsstDecoder, dst []byte, in Block) ([]byte, Block, error) {
	n := in.NumValues
	first, last := offsetAt(in, 0), offsetAt(in, n)
	comp := in.Data[first:last]
	o := fsstOffsets{ends: in.Offsets[in.OffsetBits/8:], offs: make([]byte, (n+1)*uint64(in.OffsetBits/8)),
		first: first, limit: math.MaxInt, wide: in.OffsetBits == 64, n: int(n)}
	if !o.wide {
		o.limit = min(math.MaxUint32, math.MaxInt)
	}
	size := d.decodedSize(comp)
	if size > uint64(o.limit) && !o.wide {
		return dst, Block{}, errFSSTOffsets
	}
	if size > uint64(math.MaxInt-fsstWindow-len(dst)) {
		return dst, Block{}, fmt.Errorf("%w: fsst: %d decompressed bytes exceed the address space", ErrCorrupt, size)
	}
	base := len(dst)
	dst = slices.Grow(dst, int(size)+fsstWindow)
	total, err := d.decodeValues(dst[base:base+int(size)+fsstWindow], comp, &o)
	if err != nil {
		return dst, Block{}, err
	}
	dst = dst[:base+total]
	return dst, Block{Kind: KindVariable, NumValues: n, OffsetBits: in.OffsetBits, Offsets: o.offs, Data: dst[base:]}, nil
}

// decodedSize returns the decompressed size of the concatenated codes comp:
// the sum of the symbol lengths, 1 per escaped byte, 0 per undefined code.
// decodeValues writes a prefix of this parse before it stops (at the first
// error, at the latest), so the result bounds its output.
func (d *fsstDecoder) decodedSize(comp []byte) uint64 {
	var a, b uint64
	for i := 0; i < len(comp); i++ {
		c := comp[i]
		if l := d.ln[c]; l != fsstBad {
			a += uint64(l)
			continue
		}
		if c == fsstEscape {
			b++
			i++
		}
	}
	return a + b
}

// fsstOffsets writes the output offsets of a block's values as decoding
// passes their ends; kept out of the decoding loop's registers.
type fsstOffsets struct {
	ends  []byte // the input offset table without entry 0
	offs  []byte // the output offset table
	first uint64 // input offset 0
	limit int    // largest offset the table's width holds
	wide  bool   // 64-bit offsets
	k, n  int    // values before k have their offsets; n values
}

// end returns where value k ends in the block's compressed bytes, or MaxInt
// past the last value.
func (o *fsstOffsets) end() int {
	switch {
	case o.k >= o.n:
		return math.MaxInt
	case o.wide:
		return int(le.Uint64(o.ends[8*o.k:]) - o.first)
	default:
		return int(uint64(le.Uint32(o.ends[4*o.k:])) - o.first)
	}
}

// record sets the output end of value k to pos and returns where the next
// value ends.
func (o *fsstOffsets) record(pos int) (int, error) {
	if pos > o.limit {
		return 0, errFSSTOffsets
	}
	o.k++
	if o.wide {
		le.PutUint64(o.offs[8*o.k:], uint64(pos))
	} else {
		le.PutUint32(o.offs[4*o.k:], uint32(pos))
	}
	return o.end(), nil
}

// group decodes the eight codes q into w and returns the number of bytes
// written, or 0 (writing nothing) if one of them is an escape or undefined.
// Symbol lengths are at most 255 as far as the compiler knows, so w spans
// 7·255+8 bytes and the stores need no bounds checks.
func (d *fsstDecoder) group(w *[fsstWindow]byte, q *[8]byte) int {
	a0, a1, a2, a3 := d.ln[q[0]], d.ln[q[1]], d.ln[q[2]], d.ln[q[3]]
	a4, a5, a6, a7 := d.ln[q[4]], d.ln[q[5]], d.ln[q[6]], d.ln[q[7]]
	if (a0|a1|a2|a3|a4|a5|a6|a7)&fsstBad != 0 {
		return 0
	}
	p1 := int(a0)
	p2 := p1 + int(a1)
	p3 := p2 + int(a2)
	p4 := p3 + int(a3)
	p5 := p4 + int(a4)
	p6 := p5 + int(a5)
	p7 := p6 + int(a6)
	le.PutUint64(w[0:], d.syms[q[0]])
	le.PutUint64(w[p1:], d.syms[q[1]])
	le.PutUint64(w[p2:], d.syms[q[2]])
	le.PutUint64(w[p3:], d.syms[q[3]])
	le.PutUint64(w[p4:], d.syms[q[4]])
	le.PutUint64(w[p5:], d.syms[q[5]])
	le.PutUint64(w[p6:], d.syms[q[6]])
	le.PutUint64(w[p7:], d.syms[q[7]])
	return p7 + int(a7)
}

// fsstWindow is the output window of group.
const fsstWindow = 2048

// errFSSTOffsets reports a block whose output does not fit 32-bit offsets.
var errFSSTOffsets = fmt.Errorf("%w: fsst: decompressed data overflows 32-bit offsets", ErrCorrupt)

// decodeValues decodes comp, the bytes of the block's values, into out
// (≥ fsstWindow bytes more than the decoded size can reach: 8·len(comp), or
// decodedSize(comp)), has o record the values' output offsets and returns
// the decoded size.
func (d *fsstDecoder) decodeValues(out, comp []byte, o *fsstOffsets) (int, error) {
	nb := o.end() // the end of the value holding comp[i]
	pos, i := 0, 0
	var err error
	for {
		for nb == i {
			if nb, err = o.record(pos); err != nil {
				return 0, err
			}
		}
		if i+8 <= len(comp) {
			q := (*[8]byte)(comp[i:])
			if n := d.group((*[fsstWindow]byte)(out[pos:]), q); n != 0 {
				// A value ending inside the group ends where the
				// group's code nb−i starts.
				for nb < i+8 {
					p := pos
					for _, c := range q[:(nb-i)&7] {
						p += int(d.ln[c])
					}
					if nb, err = o.record(p); err != nil {
						return 0, err
					}
				}
				pos += n
				i += 8
				continue
			}
		}
		if i >= len(comp) {
			return pos, nil
		}
		// One token, with Decompress's checks.
		c := comp[i]
		if l := d.ln[c]; l != fsstBad {
			le.PutUint64(out[pos:pos+8], d.syms[c])
			pos += int(l)
			i++
			continue
		}
		if c != fsstEscape {
			return 0, fmt.Errorf("%w: fsst: code %d >= %d symbols", ErrCorrupt, c, d.n)
		}
		if nb == i+1 {
			return 0, fmt.Errorf("%w: fsst: escape code at end of string", ErrCorrupt)
		}
		out[pos] = comp[i+1]
		pos++
		i += 2
	}
}

// copyBlockVerbatim is DecompressBlock for a switched-off table: the values
// are contiguous, so the data is one copy and the offsets are rebased to 0.
func copyBlockVerbatim(in Block) Block {
	n := in.NumValues
	first, last := offsetAt(in, 0), offsetAt(in, n)
	data := make([]byte, last-first)
	copy(data, in.Data[first:last])
	offs := make([]byte, len(in.Offsets))
	if in.OffsetBits == 32 {
		for i := 0; i < len(offs); i += 4 {
			le.PutUint32(offs[i:], uint32(uint64(le.Uint32(in.Offsets[i:]))-first))
		}
	} else {
		for i := 0; i < len(offs); i += 8 {
			le.PutUint64(offs[i:], le.Uint64(in.Offsets[i:])-first)
		}
	}
	return Block{Kind: KindVariable, NumValues: n, OffsetBits: in.OffsetBits, Offsets: offs, Data: data}
}
