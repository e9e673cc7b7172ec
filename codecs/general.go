package codecs

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

const (
	// lz4MaxRatio bounds the LZ4 block expansion (a 255-byte length run per
	// input byte), used to reject implausible size prefixes.
	lz4MaxRatio = 255
	// zstdMaxRatio bounds zstd expansion (an RLE block: 4 bytes → 128 KiB).
	zstdMaxRatio = 1 << 15
	// zstdMaxWindow caps the zstd window (matches the reference default
	// window-log limit of 27).
	zstdMaxWindow = 1 << 27
	// zstdMagic starts every zstd frame.
	zstdMagic = 0xFD2FB528
)

// Decompressor decompresses General (LZ4 / zstd) buffers. It owns a lazily
// created zstd decoder, so reuse one per goroutine for many buffers and Close
// it when done. The zero value is ready to use.
type Decompressor struct {
	zd *zstd.Decoder
	// lend is a caller's buffer that the first decoder needing fresh
	// output memory appends into (see DecodeMiniBlockScratch); kept is
	// that decoder's output, so the caller can reuse its capacity.
	lending bool
	lend    []byte
	lent    bool
	kept    []byte
	taken   bool
}

// scratch returns the lent buffer, emptied, to the first caller and nil
// (allocate) to later ones.
func (d *Decompressor) scratch() []byte {
	if !d.lending || d.lent {
		return nil
	}
	d.lent = true
	return d.lend[:0]
}

// keep records the output of the decoder that took the lent buffer.
func (d *Decompressor) keep(b []byte) []byte {
	if d.lent && !d.taken {
		d.taken, d.kept = true, b
	}
	return b
}

// Close releases the zstd decoder, if one was created.
func (d *Decompressor) Close() {
	if d.zd != nil {
		d.zd.Close()
		d.zd = nil
	}
}

// Decompress appends the decompressed form of src, compressed with scheme
// using Lance's framing, to dst.
func (d *Decompressor) Decompress(dst, src []byte, scheme pb.CompressionScheme) ([]byte, error) {
	switch scheme {
	case pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4:
		return DecompressLZ4(dst, src)
	case pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD:
		return d.DecompressZstd(dst, src)
	default:
		return dst, fmt.Errorf("%w: general: compression scheme %v", ErrUnsupported, scheme)
	}
}

// DecompressLZ4 appends the decompressed form of a Lance LZ4 buffer — a u32
// LE uncompressed size followed by one LZ4 block — to dst.
func DecompressLZ4(dst, src []byte) ([]byte, error) {
	if len(src) < 4 {
		return dst, fmt.Errorf("%w: general lz4: %d bytes is shorter than the size prefix", ErrCorrupt, len(src))
	}
	size := uint64(binary.LittleEndian.Uint32(src))
	body := src[4:]
	if size > MaxDecodedSize || size > uint64(len(body))*lz4MaxRatio+16 {
		return dst, fmt.Errorf("%w: general lz4: uncompressed size %d implausible for %d compressed bytes", ErrCorrupt, size, len(body))
	}
	start := len(dst)
	dst = append(growCap(dst, int(size)), make([]byte, size)...)
	if size == 0 {
		return dst, nil
	}
	n, err := lz4.UncompressBlock(body, dst[start:])
	if err != nil {
		return dst[:start], fmt.Errorf("%w: general lz4: %v", ErrCorrupt, err)
	}
	if uint64(n) != size {
		return dst[:start], fmt.Errorf("%w: general lz4: decoded %d bytes, prefix says %d", ErrCorrupt, n, size)
	}
	return dst, nil
}

// CompressLZ4 appends src compressed in Lance's LZ4 framing to dst.
func CompressLZ4(dst, src []byte) ([]byte, error) {
	if uint64(len(src)) > MaxDecodedSize {
		return dst, fmt.Errorf("%w: general lz4: input of %d bytes too large", ErrCorrupt, len(src))
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(src)))
	dst = slices.Grow(dst, lz4BlockBound(len(src)))
	return AppendLZ4Block(dst, src), nil
}

// zstdDecoder returns the lazily created zstd decoder.
func (d *Decompressor) zstdDecoder() (*zstd.Decoder, error) {
	if d.zd != nil {
		return d.zd, nil
	}
	zd, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxMemory(MaxDecodedSize), zstd.WithDecoderMaxWindow(zstdMaxWindow))
	if err != nil {
		return nil, err
	}
	d.zd = zd
	return zd, nil
}

