package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/tablepb"
	"github.com/lancego/lancego/indices"
)

// rawIndexMetadata encodes an IndexMetadata entry (uuid, fields, name,
// dataset_version, bitmap when frags != nil, and an unknown field 99 that
// must survive).
func rawIndexMetadata(t testing.TB, name string, field int32, frags []uint32) []byte {
	var b []byte
	var u []byte
	u = protowire.AppendTag(u, 1, protowire.BytesType)
	u = protowire.AppendBytes(u, bytes.Repeat([]byte{byte(len(name))}, 16))
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, u)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, protowire.AppendVarint(nil, uint64(field)))
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendString(b, name)
	b = protowire.AppendTag(b, 4, protowire.VarintType)
	b = protowire.AppendVarint(b, 3)
	if frags != nil {
		var buf bytes.Buffer
		if _, err := roaring.BitmapOf(frags...).WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendBytes(b, buf.Bytes())
	}
	b = protowire.AppendTag(b, 99, protowire.BytesType)
	return protowire.AppendString(b, "future")
}

func entriesOf(t testing.TB, raws ...[]byte) []indexEntry {
	var out []indexEntry
	for _, r := range raws {
		m, err := indices.DecodeIndexMetadata(r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, indexEntry{raw: r, meta: m})
	}
	return out
}

// TestManifestSectionsLayout: the file is laid out as pylance 14.0.2's
// (index section at 0, inline transaction, manifest); the entries come
// back byte for byte; a stale inline-transaction position is replaced,
// and dropped when there is no transaction.
func TestManifestSectionsLayout(t *testing.T) {
	idx := entriesOf(t, rawIndexMetadata(t, "id_idx", 0, []uint32{0, 1}), rawIndexMetadata(t, "s_idx", 1, []uint32{0}))
	txn := []byte("\x08\x05")
	m := &tablepb.Manifest{Version: 6}
	r := m.ProtoReflect()
	r.SetUnknown(protowire.AppendVarint(protowire.AppendTag(nil, inlineTxnField, protowire.VarintType), 12345))
	b, err := encodeManifestSections(m, idx, txn)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeManifestProto(int64(len(b)), b)
	if err != nil {
		t.Fatal(err)
	}
	if got.IndexSection == nil || got.GetIndexSection() != 0 {
		t.Fatalf("index_section %v", got.IndexSection)
	}
	back, err := readIndexEntries(b, got)
	if err != nil || len(back) != 2 || !bytes.Equal(back[0].raw, idx[0].raw) || !bytes.Equal(back[1].raw, idx[1].raw) {
		t.Fatalf("entries back: %d, %v", len(back), err)
	}
	pos, n := inlineTxnPos(t, got)
	if n != 1 {
		t.Fatalf("%d inline transaction positions", n)
	}
	if l := binary.LittleEndian.Uint32(b[pos:]); !bytes.Equal(b[pos+4:pos+4+uint64(l)], txn) {
		t.Fatalf("inline transaction at %d: %x", pos, b[pos:pos+8])
	}
	b, err = EncodeManifestFile(got)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := DecodeManifestProto(int64(len(b)), b)
	if _, n := inlineTxnPos(t, plain); n != 0 || plain.IndexSection != nil {
		t.Fatalf("without sections: %d inline positions, index_section %v", n, plain.IndexSection)
	}
}

func inlineTxnPos(t *testing.T, m *tablepb.Manifest) (uint64, int) {
	var pos uint64
	n := 0
	u := m.ProtoReflect().GetUnknown()
	for len(u) > 0 {
		num, typ, k := protowire.ConsumeTag(u)
		l := protowire.ConsumeFieldValue(num, typ, u[k:])
		if k < 0 || l < 0 {
			t.Fatal("bad unknown fields")
		}
		if num == inlineTxnField {
			pos, _ = protowire.ConsumeVarint(u[k:])
			n++
		}
		u = u[k+l:]
	}
	return pos, n
}

