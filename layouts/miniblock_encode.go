package layouts

import (
	"encoding/binary"
	"fmt"
	mbits "math/bits"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lerr"
)

// Mini-block limits.
const (
	maxChunkBytes21 = 32 << 10 // 12-bit chunk size field × 8
	maxChunkLevels  = 65535    // u16 level count per chunk
)

// miniBuilder assembles the chunks of one mini-block page.
type miniBuilder struct {
	s        *Shredded
	v        *codecs.Values
	codec    codecs.MiniBlockEncoder
	ver      format.Version
	repC     LevelEncoder
	defC     LevelEncoder
	hidden   bool // some level entries have no value (else entry i is value i)
	maxVals  int  // the page's maximum values per chunk
	words    []byte
	data     []byte
	tmp      []byte // scratch of one chunk's encoding
	repIndex [][2]uint64
}

// EncodeMiniBlock encodes a page as a mini-block layout: codec cuts v into
// chunks (at most maxValues values each, split further while a chunk
// exceeds the version's size or level limits), each chunk holding its
// slice of the rep and def levels (encoded with repC and defC when s has
// them) and its value buffers. data is an empty buffer the chunks are
// appended to (MiniBlockDataEstimate bytes avoid regrowth); the page lists
// it in Scratch.
func EncodeMiniBlock(s *Shredded, v *codecs.Values, codec codecs.MiniBlockEncoder, repC, defC LevelEncoder,
	ver format.Version, maxValues int, data []byte) (*EncodedPage, error) {
	b := &miniBuilder{s: s, v: v, codec: codec, ver: ver, repC: repC, defC: defC, maxVals: maxValues}
	b.hidden = s.Rep != nil && s.Def != nil && s.Set.MaxVisibleDef < s.Set.MaxDef
	b.data = data
	for start, lvl := 0, 0; start < v.N; {
		n := codec.Next(v, start, maxValues)
		for {
			end := start + n
			mark := len(b.data)
			lvlEnd := b.chunk(start, end, lvl)
			if size := len(b.data) - mark; size > b.maxChunk() || lvlEnd-lvl > maxChunkLevels {
				// every chunk but the last holds at least 2 values
				if n <= 2 {
					return nil, fmt.Errorf("%w: a mini-block chunk of %d values needs %d bytes and %d levels, over the %s limits (%d bytes, %d levels): use the full-zip layout",
						lerr.ErrInvalidArgument, n, size, lvlEnd-lvl, b.ver, b.maxChunk(), maxChunkLevels)
				}
				b.data = b.data[:mark]
				n = 1 << (mbits.Len(uint(n)) - 1)
				if n == end-start {
					n /= 2
				}
				continue
			}
			if err := b.addChunk(len(b.data)-mark, n, end == v.N, lvl, lvlEnd); err != nil {
				return nil, err
			}
			start, lvl = end, lvlEnd
			break
		}
	}
	return b.page(), nil
}

// maxChunk is the largest chunk the version's chunk table can describe.
func (b *miniBuilder) maxChunk() int {
	if b.ver >= format.V2_2 {
		return 1 << 31
	}
	return maxChunkBytes21
}

// levelEnd returns the end of the levels of the chunk that starts at level
// entry lvl and holds n values: just after its n-th visible entry.
func (b *miniBuilder) levelEnd(lvl, n int) int {
	if !b.hidden {
		return lvl + n
	}
	maxVis := b.s.Set.MaxVisibleDef
	for i, d := range b.s.Def[lvl:] {
		if d <= maxVis {
			if n--; n == 0 {
				return lvl + i + 1
			}
		}
	}
	return len(b.s.Def)
}

// MiniBlockDataEstimate is the capacity reserved for a page's chunks: the
// values and levels as they are plus per-chunk headers and padding.
func MiniBlockDataEstimate(s *Shredded, v *codecs.Values) int {
	n := len(v.Data) + v.N/8 + 64
	if v.Kind == codecs.ValVariable {
		n += 8 * (v.N + 1)
	}
	n += 2 * (len(s.Rep) + len(s.Def))
	return n + n/16
}

// chunk appends to b.data the bytes of the chunk holding values [start,
// end) whose levels start at lvl; it returns the end of its levels.
func (b *miniBuilder) chunk(start, end, lvl int) int {
	lvlEnd := b.s.NumItems()
	if end < b.v.N {
		lvlEnd = b.levelEnd(lvl, end-start)
	}
	var rep, def []byte
	b.tmp = b.tmp[:0]
	if b.s.Rep != nil {
		rep = b.repC.EncodeTo(&b.tmp, b.s.Rep[lvl:lvlEnd])
	}
	if b.s.Def != nil {
		def = b.defC.EncodeTo(&b.tmp, b.s.Def[lvl:lvlEnd])
	}
	vals := b.codec.Encode(b.v, start, end, &b.tmp)
	var hdr []byte
	if rep != nil || def != nil {
		hdr = binary.LittleEndian.AppendUint16(hdr, uint16(lvlEnd-lvl))
	} else {
		hdr = binary.LittleEndian.AppendUint16(hdr, 0)
	}
	if b.s.Rep != nil {
		hdr = binary.LittleEndian.AppendUint16(hdr, uint16(len(rep)))
	}
	if b.s.Def != nil {
		hdr = binary.LittleEndian.AppendUint16(hdr, uint16(len(def)))
	}
	for _, vb := range vals {
		if b.ver >= format.V2_2 {
			hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(vb)))
		} else {
			hdr = binary.LittleEndian.AppendUint16(hdr, uint16(len(vb)))
		}
	}
	// chunks start at multiples of 8 in b.data, so padding to a multiple
	// of 8 there pads the chunk's parts
	out := pad8(append(b.data, hdr...), 0xFE)
	if b.s.Rep != nil {
		out = pad8(append(out, rep...), 0xFE)
	}
	if b.s.Def != nil {
		out = pad8(append(out, def...), 0xFE)
	}
	for _, vb := range vals {
		out = pad8(append(out, vb...), 0xFE)
	}
	b.data = out
	return lvlEnd
}

