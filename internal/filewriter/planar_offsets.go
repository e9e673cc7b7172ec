package filewriter

import (
	"encoding/binary"
	"math/bits"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"google.golang.org/protobuf/proto"
)

// 2.3 mini-block chunks of variable-width values may describe their offsets
// with a generic sequence codec instead of the legacy interleaved table
// (seed "Variable": "Generic variable-width offsets"). Pylance 14.0.2 writes
// Delta(base 0) over the value lengths, out-of-line bit-packed at one width
// for the whole page, with chunk buffers [offset payload][value bytes]; the
// chunks are cut as for the legacy form. policy.go keeps the legacy form
// unless this one is strictly smaller.

// lengthOffsetsEncoder is the Delta-of-bit-packed-lengths Variable encoder.
type lengthOffsetsEncoder struct {
	legacy codecs.VariableEncoder // chunk sizing and offset width
	width  int                    // packed width of the lengths
}

// newLengthOffsetsEncoder sizes the packed width for the page's values.
func newLengthOffsetsEncoder(v *values, legacy codecs.VariableEncoder) lengthOffsetsEncoder {
	widest := uint64(0)
	for i := 0; i < v.N; i++ {
		widest |= v.ValueLen(i)
	}
	return lengthOffsetsEncoder{legacy: legacy, width: max(bits.Len64(widest), 1)}
}

// Encoding implements codecs.MiniBlockEncoder.
func (c lengthOffsetsEncoder) Encoding() *pb.CompressiveEncoding {
	t := uint64(c.legacy.OffsetBits)
	deltas := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{
		OutOfLineBitpacking: &pb.OutOfLineBitpacking{UncompressedBitsPerValue: t, Values: codecs.FlatEncoding(uint64(c.width))}}}
	offsets := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Delta{Delta: &pb.Delta{
		UncompressedBitsPerValue: t, Deltas: deltas}}}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Variable{Variable: &pb.Variable{Offsets: offsets}}}
}

// NumBuffers implements codecs.MiniBlockEncoder: offset payload, bytes.
func (c lengthOffsetsEncoder) NumBuffers() int { return 2 }

// Name implements codecs.MiniBlockEncoder.
func (c lengthOffsetsEncoder) Name() string { return "variable/delta-lengths" }

// Next implements codecs.MiniBlockEncoder (the legacy chunk sizes).
func (c lengthOffsetsEncoder) Next(v *values0, start, maxValues int) int {
	return c.legacy.Next(v, start, maxValues)
}

// Encode implements codecs.MiniBlockEncoder.
func (c lengthOffsetsEncoder) Encode(v *values0, start, end int, tmp *[]byte) [][]byte {
	t := c.legacy.OffsetBits
	raw := make([]byte, 0, (end-start)*t/8)
	for i := start; i < end; i++ {
		if t == 32 {
			raw = binary.LittleEndian.AppendUint32(raw, uint32(v.ValueLen(i)))
		} else {
			raw = binary.LittleEndian.AppendUint64(raw, v.ValueLen(i))
		}
	}
	at := len(*tmp)
	// No error: t is 32 or 64 and the width fits every length of the page.
	out, _ := codecs.EncodeOutOfLineBitpacking(*tmp, raw, t, c.width, uint64(end-start))
	*tmp = out
	return [][]byte{out[at:], v.Data[v.Offsets[start]:v.Offsets[end]]}
}

// values0 is the encoders' view of a page's values.
type values0 = codecs.Values

// chunkedSize is the sum of the chunk buffers codec writes for v, each
// padded to 8 bytes (the part of the page size that differs between
// value codecs of the same chunking), and the number of chunks.
func chunkedSize(codec miniCodec, v *values, maxValues int) (total, chunks int) {
	var tmp []byte
	for start := 0; start < v.N; chunks++ {
		n := codec.Next(&v.Values, start, maxValues)
		tmp = tmp[:0]
		for _, b := range codec.Encode(&v.Values, start, start+n, &tmp) {
			total += (len(b) + 7) &^ 7
		}
		start += n
	}
	return total, chunks
}

// variableCost is what Lance compares between the offset forms of a 2.3
// variable-width page (serialized_variable_cost): the codec tree's
// protobuf, and per chunk its header (u16 level count, a u32 size per
// value buffer, padded to 8) and its buffers padded to 8.
func variableCost(codec miniCodec, v *values, maxValues int) int {
	total, chunks := chunkedSize(codec, v, maxValues)
	header := (2 + 4*codec.NumBuffers() + 7) &^ 7
	return proto.Size(codec.Encoding()) + total + chunks*header
}

// rangeOffsetsEncoder is the 2.3 Variable encoder of a page whose values
// all have one length: the offsets are Range(start 0, step length) and
// the chunk holds the value bytes alone, as pylance 14.0.2 writes
// equal-length strings.
type rangeOffsetsEncoder struct {
	legacy codecs.VariableEncoder // chunk sizing and offset width
	length uint64                 // the length of every value
}

// equalLengths returns the length all n values of v share, if they do.
func equalLengths(v *values) (uint64, bool) {
	if v.N == 0 {
		return 0, false
	}
	l := v.ValueLen(0)
	for i := 1; i < v.N; i++ {
		if v.ValueLen(i) != l {
			return 0, false
		}
	}
	return l, true
}

// Encoding implements codecs.MiniBlockEncoder.
func (c rangeOffsetsEncoder) Encoding() *pb.CompressiveEncoding {
	offsets := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Range{Range: &pb.Range{
		UncompressedBitsPerValue: uint64(c.legacy.OffsetBits), Step: c.length}}}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Variable{Variable: &pb.Variable{Offsets: offsets}}}
}

// NumBuffers implements codecs.MiniBlockEncoder: the value bytes.
func (c rangeOffsetsEncoder) NumBuffers() int { return 1 }

// Name implements codecs.MiniBlockEncoder.
func (c rangeOffsetsEncoder) Name() string { return "variable/range-offsets" }

// Next implements codecs.MiniBlockEncoder (the legacy chunk sizes).
func (c rangeOffsetsEncoder) Next(v *values0, start, maxValues int) int {
	return c.legacy.Next(v, start, maxValues)
}

// Encode implements codecs.MiniBlockEncoder.
func (c rangeOffsetsEncoder) Encode(v *values0, start, end int, _ *[]byte) [][]byte {
	return [][]byte{v.Data[v.Offsets[start]:v.Offsets[end]]}
}
