package filewriter

import (
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// fslCodec stores fixed-size lists of fixed-width items: per chunk one
// validity bitmap per FSL layer that has nulls (outer first), then the items.
type fslCodec struct{ v *values }

func (c fslCodec) encoding() *pb.CompressiveEncoding {
	enc := flatEnc(uint64(c.v.bits))
	for i := len(c.v.fsl) - 1; i >= 0; i-- {
		l := c.v.fsl[i]
		enc = &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_FixedSizeList{FixedSizeList: &pb.FixedSizeList{
			ItemsPerValue: uint64(l.dim), HasValidity: l.validity != nil, Values: enc}}}
	}
	return enc
}

func (c fslCodec) numBuffers() int {
	n := 1
	for _, l := range c.v.fsl {
		if l.validity != nil {
			n++
		}
	}
	return n
}

func (c fslCodec) name() string { return "fixed_size_list" }

func (c fslCodec) next(v *values, start, maxValues int) int {
	rowBits := v.rowBits()
	n := 1
	for 2*n*rowBits/8 < miniFixedChunkBytes && 2*n <= maxValues {
		n *= 2
	}
	return min(n, v.n-start)
}

func (c fslCodec) encode(v *values, start, end int, tmp *[]byte) [][]byte {
	var out [][]byte
	cum := 1
	for _, l := range v.fsl {
		cum *= l.dim
		if l.validity != nil {
			out = append(out, appendBits(tmp, l.validity, start*cum, end*cum))
		}
	}
	w := v.bits / 8 * cum
	return append(out, v.data[start*w:end*w])
}
