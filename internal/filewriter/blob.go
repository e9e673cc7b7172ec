package filewriter

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lerr"
	"github.com/lancego/lancego/layouts"
)

// placeExternal writes the external buffers of a page (blob values) and
// returns the finished page; pages without external buffers are returned
// as they are.
func (w *Writer) placeExternal(p *encodedPage) (*encodedPage, error) {
	if p.Finish == nil {
		return p, nil
	}
	pos := make([]uint64, len(p.External))
	for i, b := range p.External {
		at, err := w.sink.writeAligned(b)
		if err != nil {
			return nil, err
		}
		pos[i] = at
	}
	return p.Finish(pos)
}

// encodeBlobV1 writes a 2.1 legacy blob column (large_binary with
// lance-encoding:blob): every non-empty value becomes an external buffer
// and the page is a BlobLayout over a mini-block packed struct
// {position u64, size u64}; empty values are (0, 0) and nulls
// ((def << 16) + rep, 0).
func encodeBlobV1(s *shredded, l *wleaf, cfg *writerConfig) (*encodedPage, error) {
	if s.Rep != nil {
		return nil, fmt.Errorf("%w: legacy blob inside a list", lerr.ErrUnsupportedType)
	}
	v, err := gatherShredded(s)
	if err != nil {
		return nil, err
	}
	var ext [][]byte
	ref := make([]int, v.N) // external buffer of value j, -1 if none
	for j := range ref {
		ref[j] = -1
		if v.ValueLen(j) > 0 {
			ref[j] = len(ext)
			ext = append(ext, v.Data[v.Offsets[j]:v.Offsets[j+1]])
		}
	}
	finish := func(pos []uint64) (*encodedPage, error) {
		rows := &values{Values: codecs.Values{Kind: valFixed, N: v.N, Bits: 128, Data: make([]byte, 16*v.N)}}
		for j := range ref {
			var p, size uint64
			switch {
			case ref[j] >= 0:
				p, size = pos[ref[j]], v.ValueLen(j)
			case v.Valid != nil && !v.Valid[j]:
				p = uint64(s.Def[j]) << 16
			}
			binary.LittleEndian.PutUint64(rows.Data[16*j:], p)
			binary.LittleEndian.PutUint64(rows.Data[16*j+8:], size)
		}
		inner := &shredded{Shredded: layouts.Shredded{Layers: []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM}, NumRows: v.N, Idx: s.slots()}, sc: s.sc}
		codec := codecs.PackedStructEncoder{FlatEncoder: codecs.FlatEncoder{Bits: 128}, Widths: []uint64{64, 64}}
		page, err := encodeMiniBlock(inner, rows, codec, cfg.version, int(l.params.miniblockValues))
		if err != nil {
			return nil, err
		}
		bl := &pb.BlobLayout{InnerLayout: page.Layout, Layers: s.Layers}
		return &encodedPage{Buffers: page.Buffers, Scratch: page.Scratch, NumRows: uint64(s.NumRows), Desc: "blob/" + page.Desc,
			Layout: &pb.PageLayout{Layout: &pb.PageLayout_BlobLayout{BlobLayout: bl}}}, nil
	}
	return &encodedPage{External: ext, Finish: finish}, nil
}

// encodeBlobV2 writes a 2.2 blob v2 column: each value of a non-null blob
// becomes an external buffer (empty ones too, which only fixes their
// position) and the page is full-zip with VariablePackedStruct descriptors
// {kind=0, position, size, blob_id=0, blob_uri=""}. Null blobs have no
// descriptor. Blobs with a URI (external storage) are not written.
func encodeBlobV2(s *shredded, _ *wleaf, _ *writerConfig) (*encodedPage, error) {
	st, ok := s.Leaf.(*array.Struct)
	if !ok {
		return nil, fmt.Errorf("%w: blob v2 leaf %s", lerr.ErrUnsupportedType, s.Leaf.DataType())
	}
	data, uri := st.Field(0), st.Field(1).(*array.String)
	var ext [][]byte
	ref := make([]int, s.NumSlots())
	for j, i := range s.slots() {
		ref[j] = -1
		if i < 0 || st.IsNull(i) {
			continue
		}
		if uri.IsValid(i) && uri.Value(i) != "" {
			return nil, fmt.Errorf("%w: blob v2 with a URI (external blob)", lerr.ErrUnsupportedType)
		}
		ref[j] = len(ext)
		var b []byte
		if data.IsValid(i) {
			b = binaryValue(data, i)
		}
		ext = append(ext, b)
	}
	finish := func(pos []uint64) (*encodedPage, error) {
		rows := &values{Values: codecs.Values{Kind: valVariable, N: len(ref), Offsets: make([]uint64, 1, len(ref)+1), Valid: make([]bool, len(ref))}}
		for j, r := range ref {
			if r >= 0 {
				rows.Valid[j] = true
				rows.Data = append(rows.Data, 0)
				rows.Data = binary.LittleEndian.AppendUint64(rows.Data, pos[r])
				rows.Data = binary.LittleEndian.AppendUint64(rows.Data, uint64(len(ext[r])))
				rows.Data = append(rows.Data, 0, 0, 0, 0, 0, 0, 0, 0)
			}
			rows.Offsets = append(rows.Offsets, uint64(len(rows.Data)))
		}
		layers := append([]pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM}, s.Layers...)
		return encodeVPRows(s, rows, blobV2Encoding(), layers, "blob_v2"), nil
	}
	return &encodedPage{External: ext, Finish: finish}, nil
}

// blobV2Encoding is the VariablePackedStruct of blob v2 descriptors.
func blobV2Encoding() *pb.CompressiveEncoding {
	fields := []*pb.VariablePackedStruct_FieldEncoding{fixedField(8), fixedField(64), fixedField(64), fixedField(32), varField(32)}
	return vpsEnc(fields)
}
