package filewriter

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/codecs/alp"
	"github.com/lancego/lancego/codecs/pcodec"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lerr"
)

// The mini-block encoders of the seed's 2.3 float codecs that no released
// Lance writes (ALP/ALP-RD, pcodec; wire numbers in
// docs/codec-wire-numbers.md). policy.go selects them only at 2.3 and only
// when a field asks (lance-encoding:alp=on|auto,
// lance-encoding:compression=pcodec), so a default 2.3 file stays readable
// by pylance 14.0.2. Each encoder encodes every chunk of the page up front
// (encodeAll), so an encoding error sends the page to the ordinary codecs
// instead of into the file.

// floatWidth is the IEEE float width of dt, or of the items of the
// fixed-size lists dt nests (0 for any other type, bfloat16 included).
func floatWidth(dt arrow.DataType) int {
	for {
		switch t := dt.(type) {
		case *arrow.Float16Type:
			return 16
		case *arrow.Float32Type:
			return 32
		case *arrow.Float64Type:
			return 64
		case *arrow.FixedSizeListType:
			if ext, _ := t.ElemField().Metadata.GetValue(format.ArrowExtensionNameKey); ext == format.BFloat16ExtensionName {
				return 0
			}
			dt = t.Elem()
		default:
			return 0
		}
	}
}

// chunkCache holds the buffers of a page's chunks by start value, so that
// Encode hands out what encodeAll computed.
type chunkCache struct {
	at  map[int][][]byte
	end map[int]int
	err error
}

// cached returns the chunk [start, end) if encodeAll computed it.
func (c *chunkCache) cached(start, end int) ([][]byte, bool) {
	b, ok := c.at[start]
	return b, ok && c.end[start] == end
}

// serve returns the chunk [start, end) from the cache, or encodes it with
// one (a level-limit split cut it differently), keeping the first error.
func (c *chunkCache) serve(start, end int, one func(start, end int) ([][]byte, error)) [][]byte {
	if b, ok := c.cached(start, end); ok {
		return b
	}
	b, err := one(start, end)
	if err != nil && c.err == nil {
		c.err = err
	}
	return b
}

// encodeAll encodes every chunk of v the way layouts.EncodeMiniBlock will
// cut it (absent level-limit splits), remembering the buffers.
func encodeAll(codec miniCodec, c *chunkCache, v *values, maxValues int, one func(start, end int) ([][]byte, error)) error {
	c.at, c.end = map[int][][]byte{}, map[int]int{}
	for start := 0; start < v.N; {
		n := codec.Next(&v.Values, start, maxValues)
		b, err := one(start, start+n)
		if err != nil {
			return err
		}
		c.at[start], c.end[start] = b, start+n
		start += n
	}
	return nil
}

// alpEncoder writes ALP/ALP-RD chunks of at most alp.MaxChunkValues
// floats (32 or 64 bits).
type alpEncoder struct {
	bits  int
	cache *chunkCache
}

// Encoding implements codecs.MiniBlockEncoder.
func (e alpEncoder) Encoding() *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Alp{Alp: &pb.Alp{BitsPerValue: uint64(e.bits)}}}
}

// NumBuffers implements codecs.MiniBlockEncoder: payload, header,
// exception positions, exception values.
func (e alpEncoder) NumBuffers() int { return 4 }

// Name implements codecs.MiniBlockEncoder.
func (e alpEncoder) Name() string { return "alp" }

// Next implements codecs.MiniBlockEncoder.
func (e alpEncoder) Next(v *codecs.Values, start, maxValues int) int {
	return max(1, min(alp.MaxChunkValues, maxValues, v.N-start))
}

// Encode implements codecs.MiniBlockEncoder.
func (e alpEncoder) Encode(v *codecs.Values, start, end int, _ *[]byte) [][]byte {
	return e.cache.serve(start, end, func(a, b int) ([][]byte, error) { return e.chunk(v, a, b) })
}

// chunk encodes the floats [start, end) as one chunk.
func (e alpEncoder) chunk(v *codecs.Values, start, end int) ([][]byte, error) {
	wb := e.bits / 8
	words := make([]uint64, end-start)
	for i := range words {
		words[i] = readLE(v.Data[(start+i)*wb:], wb)
	}
	ch, ok := alp.EncodeChunkAlways(words, e.bits)
	if !ok {
		return make([][]byte, 4), fmt.Errorf("%w: alp: chunk of %d values", lerr.ErrInvalidArgument, end-start)
	}
	return ch.Bufs[:], nil
}

// readLE reads a little-endian word of wb bytes.
func readLE(b []byte, wb int) uint64 {
	var x uint64
	for i := wb - 1; i >= 0; i-- {
		x = x<<8 | uint64(b[i])
	}
	return x
}

