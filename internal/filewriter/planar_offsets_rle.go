package filewriter

import (
	"encoding/binary"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// The third 2.3 offset form pylance 14.0.2 writes (beside the legacy table
// and Delta of bit-packed lengths, planar_offsets.go): RLE over a chunk's
// n+1 offsets, for pages where most values are empty (nulls, "" values):
// Rle(values = Flat or, when every chunk's distinct offsets are 0, s, 2s,
// ... (three or more), Range(0, s); run lengths = Flat(32)). Each chunk's offset payload is
// the generic RLE framing [u64 values length][values][u32 run lengths]
// (seed "Generic Unsigned Blocks"). Seen in 14.0.2 files:
// rle(values=flat(32), runs=flat(32)) on a string page with one value,
// rle(values=range(32, start=0, step=3), runs=flat(32)) on one with two.

// rleOffsetsEncoder is the RLE-of-offsets Variable encoder; step > 0
// selects Range run values.
type rleOffsetsEncoder struct {
	legacy codecs.VariableEncoder // chunk sizing and offset width
	step   uint64
}

// chunkOffsetRuns returns the run values and lengths of the offsets of
// values [start, end) relative to the chunk's first byte.
func chunkOffsetRuns(v *values0, start, end int) (vals, lens []uint64) {
	base := v.Offsets[start]
	for i := start; i <= end; i++ {
		o := v.Offsets[i] - base
		if n := len(vals); n > 0 && vals[n-1] == o {
			lens[n-1]++
			continue
		}
		vals, lens = append(vals, o), append(lens, 1)
	}
	return vals, lens
}

// newRLEOffsetsEncoder returns the RLE offset encoder for v and whether its
// runs pay at all (at most one run per two offsets in every chunk).
func newRLEOffsetsEncoder(v *values, legacy codecs.VariableEncoder, maxValues int) (rleOffsetsEncoder, bool) {
	c := rleOffsetsEncoder{legacy: legacy}
	step, ranged := uint64(0), true
	for start := 0; start < v.N; {
		n := legacy.Next(&v.Values, start, maxValues)
		vals, _ := chunkOffsetRuns(&v.Values, start, start+n)
		if 2*len(vals) > n+1 {
			return c, false
		}
		if len(vals) < 3 {
			ranged = false // 14.0.2 keeps Flat run values for two
		}
		for k := 1; ranged && k < len(vals); k++ {
			if step == 0 {
				step = vals[1]
			}
			ranged = vals[k] == uint64(k)*step
		}
		start += n
	}
	if ranged && step > 0 {
		c.step = step
	}
	return c, true
}

// Encoding implements codecs.MiniBlockEncoder.
func (c rleOffsetsEncoder) Encoding() *pb.CompressiveEncoding {
	t := uint64(c.legacy.OffsetBits)
	vals := codecs.FlatEncoding(t)
	if c.step > 0 {
		vals = &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Range{Range: &pb.Range{
			UncompressedBitsPerValue: t, Step: c.step}}}
	}
	offsets := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{
		Values: vals, RunLengths: codecs.FlatEncoding(32)}}}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Variable{Variable: &pb.Variable{Offsets: offsets}}}
}

// NumBuffers implements codecs.MiniBlockEncoder: offset payload, bytes.
func (c rleOffsetsEncoder) NumBuffers() int { return 2 }

// Name implements codecs.MiniBlockEncoder.
func (c rleOffsetsEncoder) Name() string { return "variable/rle-offsets" }

// Next implements codecs.MiniBlockEncoder (the legacy chunk sizes).
func (c rleOffsetsEncoder) Next(v *values0, start, maxValues int) int {
	return c.legacy.Next(v, start, maxValues)
}

// Encode implements codecs.MiniBlockEncoder.
func (c rleOffsetsEncoder) Encode(v *values0, start, end int, tmp *[]byte) [][]byte {
	vals, lens := chunkOffsetRuns(v, start, end)
	at := len(*tmp)
	out := *tmp
	var vb []byte
	if c.step == 0 {
		for _, x := range vals {
			if c.legacy.OffsetBits == 32 {
				vb = binary.LittleEndian.AppendUint32(vb, uint32(x))
			} else {
				vb = binary.LittleEndian.AppendUint64(vb, x)
			}
		}
	}
	out = binary.LittleEndian.AppendUint64(out, uint64(len(vb)))
	out = append(out, vb...)
	for _, l := range lens {
		out = binary.LittleEndian.AppendUint32(out, uint32(l))
	}
	*tmp = out
	return [][]byte{out[at:], v.Data[v.Offsets[start]:v.Offsets[end]]}
}
