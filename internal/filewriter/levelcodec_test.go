package filewriter

import (
	"testing"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/layouts"
)

// TestOOLPackedBytes: the counted size of out-of-line bit-packing is the
// size the encoder writes, tails packed or raw.
func TestOOLPackedBytes(t *testing.T) {
	for _, tc := range []struct{ n, t, w int }{
		{1, 32, 13}, {1025, 32, 13}, {1024, 64, 63}, {1500, 64, 63}, {2048, 8, 3}, {3000, 16, 1}, {100, 8, 7}, {900, 16, 2},
	} {
		src := make([]byte, tc.n*tc.t/8)
		got, err := codecs.EncodeOutOfLineBitpacking(nil, src, tc.t, tc.w, uint64(tc.n))
		if err != nil {
			t.Fatal(err)
		}
		if c := oolPackedBytes(tc.n, tc.t, tc.w); c != len(got) {
			t.Errorf("n=%d t=%d w=%d: counted %d bytes, encoder wrote %d", tc.n, tc.t, tc.w, c, len(got))
		}
	}
}

// TestChooseLevelCodec pins the level codec of small level arrays to the
// rule measured on pylance 14.0.2 (TestWriterLevelCodecs checks it
// against pylance itself).
func TestChooseLevelCodec(t *testing.T) {
	alt := func(n int) []uint16 { // 0,1,0,1,...: no runs
		l := make([]uint16, n)
		for i := range l {
			l[i] = uint16(i % 2)
		}
		return l
	}
	one := func(n int) []uint16 { // a single 1 in the middle: 3 runs
		l := make([]uint16, n)
		l[n/2] = 1
		return l
	}
	for _, tc := range []struct {
		name   string
		levels []uint16
		ver    format.Version
		want   string
	}{
		{"40 alternating 2.1: one inline block is not smaller", alt(40), format.V2_1, "flat"},
		{"100 alternating 2.1", alt(100), format.V2_1, "inline"},
		{"1025 alternating 2.2", alt(1025), format.V2_2, "packed1"},
		{"40 one null 2.1: no RLE before 2.2", one(40), format.V2_1, "flat"},
		{"40 one null 2.2", one(40), format.V2_2, "rle8"},
		{"900 one null 2.2: runs of 450 split at 255", one(900), format.V2_2, "rle8"},
		{"900 one null 2.3: 16-bit runs are smaller", one(900), format.V2_3, "rle16"},
	} {
		if got := levelCodecName(chooseLevelCodec(tc.levels, tc.ver)); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

// levelCodecName names a level codec for TestChooseLevelCodec.
func levelCodecName(c layouts.LevelEncoder) string {
	switch {
	case c.RLE:
		return map[int]string{8: "rle8", 16: "rle16", 32: "rle32"}[c.RunBits]
	case c.Inline:
		return "inline"
	case c.Width > 0:
		return "packed" + string(rune('0'+c.Width))
	}
	return "flat"
}
