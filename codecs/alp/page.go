package alp

import (
	"encoding/binary"
	"fmt"

	"github.com/lancego/lancego/codecs"
)

// Options are the writer's choices for one page.
type Options struct {
	// Mode is lance-encoding:alp (Auto by default).
	Mode Mode
	// MaxChunkBytes is the mini-block byte budget of one chunk's buffers;
	// 0 means no limit. A chunk over it sends the page to flat.
	MaxChunkBytes int
}

// EncodePage encodes the len(raw)/(width/8) little-endian width-bit floats of
// raw (width 32 or 64) as ALP chunks of at most 1,024 values, each chunk the
// smaller of ALP and (f64) ALP-RD. ok is false when the page should stay
// flat: the mode is off, the auto entropy gate rejects it, a chunk has no
// encodable value, a chunk exceeds MaxChunkBytes, or the chunks together are
// not smaller than raw — so ALP never enlarges data.
func EncodePage(raw []byte, width int, opt Options) (chunks []Chunk, ok bool, err error) {
	if err := checkWidth(width); err != nil {
		return nil, false, err
	}
	wb := width / 8
	if len(raw)%wb != 0 {
		return nil, false, fmt.Errorf("%w: alp: %d bytes are not whole %d-bit values", codecs.ErrCorrupt, len(raw), width)
	}
	if opt.Mode == Off || len(raw) == 0 {
		return nil, false, nil
	}
	if opt.Mode == Auto && BytePositionEntropy(raw, width) >= EntropyGate {
		return nil, false, nil
	}
	n := len(raw) / wb
	words := make([]uint64, MaxChunkValues)
	total := 0
	for start := 0; start < n; start += MaxChunkValues {
		m := min(n-start, MaxChunkValues)
		v := words[:m]
		for i := range v {
			v[i] = readWord(raw[(start+i)*wb:], width)
		}
		ch, good := EncodeChunk(v, width)
		if !good || (opt.MaxChunkBytes > 0 && ch.Size() > opt.MaxChunkBytes) {
			return nil, false, nil
		}
		total += ch.Size()
		chunks = append(chunks, ch)
	}
	if total >= len(raw) {
		return nil, false, nil
	}
	return chunks, true, nil
}

// EncodeChunk encodes 1..1024 floats, given as their width-bit IEEE bit
// patterns, as the smaller of an ALP chunk and (f64 only) an ALP-RD chunk.
// ok is false when neither applies (every value an ALP exception and no
// ALP-RD split smaller than raw), or the count is out of range.
func EncodeChunk(v []uint64, width int) (Chunk, bool) {
	if len(v) == 0 || len(v) > MaxChunkValues || checkWidth(width) != nil {
		return Chunk{}, false
	}
	best, ok := encodeALP(v, width)
	if width == 64 {
		if rd, rok := encodeRD(v); rok && (!ok || rd.Size() < best.Size()) {
			best, ok = rd, true
		}
	}
	return best, ok
}

// EncodeChunkAlways is EncodeChunk for a writer that has committed a page
// to ALP: where neither ALP nor ALP-RD applies it returns a FOR chunk of
// width 0 whose every value is a verbatim exception (valid, decodable, and
// about the size of flat). It reports false only for a count or width out
// of range.
func EncodeChunkAlways(v []uint64, width int) (Chunk, bool) {
	if ch, ok := EncodeChunk(v, width); ok {
		return ch, true
	}
	if len(v) == 0 || len(v) > MaxChunkValues || checkWidth(width) != nil {
		return Chunk{}, false
	}
	h := appendWord([]byte{0, 0, 0, 0}, 0, width)
	payload, err := codecs.EncodeOutOfLineBitpacking(nil, make([]byte, len(v)*width/8), width, 0, uint64(len(v)))
	if err != nil {
		return Chunk{}, false
	}
	pos := make([]byte, 0, 2*len(v))
	vals := make([]byte, 0, len(v)*width/8)
	for i, x := range v {
		pos = binary.LittleEndian.AppendUint16(pos, uint16(i))
		vals = appendWord(vals, x, width)
	}
	return Chunk{Bufs: [4][]byte{payload, h, pos, vals}}, true
}

// DecodePage decodes chunks written by EncodePage for n values, appending
// the little-endian floats to dst (a convenience for tests and tools; the
// mini-block reader decodes chunk by chunk with DecodeChunk).
func DecodePage(dst []byte, chunks []Chunk, width, n int) ([]byte, error) {
	if n < 0 || len(chunks) != (n+MaxChunkValues-1)/MaxChunkValues {
		return dst, fmt.Errorf("%w: alp: %d chunks for %d values", codecs.ErrCorrupt, len(chunks), n)
	}
	for i := range chunks {
		m := min(n-i*MaxChunkValues, MaxChunkValues)
		var err error
		if dst, err = DecodeChunk(dst, chunks[i].Bufs, width, m); err != nil {
			return dst, fmt.Errorf("chunk %d: %w", i, err)
		}
	}
	return dst, nil
}
