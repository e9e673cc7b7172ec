package dataset

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/lancego/lancego/format/pb/tablepb"
	"github.com/lancego/lancego/indices"
)

// Names of Lance's system indices (lance-index frag_reuse.rs, mem_wal.rs):
// never answer queries; their coverage is not checked.
const (
	fragReuseIndexName = "__lance_frag_reuse"
	memWALIndexName    = "__lance_mem_wal"
)

// indexEntry is one IndexMetadata of a manifest's index section: its
// bytes as read, written back unchanged into the next version's section
// (every field, known or not, keeps its bytes), and what they say.
type indexEntry struct {
	raw  []byte
	meta *indices.IndexMetadata
}

// readIndexEntries decodes the index section m names in the manifest file
// whose bytes are file (nil when m has none).
func readIndexEntries(file []byte, m *tablepb.Manifest) ([]indexEntry, error) {
	if m.IndexSection == nil {
		return nil, nil
	}
	return readIndexEntriesAt(file, m.GetIndexSection())
}

// readIndexEntriesAt decodes the index section at offset off of the
// manifest file whose bytes are file.
func readIndexEntriesAt(file []byte, off uint64) ([]indexEntry, error) {
	if off > uint64(len(file)) || uint64(len(file))-off < 4 {
		return nil, corruptf("index section at %d outside a manifest file of %d bytes", off, len(file))
	}
	n := binary.LittleEndian.Uint32(file[off:])
	body := file[off+4:]
	if uint64(n) > uint64(len(body)) {
		return nil, corruptf("index section of %d bytes at %d in a manifest file of %d bytes", n, off, len(file))
	}
	body = body[:n]
	var out []indexEntry
	for pos := 0; pos < len(body); {
		num, typ, k := protowire.ConsumeTag(body[pos:])
		if k < 0 {
			return nil, corruptf("index section: bad tag at byte %d", pos)
		}
		l := protowire.ConsumeFieldValue(num, typ, body[pos+k:])
		if l < 0 {
			return nil, corruptf("index section: bad field %d at byte %d", num, pos)
		}
		if num == 1 && typ == protowire.BytesType {
			raw, _ := protowire.ConsumeBytes(body[pos+k:])
			meta, err := indices.DecodeIndexMetadata(raw)
			if err != nil {
				return nil, corruptf("index section entry %d: %v", len(out), err)
			}
			out = append(out, indexEntry{raw: raw, meta: meta})
		}
		pos += k + l
	}
	return out, nil
}

// appendIndexSection appends the IndexSection message of entries (their
// bytes as read) to b.
func appendIndexSection(b []byte, entries []indexEntry) []byte {
	for _, e := range entries {
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, e.raw)
	}
	return b
}

// indicesAfter returns the index entries of the version op makes on cur,
// as pylance 14.0.2 keeps them: an append keeps every entry as it is (new
// fragments stay out of each fragment_bitmap and are searched unindexed);
// a delete keeps them too (deletion files mask the rows; bitmaps are
// immutable), even an index none of whose fragments is left: the Rust
// sources' retain_relevant_indices would drop such a vector index, but
// pylance 14.0.2 keeps it (TestWriteKeepsIndices compares); create and
// overwrite have none (pylance's overwrite drops every index, system
// ones included).
func (op *writeOp) indicesAfter(cur *latest) ([]indexEntry, error) {
	if op.kind == opRestore {
		return op.restore.indices, nil // the restored version's (restore.go)
	}
	if op.kind == opCreate || op.kind == opOverwrite || len(cur.indices) == 0 && op.kind != opIndex {
		return nil, nil
	}
	if err := checkIndexBitmaps(cur); err != nil {
		return nil, err
	}
	if op.kind == opProject || op.kind == opMerge {
		return retainIndices(cur.indices, op.fields), nil // schema_evolve.go
	}
	if op.kind == opIndex {
		return op.index.apply(cur.indices), nil // create_index.go
	}
	if op.kind == opRewrite {
		return withoutRewritten(cur.indices, op.groups)
	}
	return cur.indices, nil
}

// withoutRewritten returns the index entries after a compaction: the
// fragments it rewrote leave every (non-system) index's fragment_bitmap,
// so their rows, now in new fragments no index covers, are searched
// unindexed until the index is rebuilt (OptimizeIndices). Entries whose
// bitmap holds none of them keep their bytes; the others keep every
// other field's bytes.
func withoutRewritten(entries []indexEntry, groups []rewriteGroup) ([]indexEntry, error) {
	gone := roaring.New()
	for _, g := range groups {
		for _, f := range g.old {
			gone.Add(uint32(f.GetId()))
		}
	}
	out := make([]indexEntry, 0, len(entries))
	for _, e := range entries {
		m := e.meta
		if isSystemIndex(m) || m.FragmentBitmap == nil || !m.FragmentBitmap.Intersects(gone) {
			out = append(out, e)
			continue
		}
		bm := roaring.AndNot(m.FragmentBitmap, gone)
		raw, err := replaceFragmentBitmap(e.raw, bm)
		if err != nil {
			return nil, err
		}
		nm := *m
		nm.FragmentBitmap = bm
		out = append(out, indexEntry{raw: raw, meta: &nm})
	}
	return out, nil
}

