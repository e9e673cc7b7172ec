package pcodec

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/lancego/lancego/codecs"
)

// ChunkTargetBytes is the seed's uncompressed budget of one pcodec chunk.
const ChunkTargetBytes = 32 << 10

// ChunkValues is the seed's pcodec chunk size in values: the largest power
// of two whose uncompressed bytes (valueBytes each: the element size times
// the FSL dimensions) fit in 32 KiB, capped by the mini-block maximum
// maxValues, and at least 2.
func ChunkValues(valueBytes, maxValues int) int {
	if valueBytes <= 0 {
		return max(min(2, maxValues), 1)
	}
	n := 1
	if c := ChunkTargetBytes / valueBytes; c >= 1 {
		n = 1 << (bits.Len(uint(c)) - 1)
	}
	if maxValues > 0 {
		n = min(n, maxValues)
	}
	return max(n, 2)
}

// ParseLevel reads lance-encoding:compression-level for pcodec ("" means
// the default, 8).
func ParseLevel(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return DefaultLevel, nil
	}
	l, err := strconv.Atoi(s)
	if err != nil || l < 0 || l > MaxLevel {
		return 0, fmt.Errorf("%w: pcodec: compression level %q not in 0..%d", codecs.ErrUnsupported, s, MaxLevel)
	}
	return l, nil
}

// Transpose writes the n values of d items each (elemBytes per item) from
// src item-major into dst: item j of value i goes to position j·n + i. dst
// is grown as needed and returned.
func Transpose(dst, src []byte, n, d, elemBytes int) []byte {
	size := n * d * elemBytes
	dst = append(dst[:0], make([]byte, size)...)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			copy(dst[(j*n+i)*elemBytes:(j*n+i+1)*elemBytes], src[(i*d+j)*elemBytes:])
		}
	}
	return dst
}

// Untranspose is the inverse of Transpose, appending the value-major bytes
// to dst.
func Untranspose(dst, src []byte, n, d, elemBytes int) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, n*d*elemBytes)...)
	out := dst[start:]
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			copy(out[(i*d+j)*elemBytes:(i*d+j+1)*elemBytes], src[(j*n+i)*elemBytes:])
		}
	}
	return dst
}

// floatType maps a Lance float width to pco's number type.
func floatType(width int) (NumberType, error) {
	switch width {
	case 16:
		return F16, nil
	case 32:
		return F32, nil
	case 64:
		return F64, nil
	}
	return 0, fmt.Errorf("%w: pcodec: float width %d not 16, 32 or 64", codecs.ErrUnsupported, width)
}

// EncodeChunk encodes one Lance mini-block chunk: n values of d floats of
// the given width (little-endian, value-major in raw), transposed item-major
// and compressed as one pco standalone file.
func EncodeChunk(raw []byte, width, d, level int) ([]byte, error) {
	t, err := floatType(width)
	if err != nil {
		return nil, err
	}
	eb := width / 8
	if d < 1 || len(raw)%(d*eb) != 0 {
		return nil, fmt.Errorf("%w: pcodec: %d bytes are not whole values of %d × %d bits", codecs.ErrCorrupt, len(raw), d, width)
	}
	n := len(raw) / (d * eb)
	src := raw
	if d > 1 {
		src = Transpose(nil, raw, n, d, eb)
	}
	return Compress(src, t, level)
}

// DecodeChunk decodes one Lance pcodec chunk of exactly n values of d floats
// of the given width, appending them value-major to dst. The file must hold
// exactly n·d numbers of the matching type.
func DecodeChunk(dst, buf []byte, width, d, n int) ([]byte, error) {
	t, err := floatType(width)
	if err != nil {
		return dst, err
	}
	if d < 1 || n < 0 || n > maxEntries/d {
		return dst, fmt.Errorf("%w: pcodec: %d values of %d items", codecs.ErrCorrupt, n, d)
	}
	eb := width / 8
	if d == 1 {
		start := len(dst)
		out, got, err := Decompress(dst, buf, n)
		if err != nil {
			return dst[:start], err
		}
		if got != t || len(out)-start != n*eb {
			return dst[:start], corrupt("chunk holds %d bytes of %v, want %d values of %v", len(out)-start, got, n, t)
		}
		return out, nil
	}
	tmp, got, err := Decompress(nil, buf, n*d)
	if err != nil {
		return dst, err
	}
	if got != t || len(tmp) != n*d*eb {
		return dst, corrupt("chunk holds %d bytes of %v, want %d×%d values of %v", len(tmp), got, n, d, t)
	}
	return Untranspose(dst, tmp, n, d, eb), nil
}
