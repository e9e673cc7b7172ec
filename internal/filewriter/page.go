package filewriter

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// fullZipThreshold: values of this many bytes or more go to full-zip pages.
const fullZipThreshold = 256

// encodeLeaf encodes one page of leaf column l from the top-level array.
func encodeLeaf(top arrow.Array, l *wleaf, cfg *writerConfig, sc *leafScratch) (*encodedPage, error) {
	s, err := shred(top, l, sc)
	if err != nil {
		return nil, err
	}
	if len(s.idx) == 0 || s.numNull == len(s.idx) {
		return encodeAllNull(s, cfg.version), nil
	}
	if l.leafType().ID() == arrow.DICTIONARY {
		return encodeDictionaryLeaf(s, l, cfg)
	}
	switch {
	case l.blobV2:
		return encodeBlobV2(s, l, cfg)
	case l.packed:
		return encodePacked(s, l, cfg)
	case l.blob:
		return encodeBlobV1(s, l, cfg)
	}
	v, err := gatherValues(s.leaf, s.idx, sc)
	if err != nil {
		return nil, err
	}
	return encodeValues(s, v, l, cfg)
}

// encodeValues picks the structural layout and codec for gathered values.
func encodeValues(s *shredded, v *values, l *wleaf, cfg *writerConfig) (*encodedPage, error) {
	if cfg.version >= format.V2_2 {
		if c, ok := constantValue(v); ok {
			return encodeConstant(s, c), nil
		}
		if c, ok := constantString(s, v); ok {
			return encodeConstantBuffer(s, c), nil
		}
	}
	p := l.params
	// Like Lance, a dictionary is tried first, whatever the layout the
	// values would get without one (its indices are mini-block).
	if page, ok, err := tryDictionary(s, v, p, cfg.version); ok || err != nil {
		return page, err
	}
	if p.structural == "fullzip" || (p.structural != "miniblock" && maxValueBytes(v) >= fullZipThreshold) {
		return encodeFullZip(s, v, p, cfg.version)
	}
	codec := withGeneral(chooseMiniCodec(v, p, cfg.version), v, p)
	return encodeMiniBlock(s, v, codec, cfg.version, int(p.miniblockValues))
}

// maxValueBytes is the size of the largest value.
func maxValueBytes(v *values) int {
	switch v.Kind {
	case valVariable:
		m := uint64(0)
		for i := 0; i < v.N; i++ {
			m = max(m, v.ValueLen(i))
		}
		return int(m)
	case valBool:
		return 1
	}
	return v.RowBits() / 8
}

// chooseMiniCodec selects the mini-block value codec like Lance: RLE or
// bit-packing when they make the data smaller, else flat.
func chooseMiniCodec(v *values, p encodingParams, ver format.Version) miniCodec {
	switch v.Kind {
	case valBool:
		return codecs.FlatEncoder{Bits: 1}
	case valFSL:
		return codecs.FSLEncoder{V: &v.Values}
	case valVariable:
		return chooseVariableCodec(v, p)
	}
	if p.compression == "none" || (v.Bits != 8 && v.Bits != 16 && v.Bits != 32 && v.Bits != 64) {
		return codecs.FlatEncoder{Bits: v.Bits}
	}
	if useBSS(v, p) {
		return codecs.BSSEncoder{Bits: v.Bits}
	}
	flat := v.N * v.Bits / 8
	packed := codecs.InlineBitpackedSize(&v.Values)
	runs := codecs.CountRuns(&v.Values, 0, v.N)
	rle := runs * (v.Bits/8 + 1)
	if p.rleUserSet && float64(runs) < p.rleThreshold*float64(v.N) {
		return codecs.RLEEncoder{Bits: v.Bits}
	}
	if !p.rleUserSet && rle < packed && rle < flat {
		return codecs.RLEEncoder{Bits: v.Bits}
	}
	if packed < flat {
		return codecs.InlineBitpackingEncoder{Bits: v.Bits}
	}
	return codecs.FlatEncoder{Bits: v.Bits}
}

// chooseVariableCodec picks Variable (FSST when it pays off).
func chooseVariableCodec(v *values, p encodingParams) miniCodec {
	bitsOff := 32
	if v.Large {
		bitsOff = 64
	}
	if c, ok := tryFSST(v, p, bitsOff); ok {
		return c
	}
	return codecs.VariableEncoder{OffsetBits: bitsOff}
}

// encodeAllNull writes a page without values: simple (no buffers) for a
// flat nullable column, else raw u16 rep and def buffers.
func encodeAllNull(s *shredded, v format.Version) *encodedPage {
	l := &pb.ConstantLayout{Layers: s.layers}
	var bufs [][]byte
	simple := len(s.layers) == 1 && s.rep == nil
	if !simple {
		bufs = constantLevels(l, s, v)
	}
	return &encodedPage{buffers: bufs, numRows: uint64(s.numRows), desc: "all_null",
		layout: &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: l}}}
}

// constantLevels returns the [rep, def] buffers of a constant page: raw u16
// in 2.1, the RLE block form in 2.2 (counts in num_rep/def_values).
func constantLevels(l *pb.ConstantLayout, s *shredded, v format.Version) [][]byte {
	if v < format.V2_2 {
		return [][]byte{u16Bytes(s.rep), u16Bytes(s.def)}
	}
	bufs := [][]byte{nil, nil}
	rle := levelCodec{rle: true}
	enc := func() *pb.CompressiveEncoding {
		return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{
			Values: codecs.FlatEncoding(16), RunLengths: codecs.FlatEncoding(8)}}}
	}
	if s.rep != nil {
		bufs[0], l.RepCompression, l.NumRepValues = rle.encode(s.rep), enc(), uint64(len(s.rep))
	}
	if s.def != nil {
		bufs[1], l.DefCompression, l.NumDefValues = rle.encode(s.def), enc(), uint64(len(s.def))
	}
	return bufs
}
