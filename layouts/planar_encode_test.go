package layouts

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"google.golang.org/protobuf/proto"
)

// TestEncodePositionsChoices checks the codec chosen for position sets
// against what pylance 14.0.2 wrote for the same sets (2.3 probes:
// testdata/pylance/2.3/planar_constant_pages and one-off files).
func TestEncodePositionsChoices(t *testing.T) {
	every3 := make([]uint64, 1000)
	for i := range every3 {
		every3[i] = uint64(3 * i)
	}
	tests := []struct {
		name string
		pos  []uint64
		want string
	}{
		{"empty", nil, "constant"},
		{"one", []uint64{5}, "constant"},
		{"two", []uint64{5, 9}, "range"},
		{"every third", every3, "range"},
		{"deltas a range", []uint64{1610, 1672, 2115}, "delta(range)"},
		{"five irregular", []uint64{5, 9, 100, 101, 2000}, "flat"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			enc, payload, err := EncodePositions(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			if got := codecName(enc); got != tc.want {
				t.Fatalf("codec %s, want %s", got, tc.want)
			}
			roundTripPositions(t, tc.pos, enc, payload)
		})
	}
}

func codecName(e *pb.CompressiveEncoding) string {
	switch c := e.GetCompression().(type) {
	case *pb.CompressiveEncoding_Constant:
		return "constant"
	case *pb.CompressiveEncoding_Range:
		return "range"
	case *pb.CompressiveEncoding_Flat:
		return "flat"
	case *pb.CompressiveEncoding_Delta:
		return "delta(" + codecName(c.Delta.GetDeltas()) + ")"
	case *pb.CompressiveEncoding_OutOfLineBitpacking:
		return "bitpacked"
	}
	return "?"
}

func roundTripPositions(t *testing.T, pos []uint64, enc *pb.CompressiveEncoding, payload []byte) {
	t.Helper()
	if codecs.SequenceHasPayload(enc) != (payload != nil) {
		t.Fatalf("payload %d bytes, codec says payload=%v", len(payload), codecs.SequenceHasPayload(enc))
	}
	got, err := codecs.DecodeSequence(nil, enc, 64, payload, uint64(len(pos)))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, pos) && !(len(got) == 0 && len(pos) == 0) {
		t.Fatalf("decoded %v, want %v", got, pos)
	}
}

// TestEncodePositionsRoundTrip: random strictly increasing sets of every
// density decode back exactly.
func TestEncodePositionsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		n := r.IntN(5000)
		p := r.Float64()
		var pos []uint64
		base := uint64(r.IntN(3))
		for j := 0; j < n; j++ {
			if r.Float64() < p {
				pos = append(pos, base+uint64(j)*uint64(1+r.IntN(3)))
			}
		}
		pos = slices.Compact(pos)
		slices.Sort(pos)
		pos = slices.Compact(pos)
		enc, payload, err := EncodePositions(pos)
		if err != nil {
			t.Fatal(err)
		}
		roundTripPositions(t, pos, enc, payload)
	}
}

// FuzzEncodePositions: any strictly increasing set round-trips.
func FuzzEncodePositions(f *testing.F) {
	f.Add([]byte{1, 2, 3, 200, 7})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		var pos []uint64
		cur := uint64(0)
		for i, d := range b {
			cur += uint64(d) + 1
			if i%7 == 3 {
				cur += uint64(d) << 40
			}
			pos = append(pos, cur)
		}
		enc, payload, err := EncodePositions(pos)
		if err != nil {
			t.Fatal(err)
		}
		roundTripPositions(t, pos, enc, payload)
	})
}

// TestDensePlanarInverse: DensePlanar then DenseAsPageLayout gives the 2.2
// layout back, for each layout kind the 2.3 writer re-describes.
func TestDensePlanarInverse(t *testing.T) {
	layers := []pb.RepDefLayer{pb.RepDefLayer_REPDEF_NULLABLE_ITEM, pb.RepDefLayer_REPDEF_NULLABLE_LIST}
	tests := []*pb.PageLayout{
		{Layout: &pb.PageLayout_MiniBlockLayout{MiniBlockLayout: &pb.MiniBlockLayout{
			ValueCompression: codecs.FlatEncoding(32), RepCompression: codecs.FlatEncoding(16), DefCompression: codecs.FlatEncoding(16),
			Layers: layers, NumBuffers: 1, RepetitionIndexDepth: 1, NumItems: 77, HasLargeChunk: true,
			Dictionary: codecs.FlatEncoding(64), NumDictionaryItems: 3}}},
		{Layout: &pb.PageLayout_FullZipLayout{FullZipLayout: &pb.FullZipLayout{
			BitsRep: 1, BitsDef: 2, Details: &pb.FullZipLayout_BitsPerOffset{BitsPerOffset: 32},
			NumItems: 9, NumVisibleItems: 8, ValueCompression: codecs.FlatEncoding(8), Layers: layers}}},
		{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: &pb.ConstantLayout{
			Layers: []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM}, InlineValue: []byte{7, 0, 0, 0}}}},
	}
	for _, want := range tests {
		pl, err := DensePlanar(want)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DenseAsPageLayout(pl)
		if err != nil {
			t.Fatal(err)
		}
		if !proto.Equal(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	}
	bad := []*pb.PageLayout{
		{Layout: &pb.PageLayout_MiniBlockLayout{MiniBlockLayout: &pb.MiniBlockLayout{Layers: layers}}}, // u16 chunk words
		{Layout: &pb.PageLayout_ConstantLayout{ConstantLayout: &pb.ConstantLayout{Layers: layers}}},    // levels, no value
		{Layout: &pb.PageLayout_BlobLayout{BlobLayout: &pb.BlobLayout{}}},
	}
	for _, l := range bad {
		if _, err := DensePlanar(l); err == nil {
			t.Fatalf("%v: no error", l)
		}
	}
}

// FuzzEncodeCounts: any positive list counts round-trip.
func FuzzEncodeCounts(f *testing.F) {
	f.Add([]byte{2, 2, 2})
	f.Add([]byte{1, 9, 3, 255})
	f.Fuzz(func(t *testing.T, b []byte) {
		counts := make([]uint64, len(b))
		for i, d := range b {
			counts[i] = uint64(d) + 1
			if i%5 == 4 {
				counts[i] <<= 20
			}
		}
		enc, payload, err := EncodeCounts(counts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := codecs.DecodeSequence(nil, enc, 64, payload, uint64(len(counts)))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, counts) && len(counts) > 0 {
			t.Fatalf("decoded %v, want %v", got, counts)
		}
	})
}
