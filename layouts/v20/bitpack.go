package v20

import (
	"encoding/binary"
	"fmt"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodingspb"
)

// prepareBitpacked unpacks a legacy bit-packed buffer whole: value i is
// the compressed_bits_per_value bits at bit i·width of an LSB-first bit
// stream, sign-extended when signed.
func (p *Page) prepareBitpacked(b *pb.Bitpacked, rows uint64) error {
	w, t := b.GetCompressedBitsPerValue(), b.GetUncompressedBitsPerValue()
	if err := checkWidths(w, t); err != nil {
		return err
	}
	buf, err := p.buffer(b.GetBuffer())
	if err != nil {
		return err
	}
	if uint64(len(buf))*8/w < rows {
		return fmt.Errorf("%w: bit-packed buffer of %d bytes for %d values of %d bits", ErrCorrupt, len(buf), rows, w)
	}
	if p.lazy {
		return nil
	}
	out := unpackLegacy(make([]byte, 0, rows*(t/8)), buf, b, 0, rows)
	p.keep(b, codecs.Block{Kind: codecs.KindFixed, NumValues: rows, BitsPerValue: t, Data: out})
	p.size += int64(len(out))
	return nil
}

// prepareFastLanes unpacks FastLanes-packed non-negative integers whole:
// blocks of 1024 values, each 128·width bytes, the last one padded.
func (p *Page) prepareFastLanes(b *pb.BitpackedForNonNeg, rows uint64) error {
	w, t := b.GetCompressedBitsPerValue(), b.GetUncompressedBitsPerValue()
	if err := checkWidths(w, t); err != nil {
		return err
	}
	buf, err := p.buffer(b.GetBuffer())
	if err != nil {
		return err
	}
	blocks := (rows + codecs.FastLanesBlockValues - 1) / codecs.FastLanesBlockValues
	per := uint64(codecs.FastLanesPackedBytes(int(w)))
	if uint64(len(buf))/per < blocks && per > 0 {
		return fmt.Errorf("%w: fastlanes buffer of %d bytes for %d blocks of %d", ErrCorrupt, len(buf), blocks, per)
	}
	if p.lazy {
		return nil
	}
	out, err := unpackFastLanes(make([]byte, 0, blocks*codecs.FastLanesBlockValues*(t/8)), buf, b, 0, blocks*codecs.FastLanesBlockValues)
	if err != nil {
		return err
	}
	p.keep(b, codecs.Block{Kind: codecs.KindFixed, NumValues: rows, BitsPerValue: t, Data: out[:rows*(t/8)]})
	p.size += int64(len(out))
	return nil
}

// decodeUnpacked slices values out of a prepared bit-packed page.
func (p *Page) decodeUnpacked(enc *pb.ArrayEncoding, from, to uint64) (codecs.Block, error) {
	var key any = enc.GetBitpacked()
	if enc.GetBitpacked() == nil {
		key = enc.GetBitpackedForNonNeg()
	}
	b, ok := p.prepared[key].(codecs.Block)
	if !ok && p.lazy {
		return p.unpackRange(enc, from, to)
	}
	if !ok || to > b.NumValues {
		return codecs.Block{}, fmt.Errorf("%w: bit-packed values were not prepared", ErrCorrupt)
	}
	w := b.BitsPerValue / 8
	return codecs.Block{Kind: codecs.KindFixed, NumValues: to - from, BitsPerValue: b.BitsPerValue, Data: b.Data[from*w : to*w]}, nil
}

// checkWidths validates compressed (w) and uncompressed (t) widths.
func checkWidths(w, t uint64) error {
	switch t {
	case 8, 16, 32, 64:
	default:
		return fmt.Errorf("%w: bit-packed values of %d bits", ErrCorrupt, t)
	}
	if w == 0 || w > t {
		return fmt.Errorf("%w: bit-packed width %d for %d-bit values", ErrCorrupt, w, t)
	}
	return nil
}

// readBits reads n ≤ 64 bits at bit offset off of an LSB-first stream.
func readBits(b []byte, off, n uint64) uint64 {
	var v uint64
	for got := uint64(0); got < n; {
		byt := b[(off+got)/8]
		sh := (off + got) % 8
		take := min(8-sh, n-got)
		v |= uint64(byt>>sh) & (1<<take - 1) << got
		got += take
	}
	return v
}

// appendWord appends the low t bits of v little-endian.
func appendWord(dst []byte, v, t uint64) []byte {
	switch t {
	case 8:
		return append(dst, byte(v))
	case 16:
		return binary.LittleEndian.AppendUint16(dst, uint16(v))
	case 32:
		return binary.LittleEndian.AppendUint32(dst, uint32(v))
	}
	return binary.LittleEndian.AppendUint64(dst, v)
}
