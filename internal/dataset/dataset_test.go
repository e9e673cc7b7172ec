package dataset

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/rowidspb"
)

const testdata = "../../testdata/datasets"

func TestManifestNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    uint64
		n    Naming
		ok   bool
	}{
		{"18446744073709551614.manifest", 1, NamingV2, true},
		{"18446744073709551605.manifest", 10, NamingV2, true},
		{"00000000000000000000.manifest", math.MaxUint64, NamingV2, true},
		{"1.manifest", 1, NamingV1, true},
		{"123.manifest", 123, NamingV1, true},
		{"18446744073709551615.manifest", 0, 0, false}, // version 0
		{"0.manifest", 0, 0, false},
		{"01.manifest", 0, 0, false},
		{"_latest.manifest", 0, 0, false},
		{"latest_version_hint.json", 0, 0, false},
		{"1.manifest.tmp", 0, 0, false},
		{".manifest", 0, 0, false},
		{"99999999999999999999.manifest", 0, 0, false}, // > u64::MAX
		{"-1.manifest", 0, 0, false},
	} {
		v, n, ok := ParseManifestName(tc.name)
		if v != tc.v || n != tc.n || ok != tc.ok {
			t.Errorf("ParseManifestName(%q) = %d, %d, %v; want %d, %d, %v", tc.name, v, n, ok, tc.v, tc.n, tc.ok)
		}
		if ok && ManifestName(v, n) != tc.name {
			t.Errorf("ManifestName(%d, %d) = %q, want %q", v, n, ManifestName(v, n), tc.name)
		}
	}
}

func TestCheckReaderFlags(t *testing.T) {
	if err := CheckReaderFlags(FlagDeletionFiles | FlagStableRowIDs | FlagBasePaths); err != nil {
		t.Fatal(err)
	}
	err := CheckReaderFlags(FlagDeletionFiles | 64 | 1<<40)
	if !errors.Is(err, ErrUnsupportedFeature) || !strings.Contains(err.Error(), "bit 6 (0x40)") || !strings.Contains(err.Error(), "bit 40") {
		t.Fatalf("unknown flags: %v", err)
	}
	if err := CheckReaderFlags(FlagMixedDataFileVersions); err != nil {
		t.Fatalf("mixed data-file versions (pylance 14.0.2): %v", err)
	}
	both := FlagMixedDataFileVersions | FlagDeletionFiles
	if err := CheckPairedFlags(both, both); err != nil {
		t.Fatal(err)
	}
	if err := CheckPairedFlags(FlagMixedDataFileVersions, FlagDeletionFiles); !errors.Is(err, format.ErrCorrupt) {
		t.Fatalf("half-set mixed-version capability: %v", err)
	}
}

