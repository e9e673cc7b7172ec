package codecs

import (
	"math/rand/v2"
	"slices"
	"testing"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

func TestEncodeSequenceRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	rnd := func(n int, lim uint64) []uint64 {
		v := make([]uint64, n)
		for i := range v {
			v[i] = r.Uint64N(lim)
		}
		return v
	}
	sorted := rnd(3000, 1<<40)
	slices.Sort(sorted)
	runs := make([]uint64, 0, 3000)
	for i := 0; i < 100; i++ {
		for j := 0; j < 30; j++ {
			runs = append(runs, uint64(i%7)*1000)
		}
	}
	ramp := make([]uint64, 2000)
	for i := range ramp {
		ramp[i] = 5 + 3*uint64(i)
	}
	cases := []struct {
		name  string
		vals  []uint64
		width int
		want  string // the codec we expect to win
	}{
		{"empty", nil, 64, "constant"},
		{"constant", []uint64{7, 7, 7, 7}, 32, "constant"},
		{"range", ramp, 64, "range"},
		{"one", []uint64{42}, 64, "range"},
		{"sorted", sorted, 64, "delta"},
		{"runs", runs, 64, "rle"},
		{"dictionary", rnd(4000, 5), 64, ""},
		{"small random", rnd(3000, 1000), 32, "out_of_line_bitpacking"},
		{"wide random", rnd(100, 1<<63), 64, "flat"},
		{"max values", []uint64{1<<32 - 1, 0, 1<<32 - 1}, 32, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			enc, payload, err := EncodeSequence(c.vals, c.width)
			if err != nil {
				t.Fatal(err)
			}
			if SequenceHasPayload(enc) != (payload != nil) {
				t.Fatalf("%s: payload presence %v disagrees with SequenceHasPayload", Describe(enc), payload != nil)
			}
			got, err := DecodeSequence(nil, enc, c.width, payload, uint64(len(c.vals)))
			if err != nil {
				t.Fatalf("%s: %v", Describe(enc), err)
			}
			if !slices.Equal(got, c.vals) && !(len(got) == 0 && len(c.vals) == 0) {
				t.Fatalf("%s: round trip differs", Describe(enc))
			}
			if c.want != "" && !containsFold(Describe(enc), c.want) {
				t.Errorf("chose %s, want %s", Describe(enc), c.want)
			}
		})
	}
	if _, _, err := EncodeSequence([]uint64{1 << 33}, 32); err == nil {
		t.Error("33-bit value accepted for a 32-bit sequence")
	}
}

func containsFold(s, sub string) bool {
	return len(sub) == 0 || slices.ContainsFunc([]string{s}, func(x string) bool {
		return len(x) >= len(sub) && (x == sub || indexFold(x, sub))
	})
}

func indexFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		match := true
		for j := 0; j < len(sub); j++ {
			a, b := s[i+j], sub[j]
			if a|0x20 != b|0x20 {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

func TestDescribeCodecs23(t *testing.T) {
	cases := map[string]*pb.CompressiveEncoding{
		"alp(64)": {Compression: &pb.CompressiveEncoding_Alp{Alp: &pb.Alp{BitsPerValue: 64}}},
		"pcodec(level=8, values=flat(32))": {Compression: &pb.CompressiveEncoding_Pcodec{Pcodec: &pb.Pcodec{CompressionLevel: 8,
			Values: &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Flat{Flat: &pb.Flat{BitsPerValue: 32}}}}}},
		"axis_delta(axis=3, stride=4, values=<nil>)": {Compression: &pb.CompressiveEncoding_AxisDelta{AxisDelta: &pb.AxisDelta{AxisLength: 3, InnerStride: 4}}},
	}
	for want, enc := range cases {
		if got := Describe(enc); got != want {
			t.Errorf("Describe = %q, want %q", got, want)
		}
	}
}
