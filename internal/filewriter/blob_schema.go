package filewriter

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/internal/lerr"
)

// blobV2Descriptor is the stored descriptor of a blob v2 value: five
// fields written after the blob struct with id and parent id -1.
var blobV2Descriptor = []struct {
	name, logical string
	enc           filepb.Encoding
}{
	{"kind", "uint8", filepb.Encoding_PLAIN},
	{"position", "uint64", filepb.Encoding_PLAIN},
	{"size", "uint64", filepb.Encoding_PLAIN},
	{"blob_id", "uint32", filepb.Encoding_PLAIN},
	{"blob_uri", "string", filepb.Encoding_VAR_BINARY},
}

// addBlobV2 records a lance.blob.v2 field: a struct field carrying
// lance-encoding:blob and lance-encoding:packed (the extension name is not
// stored), the five descriptor fields, and one column (file version 2.2).
func (b *schemaBuilder) addBlobV2(f arrow.Field, parent int32, path []arrow.Field, child []int) error {
	if b.version < format.V2_2 {
		return fmt.Errorf("%w: field %q: blob v2 needs file version 2.2", lerr.ErrUnsupportedType, f.Name)
	}
	st, ok := f.Type.(*arrow.StructType)
	if !ok || st.NumFields() != 2 || st.Field(0).Type.ID() != arrow.LARGE_BINARY || st.Field(1).Type.ID() != arrow.STRING {
		return fmt.Errorf("%w: field %q: blob v2 must be struct<data: large_binary, uri: utf8>", lerr.ErrUnsupportedType, f.Name)
	}
	md := map[string][]byte{format.BlobKey: []byte("true"), format.PackedKey: []byte("true")}
	for i, k := range f.Metadata.Keys() {
		if k != format.ArrowExtensionNameKey && k != format.ArrowExtensionMetadataKey {
			md[k] = []byte(f.Metadata.Values()[i])
		}
	}
	id := int32(len(b.fields))
	b.fields = append(b.fields, &filepb.Field{Name: f.Name, Id: id, ParentId: parent, LogicalType: "struct",
		Nullable: f.Nullable, Metadata: md})
	for _, d := range blobV2Descriptor {
		b.fields = append(b.fields, &filepb.Field{Name: d.name, Id: -1, ParentId: -1, LogicalType: d.logical, Encoding: d.enc})
	}
	path = append(append([]arrow.Field(nil), path...), f)
	params, err := parseEncodingParams(f, b.env)
	if err != nil {
		return fmt.Errorf("field %q: %w", f.Name, err)
	}
	b.leaves = append(b.leaves, &wleaf{column: b.columns, path: path, child: child, params: params, packed: true, blobV2: true})
	b.columns++
	return nil
}
