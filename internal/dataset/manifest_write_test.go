package dataset

import (
	"os"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lancego/lancego/format/pb/tablepb"
)

func TestEncodeManifestFileRoundTrip(t *testing.T) {
	m := &tablepb.Manifest{Version: 7, NextRowId: 3, WriterFeatureFlags: FlagDeletionFiles,
		Fragments: []*tablepb.DataFragment{{Id: 4, PhysicalRows: 10}, {Id: 9, PhysicalRows: 1}}}
	b, err := EncodeManifestFile(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseManifestFile(int64(len(b)), b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 7 || got.NextRowID != 3 || len(got.Fragments) != 2 || got.Fragments[1].ID != 9 || got.Fragments[0].PhysicalRows != 10 {
		t.Fatalf("round trip: %+v", got)
	}
	full, err := DecodeManifestProto(int64(len(b)), b)
	if err != nil || full.GetVersion() != 7 || len(full.GetFragments()) != 2 {
		t.Fatalf("DecodeManifestProto: %v %v", full, err)
	}
	if string(b[len(b)-4:]) != "LANC" || b[len(b)-8] != 0 || b[len(b)-6] != 2 {
		t.Fatalf("footer %x", b[len(b)-16:])
	}
}

func TestEncodeDeletionsRule(t *testing.T) {
	for _, tc := range []struct {
		n      uint32
		bitmap bool
	}{{1, false}, {ArrowDeletionLimit, false}, {ArrowDeletionLimit + 1, true}, {20000, true}} {
		del := roaring.New()
		for i := uint32(0); i < tc.n; i++ {
			del.Add(i * 3)
		}
		b, bitmap, err := EncodeDeletions(del)
		if err != nil {
			t.Fatal(err)
		}
		if bitmap != tc.bitmap {
			t.Fatalf("%d rows: bitmap %v, want %v", tc.n, bitmap, tc.bitmap)
		}
		got, err := DecodeDeletions(b, bitmap, uint64(tc.n)*3)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equals(del) {
			t.Fatalf("%d rows: decoded %d rows", tc.n, got.GetCardinality())
		}
	}
}

func TestEncodeRowIDRange(t *testing.T) {
	for _, r := range [][2]uint64{{0, 5}, {5, 10}, {1 << 40, 1<<40 + 3}} {
		ids, err := DecodeRowIDs(EncodeRowIDRange(r[0], r[1]), r[1]-r[0])
		if err != nil {
			t.Fatal(err)
		}
		if ids.Len() != r[1]-r[0] || ids.Get(0) != r[0] || ids.Get(ids.Len()-1) != r[1]-1 {
			t.Fatalf("range %v: %d ids from %d", r, ids.Len(), ids.Get(0))
		}
	}
}

// FuzzManifestProto: DecodeManifestProto (the writer's read of the latest
// manifest) never panics, and what it decodes re-encodes to a manifest
// file that parses to the same version and fragment count.
func FuzzManifestProto(f *testing.F) {
	for _, p := range realManifests(f) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeManifestProto(int64(len(b)), b)
		if err != nil {
			return
		}
		out, err := EncodeManifestFile(m)
		if err != nil {
			return
		}
		back, err := DecodeManifestProto(int64(len(out)), out)
		if err != nil || back.GetVersion() != m.GetVersion() || len(back.GetFragments()) != len(m.GetFragments()) {
			t.Fatalf("re-encoded manifest: %v", err)
		}
	})
}
