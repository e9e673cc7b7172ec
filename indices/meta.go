package indices

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"google.golang.org/protobuf/encoding/protowire"
)

// IndexFile is one file of an index segment, relative to its directory.
type IndexFile struct {
	Path string
	Size uint64
}

// IndexMetadata is one lance.table.IndexMetadata entry of the manifest's
// IndexSection: one segment of a (possibly multi-segment) index.
type IndexMetadata struct {
	UUID           [16]byte
	Fields         []int32 // Lance schema field ids, keyed field first
	Name           string
	DatasetVersion uint64
	// FragmentBitmap holds the covered fragment ids; nil when the entry has
	// none (legacy "unknown" coverage).
	FragmentBitmap  *roaring.Bitmap
	DetailsTypeURL  string // google.protobuf.Any type URL, e.g. "/lance.table.BTreeIndexDetails"
	Details         []byte // the Any's value
	IndexVersion    int32
	CreatedAtMillis uint64 // 0 when absent
	BaseID          *uint32
	Files           []IndexFile
	CoveringFields  []int32
}

// UUIDString is the canonical hyphenated form of the segment's UUID, the
// name of its directory under _indices/.
func (m *IndexMetadata) UUIDString() string {
	h := hex.EncodeToString(m.UUID[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// Dir is the segment's directory relative to the dataset (or base path) root.
func (m *IndexMetadata) Dir() string { return "_indices/" + m.UUIDString() }

// Fragments lists the covered fragment ids (nil when coverage is unknown).
func (m *IndexMetadata) Fragments() []uint32 {
	if m.FragmentBitmap == nil {
		return nil
	}
	return m.FragmentBitmap.ToArray()
}

// Type is the index type the details message names (TypeUnknown if none).
func (m *IndexMetadata) Type() IndexType { return typeOf(m.DetailsTypeURL, m.Details) }

// IsSystem reports whether the segment is a system index (fragment reuse or
// MemWAL), never used to answer queries.
func (m *IndexMetadata) IsSystem() bool {
	t := m.Type()
	return t == TypeFragmentReuse || t == TypeMemWAL || strings.HasPrefix(m.Name, "__lance_")
}

// ParseIndexSection decodes the IndexSection found at offset off of a
// manifest file whose bytes are file: a u32 LE length and the message.
func ParseIndexSection(file []byte, off uint64) ([]IndexMetadata, error) {
	if off > uint64(len(file)) || uint64(len(file))-off < 4 {
		return nil, fmt.Errorf("%w: index section at %d outside a manifest of %d bytes", ErrCorrupt, off, len(file))
	}
	n := binary.LittleEndian.Uint32(file[off:])
	body := file[off+4:]
	if uint64(n) > uint64(len(body)) {
		return nil, fmt.Errorf("%w: index section of %d bytes at %d in a manifest of %d bytes", ErrCorrupt, n, off, len(file))
	}
	return DecodeIndexSection(body[:n])
}

// DecodeIndexSection decodes a lance.table.IndexSection message.
func DecodeIndexSection(b []byte) ([]IndexMetadata, error) {
	var out []IndexMetadata
	err := eachField(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if num != 1 || typ != protowire.BytesType {
			return nil
		}
		m, err := DecodeIndexMetadata(v)
		if err != nil {
			return fmt.Errorf("index %d: %w", len(out), err)
		}
		out = append(out, *m)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("index section: %w", err)
	}
	return out, nil
}

// DecodeIndexMetadata decodes one lance.table.IndexMetadata message.
func DecodeIndexMetadata(b []byte) (*IndexMetadata, error) {
	m := &IndexMetadata{}
	err := eachField(b, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
		switch num {
		case 1:
			return m.decodeUUID(typ, v)
		case 2:
			return appendInt32s(&m.Fields, typ, v, x)
		case 3:
			m.Name = string(v)
		case 4:
			m.DatasetVersion = x
		case 5:
			bm, _, err := DecodeRoaring(v)
			if err != nil {
				return fmt.Errorf("fragment_bitmap: %w", err)
			}
			m.FragmentBitmap = bm
		case 6:
			return m.decodeAny(v)
		case 7:
			m.IndexVersion = int32(x)
		case 8:
			m.CreatedAtMillis = x
		case 9:
			id := uint32(x)
			m.BaseID = &id
		case 10:
			f, err := decodeIndexFile(v)
			if err != nil {
				return err
			}
			m.Files = append(m.Files, f)
		case 11:
			return appendInt32s(&m.CoveringFields, typ, v, x)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (m *IndexMetadata) decodeUUID(typ protowire.Type, v []byte) error {
	if typ != protowire.BytesType {
		return fmt.Errorf("%w: uuid has wire type %d", ErrCorrupt, typ)
	}
	return eachField(v, func(num protowire.Number, _ protowire.Type, u []byte, _ uint64) error {
		if num == 1 {
			if len(u) != 16 {
				return fmt.Errorf("%w: uuid of %d bytes", ErrCorrupt, len(u))
			}
			copy(m.UUID[:], u)
		}
		return nil
	})
}

func (m *IndexMetadata) decodeAny(v []byte) error {
	return eachField(v, func(num protowire.Number, _ protowire.Type, u []byte, _ uint64) error {
		switch num {
		case 1:
			m.DetailsTypeURL = string(u)
		case 2:
			m.Details = u
		}
		return nil
	})
}

func decodeIndexFile(v []byte) (IndexFile, error) {
	var f IndexFile
	err := eachField(v, func(num protowire.Number, _ protowire.Type, u []byte, x uint64) error {
		switch num {
		case 1:
			f.Path = string(u)
		case 2:
			f.Size = x
		}
		return nil
	})
	return f, err
}

// appendInt32s appends a repeated int32 field, packed or not.
func appendInt32s(dst *[]int32, typ protowire.Type, v []byte, x uint64) error {
	if typ == protowire.VarintType {
		*dst = append(*dst, int32(x))
		return nil
	}
	for len(v) > 0 {
		u, n := protowire.ConsumeVarint(v)
		if n < 0 {
			return fmt.Errorf("%w: packed int32 list", ErrCorrupt)
		}
		*dst = append(*dst, int32(u))
		v = v[n:]
	}
	return nil
}

// eachField calls f for every field of the protobuf message b: v holds the
// bytes of length-delimited fields, x the value of varint and fixed ones.
// Groups are refused.
func eachField(b []byte, f func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error) error {
	for pos := 0; pos < len(b); {
		num, typ, n := protowire.ConsumeTag(b[pos:])
		if n < 0 {
			return fmt.Errorf("%w: bad protobuf tag at byte %d", ErrCorrupt, pos)
		}
		pos += n
		var v []byte
		var x uint64
		switch typ {
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b[pos:])
		case protowire.Fixed32Type:
			var u uint32
			u, n = protowire.ConsumeFixed32(b[pos:])
			x = uint64(u)
		case protowire.Fixed64Type:
			x, n = protowire.ConsumeFixed64(b[pos:])
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b[pos:])
		default:
			return fmt.Errorf("%w: protobuf wire type %d at byte %d", ErrCorrupt, typ, pos)
		}
		if n < 0 {
			return fmt.Errorf("%w: truncated protobuf field %d at byte %d", ErrCorrupt, num, pos)
		}
		pos += n
		if err := f(num, typ, v, x); err != nil {
			return err
		}
	}
	return nil
}

// Encode serializes m as a lance.table.IndexMetadata message, fields in
// the order pylance 14.0.2 writes them (index_version always present,
// created_at and base_id when set). A nil FragmentBitmap writes none.
func (m *IndexMetadata) Encode() ([]byte, error) {
	var b []byte
	var uuid []byte
	uuid = protowire.AppendTag(uuid, 1, protowire.BytesType)
	uuid = protowire.AppendBytes(uuid, m.UUID[:])
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, uuid)
	if len(m.Fields) > 0 {
		b = appendPackedInt32s(b, 2, m.Fields)
	}
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendString(b, m.Name)
	b = protowire.AppendTag(b, 4, protowire.VarintType)
	b = protowire.AppendVarint(b, m.DatasetVersion)
	if m.FragmentBitmap != nil {
		bm, err := m.FragmentBitmap.ToBytes()
		if err != nil {
			return nil, fmt.Errorf("fragment_bitmap: %w", err)
		}
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendBytes(b, bm)
	}
	if m.DetailsTypeURL != "" || len(m.Details) > 0 {
		var a []byte
		a = protowire.AppendTag(a, 1, protowire.BytesType)
		a = protowire.AppendString(a, m.DetailsTypeURL)
		if len(m.Details) > 0 {
			a = protowire.AppendTag(a, 2, protowire.BytesType)
			a = protowire.AppendBytes(a, m.Details)
		}
		b = protowire.AppendTag(b, 6, protowire.BytesType)
		b = protowire.AppendBytes(b, a)
	}
	b = protowire.AppendTag(b, 7, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(int64(m.IndexVersion)))
	if m.CreatedAtMillis != 0 {
		b = protowire.AppendTag(b, 8, protowire.VarintType)
		b = protowire.AppendVarint(b, m.CreatedAtMillis)
	}
	if m.BaseID != nil {
		b = protowire.AppendTag(b, 9, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(*m.BaseID))
	}
	for _, f := range m.Files {
		var e []byte
		e = protowire.AppendTag(e, 1, protowire.BytesType)
		e = protowire.AppendString(e, f.Path)
		e = protowire.AppendTag(e, 2, protowire.VarintType)
		e = protowire.AppendVarint(e, f.Size)
		b = protowire.AppendTag(b, 10, protowire.BytesType)
		b = protowire.AppendBytes(b, e)
	}
	if len(m.CoveringFields) > 0 {
		b = appendPackedInt32s(b, 11, m.CoveringFields)
	}
	return b, nil
}

// appendPackedInt32s appends a packed repeated int32 field (negative
// values as ten-byte varints, as protobuf encodes int32).
func appendPackedInt32s(b []byte, num protowire.Number, vs []int32) []byte {
	var p []byte
	for _, v := range vs {
		p = protowire.AppendVarint(p, uint64(int64(v)))
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, p)
}