// replaceFragmentBitmap re-encodes an IndexMetadata message with field 5
// (fragment_bitmap) set to bm, every other field's bytes in place.
func replaceFragmentBitmap(raw []byte, bm *roaring.Bitmap) ([]byte, error) {
	enc, err := bm.ToBytes()
	if err != nil {
		return nil, err
	}
	var out []byte
	done := false
	for pos := 0; pos < len(raw); {
		num, typ, k := protowire.ConsumeTag(raw[pos:])
		if k < 0 {
			return nil, corruptf("index entry: bad tag at byte %d", pos)
		}
		l := protowire.ConsumeFieldValue(num, typ, raw[pos+k:])
		if l < 0 {
			return nil, corruptf("index entry: bad field %d at byte %d", num, pos)
		}
		if num == 5 {
			if !done {
				out = protowire.AppendBytes(protowire.AppendTag(out, 5, protowire.BytesType), enc)
				done = true
			}
		} else {
			out = append(out, raw[pos:pos+k+l]...)
		}
		pos += k + l
	}
	if !done {
		out = protowire.AppendBytes(protowire.AppendTag(out, 5, protowire.BytesType), enc)
	}
	return out, nil
}

// checkIndexBitmaps refuses to commit over indices whose fragment bitmaps
// Lance would recompute from the index files on its next commit
// (commit.rs migrate_indices): a non-system entry without a bitmap, or
// one under a manifest written by Lance before 0.8.15 (or by no known
// writer), or two segments of one index covering the same fragment.
func checkIndexBitmaps(cur *latest) error {
	seen := map[string]*roaring.Bitmap{}
	oldWriter := mustRecalculateBitmaps(cur.man.GetWriterVersion())
	for _, e := range cur.indices {
		m := e.meta
		if !isSystemIndex(m) && (m.FragmentBitmap == nil || oldWriter) {
			return fmt.Errorf("%w: index %q (%s) has no fragment coverage this writer can trust (no bitmap, or written by an old Lance); commit once with pylance, which recomputes it", ErrUnsupported, m.Name, m.UUIDString())
		}
		if m.FragmentBitmap == nil {
			continue
		}
		if s := seen[m.Name]; s != nil {
			if s.Intersects(m.FragmentBitmap) {
				return fmt.Errorf("%w: segments of index %q cover the same fragments; pylance recomputes their coverage on its next commit", ErrUnsupported, m.Name)
			}
			s.Or(m.FragmentBitmap)
		} else {
			seen[m.Name] = m.FragmentBitmap.Clone()
		}
	}
	return nil
}

// mustRecalculateBitmaps is Lance's must_recalculate_fragment_bitmap test
// of the previous manifest's writer: none recorded, or "lance" before
// 0.8.15 (or an unparsable version). Other libraries are trusted.
func mustRecalculateBitmaps(w *tablepb.Manifest_WriterVersion) bool {
	if w == nil {
		return true
	}
	if w.GetLibrary() != "lance" {
		return false
	}
	v, ok := parseSemver(w.GetVersion())
	return !ok || v[0] == 0 && (v[1] < 8 || v[1] == 8 && v[2] < 15)
}

// parseSemver parses MAJOR.MINOR.PATCH, ignoring a prerelease or build
// suffix (from the first "-" or "+" on).
func parseSemver(s string) ([3]uint64, bool) {
	var v [3]uint64
	if i := strings.IndexAny(s, "-+"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func isSystemIndex(m *indices.IndexMetadata) bool {
	return m.Name == fragReuseIndexName || m.Name == memWALIndexName
}

// knownWriterFlags are the writer feature flags this writer implements
// (the reader flags it knows; Lance's flags share their identities).
const knownWriterFlags = knownReaderFlags

// checkWriterFlags refuses to write after a version whose writer feature
// flags name a feature this writer does not implement (Lance's rule:
// such a writer must not write to the dataset).
func checkWriterFlags(m *tablepb.Manifest) error {
	if unknown := m.GetWriterFeatureFlags() &^ knownWriterFlags; unknown != 0 {
		return fmt.Errorf("%w: writer_feature_flags 0x%x", ErrUnsupportedFeature, unknown)
	}
	return nil
}