// pcodecEncoder writes pcodec chunks (one pco standalone file each) of
// floats or fixed-size lists of floats, sized as the seed says: the
// largest power of two of values whose bytes fit in 32 KiB.
type pcodecEncoder struct {
	bits, items, level int
	dims               []int
	perChunk           int
	cache              *chunkCache
}

// Encoding implements codecs.MiniBlockEncoder.
func (e pcodecEncoder) Encoding() *pb.CompressiveEncoding {
	inner := codecs.FlatEncoding(uint64(e.bits))
	for i := len(e.dims) - 1; i >= 0; i-- {
		inner = &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_FixedSizeList{
			FixedSizeList: &pb.FixedSizeList{ItemsPerValue: uint64(e.dims[i]), Values: inner}}}
	}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Pcodec{
		Pcodec: &pb.Pcodec{Values: inner, CompressionLevel: uint32(e.level)}}}
}

// NumBuffers implements codecs.MiniBlockEncoder.
func (e pcodecEncoder) NumBuffers() int { return 1 }

// Name implements codecs.MiniBlockEncoder.
func (e pcodecEncoder) Name() string { return "pcodec" }

// Next implements codecs.MiniBlockEncoder.
func (e pcodecEncoder) Next(v *codecs.Values, start, maxValues int) int {
	return max(1, min(e.perChunk, maxValues, v.N-start))
}

// Encode implements codecs.MiniBlockEncoder.
func (e pcodecEncoder) Encode(v *codecs.Values, start, end int, _ *[]byte) [][]byte {
	return e.cache.serve(start, end, func(a, b int) ([][]byte, error) { return e.chunk(v, a, b) })
}

// chunk compresses the values [start, end) as one pco file.
func (e pcodecEncoder) chunk(v *codecs.Values, start, end int) ([][]byte, error) {
	row := e.items * e.bits / 8
	buf, err := pcodec.EncodeChunk(v.Data[start*row:end*row], e.bits, e.items, e.level)
	return [][]byte{buf}, err
}

// newCodec23 builds the pcodec or ALP encoder the field asks for, its
// chunks encoded; ok is false when the values do not suit it (ALP: not f32
// or f64, not smaller than flat, or gated off by its auto mode; pcodec: null
// items inside fixed-size lists) or a chunk fails to encode.
func newCodec23(v *values, w int, p encodingParams, maxValues int) (miniCodec, *chunkCache, bool) {
	cache := &chunkCache{}
	var codec miniCodec
	var one func(start, end int) ([][]byte, error)
	if p.compression == "pcodec" {
		e, ok := newPcodecEncoder(v, w, p.pcodecLevel, maxValues, cache)
		if !ok {
			return nil, nil, false
		}
		codec, one = e, func(a, b int) ([][]byte, error) { return e.chunk(&v.Values, a, b) }
	} else {
		if v.Kind != valFixed || (w != 32 && w != 64) || v.Bits != w {
			return nil, nil, false
		}
		if _, ok, err := alp.EncodePage(v.Data[:v.N*w/8], w, alp.Options{Mode: p.alp}); !ok || err != nil {
			return nil, nil, false
		}
		e := alpEncoder{bits: w, cache: cache}
		codec, one = e, func(a, b int) ([][]byte, error) { return e.chunk(&v.Values, a, b) }
	}
	if err := encodeAll(codec, cache, v, maxValues, one); err != nil {
		return nil, nil, false
	}
	return codec, cache, true
}

// newPcodecEncoder sizes pcodec chunks for floats or fixed-size lists of
// floats without null items.
func newPcodecEncoder(v *values, w, level, maxValues int, cache *chunkCache) (pcodecEncoder, bool) {
	e := pcodecEncoder{bits: w, items: 1, level: level, cache: cache}
	switch v.Kind {
	case valFixed:
	case valFSL:
		for _, d := range v.FSL {
			if d.Validity != nil {
				return e, false
			}
			e.dims = append(e.dims, d.Dim)
			e.items *= d.Dim
		}
	default:
		return e, false
	}
	if v.Bits != w {
		return e, false
	}
	e.perChunk = pcodec.ChunkValues(e.items*w/8, maxValues)
	return e, true
}

// isIntegerTensor reports whether dt is a fixed-size list (optionally
// nested) of signed or unsigned integers, the input axis delta takes.
func isIntegerTensor(dt arrow.DataType) bool {
	t, ok := dt.(*arrow.FixedSizeListType)
	if !ok {
		return false
	}
	for ok {
		dt = t.Elem()
		t, ok = dt.(*arrow.FixedSizeListType)
	}
	return arrow.IsInteger(dt.ID())
}

