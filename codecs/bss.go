package codecs

import (
	"fmt"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// checkBSS validates a byte-stream-split value width and input size.
func checkBSS(src []byte, valueBits int, numValues uint64) error {
	if valueBits != 32 && valueBits != 64 {
		return fmt.Errorf("%w: byte stream split: value width %d not 32 or 64", ErrCorrupt, valueBits)
	}
	w := uint64(valueBits / 8)
	if uint64(len(src))/w != numValues || uint64(len(src))%w != 0 {
		return fmt.Errorf("%w: byte stream split: %d bytes for %d values of %d bits", ErrCorrupt, len(src), numValues, valueBits)
	}
	return nil
}

// DecodeByteStreamSplit appends the numValues values whose byte j of value i
// is src[j·numValues+i] to dst (valueBits 32 or 64; len(src) must be exact).
func DecodeByteStreamSplit(dst, src []byte, valueBits int, numValues uint64) ([]byte, error) {
	if err := checkBSS(src, valueBits, numValues); err != nil {
		return dst, err
	}
	w, n := valueBits/8, int(numValues)
	start := len(dst)
	dst = append(growCap(dst, len(src)), src...)
	out := dst[start:]
	for j := 0; j < w; j++ {
		stream := src[j*n : (j+1)*n]
		for i, b := range stream {
			out[i*w+j] = b
		}
	}
	return dst, nil
}

// EncodeByteStreamSplit is the inverse of DecodeByteStreamSplit.
func EncodeByteStreamSplit(dst, src []byte, valueBits int, numValues uint64) ([]byte, error) {
	if err := checkBSS(src, valueBits, numValues); err != nil {
		return dst, err
	}
	w, n := valueBits/8, int(numValues)
	start := len(dst)
	dst = append(growCap(dst, len(src)), src...)
	out := dst[start:]
	for i := 0; i < n; i++ {
		for j := 0; j < w; j++ {
			out[j*n+i] = src[i*w+j]
		}
	}
	return dst, nil
}

// BSSEncoder stores 32/64-bit values byte-stream-split per chunk of 1024
// (32-bit) or 512 (64-bit) values (Lance: ByteStreamSplitEncoder).
type BSSEncoder struct{ Bits int }

// Encoding implements MiniBlockEncoder.
func (c BSSEncoder) Encoding() *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_ByteStreamSplit{
		ByteStreamSplit: &pb.ByteStreamSplit{Values: FlatEncoding(uint64(c.Bits))}}}
}

// NumBuffers implements MiniBlockEncoder.
func (c BSSEncoder) NumBuffers() int { return 1 }

// Name implements MiniBlockEncoder.
func (c BSSEncoder) Name() string { return "bss" }

// Next implements MiniBlockEncoder.
func (c BSSEncoder) Next(v *Values, start, _ int) int {
	chunk := 1024
	if c.Bits == 64 {
		chunk = 512
	}
	return min(chunk, v.N-start)
}

// Encode implements MiniBlockEncoder.
func (c BSSEncoder) Encode(v *Values, start, end int, tmp *[]byte) [][]byte {
	w := c.Bits / 8
	at := len(*tmp)
	*tmp, _ = EncodeByteStreamSplit(*tmp, v.Data[start*w:end*w], c.Bits, uint64(end-start))
	return [][]byte{(*tmp)[at:]}
}
