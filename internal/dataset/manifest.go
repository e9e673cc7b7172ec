package dataset

import (
	"encoding/binary"
	"fmt"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/format/pb/tablepb"
)

// A manifest file ends with a 16-byte footer: i64 position of the
// manifest, u16 major, u16 minor, "LANC". At the position is a u32 length
// followed by exactly that many bytes of lance.table.Manifest, which end
// where the footer starts (io/manifest.rs).
const (
	FooterSize = 16
	magic      = "LANC"
	// MaxManifestSize bounds the manifest bytes a reader will accept.
	MaxManifestSize = 1 << 30
)

// ManifestStart returns the offset in a manifest file of size bytes at
// which its length-prefixed manifest starts, from the file's last bytes
// (at least FooterSize of them).
func ManifestStart(size int64, tail []byte) (int64, error) {
	if size < FooterSize+4 || len(tail) < FooterSize || int64(len(tail)) > size {
		return 0, corruptf("manifest file of %d bytes is too short", size)
	}
	foot := tail[len(tail)-FooterSize:]
	if string(foot[12:]) != magic {
		return 0, corruptf("manifest file does not end with %q", magic)
	}
	pos := int64(binary.LittleEndian.Uint64(foot[:8]))
	if pos < 0 || pos > size-FooterSize-4 {
		return 0, corruptf("manifest position %d outside a file of %d bytes", pos, size)
	}
	if size-pos > MaxManifestSize {
		return 0, corruptf("manifest of %d bytes is larger than %d", size-pos, MaxManifestSize)
	}
	return pos, nil
}

// ParseManifestFile parses a whole manifest file, or its suffix from
// ManifestStart on (b holds the last len(b) bytes of a file of size bytes).
func ParseManifestFile(size int64, b []byte) (*Manifest, error) {
	pos, err := ManifestStart(size, b)
	if err != nil {
		return nil, err
	}
	start := int64(len(b)) - (size - pos)
	if start < 0 {
		return nil, corruptf("manifest starts at %d, before the %d bytes given", pos, len(b))
	}
	body := b[start : len(b)-FooterSize]
	n := binary.LittleEndian.Uint32(body)
	if uint64(n) != uint64(len(body)-4) {
		return nil, corruptf("manifest length %d does not match the %d bytes before the footer", n, len(body)-4)
	}
	return DecodeManifest(body[4:])
}

// Manifest is one version of a dataset. Fragments are summarized; their
// full metadata is decoded on demand (FragmentRef.Decode), so opening a
// dataset of many fragments stays cheap.
type Manifest struct {
	Version        uint64
	Fields         []*filepb.Field
	SchemaMetadata map[string][]byte
	ReaderFlags    uint64
	WriterFlags    uint64
	// DataFormat and DataVersion name the data file format ("lance",
	// "2.1"); empty in old manifests.
	DataFormat, DataVersion string
	WriterLibrary           string
	WriterVersion           string
	Timestamp               time.Time
	Tag                     string
	NextRowID               uint64
	Config                  map[string]string
	BasePaths               map[uint32]*tablepb.BasePath
	Fragments               []FragmentRef
	// HasIndexSection says the manifest names an index section (field 6),
	// so a filtered scan knows without a read whether indices may exist.
	HasIndexSection bool
}

// DecodeManifest decodes a serialized lance.table.Manifest, summarizing
// its fragments, and checks its reader feature flags.
func DecodeManifest(b []byte) (*Manifest, error) {
	rest := make([]byte, 0, 256)
	var frags [][]byte
	for off := 0; off < len(b); {
		num, typ, n := protowire.ConsumeTag(b[off:])
		if n < 0 {
			return nil, corruptf("manifest: bad tag at byte %d: %v", off, protowire.ParseError(n))
		}
		m := protowire.ConsumeFieldValue(num, typ, b[off+n:])
		if m < 0 {
			return nil, corruptf("manifest: bad field %d at byte %d: %v", num, off, protowire.ParseError(m))
		}
		if num == 2 && typ == protowire.BytesType {
			v, _ := protowire.ConsumeBytes(b[off+n:])
			frags = append(frags, v)
		} else {
			rest = append(rest, b[off:off+n+m]...)
		}
		off += n + m
	}
	var pb tablepb.Manifest
	if err := proto.Unmarshal(rest, &pb); err != nil {
		return nil, corruptf("manifest: %v", err)
	}
	m := &Manifest{
		Version: pb.GetVersion(), Fields: pb.GetFields(), SchemaMetadata: pb.GetSchemaMetadata(),
		ReaderFlags: pb.GetReaderFeatureFlags(), WriterFlags: pb.GetWriterFeatureFlags(),
		DataFormat: pb.GetDataFormat().GetFileFormat(), DataVersion: pb.GetDataFormat().GetVersion(),
		WriterLibrary: pb.GetWriterVersion().GetLibrary(), WriterVersion: pb.GetWriterVersion().GetVersion(),
		Tag: pb.GetTag(), NextRowID: pb.GetNextRowId(), Config: pb.GetConfig(),
		BasePaths: map[uint32]*tablepb.BasePath{}, HasIndexSection: pb.IndexSection != nil,
	}
	if ts := pb.GetTimestamp(); ts != nil {
		m.Timestamp = ts.AsTime()
	}
	for _, bp := range pb.GetBasePaths() {
		m.BasePaths[bp.GetId()] = bp
	}
	if err := CheckReaderFlags(m.ReaderFlags); err != nil {
		return m, err
	}
	if err := CheckPairedFlags(m.ReaderFlags, m.WriterFlags); err != nil {
		return nil, err
	}
	m.Fragments = make([]FragmentRef, len(frags))
	// Fragment ids may repeat: Lance 0.16 committed appends of mixed file
	// versions with reused ids, and pylance still reads every fragment.
	for i, raw := range frags {
		r, err := summarize(raw)
		if err != nil {
			return nil, fmt.Errorf("manifest fragment %d: %w", i, err)
		}
		m.Fragments[i] = r
	}
	return m, nil
}
