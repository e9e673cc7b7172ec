package filewriter

import (
	"math/bits"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lebits"
)

// 2.3 mini-block RLE may bit-pack one of its two children out of line
// (seed "Run Length Encoding" in 2.3: children may be bit-packed, General
// or Range; a reader takes the run count from the flat child, so at most
// one is packed). Pylance 14.0.2 packs the run lengths or the run values
// at one width for the whole page when that is smaller; policy.go keeps
// the 2.2 form otherwise.

// rlePackedEncoder is RLE whose values (packValues) or run lengths are
// out-of-line bit-packed at width.
type rlePackedEncoder struct {
	rle        codecs.RLEEncoder // chunk sizing and the runs themselves
	packValues bool
	width      int
}

// Encoding implements codecs.MiniBlockEncoder.
func (c rlePackedEncoder) Encoding() *pb.CompressiveEncoding {
	vals, lens := codecs.FlatEncoding(uint64(c.rle.Bits)), codecs.FlatEncoding(8)
	if c.packValues {
		vals = oolEncoding(c.rle.Bits, c.width)
	} else {
		lens = oolEncoding(8, c.width)
	}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{Values: vals, RunLengths: lens}}}
}

func oolEncoding(t, w int) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{
		OutOfLineBitpacking: &pb.OutOfLineBitpacking{UncompressedBitsPerValue: uint64(t), Values: codecs.FlatEncoding(uint64(w))}}}
}

// NumBuffers implements codecs.MiniBlockEncoder.
func (c rlePackedEncoder) NumBuffers() int { return 2 }

// Name implements codecs.MiniBlockEncoder.
func (c rlePackedEncoder) Name() string {
	if c.packValues {
		return "rle/packed-values"
	}
	return "rle/packed-runs"
}

// Next implements codecs.MiniBlockEncoder (RLE's chunk sizes).
func (c rlePackedEncoder) Next(v *values0, start, maxValues int) int {
	return c.rle.Next(v, start, maxValues)
}

// Encode implements codecs.MiniBlockEncoder.
func (c rlePackedEncoder) Encode(v *values0, start, end int, tmp *[]byte) [][]byte {
	bufs := c.rle.Encode(v, start, end, tmp)
	i, t := 1, 8
	if c.packValues {
		i, t = 0, c.rle.Bits
	}
	n := uint64(len(bufs[i]) / (t / 8))
	// No error: t is 8..64 and width fits every word of the page.
	packed, _ := codecs.EncodeOutOfLineBitpacking(nil, bufs[i], t, c.width, n)
	bufs[i] = packed
	return bufs
}

// rleWidths returns the widths of the page's widest run value and run
// length under RLE's chunking.
func rleWidths(rle codecs.RLEEncoder, v *values, maxValues int) (valueWidth, runWidth int) {
	var tmp []byte
	var vOr, rOr uint64
	w := rle.Bits / 8
	for start := 0; start < v.N; {
		n := rle.Next(&v.Values, start, maxValues)
		bufs := rle.Encode(&v.Values, start, start+n, &tmp)
		for j := 0; j+w <= len(bufs[0]); j += w {
			vOr |= lebits.Uint(bufs[0][j:], w)
		}
		for _, r := range bufs[1] {
			rOr |= uint64(r)
		}
		start += n
	}
	return max(bits.Len64(vOr), 1), max(bits.Len64(rOr), 1)
}

// choosePackedRLE returns the smallest of RLE, RLE with packed values and
// RLE with packed run lengths.
func choosePackedRLE(rle codecs.RLEEncoder, v *values, maxValues int) miniCodec {
	vw, rw := rleWidths(rle, v, maxValues)
	best, size := miniCodec(rle), encodedSize(rle, v, maxValues)
	for _, c := range []rlePackedEncoder{{rle: rle, width: rw}, {rle: rle, packValues: true, width: vw}} {
		if c.packValues && vw >= rle.Bits || !c.packValues && rw >= 8 {
			continue
		}
		if s := encodedSize(c, v, maxValues); s < size {
			best, size = c, s
		}
	}
	return best
}