// encodeAxisDelta writes a full-zip page of axis-delta transformed tensors
// (seed "Axis delta"): plain rows, or, when compression=zstd|lz4 asks and
// the page has no null rows, one zstd frame per tensor inside General.
func encodeAxisDelta(s *shredded, v *values, l *wleaf, ver format.Version) (*encodedPage, error) {
	p := l.params
	name := l.path[0].Name
	if v.Kind != valFSL || !isIntegerTensor(l.leafType()) {
		return nil, fmt.Errorf("%w: column %q: %s applies to fixed-size lists of integers", lerr.ErrInvalidArgument, name, metaAxisDelta)
	}
	elems := 1
	for _, d := range v.FSL {
		if d.Validity != nil {
			return nil, fmt.Errorf("%w: column %q: %s needs tensors without null elements", lerr.ErrInvalidArgument, name, metaAxisDelta)
		}
		elems *= d.Dim
	}
	tb := elems * v.Bits / 8
	moved, err := codecs.AxisDeltaEncode(nil, v.Data[:v.N*tb], v.Bits, elems, p.axisDelta[0], p.axisDelta[1])
	if err != nil {
		return nil, fmt.Errorf("%w: column %q: %s: %w", lerr.ErrInvalidArgument, name, metaAxisDelta, err)
	}
	ad := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_AxisDelta{AxisDelta: &pb.AxisDelta{
		AxisLength: uint64(p.axisDelta[0]), InnerStride: uint64(p.axisDelta[1]), Values: fullZipFixedEncoding(v)}}}
	if (p.compression == "zstd" || p.compression == "lz4") && s.Def == nil {
		if page, ok, err := axisDeltaGeneral(s, v, moved, tb, ad, p, ver); ok || err != nil {
			return page, err
		}
	}
	tv := *v
	tv.Data = moved
	page, err := encodeFullZip(s, &tv, p, ver)
	if err != nil {
		return nil, err
	}
	page.Layout.GetFullZipLayout().ValueCompression = ad
	page.Desc = "fullzip/axis_delta"
	return page, nil
}

// axisDeltaGeneral encodes the transformed tensors as variable full-zip
// values compressed one by one; ok is false when the full-zip encoder does
// not compress them (too little data), leaving plain rows.
func axisDeltaGeneral(s *shredded, v *values, moved []byte, tb int, ad *pb.CompressiveEncoding, p encodingParams, ver format.Version) (*encodedPage, bool, error) {
	tv := values{sc: v.sc}
	tv.Kind, tv.N, tv.Data, tv.Binary = valVariable, v.N, moved, true
	tv.Offsets = make([]uint64, v.N+1)
	for i := range tv.Offsets {
		tv.Offsets[i] = uint64(i * tb)
	}
	page, err := encodeFullZip(s, &tv, p, ver)
	if err != nil {
		return nil, false, err
	}
	l := page.Layout.GetFullZipLayout()
	g := l.GetValueCompression().GetGeneral()
	if g == nil {
		return nil, false, nil
	}
	g.Values = ad
	page.Desc = "fullzip/general(axis_delta)"
	return page, true, nil
}

// encodeCodecs23 encodes the page with pcodec or ALP when its field asks
// and the values allow; ok is false to go on with the ordinary codecs.
func encodeCodecs23(s *shredded, v *values, l *wleaf, cfg *writerConfig) (*encodedPage, bool, error) {
	p := l.params
	if p.axisDelta != [2]int{} {
		if cfg.version < format.V2_3 {
			return nil, false, fmt.Errorf("%w: column %q: %s needs file version 2.3", lerr.ErrInvalidArgument, l.path[0].Name, metaAxisDelta)
		}
		page, err := encodeAxisDelta(s, v, l, cfg.version)
		return page, err == nil, err
	}
	pc := p.compression == "pcodec"
	if !pc && p.alp == alp.Off {
		return nil, false, nil
	}
	w := floatWidth(l.leafType())
	switch {
	case pc && cfg.version < format.V2_3:
		return nil, false, fmt.Errorf("%w: column %q: %s=pcodec needs file version 2.3", lerr.ErrInvalidArgument, l.path[0].Name, metaCompression)
	case pc && w == 0:
		return nil, false, fmt.Errorf("%w: column %q: %s=pcodec applies to float columns and fixed-size lists of floats", lerr.ErrInvalidArgument, l.path[0].Name, metaCompression)
	case cfg.version < format.V2_3 || v.N == 0:
		return nil, false, nil // ALP is a 2.3 codec: below 2.3 the key is ignored
	}
	maxValues := int(p.miniblockValues)
	codec, cache, ok := newCodec23(v, w, p, maxValues)
	if !ok {
		return nil, false, nil
	}
	page, err := encodeMiniBlock(s, v, codec, cfg.version, maxValues)
	if err != nil || cache.err != nil {
		return nil, false, err
	}
	return page, true, nil
}
