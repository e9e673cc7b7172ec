package layouts

import (
	"fmt"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/codecs/alp"
	"github.com/lancego/lancego/codecs/pcodec"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// The seed's 2.3 chunk codecs that no released Lance writes (ALP/ALP-RD and
// pcodec, wire numbers in docs/codec-wire-numbers.md) are the value
// compression of a whole mini-block page, never nested inside another codec,
// so the page decoder dispatches them here before the codecs tree walker
// (which cannot import their packages: they use its bit-packing).

// isCodec23 reports whether enc is one of the 2.3 chunk codecs.
func isCodec23(enc *pb.CompressiveEncoding) bool {
	return enc.GetAlp() != nil || enc.GetPcodec() != nil
}

// decodeCodec23 decodes the value buffers of one mini-block chunk of n
// values (rows, for fixed-size lists) compressed with ALP or pcodec.
func decodeCodec23(enc *pb.CompressiveEncoding, bufs [][]byte, n uint64) (codecs.Block, error) {
	if n == 0 || n > codecs.MaxDecodedSize {
		return codecs.Block{}, fmt.Errorf("%w: %s chunk of %d values", ErrCorrupt, codecs.Describe(enc), n)
	}
	if a := enc.GetAlp(); a != nil {
		return decodeALPChunk(a, bufs, int(n))
	}
	return decodePcodecChunk(enc.GetPcodec(), bufs, int(n))
}

// decodeALPChunk decodes an ALP or ALP-RD chunk: buffers payload, header,
// exception positions, exception values.
func decodeALPChunk(a *pb.Alp, bufs [][]byte, n int) (codecs.Block, error) {
	w := int(a.GetBitsPerValue())
	if w != 32 && w != 64 {
		return codecs.Block{}, fmt.Errorf("%w: alp: bits_per_value %d not 32 or 64", ErrCorrupt, w)
	}
	if len(bufs) != 4 {
		return codecs.Block{}, fmt.Errorf("%w: alp: chunk has %d value buffers, want 4", ErrCorrupt, len(bufs))
	}
	if n > alp.MaxChunkValues {
		return codecs.Block{}, fmt.Errorf("%w: alp: chunk of %d values, at most %d", ErrCorrupt, n, alp.MaxChunkValues)
	}
	data, err := alp.DecodeChunk(make([]byte, 0, n*w/8), [4][]byte(bufs), w, n)
	if err != nil {
		return codecs.Block{}, err
	}
	return codecs.Block{Kind: codecs.KindFixed, NumValues: uint64(n), BitsPerValue: uint64(w), Data: data}, nil
}

// decodePcodecChunk decodes a pcodec chunk: one pco standalone file of the
// chunk's n·d floats, item-major, d the product of the fixed-size-list
// dimensions of the uncompressed layout (1 for plain floats).
func decodePcodecChunk(p *pb.Pcodec, bufs [][]byte, n int) (codecs.Block, error) {
	if len(bufs) != 1 {
		return codecs.Block{}, fmt.Errorf("%w: pcodec: chunk has %d value buffers, want 1", ErrCorrupt, len(bufs))
	}
	w, dims, err := pcodecLayout(p.GetValues())
	if err != nil {
		return codecs.Block{}, err
	}
	d := 1
	for _, l := range dims {
		d *= int(l.Dimension)
	}
	if n > int(codecs.MaxDecodedSize)/(d*w/8) {
		return codecs.Block{}, fmt.Errorf("%w: pcodec: %d values of %d items exceed the decode limit", ErrCorrupt, n, d)
	}
	data, err := pcodec.DecodeChunk(make([]byte, 0, n*d*w/8), bufs[0], w, d, n)
	if err != nil {
		return codecs.Block{}, err
	}
	return codecs.Block{Kind: codecs.KindFixed, NumValues: uint64(n), BitsPerValue: uint64(w), Data: data, FSL: dims}, nil
}

// maxPcodecItems bounds the items of one pcodec value (the product of its
// fixed-size-list dimensions).
const maxPcodecItems = 1 << 20

// pcodecLayout parses pcodec's uncompressed layout: Flat of 16, 32 or 64
// bits inside zero or more FixedSizeList layers without validity.
func pcodecLayout(enc *pb.CompressiveEncoding) (int, []codecs.FSLLayer, error) {
	var dims []codecs.FSLLayer
	items := uint64(1)
	for depth := 0; depth < 8; depth++ {
		switch c := enc.GetCompression().(type) {
		case *pb.CompressiveEncoding_Flat:
			w := int(c.Flat.GetBitsPerValue())
			if w != 16 && w != 32 && w != 64 {
				return 0, nil, fmt.Errorf("%w: pcodec: values of %d bits, want 16, 32 or 64", ErrCorrupt, w)
			}
			return w, dims, nil
		case *pb.CompressiveEncoding_FixedSizeList:
			dim := c.FixedSizeList.GetItemsPerValue()
			if c.FixedSizeList.GetHasValidity() {
				return 0, nil, fmt.Errorf("%w: pcodec: fixed-size list items with validity", codecs.ErrUnsupported)
			}
			if dim == 0 || dim > maxPcodecItems/items {
				return 0, nil, fmt.Errorf("%w: pcodec: fixed-size list of %d items", ErrCorrupt, dim)
			}
			items *= dim
			dims = append(dims, codecs.FSLLayer{Dimension: dim})
			enc = c.FixedSizeList.GetValues()
		default:
			return 0, nil, fmt.Errorf("%w: pcodec: uncompressed layout %s", ErrCorrupt, codecs.Describe(enc))
		}
	}
	return 0, nil, fmt.Errorf("%w: pcodec: layout nested too deep", ErrCorrupt)
}
