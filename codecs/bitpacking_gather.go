package codecs

import (
	"fmt"
	"math/bits"

	"github.com/lancego/lancego/internal/lebits"
)

// inlineLayout is where the FastLanes blocks of an inline bit-packed
// buffer lie: block b's packed bits start at byte starts[b] and are
// widths[b] bits a value.
type inlineLayout struct {
	starts [maxInlineBlocks]int
	widths [maxInlineBlocks]int
	blocks int
}

// parse reads and checks every block header of src, numValues t-bit
// values in DecodeInlineBitpacking's layout (a buffer that decode refuses
// is refused here too); false with a nil error means more blocks than
// the layout holds (decode the buffer whole instead).
func (l *inlineLayout) parse(src []byte, t int, numValues uint64) (bool, error) {
	blocks := numValues/FastLanesBlockValues + boolToU64(numValues%FastLanesBlockValues != 0)
	if blocks > maxInlineBlocks {
		return false, nil
	}
	wb := t / 8
	pos := 0
	for b := range int(blocks) {
		if len(src)-pos < wb {
			return false, fmt.Errorf("%w: inline bitpacking: buffer ends before chunk header (block %d of %d)", ErrCorrupt, b, blocks)
		}
		w := readUint(src[pos:], 0, t)
		if w > uint64(t) {
			return false, fmt.Errorf("%w: inline bitpacking: width %d > %d", ErrCorrupt, w, t)
		}
		pos += wb
		need := FastLanesPackedBytes(int(w))
		if need > len(src)-pos {
			return false, fmt.Errorf("%w: inline bitpacking: chunk of width %d needs %d bytes, %d left", ErrCorrupt, w, need, len(src)-pos)
		}
		l.starts[b], l.widths[b] = pos, int(w)
		pos += need
	}
	if pos != len(src) {
		return false, fmt.Errorf("%w: inline bitpacking: %d trailing bytes after %d values", ErrCorrupt, len(src)-pos, numValues)
	}
	l.blocks = int(blocks)
	return true, nil
}

// GatherInlineBitpacking appends values rows[i]-base (in the order of
// rows, repeats allowed) of the numValues t-bit values in src
// (DecodeInlineBitpacking's layout) to dst as t-bit words. Every block
// header is read and checked first, as the full decode does, and every
// row must lie in [base, base+numValues). A run of at least fewValues
// rows in one block unpacks the block whole; other values are read
// straight from the packed bits, so one call over a chunk's rows lets
// their memory reads overlap.
func GatherInlineBitpacking(dst, src []byte, t int, numValues uint64, rows []uint64, base uint64) ([]byte, error) {
	if err := checkWordWidth("inline bitpacking", t, 0); err != nil {
		return dst, err
	}
	if err := checkGatherRows("inline bitpacking", rows, base, numValues); err != nil {
		return dst, err
	}
	var l inlineLayout
	ok, err := l.parse(src, t, numValues)
	if err != nil {
		return dst, err
	}
	if !ok {
		return gatherViaFull(dst, src, t, numValues, rows, base)
	}
	wb := t / 8
	n := len(dst)
	dst = extend(dst, len(rows)*wb)
	out := dst[n:]
	shift := uint(bits.TrailingZeros(uint(t)))
	for i := 0; i < len(rows); {
		b := int((rows[i] - base) / FastLanesBlockValues)
		j := i + 1
		for j < len(rows) && int((rows[j]-base)/FastLanesBlockValues) == b {
			j++
		}
		packed := src[l.starts[b] : l.starts[b]+FastLanesPackedBytes(l.widths[b])]
		if j-i >= fewValues {
			var block [FastLanesBlockValues * 8]byte
			fastUnpackBlock(block[:], packed, t, l.widths[b])
			for k := i; k < j; k++ {
				v := int((rows[k] - base) % FastLanesBlockValues)
				copy(out[k*wb:k*wb+wb], block[v*wb:v*wb+wb])
			}
		} else {
			for k := i; k < j; k++ {
				v := int((rows[k] - base) % FastLanesBlockValues)
				lebits.PutUint(out[k*wb:], fastLanesValueShift(packed, shift, l.widths[b], v), wb)
			}
		}
		i = j
	}
	return dst, nil
}

// checkGatherRows checks that every row lies in [base, base+n).
func checkGatherRows(codec string, rows []uint64, base, n uint64) error {
	for _, r := range rows {
		if r-base >= n || r < base {
			return fmt.Errorf("%w: %s: row %d outside values [%d,%d)", ErrCorrupt, codec, r, base, base+n)
		}
	}
	return nil
}