// realManifests returns every manifest file of the committed datasets.
func realManifests(t testing.TB) []string {
	m, err := filepath.Glob(filepath.Join(testdata, "*", VersionsDir, "*.manifest"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no manifests under %s: %v", testdata, err)
	}
	return m
}

// TestRealManifests parses every manifest pylance wrote, decodes every
// fragment and every deletion file and row id sequence it names.
func TestRealManifests(t *testing.T) {
	for _, path := range realManifests(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseManifestFile(int64(len(b)), b)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		v, _, _ := ParseManifestName(filepath.Base(path))
		if m.Version != v || len(m.Fields) == 0 || len(m.Fragments) == 0 || m.DataFormat != "lance" || m.DataVersion != "2.1" {
			t.Fatalf("%s: version %d, %d fields, %d fragments, format %s %s", path, m.Version, len(m.Fields), len(m.Fragments), m.DataFormat, m.DataVersion)
		}
		// the suffix from ManifestStart on is enough
		pos, err := ManifestStart(int64(len(b)), b[len(b)-FooterSize:])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseManifestFile(int64(len(b)), b[pos:]); err != nil {
			t.Fatalf("%s from %d: %v", path, pos, err)
		}
		root := filepath.Dir(filepath.Dir(path))
		for _, r := range m.Fragments {
			checkFragment(t, root, m, r)
		}
	}
}

func checkFragment(t *testing.T, root string, m *Manifest, r FragmentRef) {
	f, err := r.Decode()
	if err != nil {
		t.Fatal(err)
	}
	if f.ID != r.ID || f.PhysicalRows != r.PhysicalRows || len(f.Files) == 0 {
		t.Fatalf("fragment %+v decoded as %+v", r, f)
	}
	if f.Deletion != nil {
		b, err := os.ReadFile(filepath.Join(root, DeletionName(f.ID, *f.Deletion)))
		if err != nil {
			t.Fatal(err)
		}
		del, err := DecodeDeletions(b, f.Deletion.Bitmap, f.PhysicalRows)
		if err != nil || del.GetCardinality() != f.Deletion.NumDeleted || r.NumDeleted != f.Deletion.NumDeleted {
			t.Fatalf("fragment %d deletions: %v, %v; want %d", f.ID, del, err, f.Deletion.NumDeleted)
		}
	}
	if m.ReaderFlags&FlagStableRowIDs != 0 {
		ids, err := DecodeRowIDs(f.RowIDs, f.PhysicalRows)
		if err != nil {
			t.Fatalf("fragment %d row ids: %v", f.ID, err)
		}
		for i := range f.PhysicalRows {
			if row, ok := ids.Find(ids.Get(i)); !ok || row != i {
				t.Fatalf("fragment %d: Find(Get(%d)) = %d, %v", f.ID, i, row, ok)
			}
		}
	}
}

func u16s(base uint64, vals ...uint16) *rowidspb.EncodedU64Array {
	b := make([]byte, 0, 2*len(vals))
	for _, v := range vals {
		b = append(b, byte(v), byte(v>>8))
	}
	return &rowidspb.EncodedU64Array{Array: &rowidspb.EncodedU64Array_U16Array_{U16Array: &rowidspb.EncodedU64Array_U16Array{Base: base, Offsets: b}}}
}

func u64s(vals ...uint64) *rowidspb.EncodedU64Array {
	var b []byte
	for _, v := range vals {
		for k := range 8 {
			b = append(b, byte(v>>(8*k)))
		}
	}
	return &rowidspb.EncodedU64Array{Array: &rowidspb.EncodedU64Array_U64Array_{U64Array: &rowidspb.EncodedU64Array_U64Array{Values: b}}}
}

// allKinds is a sequence with one segment of every kind, and its values.
func allKinds() (*rowidspb.RowIdSequence, []uint64) {
	seq := &rowidspb.RowIdSequence{Segments: []*rowidspb.U64Segment{
		{Segment: &rowidspb.U64Segment_Range_{Range: &rowidspb.U64Segment_Range{Start: 10, End: 14}}},
		{Segment: &rowidspb.U64Segment_RangeWithHoles_{RangeWithHoles: &rowidspb.U64Segment_RangeWithHoles{Start: 20, End: 27, Holes: u16s(20, 1, 4)}}},
		// bits LSB first: 0b1010_0101, 0b0000_0011 over [40, 50): 40,42,45,47,48,49
		{Segment: &rowidspb.U64Segment_RangeWithBitmap_{RangeWithBitmap: &rowidspb.U64Segment_RangeWithBitmap{Start: 40, End: 50, Bitmap: []byte{0xa5, 0x03}}}},
		{Segment: &rowidspb.U64Segment_SortedArray{SortedArray: u16s(100, 0, 5, 9)}},
		{Segment: &rowidspb.U64Segment_Array{Array: u64s(7, 1<<40, 3)}},
	}}
	want := []uint64{10, 11, 12, 13, 20, 22, 23, 25, 26, 40, 42, 45, 47, 48, 49, 100, 105, 109, 7, 1 << 40, 3}
	return seq, want
}

func TestRowIDSegments(t *testing.T) {
	seq, want := allKinds()
	b, _ := proto.Marshal(seq)
	r, err := DecodeRowIDs(b, uint64(len(want)))
	if err != nil {
		t.Fatal(err)
	}
	got := r.AppendAll(nil, 0, r.Len())
	if !slices.Equal(got, want) {
		t.Fatalf("row ids %v, want %v", got, want)
	}
	for i, id := range want {
		if row, ok := r.Find(id); !ok || row != uint64(i) {
			t.Fatalf("Find(%d) = %d, %v; want %d", id, row, ok, i)
		}
	}
	for _, id := range []uint64{9, 14, 21, 24, 41, 50, 101, 8} {
		if row, ok := r.Find(id); ok {
			t.Fatalf("Find(%d) = %d, want absent", id, row)
		}
	}
	if _, err := DecodeRowIDs(b, uint64(len(want))+1); !errors.Is(err, format.ErrCorrupt) {
		t.Fatalf("wrong length: %v", err)
	}
}

func TestHostileRowIDs(t *testing.T) {
	for name, seg := range map[string]*rowidspb.U64Segment{
		"reversed range": {Segment: &rowidspb.U64Segment_Range_{Range: &rowidspb.U64Segment_Range{Start: 9, End: 3}}},
		"huge range":     {Segment: &rowidspb.U64Segment_Range_{Range: &rowidspb.U64Segment_Range{Start: 0, End: math.MaxUint64}}},
		"hole outside":   {Segment: &rowidspb.U64Segment_RangeWithHoles_{RangeWithHoles: &rowidspb.U64Segment_RangeWithHoles{Start: 0, End: 4, Holes: u16s(0, 9)}}},
		"unsorted holes": {Segment: &rowidspb.U64Segment_RangeWithHoles_{RangeWithHoles: &rowidspb.U64Segment_RangeWithHoles{Start: 0, End: 4, Holes: u16s(0, 2, 1)}}},
		"short bitmap":   {Segment: &rowidspb.U64Segment_RangeWithBitmap_{RangeWithBitmap: &rowidspb.U64Segment_RangeWithBitmap{Start: 0, End: 20, Bitmap: []byte{1}}}},
		"unsorted":       {Segment: &rowidspb.U64Segment_SortedArray{SortedArray: u16s(0, 3, 1)}},
		"odd bytes":      {Segment: &rowidspb.U64Segment_Array{Array: &rowidspb.EncodedU64Array{Array: &rowidspb.EncodedU64Array_U32Array_{U32Array: &rowidspb.EncodedU64Array_U32Array{Offsets: []byte{1, 2, 3}}}}}},
		"overflow":       {Segment: &rowidspb.U64Segment_Array{Array: u16s(math.MaxUint64, 1)}},
		"no kind":        {},
	} {
		b, _ := proto.Marshal(&rowidspb.RowIdSequence{Segments: []*rowidspb.U64Segment{seg}})
		if _, err := DecodeRowIDs(b, 4); !errors.Is(err, format.ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
}

func TestHostileManifests(t *testing.T) {
	b, err := os.ReadFile(realManifests(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(b))
	pos, err := ManifestStart(n, b)
	if err != nil {
		t.Fatal(err)
	}
	mut := func(f func(c []byte) []byte) []byte { return f(slices.Clone(b)) }
	for name, c := range map[string][]byte{
		"empty":     {},
		"short":     b[len(b)-10:],
		"bad magic": mut(func(c []byte) []byte { c[len(c)-1] = 'X'; return c }),
		"pos past":  mut(func(c []byte) []byte { c[len(c)-16] = 0xff; c[len(c)-9] = 0x7f; return c }),
		"bad len":   mut(func(c []byte) []byte { c[pos]++; return c }),
		"bad proto": mut(func(c []byte) []byte { c[pos+4] = 0xff; c[pos+5] = 0xff; return c }),
	} {
		size := n
		if len(c) < len(b) {
			size = int64(len(c))
		}
		if _, err := ParseManifestFile(size, c); !errors.Is(err, format.ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
}

func TestLiveRanges(t *testing.T) {
	del := roaringOf(1, 2, 5, 9)
	got := LiveRanges(nil, del, 0, 10)
	want := [][2]uint64{{0, 1}, {3, 5}, {6, 9}}
	if !slices.Equal(got, want) {
		t.Fatalf("LiveRanges = %v, want %v", got, want)
	}
	if got := LiveRanges(nil, del, 2, 3); len(got) != 0 {
		t.Fatalf("all deleted: %v", got)
	}
	if got := LiveRanges(nil, nil, 4, 7); !slices.Equal(got, [][2]uint64{{4, 7}}) {
		t.Fatalf("no deletions: %v", got)
	}
}
