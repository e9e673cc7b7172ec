package codecs

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// refPack is a bit-at-a-time transcription of spec §8.3 used as an oracle.
func refPack(in []uint64, t, w int) []uint64 {
	lanes := 1024 / t
	out := make([]uint64, w*lanes)
	for l := 0; l < lanes; l++ {
		for r := 0; r < t; r++ {
			v := in[int(fastlanesOrder[r/8])*16+(r%8)*128+l]
			for b := 0; b < w; b++ {
				p := r*w + b
				out[lanes*(p/t)+l] |= (v >> b & 1) << (p % t)
			}
		}
	}
	return out
}

func TestFastLanesCheckVector(t *testing.T) {
	in := make([]byte, 0, 4096)
	for i := 0; i < 1024; i++ {
		in = binary.LittleEndian.AppendUint32(in, uint32(i%8))
	}
	packed := must(PackFastLanes(nil, in, 32, 3))
	if len(packed) != 96*4 {
		t.Fatalf("packed %d bytes, want 384", len(packed))
	}
	want := []uint32{0x00000000, 0x49249249, 0x92492492, 0xDB6DB6DB}
	for i, w := range want {
		if got := binary.LittleEndian.Uint32(packed[4*i:]); got != w {
			t.Errorf("word %d = %#08x, want %#08x", i, got, w)
		}
	}
	out := must(UnpackFastLanes(nil, packed, 32, 3))
	if !bytes.Equal(out, in) {
		t.Fatal("unpack(pack(x)) != x")
	}
}

func TestFastLanesAllWidths(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tb := range []int{8, 16, 32, 64} {
		for w := 0; w <= tb; w++ {
			in := randWords(r, 1024, tb, w)
			packed := must(PackFastLanes(nil, in, tb, w))
			if len(packed) != FastLanesPackedBytes(w) {
				t.Fatalf("T=%d W=%d: %d packed bytes", tb, w, len(packed))
			}
			vals := make([]uint64, 1024)
			for i := range vals {
				vals[i] = readUint(in, i, tb)
			}
			ref := refPack(vals, tb, w)
			for i, v := range ref {
				if got := readUint(packed, i, tb); got != v {
					t.Fatalf("T=%d W=%d word %d = %#x, oracle %#x", tb, w, i, got, v)
				}
			}
			out := must(UnpackFastLanes([]byte{0xAA}, packed, tb, w))
			if !bytes.Equal(out[1:], in) || out[0] != 0xAA {
				t.Fatalf("T=%d W=%d: round trip mismatch", tb, w)
			}
		}
	}
}

func TestFastLanesBadArgs(t *testing.T) {
	_, err := UnpackFastLanes(nil, make([]byte, 10), 12, 3)
	wantErr(t, err, ErrCorrupt)
	_, err = UnpackFastLanes(nil, make([]byte, 10), 32, 33)
	wantErr(t, err, ErrCorrupt)
	_, err = UnpackFastLanes(nil, make([]byte, 10), 32, 3)
	wantErr(t, err, ErrCorrupt)
	_, err = PackFastLanes(nil, make([]byte, 10), 32, 3)
	wantErr(t, err, ErrCorrupt)
}

func BenchmarkUnpackFastLanes(b *testing.B) {
	for _, c := range []struct{ t, w int }{{8, 3}, {16, 11}, {32, 3}, {32, 17}, {64, 41}} {
		in := randWords(rand.New(rand.NewPCG(3, 4)), 1024, c.t, c.w)
		packed := must(PackFastLanes(nil, in, c.t, c.w))
		dst := make([]byte, 0, 8192)
		b.Run(benchName(c.t, c.w), func(b *testing.B) {
			b.SetBytes(1024 * int64(c.t) / 8)
			for b.Loop() {
				dst, _ = UnpackFastLanes(dst[:0], packed, c.t, c.w)
			}
			b.ReportMetric(float64(b.N)*1024/b.Elapsed().Seconds(), "values/s")
		})
	}
}

func benchName(t, w int) string {
	return "T" + itoa(t) + "_W" + itoa(w)
}

func itoa(v int) string {
	if v < 10 {
		return string(rune('0' + v))
	}
	return itoa(v/10) + string(rune('0'+v%10))
}
