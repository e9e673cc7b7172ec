package dataset

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
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
// the protobuf, then the footer (position 0, version 0.2, "LANC").
func EncodeManifestFile(m *tablepb.Manifest) ([]byte, error) {
	body, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	if len(body) > MaxManifestSize {
		return nil, fmt.Errorf("encode manifest: %d bytes exceed %d", len(body), MaxManifestSize)
	}
	out := make([]byte, 0, 4+len(body)+FooterSize)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(body)))
	out = append(out, body...)
	out = binary.LittleEndian.AppendUint64(out, 0)
	out = binary.LittleEndian.AppendUint16(out, manifestMajor)
	out = binary.LittleEndian.AppendUint16(out, manifestMinor)
	return append(out, magic...), nil
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
