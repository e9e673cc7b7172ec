package codecs

import (
	"encoding/binary"
	"sync"

	"github.com/klauspost/compress/huff0"
	"github.com/klauspost/compress/zstd"
)

// ZstdEncoders caches one zstd encoder per level for a caller (a writer)
// that compresses many buffers: building an encoder costs far more than
// most compressions. Safe for concurrent use (EncodeAll is); the zero
// value is ready; a nil *ZstdEncoders builds encoders per call. Close
// releases them.
type ZstdEncoders struct {
	mu   sync.Mutex
	m    map[zstd.EncoderLevel]*zstd.Encoder
	huff huff0.Scratch
}

// encoder returns the encoder of level l, cached when e is not nil; done
// must be called when the caller is finished with it.
func (e *ZstdEncoders) encoder(l zstd.EncoderLevel) (enc *zstd.Encoder, done func(), err error) {
	if e == nil {
		enc, err = newZstdEncoder(l)
		if err != nil {
			return nil, nil, err
		}
		return enc, func() { enc.Close() }, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if enc, ok := e.m[l]; ok {
		return enc, func() {}, nil
	}
	if enc, err = newZstdEncoder(l); err != nil {
		return nil, nil, err
	}
	if e.m == nil {
		e.m = map[zstd.EncoderLevel]*zstd.Encoder{}
	}
	e.m[l] = enc
	return enc, func() {}, nil
}

func newZstdEncoder(l zstd.EncoderLevel) (*zstd.Encoder, error) {
	return zstd.NewWriter(nil, zstd.WithEncoderLevel(l), zstd.WithEncoderConcurrency(1))
}

// Close releases the cached encoders; e may be used again afterwards.
func (e *ZstdEncoders) Close() {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, enc := range e.m {
		enc.Close()
	}
	e.m = nil
}

// CompressZstdLance is CompressZstdLanceWith without a cache.
func CompressZstdLance(dst, src []byte, level int) ([]byte, error) {
	return CompressZstdLanceWith(nil, dst, src, level)
}

// CompressZstdLanceWith is CompressZstd (u64 LE size prefix + zstd frame)
// tuned to come close to libzstd, which Lance uses: for the default level
// (0) it keeps the smaller of the "default" and "better" encoder outputs,
// since the default one often leaves small blocks of numbers uncompressed
// where libzstd level 3 entropy-codes them. Encoders come from encs (nil:
// built for this call).
func CompressZstdLanceWith(encs *ZstdEncoders, dst, src []byte, level int) ([]byte, error) {
	levels := []zstd.EncoderLevel{zstd.SpeedDefault, zstd.SpeedBetterCompression}
	if level != 0 {
		levels = []zstd.EncoderLevel{zstd.EncoderLevelFromZstd(level)}
	}
	var best []byte
	for _, l := range levels {
		e, done, err := encs.encoder(l)
		if err != nil {
			return dst, err
		}
		out := e.EncodeAll(src, nil)
		done()
		if best == nil || len(out) < len(best) {
			best = out
		}
	}
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(src)))
	if len(best) >= len(src)-len(src)>>4 {
		return encs.appendSmallerLiteralsFrame(dst, src, best), nil
	}
	return append(dst, best...), nil
}

// appendSmallerLiteralsFrame appends the smaller of frame and a
// literals-only frame of src (encode_zstd_lits.go): when the matcher found
// next to nothing, libzstd still Huffman-codes literals for savings
// klauspost's encoder declines.
func (e *ZstdEncoders) appendSmallerLiteralsFrame(dst, src, frame []byte) []byte {
	var sc *huff0.Scratch
	if e != nil {
		e.mu.Lock()
		defer e.mu.Unlock()
		sc = &e.huff
	}
	n := len(dst)
	dst, ok := appendZstdLiteralsFrame(dst, src, sc)
	if !ok || len(dst)-n >= len(frame) {
		return append(dst[:n], frame...)
	}
	return dst
}
