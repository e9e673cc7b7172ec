package filewriter

import (
	"math/bits"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lebits"
)

// 2.3 mini-block RLE encodes its two children (run values, u8 run
// lengths) one by one (seed "Run Length Encoding" in 2.3: children may be
// bit-packed, General or Range; a reader takes the run count from a child
// that is not bit-packed, so at most one is). Like Lance's RLE encoder,
// each child has the candidates flat, General (when the field asks for
// lz4/zstd and it shrinks the child) and out-of-line bit-packing at one
// width for the whole page (when that is smaller), and the pair of
// smallest total size is taken, the earlier one (flat, General, packed;
// values first) on a tie. The chosen RLE is not wrapped in General again.

// childKind is how an RLE child is stored.
type childKind uint8

const (
	childFlat childKind = iota
	childGeneral
	childPacked
)

// rleChild is the codec of one RLE child: kind, and the width of a packed
// child.
type rleChild struct {
	kind  childKind
	width int
}

// rleGeneral is the General compression RLE's children may use.
type rleGeneral struct {
	scheme pb.CompressionScheme
	level  int
	zstd   *codecs.ZstdEncoders
}

// rleChildEncoder is RLE whose values and run lengths are stored as
// values and runs say.
type rleChildEncoder struct {
	rle          codecs.RLEEncoder // chunk sizing and the runs themselves
	values, runs rleChild
	gen          rleGeneral
}

// Encoding implements codecs.MiniBlockEncoder.
func (c rleChildEncoder) Encoding() *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{
		Values: c.childEncoding(c.values, c.rle.Bits), RunLengths: c.childEncoding(c.runs, 8)}}}
}

// childEncoding is the codec tree of child ch of t-bit words.
func (c rleChildEncoder) childEncoding(ch rleChild, t int) *pb.CompressiveEncoding {
	switch ch.kind {
	case childGeneral:
		return codecs.GeneralEncoding(c.gen.scheme, c.gen.level, codecs.FlatEncoding(uint64(t)))
	case childPacked:
		return oolEncoding(t, ch.width)
	}
	return codecs.FlatEncoding(uint64(t))
}

func oolEncoding(t, w int) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{
		OutOfLineBitpacking: &pb.OutOfLineBitpacking{UncompressedBitsPerValue: uint64(t), Values: codecs.FlatEncoding(uint64(w))}}}
}

// NumBuffers implements codecs.MiniBlockEncoder.
func (c rleChildEncoder) NumBuffers() int { return 2 }

// Name implements codecs.MiniBlockEncoder.
func (c rleChildEncoder) Name() string {
	names := [...]string{"flat", "general", "packed"}
	return "rle/" + names[c.values.kind] + "-values/" + names[c.runs.kind] + "-runs"
}

// Next implements codecs.MiniBlockEncoder (RLE's chunk sizes).
func (c rleChildEncoder) Next(v *values0, start, maxValues int) int {
	return c.rle.Next(v, start, maxValues)
}

// Encode implements codecs.MiniBlockEncoder.
func (c rleChildEncoder) Encode(v *values0, start, end int, tmp *[]byte) [][]byte {
	bufs := c.rle.Encode(v, start, end, tmp)
	bufs[0] = c.encodeChild(c.values, bufs[0], c.rle.Bits)
	bufs[1] = c.encodeChild(c.runs, bufs[1], 8)
	return bufs
}

// encodeChild stores one chunk's child buffer b of t-bit words as ch says.
func (c rleChildEncoder) encodeChild(ch rleChild, b []byte, t int) []byte {
	switch ch.kind {
	case childGeneral:
		return c.gen.compress(b)
	case childPacked:
		// No error: t is 8..64 and the width fits every word of the page.
		packed, _ := codecs.EncodeOutOfLineBitpacking(nil, b, t, ch.width, uint64(len(b)/(t/8)))
		return packed
	}
	return b
}

// compress is b compressed in Lance's General framing.
func (g rleGeneral) compress(b []byte) []byte {
	if g.scheme == pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4 {
		return codecs.CompressLZ4Block(b)
	}
	out, _ := codecs.CompressZstdLanceWith(g.zstd, nil, b, g.level)
	return out
}

// childSizes are a child's total sizes over the page's chunks: flat,
// General (when asked), and the widest word (for the packed width).
type childSizes struct {
	flat, general, words int
	or                   uint64
}

// addStats accounts one chunk's child of n t-bit words whose OR is or
// (what add finds in the child's bytes, without General compression).
func (s *childSizes) addStats(n, t int, or uint64) {
	s.flat += n * t / 8
	s.words += n
	s.or |= or
}

// rleChunkStats returns what RLE with u8 run lengths makes of values
// [start, end) (codecs.EncodeRLE's runs): the number of runs, the OR of
// their values and the OR of their lengths.
func rleChunkStats(v *codecs.Values, start, end int) (runs int, orVal, orLen uint64) {
	w := v.Bits / 8
	for i := start; i < end; {
		x := lebits.Uint(v.Data[i*w:], w)
		j := i + 1
		for j < end && j-i < 255 && lebits.Uint(v.Data[j*w:], w) == x {
			j++
		}
		runs++
		orVal |= x
		orLen |= uint64(j - i)
		i = j
	}
	return runs, orVal, orLen
}

