package codecs

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// Generic unsigned sequences (Lance 2.3): a descriptor plus zero or one
// payload buffer describing n unsigned integers of a width the container
// fixes (32 or 64 bits). 2.3 pages use them for sparse position sets and
// list counts (u64) and for mini-block offsets (u32).

// MaxSequenceLen bounds the values one sequence may decode to.
const MaxSequenceLen = MaxDecodedSize / 8

// SequenceHasPayload reports whether a sequence descriptor consumes a
// payload buffer (Constant, Range and Delta of a metadata-only child do not).
func SequenceHasPayload(enc *pb.CompressiveEncoding) bool {
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_Constant, *pb.CompressiveEncoding_Range:
		return false
	case *pb.CompressiveEncoding_Delta:
		return SequenceHasPayload(c.Delta.GetDeltas())
	}
	return true
}

// DecodeSequence decodes n unsigned integers of width bits (32 or 64)
// described by enc from payload (nil when the descriptor has none) and
// appends them to dst.
//
// Accepted roots: Constant (absent value only when n = 0), Range
// (step > 0, no overflow), Delta over a leaf (checked prefix sums), block
// Dictionary (u32 indices, items of the sequence width), Flat,
// InlineBitpacking, OutOfLineBitpacking(Flat), General(Flat) and Rle(Flat,
// Flat) in the 2.2 block form. The payload must be used exactly.
func DecodeSequence(dst []uint64, enc *pb.CompressiveEncoding, width int, payload []byte, n uint64) ([]uint64, error) {
	if width != 32 && width != 64 {
		return dst, fmt.Errorf("%w: sequence: width %d not 32 or 64", ErrCorrupt, width)
	}
	if n > MaxSequenceLen {
		return dst, fmt.Errorf("%w: sequence: %d values exceed the decode limit", ErrCorrupt, n)
	}
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_Constant:
		return constantSequence(dst, c.Constant, width, n)
	case *pb.CompressiveEncoding_Range:
		return rangeSequence(dst, c.Range, width, n)
	case *pb.CompressiveEncoding_Delta:
		return deltaSequence(dst, c.Delta, width, payload, n)
	case *pb.CompressiveEncoding_Dictionary:
		return dictSequence(dst, c.Dictionary, width, payload, n)
	case *pb.CompressiveEncoding_Rle:
		return rleSequence(dst, c.Rle, width, payload, n)
	}
	return leafSequence(dst, enc, width, payload, n)
}

func checkSeqWidth(codec string, got uint64, width int) error {
	if got != uint64(width) {
		return fmt.Errorf("%w: sequence: %s declares %d-bit values, container holds %d-bit", ErrCorrupt, codec, got, width)
	}
	return nil
}

func constantSequence(dst []uint64, c *pb.Constant, width int, n uint64) ([]uint64, error) {
	if c.Value == nil {
		if n != 0 {
			return dst, fmt.Errorf("%w: sequence: constant without a value for %d values", ErrCorrupt, n)
		}
		return dst, nil
	}
	v := c.GetValue()
	if len(v) != width/8 {
		return dst, fmt.Errorf("%w: sequence: constant of %d bytes for %d-bit values", ErrCorrupt, len(v), width)
	}
	x := readWord(v, width)
	for range n {
		dst = append(dst, x)
	}
	return dst, nil
}

