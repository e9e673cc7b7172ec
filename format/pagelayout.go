package format

import (
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/format/pb/encodings23pb"
	"github.com/lancego/lancego/format/pb/file2pb"
)

// Message names found in the last segment of an encoding's Any type URL.
const (
	PageLayoutMessage     = "lance.encodings21.PageLayout"   // 2.1+ page layout
	PlanarLayoutMessage   = "lance.encodings23.PlanarLayout" // 2.3 page layout (unstable)
	ArrayEncodingMessage  = "lance.encodings.ArrayEncoding"  // 2.0 page encoding
	ColumnEncodingMessage = "lance.encodings.ColumnEncoding" // column-level encoding
)

// IndirectRange returns the file range holding the encoding bytes of an
// indirect (deferred) encoding, and false for any other encoding. The bytes
// at that range are a serialized google.protobuf.Any; decode them with
// DecodePageLayoutBytes or DecodeAnyBytes.
func IndirectRange(enc *file2pb.Encoding) (Range, bool) {
	ind := enc.GetIndirect()
	if ind == nil {
		return Range{}, false
	}
	return Range{ind.GetBufferLocation(), ind.GetBufferLength()}, true
}

// DecodeEncodingAny unwraps a direct encoding into its google.protobuf.Any.
// Indirect encodings give an error wrapping ErrUnsupportedEncoding (fetch
// IndirectRange and use DecodeAnyBytes); `none` or a missing encoding gives
// an error wrapping ErrCorrupt.
func DecodeEncodingAny(enc *file2pb.Encoding) (*anypb.Any, error) {
	switch loc := enc.GetLocation().(type) {
	case *file2pb.Encoding_Direct:
		return DecodeAnyBytes(loc.Direct.GetEncoding())
	case *file2pb.Encoding_Indirect:
		r, _ := IndirectRange(enc)
		return nil, unsupportedEncodingf("indirect encoding at %v must be fetched first (see IndirectRange)", r)
	case *file2pb.Encoding_None:
		return nil, corruptf("encoding is `none`")
	default:
		return nil, corruptf("encoding is missing")
	}
}

// DecodeAnyBytes decodes serialized google.protobuf.Any bytes.
func DecodeAnyBytes(b []byte) (*anypb.Any, error) {
	a := &anypb.Any{}
	if err := proto.Unmarshal(b, a); err != nil {
		return nil, corruptWrap(err, "decoding encoding Any")
	}
	return a, nil
}

// MessageName returns the last path segment of an Any type URL, which is
// what Lance compares: "/lance.encodings21.PageLayout" and
// "type.googleapis.com/lance.encodings21.PageLayout" both give
// "lance.encodings21.PageLayout".
func MessageName(typeURL string) string {
	return typeURL[strings.LastIndexByte(typeURL, '/')+1:]
}

// DecodePageLayout decodes the 2.1+ PageLayout of a page. 2.0 pages
// (lance.encodings.ArrayEncoding), 2.3 PlanarLayout pages (use
// DecodePageEncoding), other message types and indirect encodings give
// errors wrapping ErrUnsupportedEncoding; missing or `none` encodings wrap
// ErrCorrupt.
func DecodePageLayout(page *file2pb.ColumnMetadata_Page) (*encodings21pb.PageLayout, error) {
	a, err := DecodeEncodingAny(page.GetEncoding())
	if err != nil {
		return nil, err
	}
	return pageLayoutFromAny(a)
}

// DecodePageLayoutBytes decodes serialized Any bytes (e.g. fetched from an
// indirect encoding's range) as a PageLayout, with the rules of
// DecodePageLayout.
func DecodePageLayoutBytes(b []byte) (*encodings21pb.PageLayout, error) {
	a, err := DecodeAnyBytes(b)
	if err != nil {
		return nil, err
	}
	return pageLayoutFromAny(a)
}