// gatherViaFull decodes all values of src and gathers the rows' (rows
// already checked against numValues).
func gatherViaFull(dst, src []byte, t int, numValues uint64, rows []uint64, base uint64) ([]byte, error) {
	all, err := DecodeInlineBitpacking(nil, src, t, numValues)
	if err != nil {
		return dst, err
	}
	wb := uint64(t / 8)
	for _, r := range rows {
		k := (r - base) * wb
		dst = append(dst, all[k:k+wb]...)
	}
	return dst, nil
}

// OutOfLineBitpacked reads single values of an out-of-line bit-packed
// buffer (DecodeOutOfLineBitpacking's layout) without decoding it whole,
// e.g. the definition levels of a take's rows.
type OutOfLineBitpacked struct {
	src       []byte
	shift     uint // log2 of the word width
	t, w      int
	n, full   uint64
	blockSize int
	rawTail   bool
}

// NewOutOfLineBitpacked checks src as DecodeOutOfLineBitpacking does (numValues
// values of width w in t-bit words) and returns a reader of its values.
func NewOutOfLineBitpacked(src []byte, t, w int, numValues uint64) (OutOfLineBitpacked, error) {
	if err := checkWordWidth("out-of-line bitpacking", t, w); err != nil {
		return OutOfLineBitpacked{}, err
	}
	full, tail := numValues/FastLanesBlockValues, numValues%FastLanesBlockValues
	blockBytes := uint64(FastLanesPackedBytes(w))
	hi, fullBytes := bits.Mul64(full, blockBytes)
	if hi != 0 || fullBytes > uint64(len(src)) {
		return OutOfLineBitpacked{}, fmt.Errorf("%w: out-of-line bitpacking: %d values of width %d need more than %d bytes", ErrCorrupt, numValues, w, len(src))
	}
	wb := uint64(t / 8)
	rawTail := tail > 0 && uint64(len(src)) == fullBytes+tail*wb
	if packedLen := fullBytes + blockBytes*boolToU64(tail > 0); !rawTail && uint64(len(src)) != packedLen {
		return OutOfLineBitpacked{}, fmt.Errorf("%w: out-of-line bitpacking: buffer of %d bytes fits neither packed (%d) nor raw tail (%d) for %d values", ErrCorrupt, len(src), packedLen, fullBytes+tail*wb, numValues)
	}
	return OutOfLineBitpacked{src: src, shift: uint(bits.TrailingZeros(uint(t))), t: t, w: w, n: numValues,
		full: full, blockSize: int(blockBytes), rawTail: rawTail}, nil
}

// Len returns the number of values.
func (r *OutOfLineBitpacked) Len() uint64 { return r.n }

// Value returns value k; k must be below Len.
func (r *OutOfLineBitpacked) Value(k uint64) uint64 {
	b, v := k/FastLanesBlockValues, int(k%FastLanesBlockValues)
	if b == r.full && r.rawTail {
		return readUint(r.src[r.full*uint64(r.blockSize):], v, r.t)
	}
	at := int(b) * r.blockSize
	return fastLanesValueShift(r.src[at:at+r.blockSize], r.shift, r.w, v)
}

// AppendUint16s appends values rows[i]-base, each below Len (the caller
// checks), to dst as 16-bit words: the definition levels of a take's rows
// in one call rather than a call a row.
func (r *OutOfLineBitpacked) AppendUint16s(dst []uint16, rows []uint64, base uint64) []uint16 {
	for _, row := range rows {
		k := row - base
		b, v := k/FastLanesBlockValues, int(k%FastLanesBlockValues)
		if b == r.full && r.rawTail {
			dst = append(dst, uint16(readUint(r.src[r.full*uint64(r.blockSize):], v, r.t)))
			continue
		}
		at := int(b) * r.blockSize
		dst = append(dst, uint16(fastLanesValueShift(r.src[at:at+r.blockSize], r.shift, r.w, v)))
	}
	return dst
}

// fastLanesValueShift is fastLanesValue for t = 1<<shift, with shifts and
// masks in place of the divisions (t is a power of two).
func fastLanesValueShift(packed []byte, shift uint, w, i int) uint64 {
	if w == 0 {
		return 0
	}
	t := 1 << shift
	lanes := FastLanesBlockValues >> shift
	q := (i & 127) >> 4
	q &^= lanes/16 - 1
	r := int(fastlanesOrder[q])<<3 + i>>7
	j := i & (lanes - 1)
	p := r * w
	k, s := p>>shift, p&(t-1)
	v := readUint(packed[k<<7:], j, t) >> uint(s)
	if s+w > t {
		v |= readUint(packed[(k+1)<<7:], j, t) << uint(t-s)
	}
	if w < 64 {
		v &= 1<<uint(w) - 1
	}
	return v
}
