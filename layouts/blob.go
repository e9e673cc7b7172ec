package layouts

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/codecs"
)

// BlobRef is one blob descriptor: where the bytes live in the data file.
type BlobRef struct {
	Position, Size uint64
	// Kind is the blob v2 storage kind (0: bytes inline in this file).
	Kind uint8
	// URI is the blob v2 external location, if any.
	URI string
}

// BlobRefs reads descriptors from decoded descriptor values: blob v1 is a
// packed struct {position u64, size u64}; blob v2 a struct {kind u8,
// position u64, size u64, blob_id u32, blob_uri string}.
func BlobRefs(v *Values, v2 bool) ([]BlobRef, error) {
	want := 2
	if v2 {
		want = 5
	}
	if v.Kind != codecs.KindStruct || len(v.Children) != want {
		return nil, fmt.Errorf("%w: blob descriptors are not a %d-field struct", ErrCorrupt, want)
	}
	pos, size := &v.Children[0], &v.Children[1]
	if v2 {
		pos, size = &v.Children[1], &v.Children[2]
	}
	if err := checkU64(pos, v.N); err != nil {
		return nil, err
	}
	if err := checkU64(size, v.N); err != nil {
		return nil, err
	}
	refs := make([]BlobRef, v.N)
	for i := range refs {
		refs[i].Position = binary.LittleEndian.Uint64(pos.Data[8*i:])
		refs[i].Size = binary.LittleEndian.Uint64(size.Data[8*i:])
	}
	if v2 {
		if err := fillV2(refs, v); err != nil {
			return nil, err
		}
	}
	return refs, nil
}

func checkU64(v *Values, n int) error {
	if v.Kind != codecs.KindFixed || v.Bits != 64 || len(v.Data) < 8*n {
		return fmt.Errorf("%w: blob descriptor field is not u64", ErrCorrupt)
	}
	return nil
}

func fillV2(refs []BlobRef, v *Values) error {
	kind, uri := &v.Children[0], &v.Children[4]
	if kind.Kind != codecs.KindFixed || kind.Bits != 8 || len(kind.Data) < len(refs) ||
		uri.Kind != codecs.KindVariable || len(uri.Offsets) != len(refs)+1 {
		return fmt.Errorf("%w: blob v2 descriptor shape", ErrCorrupt)
	}
	for i := range refs {
		refs[i].Kind = kind.Data[i]
		refs[i].URI = string(uri.Data[uri.Offsets[i]:uri.Offsets[i+1]])
		if refs[i].Kind != 0 && refs[i].Size > 0 {
			return fmt.Errorf("%w: blob v2 storage kind %d (only inline blobs are read)", ErrUnsupported, refs[i].Kind)
		}
	}
	return nil
}

// BlobV1Levels derives definition levels from blob v1 descriptors: a null
// is stored as size 0 with position (def << 16) + rep.
func BlobV1Levels(refs []BlobRef, set LayerSet) (Levels, error) {
	if set.HasLists() {
		return Levels{}, fmt.Errorf("%w: blob v1 inside a list", ErrUnsupported)
	}
	lv := Levels{N: len(refs)}
	if set.MaxDef == 0 {
		return lv, nil
	}
	lv.Def = make([]uint16, len(refs))
	for i, r := range refs {
		if r.Size == 0 && r.Position != 0 {
			d := r.Position >> 16
			if d == 0 || d > uint64(set.MaxDef) {
				return Levels{}, fmt.Errorf("%w: blob null marker %#x", ErrCorrupt, r.Position)
			}
			lv.Def[i] = uint16(d)
		}
	}
	return lv, nil
}

// BlobData turns descriptors plus the fetched bytes of each (data[i] for
// refs[i], empty for nulls and empty blobs) into large-binary values; for
// blob v2 it returns a struct of {data, uri}.
func BlobData(refs []BlobRef, data [][]byte, v2 bool) (*Values, error) {
	if len(data) != len(refs) {
		return nil, fmt.Errorf("%w: %d blobs fetched for %d descriptors", ErrCorrupt, len(data), len(refs))
	}
	bytesV := &Values{Kind: codecs.KindVariable, Offsets: make([]int64, 1, len(refs)+1)}
	uris := &Values{Kind: codecs.KindVariable, Offsets: make([]int64, 1, len(refs)+1)}
	for i, d := range data {
		if uint64(len(d)) != refs[i].Size {
			return nil, fmt.Errorf("%w: blob %d has %d bytes, descriptor says %d", ErrCorrupt, i, len(d), refs[i].Size)
		}
		bytesV.Data = append(bytesV.Data, d...)
		bytesV.Offsets = append(bytesV.Offsets, int64(len(bytesV.Data)))
		uris.Data = append(uris.Data, refs[i].URI...)
		uris.Offsets = append(uris.Offsets, int64(len(uris.Data)))
	}
	bytesV.N, uris.N = len(refs), len(refs)
	if !v2 {
		return bytesV, nil
	}
	return &Values{Kind: codecs.KindStruct, N: len(refs), Children: []Values{*bytesV, *uris}}, nil
}

// buildBlobV2 builds struct<data: large_binary, uri: utf8> from resolved
// blob values; the outer node carries the struct validity.
func (bld *builder) buildBlobV2(f *Field, n *PathNode, v *Values) (arrow.ArrayData, error) {
	st, ok := f.Type.(*arrow.StructType)
	if !ok || st.NumFields() != 2 || v.Kind != codecs.KindStruct || len(v.Children) != 2 {
		return nil, fmt.Errorf("%w: blob v2 field %q shape", ErrCorrupt, f.Name)
	}
	if v.N != n.Len {
		return nil, fmt.Errorf("%w: %d blobs for %d rows", ErrCorrupt, v.N, n.Len)
	}
	data, err := bld.buildVariable(st.Field(0).Type, &v.Children[0], bld.validityBuffer(n.Validity), n.NullCount, n.Len)
	if err != nil {
		return nil, err
	}
	defer data.Release()
	uv, unulls := uriValidity(&v.Children[1])
	uri, err := bld.buildVariable(st.Field(1).Type, &v.Children[1], bld.validityBuffer(uv), unulls, n.Len)
	if err != nil {
		return nil, err
	}
	defer uri.Release()
	return array.NewData(f.Type, n.Len, []*memory.Buffer{bld.validityBuffer(n.Validity)},
		[]arrow.ArrayData{data, uri}, n.NullCount, 0), nil
}

// uriValidity marks empty URIs as null (blobs stored in the file have none).
func uriValidity(u *Values) ([]byte, int) {
	bm := newBitmap(u.N)
	nulls := 0
	for i := 0; i < u.N; i++ {
		if u.Offsets[i+1] > u.Offsets[i] {
			setBit(bm, i)
		} else {
			nulls++
		}
	}
	return bm, nulls
}

// BlobV2DescriptorType returns the shape of a blob v2 descriptor (kind,
// position, size, blob id, uri), for placeholder descriptors of null rows
// decoded before any stored descriptor.
func BlobV2DescriptorType() arrow.DataType {
	return arrow.StructOf(
		arrow.Field{Name: "kind", Type: arrow.PrimitiveTypes.Uint8},
		arrow.Field{Name: "position", Type: arrow.PrimitiveTypes.Uint64},
		arrow.Field{Name: "size", Type: arrow.PrimitiveTypes.Uint64},
		arrow.Field{Name: "blob_id", Type: arrow.PrimitiveTypes.Uint32},
		arrow.Field{Name: "uri", Type: arrow.BinaryTypes.Binary},
	)
}