// pageLayoutFromAny dispatches on the Any's message name.
func pageLayoutFromAny(a *anypb.Any) (*encodings21pb.PageLayout, error) {
	switch name := MessageName(a.GetTypeUrl()); name {
	case PageLayoutMessage:
		pl := &encodings21pb.PageLayout{}
		if err := proto.Unmarshal(a.GetValue(), pl); err != nil {
			return nil, corruptWrap(err, "decoding %s", name)
		}
		if pl.GetLayout() == nil {
			if len(pl.ProtoReflect().GetUnknown()) > 0 {
				return nil, unsupportedEncodingf("%s uses a layout unknown to this package", name)
			}
			return nil, corruptf("%s has no layout", name)
		}
		return pl, nil
	case ArrayEncodingMessage:
		return nil, unsupportedEncodingf("file version 2.0 page encodings (%s) are not supported yet", name)
	case PlanarLayoutMessage:
		return nil, unsupportedEncodingf("%s is a 2.3 planar page: decode it with DecodePageEncoding", name)
	default:
		return nil, unsupportedEncodingf("page encoding type %q is not supported", a.GetTypeUrl())
	}
}

// PageEncoding is the decoded encoding of a 2.1+ page: exactly one of
// Layout (a 2.1/2.2 PageLayout, also found in 2.3 files written by older
// Lance) and Planar (a 2.3 PlanarLayout) is set.
type PageEncoding struct {
	Layout *encodings21pb.PageLayout
	Planar *encodings23pb.PlanarLayout
}

// DecodePageEncoding decodes a page's encoding as a PageLayout or a
// PlanarLayout, chosen by the Any's type URL (not by the file version).
// The planar message is checked for both planes; deeper checks belong to
// the decoder (package layouts). Errors follow DecodePageLayout.
func DecodePageEncoding(page *file2pb.ColumnMetadata_Page) (PageEncoding, error) {
	a, err := DecodeEncodingAny(page.GetEncoding())
	if err != nil {
		return PageEncoding{}, err
	}
	return pageEncodingFromAny(a)
}

// DecodePageEncodingBytes is DecodePageEncoding for serialized Any bytes.
func DecodePageEncodingBytes(b []byte) (PageEncoding, error) {
	a, err := DecodeAnyBytes(b)
	if err != nil {
		return PageEncoding{}, err
	}
	return pageEncodingFromAny(a)
}

func pageEncodingFromAny(a *anypb.Any) (PageEncoding, error) {
	if name := MessageName(a.GetTypeUrl()); name == PlanarLayoutMessage {
		pl := &encodings23pb.PlanarLayout{}
		if err := proto.Unmarshal(a.GetValue(), pl); err != nil {
			return PageEncoding{}, corruptWrap(err, "decoding %s", name)
		}
		if err := checkPlanes(pl); err != nil {
			return PageEncoding{}, err
		}
		return PageEncoding{Planar: pl}, nil
	}
	pl, err := pageLayoutFromAny(a)
	if err != nil {
		return PageEncoding{}, err
	}
	return PageEncoding{Layout: pl}, nil
}

// checkPlanes requires both planes of a planar layout with a known codec.
func checkPlanes(pl *encodings23pb.PlanarLayout) error {
	if pl.GetStructure() == nil {
		return corruptf("%s: field structure: missing structural plane", PlanarLayoutMessage)
	}
	if pl.GetValues() == nil {
		return corruptf("%s: field values: missing value plane", PlanarLayoutMessage)
	}
	if pl.GetStructure().GetCodec() == nil {
		return unknownOrMissing(pl.GetStructure(), "structure")
	}
	if pl.GetValues().GetCodec() == nil {
		return unknownOrMissing(pl.GetValues(), "values")
	}
	return nil
}

func unknownOrMissing(m proto.Message, field string) error {
	if len(m.ProtoReflect().GetUnknown()) > 0 {
		return unsupportedEncodingf("%s: field %s: plane codec unknown to this package", PlanarLayoutMessage, field)
	}
	return corruptf("%s: field %s: plane has no codec", PlanarLayoutMessage, field)
}