// DecompressZstd appends the decompressed form of a Lance zstd buffer to dst:
// either a u64 LE uncompressed size followed by a zstd frame, or a bare frame
// (magic 0xFD2FB528, frame-header-descriptor bit 0x10 clear). Empty input
// decodes to nothing.
func (d *Decompressor) DecompressZstd(dst, src []byte) ([]byte, error) {
	if len(src) == 0 {
		return dst, nil
	}
	zd, err := d.zstdDecoder()
	if err != nil {
		return dst, err
	}
	if isBareZstd(src) {
		return readZstd(zd, dst, src, -1)
	}
	if len(src) < 8 {
		return dst, fmt.Errorf("%w: general zstd: %d bytes is shorter than the size prefix", ErrCorrupt, len(src))
	}
	size := binary.LittleEndian.Uint64(src)
	body := src[8:]
	if size > MaxDecodedSize || size > uint64(len(body))*zstdMaxRatio+(128<<10) {
		return dst, fmt.Errorf("%w: general zstd: uncompressed size %d implausible for %d compressed bytes", ErrCorrupt, size, len(body))
	}
	return readZstd(zd, dst, body, int64(size))
}

// isBareZstd reports whether src is a bare zstd frame rather than a
// size-prefixed one (the reference reader's rule).
func isBareZstd(src []byte) bool {
	if len(src) < 8 {
		return true
	}
	return binary.LittleEndian.Uint32(src) == zstdMagic && src[4]&0x10 == 0
}

// readZstd stream-decodes frame, expecting exactly size bytes (size < 0:
// unknown, bounded by MaxDecodedSize). Memory grows with the bytes actually
// decoded, not with the claimed size.
func readZstd(zd *zstd.Decoder, dst, frame []byte, size int64) ([]byte, error) {
	if err := zd.Reset(bytes.NewReader(frame)); err != nil {
		return dst, fmt.Errorf("%w: general zstd: %v", ErrCorrupt, err)
	}
	limit := int64(MaxDecodedSize)
	if size >= 0 {
		limit = size
	}
	buf := bytes.NewBuffer(make([]byte, 0, min(limit, int64(len(frame))*4+4096)))
	n, err := buf.ReadFrom(io.LimitReader(zd, limit+1))
	if err != nil {
		return dst, fmt.Errorf("%w: general zstd: %v", ErrCorrupt, err)
	}
	if n > limit || (size >= 0 && n != size) {
		return dst, fmt.Errorf("%w: general zstd: decoded %d bytes, expected %d (limit %d)", ErrCorrupt, n, size, limit)
	}
	return append(dst, buf.Bytes()...), nil
}

// CompressZstd appends src compressed in Lance's zstd framing (u64 LE size
// prefix + frame) to dst, at the given level (0 = default).
func CompressZstd(dst, src []byte, level int) ([]byte, error) {
	lvl := zstd.SpeedDefault
	if level != 0 {
		lvl = zstd.EncoderLevelFromZstd(level)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(lvl), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return dst, err
	}
	defer enc.Close()
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(src)))
	return enc.EncodeAll(src, dst), nil
}

// GeneralEncoding returns the codec tree General{compression, values}.
func GeneralEncoding(s pb.CompressionScheme, level int, inner *pb.CompressiveEncoding) *pb.CompressiveEncoding {
	bc := &pb.BufferCompression{Scheme: s}
	if level != 0 {
		l := int32(level)
		bc.Level = &l
	}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_General{General: &pb.General{
		Compression: bc, Values: inner}}}
}

// CompressLZ4Block compresses raw as one LZ4 frame (nil on error, which
// the LZ4 writer does not return for in-memory output).
func CompressLZ4Block(raw []byte) []byte {
	out, err := CompressLZ4(nil, raw)
	if err != nil {
		return nil
	}
	return out
}

// GeneralEncoder compresses value buffer 0 of every chunk of Inner with
// LZ4 or zstd (Lance's mini-block General). Zstd, when not nil, caches
// the zstd encoders.
type GeneralEncoder struct {
	Inner  MiniBlockEncoder
	Scheme pb.CompressionScheme
	Level  int
	Zstd   *ZstdEncoders
}

// Encoding implements MiniBlockEncoder.
func (c GeneralEncoder) Encoding() *pb.CompressiveEncoding {
	return GeneralEncoding(c.Scheme, c.Level, c.Inner.Encoding())
}

// NumBuffers implements MiniBlockEncoder.
func (c GeneralEncoder) NumBuffers() int { return c.Inner.NumBuffers() }

// Name implements MiniBlockEncoder.
func (c GeneralEncoder) Name() string {
	if c.Scheme == pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4 {
		return "general(lz4," + c.Inner.Name() + ")"
	}
	return "general(zstd," + c.Inner.Name() + ")"
}

// Next implements MiniBlockEncoder.
func (c GeneralEncoder) Next(v *Values, start, maxValues int) int {
	return c.Inner.Next(v, start, maxValues)
}

// Encode implements MiniBlockEncoder.
func (c GeneralEncoder) Encode(v *Values, start, end int, tmp *[]byte) [][]byte {
	bufs := c.Inner.Encode(v, start, end, tmp)
	out := append([][]byte(nil), bufs...)
	if c.Scheme == pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4 {
		out[0] = CompressLZ4Block(bufs[0])
	} else {
		out[0], _ = CompressZstdLanceWith(c.Zstd, nil, bufs[0], c.Level)
	}
	return out
}
