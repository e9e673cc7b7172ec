package codecs

import (
	"encoding/binary"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// zstdEncoders caches one encoder per level (EncodeAll is safe for
// concurrent use).
var zstdEncoders sync.Map // zstd.EncoderLevel → *zstd.Encoder

// zstdEncoder returns the cached encoder of level l.
func zstdEncoder(l zstd.EncoderLevel) (*zstd.Encoder, error) {
	if e, ok := zstdEncoders.Load(l); ok {
		return e.(*zstd.Encoder), nil
	}
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(l), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	actual, _ := zstdEncoders.LoadOrStore(l, e)
	return actual.(*zstd.Encoder), nil
}

// CompressZstdLance is CompressZstd (u64 LE size prefix + zstd frame) tuned
// to come close to libzstd, which Lance uses: for the default level (0) it
// keeps the smaller of the "default" and "better" encoder outputs, since
// the default one often leaves small blocks of numbers uncompressed where
// libzstd level 3 entropy-codes them.
func CompressZstdLance(dst, src []byte, level int) ([]byte, error) {
	levels := []zstd.EncoderLevel{zstd.SpeedDefault, zstd.SpeedBetterCompression}
	if level != 0 {
		levels = []zstd.EncoderLevel{zstd.EncoderLevelFromZstd(level)}
	}
	var best []byte
	for _, l := range levels {
		e, err := zstdEncoder(l)
		if err != nil {
			return dst, err
		}
		out := e.EncodeAll(src, nil)
		if best == nil || len(out) < len(best) {
			best = out
		}
	}
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(src)))
	return append(dst, best...), nil
}
