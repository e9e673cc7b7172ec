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
// never answer queries, kept whatever their fields and coverage.
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
	off := m.GetIndexSection()
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
// whose fragments and fields are now those of m, as Lance's
// Transaction::build_manifest keeps them: an append keeps every entry as
// it is (new fragments stay out of each fragment_bitmap and are searched
// unindexed); a delete keeps them too (deletion files mask the rows;
// bitmaps are immutable) but for Lance's retention rule
// (retainRelevantIndices); create and overwrite have none.
func (op *writeOp) indicesAfter(cur *latest, m *tablepb.Manifest) ([]indexEntry, error) {
	if op.kind == opCreate || op.kind == opOverwrite || len(cur.indices) == 0 {
		return nil, nil
	}
	if err := checkIndexBitmaps(cur); err != nil {
		return nil, err
	}
	if op.kind == opDelete {
		return retainRelevantIndices(cur.indices, m), nil
	}
	return cur.indices, nil
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

func isVectorIndex(m *indices.IndexMetadata) bool {
	return strings.HasSuffix(m.DetailsTypeURL, "VectorIndexDetails")
}

// retainRelevantIndices is Lance's retain_relevant_indices after a delete
// (transaction.rs): entries on fields the schema no longer has go (system
// indices stay); then, per index name, a segment whose coverage of the
// fragments that still exist is empty goes when another segment of the
// name still covers some; when none does, a scalar index keeps its oldest
// segment (by dataset_version) and a vector index goes entirely. The
// fragment reuse index always stays. Order and bytes are unchanged.
func retainRelevantIndices(entries []indexEntry, m *tablepb.Manifest) []indexEntry {
	fields := map[int32]bool{}
	for _, f := range m.GetFields() {
		fields[f.GetId()] = true
	}
	existing := roaring.New()
	for _, f := range m.GetFragments() {
		existing.Add(uint32(f.GetId()))
	}
	var kept []indexEntry
	for _, e := range entries {
		if isSystemIndex(e.meta) || allIn(e.meta.Fields, fields) {
			kept = append(kept, e)
		}
	}
	groups := map[string][]*indices.IndexMetadata{}
	for _, e := range kept {
		if e.meta.Name != fragReuseIndexName {
			groups[e.meta.Name] = append(groups[e.meta.Name], e.meta)
		}
	}
	keep := map[*indices.IndexMetadata]bool{}
	for _, g := range groups {
		for _, m := range keptOfGroup(g, existing) {
			keep[m] = true
		}
	}
	out := kept[:0]
	for _, e := range kept {
		if e.meta.Name == fragReuseIndexName || keep[e.meta] {
			out = append(out, e)
		}
	}
	return out
}

// keptOfGroup applies the retention rule to the segments of one index.
func keptOfGroup(g []*indices.IndexMetadata, existing *roaring.Bitmap) []*indices.IndexMetadata {
	var live, empty []*indices.IndexMetadata
	for _, m := range g {
		if m.FragmentBitmap != nil && m.FragmentBitmap.Intersects(existing) {
			live = append(live, m)
		} else {
			empty = append(empty, m)
		}
	}
	if len(live) > 0 {
		return live
	}
	oldest := empty[0]
	for _, m := range empty[1:] {
		if m.DatasetVersion < oldest.DatasetVersion {
			oldest = m
		}
	}
	if isVectorIndex(oldest) {
		return nil
	}
	return []*indices.IndexMetadata{oldest}
}

func allIn(ids []int32, set map[int32]bool) bool {
	for _, id := range ids {
		if !set[id] {
			return false
		}
	}
	return true
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
