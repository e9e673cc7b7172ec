package filewriter

import (
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// generalMinBytes: General compression is skipped for pages whose value
// buffer 0 is smaller than this (Lance: 4096).
const generalMinBytes = 4096

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
	g := codecs.GeneralEncoder{Inner: codec, Scheme: scheme, Level: p.compressionLevel, Zstd: v.sc.pool().zstdEncoders()}
	raw, packed := 0, 0
	var tmp []byte
	for start := 0; start < v.N; {
		end := start + codec.Next(&v.Values, start, int(p.miniblockValues))
		b := codec.Encode(&v.Values, start, end, &tmp)[0]
		raw += len(b)
		packed += len(g.Encode(&v.Values, start, end, &tmp)[0])
		start = end
		tmp = tmp[:0]
	}
	if raw < generalMinBytes || packed >= raw {
		return codec
	}
	return g
}
