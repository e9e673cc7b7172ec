package filewriter

import (
	"encoding/binary"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/format/pb/filepb"
)

// Type URLs of the Any messages Lance stores.
const (
	pageLayoutURL     = "/lance.encodings21.PageLayout"
	planarLayoutURL   = "/lance.encodings23.PlanarLayout"
	columnEncodingURL = "/lance.encodings.ColumnEncoding"
)

// marshal serializes m deterministically (sorted map keys).
func marshal(m proto.Message) ([]byte, error) {
	return proto.MarshalOptions{Deterministic: true}.Marshal(m)
}

// directAny wraps a type URL and message bytes as a direct Encoding.
func directAny(url string, value []byte) (*file2pb.Encoding, error) {
	b, err := marshal(&anypb.Any{TypeUrl: url, Value: value})
	if err != nil {
		return nil, err
	}
	return &file2pb.Encoding{Location: &file2pb.Encoding_Direct{Direct: &file2pb.DirectEncoding{Encoding: b}}}, nil
}

// columnEncoding is the 2.1+ column encoding: ColumnEncoding{values: {}}
// (bytes 0A 00).
func columnEncoding() *file2pb.Encoding {
	e, _ := directAny(columnEncodingURL, []byte{0x0A, 0x00})
	return e
}

// pageEncoding wraps a page's layout: its PlanarLayout (2.3) when it has
// one, else its PageLayout.
func pageEncoding(p *encodedPage) (*file2pb.Encoding, error) {
	if p.Planar != nil {
		b, err := marshal(p.Planar)
		if err != nil {
			return nil, err
		}
		return directAny(planarLayoutURL, b)
	}
	b, err := marshal(p.Layout)
	if err != nil {
		return nil, err
	}
	return directAny(pageLayoutURL, b)
}

// fileDescriptor serializes GB0: the schema and the row count.
func (w *Writer) fileDescriptor() ([]byte, error) {
	md := map[string]string{}
	if m := w.schema.Metadata(); m.Len() > 0 {
		for i, k := range m.Keys() {
			md[k] = m.Values()[i]
		}
	}
	for k, v := range w.meta {
		md[k] = v
	}
	s := &filepb.Schema{Fields: w.fields}
	if len(md) > 0 {
		s.Metadata = map[string][]byte{}
		for _, k := range sortedKeys(md) {
			s.Metadata[k] = []byte(md[k])
		}
	}
	return marshal(&filepb.FileDescriptor{Schema: s, Length: w.rows})
}

// marshalColumns serializes every column's metadata.
func marshalColumns(cols []*file2pb.ColumnMetadata) ([][]byte, error) {
	out := make([][]byte, len(cols))
	for i, c := range cols {
		b, err := marshal(c)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// appendMetadataRegion builds everything after the data: GB0 (at pos, which
// is 64-aligned), the column metadata back to back, the CMO and GBO tables
// and the footer.
func appendMetadataRegion(pos uint64, gb0 []byte, cols [][]byte, globals [][2]uint64, v format.Version) []byte {
	le := binary.LittleEndian
	out := append([]byte(nil), gb0...)
	colStart := pos + uint64(len(gb0))
	cmo := make([]byte, 0, 16*len(cols))
	for _, c := range cols {
		cmo = le.AppendUint64(cmo, pos+uint64(len(out)))
		cmo = le.AppendUint64(cmo, uint64(len(c)))
		out = append(out, c...)
	}
	cmoStart := pos + uint64(len(out))
	out = append(out, cmo...)
	gboStart := pos + uint64(len(out))
	out = le.AppendUint64(out, pos)
	out = le.AppendUint64(out, uint64(len(gb0)))
	for _, g := range globals {
		out = le.AppendUint64(out, g[0])
		out = le.AppendUint64(out, g[1])
	}
	return format.AppendFooter(out, format.Footer{ColumnMetaStart: colStart, CMOTableStart: cmoStart,
		GBOTableStart: gboStart, NumGlobalBuffers: uint32(1 + len(globals)), NumColumns: uint32(len(cols)),
		MajorVersion: v.Major(), MinorVersion: v.Minor()})
}
