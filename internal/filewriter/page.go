package filewriter

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lerr"
	"github.com/lancego/lancego/layouts"
)

// encodeLeaf encodes one page of leaf column l from the top-level array.
func encodeLeaf(top arrow.Array, l *wleaf, cfg *writerConfig, sc *leafScratch) (*encodedPage, error) {
	if cfg.version >= format.V2_3 && (l.blob || l.blobV2) {
		return nil, fmt.Errorf("%w: 2.3: blob columns are not written yet", lerr.ErrUnsupportedType)
	}
	p, err := encodeLeaf22(top, l, cfg, sc)
	if err != nil || cfg.version < format.V2_3 {
		return p, err
	}
	return toPlanar(p)
}

// encodeLeaf22 encodes a page with the 2.1/2.2 layouts (and, at 2.3, the
// sparse planar pages of the policy).
func encodeLeaf22(top arrow.Array, l *wleaf, cfg *writerConfig, sc *leafScratch) (*encodedPage, error) {
	s, err := shred(top, l, sc)
	if err != nil {
		return nil, err
	}
	if s.NumSlots() == 0 || s.NumNull == s.NumSlots() {
		if cfg.version >= format.V2_3 {
			return planarAllNull(s)
		}
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
	v, err := gatherShredded(s)
	if err != nil {
		return nil, err
	}
	return encodeValues(s, v, l, cfg)
}

// encodeAllNull writes a page without values: simple (no buffers) for a
// flat nullable column, else raw u16 rep and def buffers.
func encodeAllNull(s *shredded, v format.Version) *encodedPage {
	l := &pb.ConstantLayout{Layers: s.Layers}
	var bufs [][]byte
	simple := len(s.Layers) == 1 && s.Rep == nil
	if !simple {
		bufs = constantLevels(l, s, v)
	}
	return &encodedPage{Buffers: bufs, NumRows: uint64(s.NumRows), Desc: "all_null",
		Layout: &pb.PageLayout{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: l}}}
}

// constantLevels returns the [rep, def] buffers of a constant page: raw u16
// in 2.1, the RLE block form in 2.2 (counts in num_rep/def_values).
func constantLevels(l *pb.ConstantLayout, s *shredded, v format.Version) [][]byte {
	if v < format.V2_2 {
		return [][]byte{layouts.U16Bytes(s.Rep), layouts.U16Bytes(s.Def)}
	}
	bufs := [][]byte{nil, nil}
	rle := levelCodec{RLE: true}
	enc := func() *pb.CompressiveEncoding {
		return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{
			Values: codecs.FlatEncoding(16), RunLengths: codecs.FlatEncoding(8)}}}
	}
	if s.Rep != nil {
		bufs[0], l.RepCompression, l.NumRepValues = rle.Encode(s.Rep), enc(), uint64(len(s.Rep))
	}
	if s.Def != nil {
		bufs[1], l.DefCompression, l.NumDefValues = rle.Encode(s.Def), enc(), uint64(len(s.Def))
	}
	return bufs
}
