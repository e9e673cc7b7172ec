package dataset

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/tablepb"
)

// Footer version of a manifest file as Lance writes it (lance-file
// format.rs MAJOR_VERSION, MINOR_VERSION).
const (
	manifestMajor = 0
	manifestMinor = 2
)

// ArrowDeletionLimit is the most deleted rows Lance stores in an Arrow IPC
// deletion file; a fragment with more gets a roaring bitmap (.bin).
const ArrowDeletionLimit = 5000

// EncodeManifestFile serializes m as a whole manifest file the way Lance
// writes one without index or inline transaction sections: u32 length,
// the protobuf, then the footer (position 0, version 0.2, "LANC"). It
// clears m's section positions (index_section, transaction_section, the
// inline transaction), which would point into another file.
func EncodeManifestFile(m *tablepb.Manifest) ([]byte, error) {
	return encodeManifestSections(m, nil, nil)
}

// inlineTxnField is the Manifest field pylance 14.0.2 records the file
// position of its inline transaction in (observed: 23, pointing at a u32
// length and the same bytes as the _transactions/ file; the older
// transaction_section, 21, is not written). Unknown to tablepb, it rides
// along as an unknown field, stale once the manifest is rewritten.
const inlineTxnField protowire.Number = 23

// encodeManifestSections serializes m as a whole manifest file laid out as
// pylance 14.0.2 writes one: the IndexSection of idx (when there is one;
// index_section = its position), the inline transaction txn (when given;
// its position in field 23), the manifest, the footer. A position field
// left from the manifest m was cloned from is replaced or cleared.
func encodeManifestSections(m *tablepb.Manifest, idx []indexEntry, txn []byte) ([]byte, error) {
	var out []byte
	m.IndexSection, m.TransactionSection = nil, nil
	if len(idx) > 0 {
		section := appendIndexSection(nil, idx)
		m.IndexSection = proto.Uint64(0)
		out = appendSized(out, section)
	}
	setInlineTxn(m, txn != nil, uint64(len(out)))
	if txn != nil {
		out = appendSized(out, txn)
	}
	body, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	if len(body) > MaxManifestSize || len(out) > MaxManifestSize {
		return nil, fmt.Errorf("encode manifest: %d bytes (%d before it) exceed %d", len(body), len(out), MaxManifestSize)
	}
	pos := uint64(len(out))
	out = slices.Grow(out, 4+len(body)+FooterSize)
	out = appendSized(out, body)
	out = binary.LittleEndian.AppendUint64(out, pos)
	out = binary.LittleEndian.AppendUint16(out, manifestMajor)
	out = binary.LittleEndian.AppendUint16(out, manifestMinor)
	return append(out, magic...), nil
}

// appendSized appends a u32 LE length and b (Lance's write_protobuf).
func appendSized(out, b []byte) []byte {
	out = binary.LittleEndian.AppendUint32(out, uint32(len(b)))
	return append(out, b...)
}

// setInlineTxn drops any inline transaction position among m's unknown
// fields and, when set, records pos.
func setInlineTxn(m *tablepb.Manifest, set bool, pos uint64) {
	r := m.ProtoReflect()
	old := r.GetUnknown()
	var keep []byte
	for len(old) > 0 {
		num, typ, n := protowire.ConsumeTag(old)
		if n < 0 {
			break // unknown fields were parsed from a valid message
		}
		l := protowire.ConsumeFieldValue(num, typ, old[n:])
		if l < 0 {
			break
		}
		if num != inlineTxnField {
			keep = append(keep, old[:n+l]...)
		}
		old = old[n+l:]
	}
	if set {
		keep = protowire.AppendTag(keep, inlineTxnField, protowire.VarintType)
		keep = protowire.AppendVarint(keep, pos)
	}
	r.SetUnknown(keep)
}

// DecodeManifestProto decodes a whole manifest file (or its suffix from
// ManifestStart on, as for ParseManifestFile) into the full protobuf, the
// form a writer edits to make the next version. Unknown fields are kept.
func DecodeManifestProto(size int64, b []byte) (*tablepb.Manifest, error) {
	pos, err := ManifestStart(size, b)
	if err != nil {
		return nil, err
	}
	start := int64(len(b)) - (size - pos)
	if start < 0 {
		return nil, corruptf("manifest starts at %d, before the %d bytes given", pos, len(b))
	}
	body := b[start : len(b)-FooterSize]
	if n := binary.LittleEndian.Uint32(body); uint64(n) != uint64(len(body)-4) {
		return nil, corruptf("manifest length %d does not match the %d bytes before the footer", n, len(body)-4)
	}
	var m tablepb.Manifest
	if err := proto.Unmarshal(body[4:], &m); err != nil {
		return nil, corruptf("manifest: %v", err)
	}
	return &m, nil
}

// Raw returns the serialized DataFragment the reference was summarized
// from (shared, not to be modified).
func (r FragmentRef) Raw() []byte { return r.raw }

// EncodeDeletions serializes the deleted row offsets of a fragment in the
// form Lance picks: an Arrow IPC file (one non-null uint32 column
// "row_id", zstd-compressed buffers) for at most ArrowDeletionLimit rows,
// else a portable roaring bitmap. bitmap reports which.
func EncodeDeletions(del *roaring.Bitmap) (data []byte, bitmap bool, err error) {
	if del.GetCardinality() > ArrowDeletionLimit {
		var buf bytes.Buffer
		if _, err := del.WriteTo(&buf); err != nil {
			return nil, false, fmt.Errorf("encode roaring deletions: %w", err)
		}
		return buf.Bytes(), true, nil
	}
	mem := memory.NewGoAllocator()
	b := array.NewUint32Builder(mem)
	defer b.Release()
	b.AppendValues(del.ToArray(), nil)
	col := b.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "row_id", Type: arrow.PrimitiveTypes.Uint32}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem), ipc.WithZstd())
	if err != nil {
		return nil, false, fmt.Errorf("encode Arrow deletions: %w", err)
	}
	if err := w.Write(rec); err != nil {
		_ = w.Close()
		return nil, false, fmt.Errorf("encode Arrow deletions: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, false, fmt.Errorf("encode Arrow deletions: %w", err)
	}
	return buf.Bytes(), false, nil
}

// NewDataFileName returns a fresh data file name (relative to data/):
// 32 random hex digits and ".lance".
func NewDataFileName() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]) + ".lance", nil
}

// RandomID returns a random 64-bit id (deletion file ids).
func RandomID() (uint64, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}