// TestCheckIndexBitmaps: the coverage Lance would recompute (no bitmap,
// an old or unknown Lance writer, overlapping segments) is refused;
// trusted coverage and system indices without a bitmap are not.
func TestCheckIndexBitmaps(t *testing.T) {
	lance := func(v string) *tablepb.Manifest_WriterVersion {
		return &tablepb.Manifest_WriterVersion{Library: "lance", Version: v}
	}
	for _, tc := range []struct {
		name   string
		writer *tablepb.Manifest_WriterVersion
		idx    []indexEntry
		ok     bool
	}{
		{"pylance 14", lance("14.0.2"), entriesOf(t, rawIndexMetadata(t, "a", 0, []uint32{0})), true},
		{"lancego", &tablepb.Manifest_WriterVersion{Library: "lancego", Version: "x"}, entriesOf(t, rawIndexMetadata(t, "a", 0, []uint32{0})), true},
		{"prerelease", lance("0.8.15-beta.1"), entriesOf(t, rawIndexMetadata(t, "a", 0, []uint32{0})), true},
		{"lance 0.8.14", lance("0.8.14"), entriesOf(t, rawIndexMetadata(t, "a", 0, []uint32{0})), false},
		{"lance unparsable", lance("dev"), entriesOf(t, rawIndexMetadata(t, "a", 0, []uint32{0})), false},
		{"no writer", nil, entriesOf(t, rawIndexMetadata(t, "a", 0, []uint32{0})), false},
		{"no bitmap", lance("14.0.2"), entriesOf(t, rawIndexMetadata(t, "a", 0, nil)), false},
		{"system without bitmap", nil, entriesOf(t, rawIndexMetadata(t, fragReuseIndexName, 0, nil)), true},
		{"disjoint segments", lance("14.0.2"), entriesOf(t, rawIndexMetadata(t, "a", 0, []uint32{0}), rawIndexMetadata(t, "a", 0, []uint32{1})), true},
		{"overlapping segments", lance("14.0.2"), entriesOf(t, rawIndexMetadata(t, "a", 0, []uint32{0, 1}), rawIndexMetadata(t, "a", 0, []uint32{1})), false},
	} {
		cur := &latest{man: &tablepb.Manifest{WriterVersion: tc.writer}, indices: tc.idx}
		err := checkIndexBitmaps(cur)
		if (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

// TestIndicesAfterOps: append and delete keep every entry (same bytes,
// same order), create and overwrite have none; unknown writer flags are
// refused before anything is built.
func TestIndicesAfterOps(t *testing.T) {
	idx := entriesOf(t, rawIndexMetadata(t, "a", 0, []uint32{0}), rawIndexMetadata(t, "b", 1, []uint32{0}))
	cur := &latest{version: 3, man: &tablepb.Manifest{Version: 3, WriterVersion: &tablepb.Manifest_WriterVersion{Library: "lance", Version: "14.0.2"}}, indices: idx}
	for _, tc := range []struct {
		kind opKind
		n    int
	}{{opAppend, 2}, {opDelete, 2}, {opOverwrite, 0}, {opCreate, 0}} {
		got, err := (&writeOp{kind: tc.kind}).indicesAfter(cur)
		if err != nil || len(got) != tc.n {
			t.Fatalf("%s: %d entries, %v", tc.kind, len(got), err)
		}
		for i := range got {
			if !bytes.Equal(got[i].raw, idx[i].raw) {
				t.Fatalf("%s: entry %d changed", tc.kind, i)
			}
		}
	}
	m := proto.Clone(cur.man).(*tablepb.Manifest)
	m.WriterFeatureFlags = 1 << 7
	if _, _, err := (&writeOp{kind: opAppend}).build(&latest{version: 3, man: m}); !errors.Is(err, ErrUnsupportedFeature) {
		t.Fatalf("unknown writer flag: %v", err)
	}
}

// FuzzReadIndexEntries: the writer's decoding of an index section never
// panics, and what it decodes re-encodes to the same entries.
func FuzzReadIndexEntries(f *testing.F) {
	sec := appendIndexSection(nil, entriesOf(f, rawIndexMetadata(f, "a", 0, []uint32{0, 1})))
	f.Add(binary.LittleEndian.AppendUint32(nil, uint32(len(sec))), sec, uint64(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff}, []byte{0x0a, 0x80}, uint64(0))
	f.Fuzz(func(t *testing.T, head, body []byte, off uint64) {
		file := append(append([]byte{}, head...), body...)
		m := &tablepb.Manifest{IndexSection: proto.Uint64(off)}
		e, err := readIndexEntries(file, m)
		if err != nil {
			return
		}
		again := appendIndexSection(nil, e)
		file2 := append(binary.LittleEndian.AppendUint32(nil, uint32(len(again))), again...)
		e2, err := readIndexEntries(file2, &tablepb.Manifest{IndexSection: proto.Uint64(0)})
		if err != nil || len(e2) != len(e) {
			t.Fatalf("re-encoded section: %d entries of %d, %v", len(e2), len(e), err)
		}
	})
}
