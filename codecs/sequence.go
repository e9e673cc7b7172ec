package codecs

import (
	"encoding/binary"
	"fmt"
	"math"

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
// (step > 0, no overflow), Delta over a leaf (checked prefix sums), Flat,
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
	case *pb.CompressiveEncoding_Delta, *pb.CompressiveEncoding_Range:
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
	case *pb.CompressiveEncoding_Rle:
	case *pb.CompressiveEncoding_Dictionary:
		return dst, fmt.Errorf("%w: sequence: block dictionary (not written by any released Lance)", ErrUnsupported)
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
	if need := n * uint64(width/8); uint64(len(blk.Data)) < need {
		return dst, fmt.Errorf("%w: sequence: %d bytes decoded, want %d", ErrCorrupt, len(blk.Data), need)
	}
	w := width / 8
	for i := range int(n) {
		dst = append(dst, readWord(blk.Data[i*w:], width))
	}
	return dst, nil
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
	offs, err := DecodeSequence(make([]uint64, 0, n+1), v.GetOffsets(), width, payload, n+1)
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
