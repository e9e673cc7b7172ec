package filewriter

import (
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// generalMinBytes: General compression is skipped for pages whose value
// buffer 0 is smaller than this (Lance: 4096).
const generalMinBytes = 4096

// generalCodec compresses value buffer 0 of every chunk of an inner codec
// with lz4 or zstd (Lance's mini-block General).
type generalCodec struct {
	inner  miniCodec
	scheme pb.CompressionScheme
	level  int
}

func (c generalCodec) encoding() *pb.CompressiveEncoding {
	return generalEnc(c.scheme, c.level, c.inner.encoding())
}
func (c generalCodec) numBuffers() int { return c.inner.numBuffers() }
func (c generalCodec) name() string {
	if c.scheme == pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4 {
		return "general(lz4," + c.inner.name() + ")"
	}
	return "general(zstd," + c.inner.name() + ")"
}

func (c generalCodec) next(v *values, start, maxValues int) int {
	return c.inner.next(v, start, maxValues)
}

func (c generalCodec) encode(v *values, start, end int, tmp *[]byte) [][]byte {
	bufs := c.inner.encode(v, start, end, tmp)
	out := append([][]byte(nil), bufs...)
	if c.scheme == pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4 {
		out[0] = compressLZ4(bufs[0])
	} else {
		out[0], _ = codecs.CompressZstdLanceWith(v.sc.pool().zstdEncoders(), nil, bufs[0], c.level)
	}
	return out
}

// withGeneral wraps codec in General when lz4/zstd was requested and the
// page's first value buffer is large enough and actually shrinks.
func withGeneral(codec miniCodec, v *values, p encodingParams) miniCodec {
	var scheme pb.CompressionScheme
	switch p.compression {
	case "lz4":
		scheme = pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4
	case "zstd":
		scheme = pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD
	default:
		return codec
	}
	g := generalCodec{inner: codec, scheme: scheme, level: p.compressionLevel}
	raw, packed := 0, 0
	var tmp []byte
	for start := 0; start < v.n; {
		end := start + codec.next(v, start, int(p.miniblockValues))
		b := codec.encode(v, start, end, &tmp)[0]
		raw += len(b)
		packed += len(g.encode(v, start, end, &tmp)[0])
		start = end
		tmp = tmp[:0]
	}
	if raw < generalMinBytes || packed >= raw {
		return codec
	}
	return g
}
