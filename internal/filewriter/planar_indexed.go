package filewriter

import (
	"encoding/binary"
	"math/bits"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
	"github.com/lancego/lancego/layouts"
)

// Dictionaries of 2.3 sparse pages (policy.go, section 6): a chunked value
// plane with the dictionary beside the u32 indices, or, for binary and
// string values whose dictionary reaches indexedMinDictBytes, an indexed
// value plane (seed "Planar Page Layout": "Indexed values"): one u32 index
// per terminal slot, then the distinct values zipped one by one with zstd
// and their byte index. As pylance 14.0.2 writes it, a null slot is an
// entry of its own (an empty value), numbered like the others in order of
// first appearance.

// sparseDictionary dictionary-encodes the values of the sparse page s
// (terminal slots as rows: slots) when the dictionary rule admits them.
func sparseDictionary(s, slots *shredded, v *values, p encodingParams, cfg *writerConfig) (*encodedPage, bool, error) {
	if v.Kind == valFSL && fslHasValidity(v) && fslNullsOnlyUnderNullRows(v) {
		return nil, false, nil
	}
	b, ok := shouldDictionary(v, p, cfg.version)
	if !ok {
		return nil, false, nil
	}
	set, ind := buildDictionary(v, &b)
	if set == nil {
		return nil, false, nil
	}
	if v.Kind == valVariable && dictItemsBytes(v, set.first) >= indexedMinDictBytes {
		return encodeSparseIndexed(s, v, set.first, ind, p, cfg)
	}
	inner, err := dictionaryPage(slots, v, set.first, ind, p, cfg.version)
	if err != nil || inner.Layout.GetMiniBlockLayout() == nil {
		return nil, false, err
	}
	return encodeSparseChunked(s, v, inner)
}

// dictItemsBytes is the size of the dictionary of v with entries order:
// value bytes and one offset per entry plus one.
func dictItemsBytes(v *values, order []int) int {
	n := offsetBytes(v) * uint64(len(order)+1)
	for _, i := range order {
		n += v.ValueLen(i)
	}
	return int(n)
}

// encodeSparseIndexed writes the indexed value plane of s: the indices ind
// (one per terminal slot) and the entries order of v as zipped items.
func encodeSparseIndexed(s *shredded, v *values, order []int, ind *values, p encodingParams, cfg *writerConfig) (*encodedPage, bool, error) {
	items := &values{Values: codecs.Values{Kind: valVariable, N: len(order), Large: v.Large, Binary: v.Binary}, sc: v.sc}
	items.Offsets = make([]uint64, 0, len(order)+1)
	items.Offsets = append(items.Offsets, 0)
	for _, i := range order {
		items.Data = append(items.Data, valueBytes(v, i)...)
		items.Offsets = append(items.Offsets, uint64(len(items.Data)))
	}
	set, err := allValidItems()
	if err != nil {
		return nil, false, err
	}
	idx := make([]int, len(order))
	for k := range idx {
		idx[k] = k
	}
	flat := &shredded{Shredded: layouts.Shredded{Layers: []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM},
		Set: set, Leaf: s.Leaf, Idx: idx, NumRows: len(order)}, sc: s.sc}
	pz := p
	pz.compression = "zstd" // 14.0.2 compresses every item with zstd
	inner, err := encodeFullZip(flat, items, pz, cfg.version)
	if err != nil {
		return nil, false, err
	}
	fz := inner.Layout.GetFullZipLayout()
	idxEnc, idxBuf := indexSequence(ind)
	plane := &pb23.ValuePlane{Codec: &pb23.ValuePlane_Indexed{Indexed: &pb23.IndexedValues{Indices: idxEnc,
		Items: &pb23.ZippedValues{Compression: fz.GetValueCompression(), NumItems: uint64(len(order)), NumVisibleItems: uint64(len(order)),
			Addressing: &pb23.ZippedValues_BitsPerOffset{BitsPerOffset: fz.GetBitsPerOffset()}}}}}
	page, err := layouts.EncodeSparse(&s.Shredded, plane, append([][]byte{idxBuf}, inner.Buffers...), -1, "planar/sparse/indexed")
	if err != nil {
		return nil, false, err
	}
	page.Scratch = inner.Scratch
	if inner.Split != nil {
		page.Split = append([][][]byte{nil}, inner.Split...)
	}
	return page, true, nil
}

// indexSequence encodes the u32 indices as pylance 14.0.2 does: Flat(32),
// or out-of-line bit-packed at the widest index's width when smaller with
// the packing costed as whole 1024-value blocks.
func indexSequence(ind *values) (*pb.CompressiveEncoding, []byte) {
	n := ind.N
	widest := uint32(0)
	for k := 0; k < n; k++ {
		widest |= binary.LittleEndian.Uint32(ind.Data[4*k:])
	}
	w := max(bits.Len32(widest), 1)
	raw := ind.Data[:4*n]
	if 4*n <= (n+1023)/1024*1024*w/8 {
		return codecs.FlatEncoding(32), raw
	}
	packed, err := codecs.EncodeOutOfLineBitpacking(nil, raw, 32, w, uint64(n))
	if err != nil {
		return codecs.FlatEncoding(32), raw
	}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{OutOfLineBitpacking: &pb.OutOfLineBitpacking{
		UncompressedBitsPerValue: 32, Values: codecs.FlatEncoding(uint64(w))}}}, packed
}
