package format

import (
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/encodingspb"
	"github.com/lancego/lancego/format/pb/file2pb"
)

// DecodeArrayEncoding decodes the 2.0 page encoding of a page (a
// lance.encodings.ArrayEncoding). 2.1+ layouts and other messages give
// errors wrapping ErrUnsupportedEncoding, an undecodable message or a
// missing encoding ErrCorrupt; indirect encodings are not used by 2.0.
func DecodeArrayEncoding(page *file2pb.ColumnMetadata_Page) (*encodingspb.ArrayEncoding, error) {
	a, err := DecodeEncodingAny(page.GetEncoding())
	if err != nil {
		return nil, err
	}
	if name := MessageName(a.GetTypeUrl()); name != ArrayEncodingMessage {
		return nil, unsupportedEncodingf("page encoded as %s, not %s", name, ArrayEncodingMessage)
	}
	out := &encodingspb.ArrayEncoding{}
	if err := proto.Unmarshal(a.GetValue(), out); err != nil {
		return nil, corruptWrap(err, "decoding %s", ArrayEncodingMessage)
	}
	if out.GetArrayEncoding() == nil {
		return nil, corruptf("%s without an encoding", ArrayEncodingMessage)
	}
	return out, nil
}
