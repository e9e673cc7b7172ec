package lance

import (
	"fmt"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/file2pb"
)

// codecTree is a page's layout and codec tree with every bytes field
// cleared (FSST symbol tables, constant values): what two writers with
// different compressors and symbol-table training must still agree on.
func codecTree(pg *file2pb.ColumnMetadata_Page) (proto.Message, error) {
	enc, err := format.DecodePageEncoding(pg)
	if err != nil {
		return nil, err
	}
	var m proto.Message
	switch {
	case enc.Layout != nil:
		m = proto.Clone(enc.Layout)
	case enc.Planar != nil:
		m = proto.Clone(enc.Planar)
	default:
		return pg.GetEncoding(), nil
	}
	clearBytes(m.ProtoReflect())
	return m, nil
}

// clearBytes clears the bytes fields of m and of every message under it.
func clearBytes(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Kind() == protoreflect.BytesKind && !fd.IsList():
			m.Clear(fd)
		case fd.Kind() == protoreflect.MessageKind && fd.IsList():
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				clearBytes(l.Get(i).Message())
			}
		case fd.Kind() == protoreflect.MessageKind && !fd.IsMap():
			clearBytes(v.Message())
		}
		return true
	})
}

// sameCodecTree compares the codec trees of two pages (codecTree).
func sameCodecTree(a, b *file2pb.ColumnMetadata_Page) error {
	ta, err := codecTree(a)
	if err != nil {
		return err
	}
	tb, err := codecTree(b)
	if err != nil {
		return err
	}
	if proto.Equal(ta, tb) {
		return nil
	}
	opt := prototext.MarshalOptions{}
	return fmt.Errorf("codec tree differs:\n ours    %s\n pylance %s", opt.Format(ta), opt.Format(tb))
}