// add accounts one chunk's child buffer b of t-bit words.
func (s *childSizes) add(b []byte, t int, gen *rleGeneral) {
	s.flat += len(b)
	s.words += len(b) / (t / 8)
	if gen != nil {
		s.general += len(gen.compress(b))
	}
	switch t {
	case 8:
		s.or |= orWords[uint8](b)
	case 16:
		s.or |= orWords[uint16](b)
	case 32:
		s.or |= orWords[uint32](b)
	case 64:
		s.or |= orWords[uint64](b)
	default:
		for j := 0; j+t/8 <= len(b); j += t / 8 {
			s.or |= lebits.Uint(b[j:], t/8)
		}
	}
}

// orWords is the OR of the little-endian T words of b (a whole number of
// them; the host is little-endian), one load per word.
func orWords[T uint8 | uint16 | uint32 | uint64](b []byte) uint64 {
	var acc T
	for _, x := range lebits.Words[T](b) {
		acc |= x
	}
	return uint64(acc)
}

// candidates are the child's codecs with their sizes in Lance's order:
// flat, General if it shrinks the child, packed if narrower and smaller.
func (s *childSizes) candidates(t int, gen *rleGeneral, chunkWords []int) ([]rleChild, []int) {
	kinds, sizes := []rleChild{{kind: childFlat}}, []int{s.flat}
	if gen != nil && s.general < s.flat {
		kinds, sizes = append(kinds, rleChild{kind: childGeneral}), append(sizes, s.general)
	}
	if w := max(bits.Len64(s.or), 1); w < t {
		packed := 0
		for _, n := range chunkWords {
			packed += oolPackedBytes(n, t, w)
		}
		if packed < s.flat {
			kinds, sizes = append(kinds, rleChild{kind: childPacked, width: w}), append(sizes, packed)
		}
	}
	return kinds, sizes
}

// oolPackedBytes is the size of n t-bit words bit-packed out of line at
// width w (codecs.EncodeOutOfLineBitpacking): whole 1024-word blocks, and
// a tail packed as a block when its padding costs less than packing saves.
func oolPackedBytes(n, t, w int) int {
	const block = 1024
	full, tail := n/block, n%block
	size := full * block * w / 8
	switch {
	case tail == 0:
	case w*(block-tail) < (t-w)*tail:
		size += block * w / 8
	default:
		size += tail * t / 8
	}
	return size
}

// chooseChildRLE returns the RLE encoder with the children Lance would
// pick for the page and its total child size. gen is nil unless the field
// asks for lz4/zstd.
func chooseChildRLE(rle codecs.RLEEncoder, v *values, maxValues int, gen *rleGeneral) (miniCodec, int) {
	var vs, rs childSizes
	var vWords, rWords []int
	var tmp []byte
	for start := 0; start < v.N; {
		n := rle.Next(&v.Values, start, maxValues)
		if gen == nil { // the sizes need only the runs, not their bytes
			runs, orVal, orLen := rleChunkStats(&v.Values, start, start+n)
			vs.addStats(runs, rle.Bits, orVal)
			rs.addStats(runs, 8, orLen)
			vWords, rWords = append(vWords, runs), append(rWords, runs)
			start += n
			continue
		}
		tmp = tmp[:0]
		bufs := rle.Encode(&v.Values, start, start+n, &tmp)
		vs.add(bufs[0], rle.Bits, gen)
		rs.add(bufs[1], 8, gen)
		vWords, rWords = append(vWords, len(bufs[0])/(rle.Bits/8)), append(rWords, len(bufs[1]))
		start += n
	}
	vk, vsz := vs.candidates(rle.Bits, gen, vWords)
	rk, rsz := rs.candidates(8, gen, rWords)
	best := rleChildEncoder{rle: rle}
	if gen != nil {
		best.gen = *gen
	}
	size := -1
	for i := range vk {
		for j := range rk {
			if vk[i].kind == childPacked && rk[j].kind == childPacked {
				continue
			}
			if s := vsz[i] + rsz[j]; size < 0 || s < size {
				best.values, best.runs, size = vk[i], rk[j], s
			}
		}
	}
	if best.values.kind == childFlat && best.runs.kind == childFlat {
		return rle, size
	}
	return best, size
}

// rleGeneralFor is the General compression of 2.3 RLE children: nil
// unless the field asks for lz4 or zstd.
func rleGeneralFor(v *values, p encodingParams) *rleGeneral {
	switch p.compression {
	case "lz4":
		return &rleGeneral{scheme: pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4, level: p.compressionLevel}
	case "zstd":
		return &rleGeneral{scheme: pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD, level: p.compressionLevel,
			zstd: v.sc.pool().zstdEncoders()}
	}
	return nil
}