func readWord(b []byte, width int) uint64 {
	if width == 32 {
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func maxOf(width int) uint64 {
	if width == 32 {
		return math.MaxUint32
	}
	return math.MaxUint64
}

func rangeSequence(dst []uint64, r *pb.Range, width int, n uint64) ([]uint64, error) {
	if err := checkSeqWidth("range", r.GetUncompressedBitsPerValue(), width); err != nil {
		return dst, err
	}
	start, step := r.GetStart(), r.GetStep()
	if step == 0 {
		return dst, fmt.Errorf("%w: sequence: range step is 0", ErrCorrupt)
	}
	if n > 0 {
		limit := maxOf(width)
		if start > limit || (n-1) > (limit-start)/step {
			return dst, fmt.Errorf("%w: sequence: range %d + %d·(%d-1) overflows %d bits", ErrCorrupt, start, step, n, width)
		}
	}
	for i := range n {
		dst = append(dst, start+step*i)
	}
	return dst, nil
}

func deltaSequence(dst []uint64, d *pb.Delta, width int, payload []byte, n uint64) ([]uint64, error) {
	if err := checkSeqWidth("delta", d.GetUncompressedBitsPerValue(), width); err != nil {
		return dst, err
	}
	if n == 0 {
		if len(payload) != 0 {
			return dst, fmt.Errorf("%w: sequence: empty delta sequence with a %d-byte payload", ErrCorrupt, len(payload))
		}
		return dst, nil
	}
	child := d.GetDeltas()
	switch child.GetCompression().(type) {
	case *pb.CompressiveEncoding_Delta, *pb.CompressiveEncoding_Dictionary:
		return dst, fmt.Errorf("%w: sequence: delta of %s", ErrUnsupported, Describe(child))
	}
	limit := maxOf(width)
	if d.GetBase() > limit {
		return dst, fmt.Errorf("%w: sequence: delta base %d overflows %d bits", ErrCorrupt, d.GetBase(), width)
	}
	start := len(dst)
	dst = append(dst, d.GetBase())
	dst, err := DecodeSequence(dst, child, width, payload, n-1)
	if err != nil {
		return dst[:start], fmt.Errorf("delta: %w", err)
	}
	out := dst[start:]
	for i := 1; i < len(out); i++ {
		if out[i] > limit-out[i-1] {
			return dst[:start], fmt.Errorf("%w: sequence: delta prefix sum overflows %d bits at value %d", ErrCorrupt, width, i)
		}
		out[i] += out[i-1]
	}
	return dst, nil
}

// leafSequence decodes the payload-bearing leaf codecs through the block
// walker and widens the words.
func leafSequence(dst []uint64, enc *pb.CompressiveEncoding, width int, payload []byte, n uint64) ([]uint64, error) {
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_Flat:
		if err := checkSeqWidth("flat", c.Flat.GetBitsPerValue(), width); err != nil {
			return dst, err
		}
	case *pb.CompressiveEncoding_InlineBitpacking:
		if err := checkSeqWidth("inline bitpacking", c.InlineBitpacking.GetUncompressedBitsPerValue(), width); err != nil {
			return dst, err
		}
	case *pb.CompressiveEncoding_OutOfLineBitpacking:
		if err := checkSeqWidth("out-of-line bitpacking", c.OutOfLineBitpacking.GetUncompressedBitsPerValue(), width); err != nil {
			return dst, err
		}
	case *pb.CompressiveEncoding_General:
		if f := c.General.GetValues().GetFlat(); f == nil {
			return dst, fmt.Errorf("%w: sequence: general over %s", ErrUnsupported, Describe(c.General.GetValues()))
		}
		var d Decompressor
		defer d.Close()
		inner, raw, err := unwrapGeneral(&d, enc, payload)
		if err != nil {
			return dst, err
		}
		return leafSequence(dst, inner, width, raw, n) // (appendWords copies before Close)
	case nil:
		return dst, errUnknown(enc)
	default:
		return dst, errNotHere("sequence", enc)
	}
	blk, err := DecodeBlock(enc, payload, n)
	if err != nil {
		return dst, err
	}
	if blk.Kind != KindFixed || blk.BitsPerValue != uint64(width) || len(blk.FSL) > 0 || blk.NumValues != n {
		return dst, fmt.Errorf("%w: sequence: %s decodes to %d %d-bit values, want %d of %d bits", ErrCorrupt, Describe(enc), blk.NumValues, blk.BitsPerValue, n, width)
	}
	need := n * uint64(width/8)
	if uint64(len(blk.Data)) < need {
		return dst, fmt.Errorf("%w: sequence: %d bytes decoded, want %d", ErrCorrupt, len(blk.Data), need)
	}
	if enc.GetFlat() != nil && uint64(len(payload)) != need {
		// A Flat payload (General's decompressed one) is exactly the values.
		return dst, fmt.Errorf("%w: sequence: flat payload of %d bytes for %d %d-bit values", ErrCorrupt, len(payload), n, width)
	}
	return appendWords(dst, blk.Data, width, int(n)), nil
}

// appendWords appends n little-endian words of width bits from b.
func appendWords(dst []uint64, b []byte, width, n int) []uint64 {
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	out := dst[start:]
	if width == 64 {
		b = b[:8*n]
		for i := range out {
			out[i] = binary.LittleEndian.Uint64(b[8*i:])
		}
		return dst
	}
	dst = dst[:start]
	for i := range n {
		dst = append(dst, uint64(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return dst
}

// genericOffsets reports whether a Variable encoding describes its offsets
// with a 2.3 generic sequence codec rather than the legacy interleaved
// Flat offset table.
func genericOffsets(v *pb.Variable) bool {
	return v.GetOffsets().GetFlat() == nil && v.GetOffsets().GetCompression() != nil
}

// sequenceWidth returns the value width a sequence descriptor declares.
func sequenceWidth(enc *pb.CompressiveEncoding) (int, error) {
	var w uint64
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_Range:
		w = c.Range.GetUncompressedBitsPerValue()
	case *pb.CompressiveEncoding_Delta:
		w = c.Delta.GetUncompressedBitsPerValue()
	case *pb.CompressiveEncoding_InlineBitpacking:
		w = c.InlineBitpacking.GetUncompressedBitsPerValue()
	case *pb.CompressiveEncoding_OutOfLineBitpacking:
		w = c.OutOfLineBitpacking.GetUncompressedBitsPerValue()
	case *pb.CompressiveEncoding_Constant:
		w = uint64(8 * len(c.Constant.GetValue()))
	case *pb.CompressiveEncoding_Flat:
		w = c.Flat.GetBitsPerValue()
	case *pb.CompressiveEncoding_Rle:
		return sequenceWidth(c.Rle.GetValues())
	case *pb.CompressiveEncoding_General:
		x, err := leafWidth(enc)
		if err != nil {
			return 0, err
		}
		w = uint64(x)
	case *pb.CompressiveEncoding_Dictionary:
		return sequenceWidth(c.Dictionary.GetItems())
	default:
		return 0, fmt.Errorf("%w: variable offsets: %s", ErrUnsupported, Describe(enc))
	}
	if w != 32 && w != 64 {
		return 0, fmt.Errorf("%w: variable offsets: width %d not 32 or 64", ErrCorrupt, w)
	}
	return int(w), nil
}

// decodeGenericVariableChunk decodes a 2.3 mini-block chunk whose Variable
// offsets use a generic sequence codec: bufs is [offset payload][value
// bytes], or just [value bytes] when the offset codec has no payload. The
// n+1 offsets start at 0, never decrease and end within the value bytes.
// The offsets are materialized (the block owns them); Data aliases bufs.
func decodeGenericVariableChunk(v *pb.Variable, bufs [][]byte, n uint64) (Block, error) {
	if v.GetValues() != nil {
		return Block{}, fmt.Errorf("%w: variable: buffer compression slot is set", ErrUnsupported)
	}
	width, err := sequenceWidth(v.GetOffsets())
	if err != nil {
		return Block{}, err
	}
	if n >= MaxSequenceLen {
		return Block{}, fmt.Errorf("%w: variable: %d values exceed the decode limit", ErrCorrupt, n)
	}
	var payload []byte
	values := bufs[len(bufs)-1]
	if len(bufs) == 2 {
		payload = bufs[0]
	}
	offs, err := DecodeSequence(make([]uint64, 0, capHint(n+1)), v.GetOffsets(), width, payload, n+1)
	if err != nil {
		return Block{}, fmt.Errorf("variable offsets: %w", err)
	}
	if offs[0] != 0 {
		return Block{}, fmt.Errorf("%w: variable: first offset is %d, not 0", ErrCorrupt, offs[0])
	}
	w := width / 8
	raw := make([]byte, len(offs)*w)
	for i, o := range offs {
		if width == 32 {
			binary.LittleEndian.PutUint32(raw[i*w:], uint32(o))
		} else {
			binary.LittleEndian.PutUint64(raw[i*w:], o)
		}
	}
	b := Block{Kind: KindVariable, NumValues: n, OffsetBits: width, Offsets: raw, Data: values}
	if err := checkVariable("variable (generic offsets)", b); err != nil {
		return Block{}, err
	}
	return b, nil
}

// leafWidth returns the decoded value width of a 2.3 leaf codec used as an
// RLE child (Flat, bit-packing, General(Flat)).
func leafWidth(enc *pb.CompressiveEncoding) (int, error) {
	switch c := enc.GetCompression().(type) {
	case *pb.CompressiveEncoding_Flat:
		return int(min(c.Flat.GetBitsPerValue(), 1024)), nil
	case *pb.CompressiveEncoding_InlineBitpacking:
		return int(min(c.InlineBitpacking.GetUncompressedBitsPerValue(), 1024)), nil
	case *pb.CompressiveEncoding_OutOfLineBitpacking:
		return int(min(c.OutOfLineBitpacking.GetUncompressedBitsPerValue(), 1024)), nil
	case *pb.CompressiveEncoding_General:
		if f := c.General.GetValues().GetFlat(); f != nil {
			return int(min(f.GetBitsPerValue(), 1024)), nil
		}
	}
	return 0, fmt.Errorf("%w: rle child %s", ErrUnsupported, Describe(enc))
}

// decodeGenericRLE decodes a 2.3 mini-block RLE chunk whose run values or
// run lengths use a leaf codec other than Flat: each child decodes its own
// buffer as a block; the run count is that of the lengths (a Flat lengths
// buffer gives it by size, else the values must be Flat).
func decodeGenericRLE(d *Decompressor, r *pb.Rle, bufs [][]byte, n uint64) (Block, error) {
	vb, err := leafWidth(r.GetValues())
	if err != nil {
		return Block{}, err
	}
	lb, err := leafWidth(r.GetRunLengths())
	if err != nil {
		return Block{}, err
	}
	if err := checkRLEWidths(vb, lb); err != nil {
		return Block{}, err
	}
	var sub Decompressor
	defer sub.Close()
	venc, vbuf, err := unwrapGeneral(&sub, r.GetValues(), bufs[0])
	if err != nil {
		return Block{}, fmt.Errorf("rle values: %w", err)
	}
	vbuf = append([]byte(nil), vbuf...) // sub's scratch is reused below
	lenc, lbuf, err := unwrapGeneral(&sub, r.GetRunLengths(), bufs[1])
	if err != nil {
		return Block{}, fmt.Errorf("rle run lengths: %w", err)
	}
	var runs uint64
	switch {
	case lenc.GetFlat() != nil:
		runs = uint64(len(lbuf)) / uint64(lb/8)
	case venc.GetFlat() != nil:
		runs = uint64(len(vbuf)) / uint64(vb/8)
	default:
		return Block{}, fmt.Errorf("%w: rle: neither child is flat, the run count is unknown", ErrUnsupported)
	}
	if runs > n {
		return Block{}, fmt.Errorf("%w: rle: %d runs for %d values", ErrCorrupt, runs, n)
	}
	vals, err := decodeBlock(&sub, r.GetValues(), bufs[0], runs, 1)
	if err != nil {
		return Block{}, fmt.Errorf("rle values: %w", err)
	}
	vals.Data = append([]byte(nil), vals.Data...) // the lengths decoder may reuse sub's scratch
	lens, err := decodeBlock(&sub, lenc, lbuf, runs, 1)
	if err != nil {
		return Block{}, fmt.Errorf("rle run lengths: %w", err)
	}
	if vals.BitsPerValue != uint64(vb) || lens.BitsPerValue != uint64(lb) {
		return Block{}, fmt.Errorf("%w: rle: children decode to %d/%d bits, want %d/%d", ErrCorrupt, vals.BitsPerValue, lens.BitsPerValue, vb, lb)
	}
	data, err := DecodeRLE(d.scratch(), vals.Data, lens.Data, vb, lb, n)
	return fixedBlock(d.keep(data), vb, n), err
}

// unwrapGeneral decompresses the buffer of a General child, returning its
// inner codec and the decompressed bytes; other children pass through.
func unwrapGeneral(d *Decompressor, enc *pb.CompressiveEncoding, buf []byte) (*pb.CompressiveEncoding, []byte, error) {
	g := enc.GetGeneral()
	if g == nil {
		return enc, buf, nil
	}
	raw, err := d.Decompress(nil, buf, g.GetCompression().GetScheme())
	if err != nil {
		return nil, nil, err
	}
	return g.GetValues(), raw, nil
}

// dictSequence decodes a block dictionary: n u32 indices and
// num_dictionary_items items, framed as [u64 indices payload length][u64
// items payload length][indices payload][items payload] (a metadata-only
// child has length 0; both metadata-only: no payload). Layout checked
// against pylance 14.0.2 list counts.
func dictSequence(dst []uint64, d *pb.Dictionary, width int, payload []byte, n uint64) ([]uint64, error) {
	idxEnc, itemEnc := d.GetIndices(), d.GetItems()
	if idxEnc == nil || itemEnc == nil {
		return dst, fmt.Errorf("%w: sequence: dictionary without indices or items", ErrCorrupt)
	}
	for _, e := range []*pb.CompressiveEncoding{idxEnc, itemEnc} {
		switch e.GetCompression().(type) {
		case *pb.CompressiveEncoding_Dictionary, *pb.CompressiveEncoding_Delta:
			return dst, fmt.Errorf("%w: sequence: dictionary child %s", ErrUnsupported, Describe(e))
		}
	}
	var idxBuf, itemBuf []byte
	if len(payload) > 0 {
		if len(payload) < 16 {
			return dst, fmt.Errorf("%w: sequence: dictionary payload of %d bytes", ErrCorrupt, len(payload))
		}
		il, tl := binary.LittleEndian.Uint64(payload), binary.LittleEndian.Uint64(payload[8:])
		rest := uint64(len(payload) - 16)
		if il > rest || tl != rest-il {
			return dst, fmt.Errorf("%w: sequence: dictionary lengths %d+%d for %d payload bytes", ErrCorrupt, il, tl, rest)
		}
		idxBuf, itemBuf = payload[16:16+il], payload[16+il:]
	}
	items := uint64(d.GetNumDictionaryItems())
	if items == 0 && n > 0 {
		return dst, fmt.Errorf("%w: sequence: empty dictionary for %d values", ErrCorrupt, n)
	}
	dict, err := DecodeSequence(make([]uint64, 0, capHint(items)), itemEnc, width, itemBuf, items)
	if err != nil {
		return dst, fmt.Errorf("dictionary items: %w", err)
	}
	// The caller's spare capacity is a size it trusts (a checked count).
	idx, err := DecodeSequence(make([]uint64, 0, max(capHint(n), min(int(min(n, 1<<30)), cap(dst)-len(dst)))), idxEnc, 32, idxBuf, n)
	if err != nil {
		return dst, fmt.Errorf("dictionary indices: %w", err)
	}
	for i, k := range idx {
		if k >= items {
			return dst, fmt.Errorf("%w: sequence: dictionary index %d (%d) >= %d items", ErrCorrupt, i, k, items)
		}
		dst = append(dst, dict[k])
	}
	return dst, nil
}

// capHint bounds a capacity taken from a count in the file: slices grow
// past it as values actually decode.
func capHint(n uint64) int { return int(min(n, 1<<16)) }

// CapHint is capHint for other packages.
func CapHint(n uint64) int { return capHint(n) }

// rleSequence decodes Rle(values, run_lengths) as a generic sequence: the
// payload is [u64 values payload length][values payload][run-length
// payload]; the run count comes from a Flat child's payload size (values
// of the sequence width, u32 run lengths). Runs must be positive and sum
// to n.
func rleSequence(dst []uint64, r *pb.Rle, width int, payload []byte, n uint64) ([]uint64, error) {
	if len(payload) < 8 {
		return dst, fmt.Errorf("%w: sequence: rle payload of %d bytes", ErrCorrupt, len(payload))
	}
	vl := binary.LittleEndian.Uint64(payload)
	if vl > uint64(len(payload)-8) {
		return dst, fmt.Errorf("%w: sequence: rle values length %d exceeds %d bytes", ErrCorrupt, vl, len(payload)-8)
	}
	vbuf, lbuf := payload[8:8+vl], payload[8+vl:]
	var runs uint64
	switch {
	case r.GetRunLengths().GetFlat() != nil:
		runs = uint64(len(lbuf)) / 4
	case r.GetValues().GetFlat() != nil:
		runs = uint64(len(vbuf)) / uint64(width/8)
	default:
		return dst, fmt.Errorf("%w: sequence: rle without a flat child (run count unknown)", ErrUnsupported)
	}
	if runs > n {
		return dst, fmt.Errorf("%w: sequence: %d runs for %d values", ErrCorrupt, runs, n)
	}
	vals, err := DecodeSequence(make([]uint64, 0, capHint(runs)), r.GetValues(), width, vbuf, runs)
	if err != nil {
		return dst, fmt.Errorf("rle values: %w", err)
	}
	lens, err := DecodeSequence(make([]uint64, 0, capHint(runs)), r.GetRunLengths(), 32, lbuf, runs)
	if err != nil {
		return dst, fmt.Errorf("rle run lengths: %w", err)
	}
	left := n
	for i, l := range lens {
		if l == 0 || l > left {
			return dst, fmt.Errorf("%w: sequence: rle run %d of length %d (%d values left)", ErrCorrupt, i, l, left)
		}
		left -= l
		for range l {
			dst = append(dst, vals[i])
		}
	}
	if left != 0 {
		return dst, fmt.Errorf("%w: sequence: rle runs cover %d of %d values", ErrCorrupt, n-left, n)
	}
	return dst, nil
}
