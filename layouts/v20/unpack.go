package v20

import (
	"fmt"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodingspb"
)

// bitpacked is what both bit-packed encodings say about their values.
type bitpacked struct {
	legacy    *pb.Bitpacked
	fastlanes *pb.BitpackedForNonNeg
	w, t      uint64 // packed and unpacked widths in bits
	buf       *pb.Buffer
}

// bitpackedOf returns the bit-packed node of enc, checked.
func bitpackedOf(enc *pb.ArrayEncoding) (bitpacked, error) {
	var b bitpacked
	if l := enc.GetBitpacked(); l != nil {
		b = bitpacked{legacy: l, w: l.GetCompressedBitsPerValue(), t: l.GetUncompressedBitsPerValue(), buf: l.GetBuffer()}
	} else if f := enc.GetBitpackedForNonNeg(); f != nil {
		b = bitpacked{fastlanes: f, w: f.GetCompressedBitsPerValue(), t: f.GetUncompressedBitsPerValue(), buf: f.GetBuffer()}
	} else {
		return b, fmt.Errorf("%w: not a bit-packed encoding", ErrCorrupt)
	}
	return b, checkWidths(b.w, b.t)
}

// unpack appends values [from, to) of a bit-packed buffer to dst as words
// of b.t bits, checking that buf holds them.
func (b *bitpacked) unpack(dst, buf []byte, from, to uint64) ([]byte, error) {
	if b.legacy != nil {
		if uint64(len(buf))*8/b.w < to {
			return dst, fmt.Errorf("%w: bit-packed buffer of %d bytes for %d values of %d bits", ErrCorrupt, len(buf), to, b.w)
		}
		return unpackLegacy(dst, buf, b.legacy, from, to), nil
	}
	per := uint64(codecs.FastLanesPackedBytes(int(b.w)))
	if blocks := (to + codecs.FastLanesBlockValues - 1) / codecs.FastLanesBlockValues; uint64(len(buf))/per < blocks {
		return dst, fmt.Errorf("%w: fastlanes buffer of %d bytes for %d blocks of %d", ErrCorrupt, len(buf), blocks, per)
	}
	return unpackFastLanes(dst, buf, b.fastlanes, from, to)
}

// unpackLegacy appends values [from, to) of a legacy bit-packed buffer
// (which holds them) to dst: value i is the compressed_bits_per_value bits
// at bit i·width of an LSB-first bit stream, sign-extended when signed.
func unpackLegacy(dst, buf []byte, b *pb.Bitpacked, from, to uint64) []byte {
	w, t := b.GetCompressedBitsPerValue(), b.GetUncompressedBitsPerValue()
	for i := from; i < to; i++ {
		v := readBits(buf, i*w, w)
		if b.GetSigned() && w < 64 && v&(1<<(w-1)) != 0 {
			v |= ^uint64(0) << w
		}
		dst = appendWord(dst, v, t)
	}
	return dst
}

// unpackFastLanes appends values [from, to) of a FastLanes buffer (blocks
// of 1024 values, each 128·width bytes; it holds them) to dst: whole
// blocks straight into dst, partial ones through a block-sized scratch.
func unpackFastLanes(dst, buf []byte, b *pb.BitpackedForNonNeg, from, to uint64) ([]byte, error) {
	w, t := int(b.GetCompressedBitsPerValue()), int(b.GetUncompressedBitsPerValue())
	per, wb := uint64(codecs.FastLanesPackedBytes(w)), uint64(t/8)
	const bv = codecs.FastLanesBlockValues
	var tmp []byte
	var err error
	for k := from / bv; k*bv < to; k++ {
		lo, hi := max(from, k*bv), min(to, (k+1)*bv)
		src := buf[k*per:]
		if lo == k*bv && hi == (k+1)*bv {
			if dst, err = codecs.UnpackFastLanes(dst, src, t, w); err != nil {
				return dst, fmt.Errorf("%w: fastlanes block %d: %v", ErrCorrupt, k, err)
			}
			continue
		}
		if tmp, err = codecs.UnpackFastLanes(tmp[:0], src, t, w); err != nil {
			return dst, fmt.Errorf("%w: fastlanes block %d: %v", ErrCorrupt, k, err)
		}
		dst = append(dst, tmp[(lo-k*bv)*wb:(hi-k*bv)*wb]...)
	}
	return dst, nil
}

// unpackRange unpacks values [from, to) of a lazy page's bit-packed node
// into a fresh block.
func (p *Page) unpackRange(enc *pb.ArrayEncoding, from, to uint64) (codecs.Block, error) {
	b, err := bitpackedOf(enc)
	if err != nil {
		return codecs.Block{}, err
	}
	buf, err := p.buffer(b.buf)
	if err != nil {
		return codecs.Block{}, err
	}
	out, err := b.unpack(make([]byte, 0, (to-from)*(b.t/8)), buf, from, to)
	if err != nil {
		return codecs.Block{}, err
	}
	return codecs.Block{Kind: codecs.KindFixed, NumValues: to - from, BitsPerValue: b.t, Data: out}, nil
}

// unpackInto unpacks values [from, to) of a lazy page's bit-packed node
// straight into l's values. It reports false (and does nothing) for a
// prepared page, or when l holds values of another shape, for the generic
// path to serve or report.
func (p *Page) unpackInto(enc *pb.ArrayEncoding, from, to uint64, l *Leaf) (bool, error) {
	if !p.lazy {
		return false, nil
	}
	b, err := bitpackedOf(enc)
	if err != nil {
		return true, err
	}
	v := &l.values
	if v.Kind == 0 {
		v.InitShape(&codecs.Block{Kind: codecs.KindFixed, BitsPerValue: b.t})
		v.Reserve(l.expect)
		l.expect = 0
	}
	if v.Kind != codecs.KindFixed || v.Bits != b.t || len(v.FSL) > 0 || len(v.Children) > 0 {
		return false, nil
	}
	buf, err := p.buffer(b.buf)
	if err != nil {
		return true, err
	}
	v.ReserveBytes(int((to - from) * (b.t / 8)))
	if v.Data, err = b.unpack(v.Data, buf, from, to); err != nil {
		return true, err
	}
	v.N += int(to - from)
	return true, nil
}