// pad8 pads b to a multiple of 8 bytes with p.
func pad8(b []byte, p byte) []byte {
	for len(b)%8 != 0 {
		b = append(b, p)
	}
	return b
}

// addChunk records the chunk of size bytes just appended: its metadata
// word and its repetition index entry.
func (b *miniBuilder) addChunk(size, n int, last bool, lvl, lvlEnd int) error {
	// a chunk's word stores log2 of its value count, 0 meaning the last
	// chunk: any other chunk holds a power of two of at least 2 values
	if !last && (n < 2 || n&(n-1) != 0) {
		return fmt.Errorf("lance: internal: non-last chunk of %d values", n)
	}
	logN := 0
	if !last || b.fullFixedChunk(n) {
		logN = mbits.Len(uint(n)) - 1
	}
	word := uint64(size/8-1)<<4 | uint64(logN)
	if b.ver >= format.V2_2 {
		b.words = binary.LittleEndian.AppendUint32(b.words, uint32(word))
	} else {
		b.words = binary.LittleEndian.AppendUint16(b.words, uint16(word))
	}
	if b.s.Rep != nil {
		b.addRepIndex(b.s.Rep[lvl:lvlEnd], last)
	}
	return nil
}

// fullFixedChunk reports whether a last chunk of n values is a full chunk
// of fixed-width values: Lance's value encoder (flat values and fixed-size
// lists, also under General compression) gives such a chunk its log2 count
// like the others and marks only a partial last chunk with 0.
func (b *miniBuilder) fullFixedChunk(n int) bool {
	c := b.codec
	if g, ok := c.(codecs.GeneralEncoder); ok {
		c = g.Inner
	}
	switch c.(type) {
	case codecs.FlatEncoder, codecs.FSLEncoder:
	default:
		return false
	}
	probe := *b.v
	probe.N = n + 1 // one more value: Next returns the full chunk size
	return n >= 2 && c.Next(&probe, 0, b.maxVals) == n
}

// addRepIndex appends the (ends, partial) pair of a chunk, with the fix-up
// of the previous chunk when this one starts a row.
func (b *miniBuilder) addRepIndex(rep []uint16, last bool) {
	maxRep := b.s.Set.MaxRep
	var partial uint64
	// row starts after the first level, counted without a branch per
	// level (row starts fall anywhere), and the last one found from the end
	starts := 0
	for _, r := range rep {
		starts += eqInt(r, maxRep)
	}
	lastStart := -1
	for i := len(rep) - 1; i >= 0; i-- {
		if rep[i] == maxRep {
			lastStart = i
			break
		}
	}
	if len(rep) > 0 {
		starts -= eqInt(rep[0], maxRep)
	}
	ends := uint64(starts)
	switch {
	case last:
		ends++
	case lastStart >= 0:
		partial = uint64(len(rep) - lastStart)
	default:
		partial = uint64(len(rep))
	}
	if k := len(b.repIndex); k > 0 && len(rep) > 0 && rep[0] == maxRep && b.repIndex[k-1][1] != 0 {
		b.repIndex[k-1][0]++
		b.repIndex[k-1][1] = 0
	}
	b.repIndex = append(b.repIndex, [2]uint64{ends, partial})
}

// eqInt is 1 when a == b (a flag move, not a branch).
func eqInt(a, b uint16) int {
	var i int
	if a == b {
		i = 1
	}
	return i
}

// page returns the finished page.
func (b *miniBuilder) page() *EncodedPage {
	l := &pb.MiniBlockLayout{ValueCompression: b.codec.Encoding(), Layers: b.s.Layers,
		NumBuffers: uint64(b.codec.NumBuffers()), NumItems: uint64(b.v.N), HasLargeChunk: b.ver >= format.V2_2}
	bufs := [][]byte{b.words, b.data}
	if b.s.Rep != nil {
		l.RepCompression = b.repC.Enc
		l.RepetitionIndexDepth = 1
	}
	if b.s.Def != nil {
		l.DefCompression = b.defC.Enc
	}
	if b.s.Rep != nil {
		idx := make([]byte, 0, 16*len(b.repIndex))
		for _, e := range b.repIndex {
			idx = binary.LittleEndian.AppendUint64(idx, e[0])
			idx = binary.LittleEndian.AppendUint64(idx, e[1])
		}
		bufs = append(bufs, idx)
	}
	return &EncodedPage{Buffers: bufs, Scratch: [][]byte{b.data}, NumRows: uint64(b.s.NumRows), Desc: "miniblock/" + b.codec.Name(),
		Layout: &pb.PageLayout{Layout: &pb.PageLayout_MiniBlockLayout{MiniBlockLayout: l}}}
}
