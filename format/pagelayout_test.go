package format

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/format/pb/encodingspb"
	"github.com/lancego/lancego/format/pb/file2pb"
)

// TestDecodePageLayout covers the dispatch on type URL and location.
func TestDecodePageLayout(t *testing.T) {
	mini := &encodings21pb.PageLayout{Layout: &encodings21pb.PageLayout_MiniBlockLayout{
		MiniBlockLayout: &encodings21pb.MiniBlockLayout{NumItems: 7}}}
	tests := []struct {
		name string
		enc  *file2pb.Encoding
		err  error
		msg  string
	}{
		{"prost url", anyEncoding(t, "/lance.encodings21.PageLayout", mini), nil, ""},
		{"google url", anyEncoding(t, "type.googleapis.com/lance.encodings21.PageLayout", mini), nil, ""},
		{"2.0", anyEncoding(t, "/lance.encodings.ArrayEncoding", &encodingspb.ColumnEncoding{}),
			ErrUnsupportedEncoding, "file version 2.0 page encodings (lance.encodings.ArrayEncoding) are not supported yet"},
		{"planar", anyEncoding(t, "/lance.encodings23.PlanarLayout", mini), ErrUnsupportedEncoding, "lance.encodings23.PlanarLayout"},
		{"empty layout", anyEncoding(t, "/lance.encodings21.PageLayout", &encodings21pb.PageLayout{}), ErrCorrupt, "no layout"},
		{"none", &file2pb.Encoding{Location: &file2pb.Encoding_None{None: &emptypb.Empty{}}}, ErrCorrupt, "none"},
		{"missing", nil, ErrCorrupt, "missing"},
		{"indirect", &file2pb.Encoding{Location: &file2pb.Encoding_Indirect{
			Indirect: &file2pb.DeferredEncoding{BufferLocation: 64, BufferLength: 9}}}, ErrUnsupportedEncoding, "[offset 64, size 9]"},
		{"garbage", &file2pb.Encoding{Location: &file2pb.Encoding_Direct{
			Direct: &file2pb.DirectEncoding{Encoding: []byte{0xff, 0xff}}}}, ErrCorrupt, "Any"},
	}
	for _, tt := range tests {
		pl, err := DecodePageLayout(&file2pb.ColumnMetadata_Page{Encoding: tt.enc})
		if tt.err == nil {
			if err != nil || pl.GetMiniBlockLayout().GetNumItems() != 7 {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v, want %v containing %q", tt.name, err, tt.err, tt.msg)
		}
	}
}

// TestIndirectHelpers checks IndirectRange and DecodePageLayoutBytes.
func TestIndirectHelpers(t *testing.T) {
	enc := &file2pb.Encoding{Location: &file2pb.Encoding_Indirect{
		Indirect: &file2pb.DeferredEncoding{BufferLocation: 128, BufferLength: 5}}}
	if r, ok := IndirectRange(enc); !ok || r != (Range{128, 5}) {
		t.Fatalf("IndirectRange = %v %v", r, ok)
	}
	if _, ok := IndirectRange(nil); ok {
		t.Fatal("IndirectRange(nil)")
	}
	direct := anyEncoding(t, "/"+PageLayoutMessage, &encodings21pb.PageLayout{Layout: &encodings21pb.PageLayout_ConstantLayout{
		ConstantLayout: &encodings21pb.ConstantLayout{}}})
	pl, err := DecodePageLayoutBytes(direct.GetDirect().GetEncoding())
	if err != nil || pl.GetConstantLayout() == nil {
		t.Fatalf("DecodePageLayoutBytes: %v", err)
	}
	if MessageName("a/b/c.D") != "c.D" || MessageName("x.Y") != "x.Y" {
		t.Fatal("MessageName")
	}
}
