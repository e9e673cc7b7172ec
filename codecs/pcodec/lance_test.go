package pcodec

import (
	"bytes"
	"errors"
	"testing"

	"github.com/lancego/lancego/codecs"
)

func TestChunkValues(t *testing.T) {
	cases := []struct{ valueBytes, maxValues, want int }{
		{8, 0, 4096},        // f64: 32 KiB / 8
		{4, 0, 8192},        // f32
		{2, 4096, 4096},     // f16 capped by the mini-block maximum
		{4 * 768, 0, 8},     // 768-dim f32 vectors: 10 fit, largest power of two 8
		{8 * 4096, 0, 2},    // one value exceeds the budget: at least 2
		{8 * 3000, 1024, 2}, // 1 fits: still 2
		{8, 100, 100},       // cap need not be a power of two
	}
	for _, c := range cases {
		if got := ChunkValues(c.valueBytes, c.maxValues); got != c.want {
			t.Errorf("ChunkValues(%d, %d) = %d, want %d", c.valueBytes, c.maxValues, got, c.want)
		}
	}
}

func TestTranspose(t *testing.T) {
	// 3 values of 2 f16 items: [a0 a1][b0 b1][c0 c1] → [a0 b0 c0][a1 b1 c1].
	src := []byte{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0}
	want := []byte{1, 0, 3, 0, 5, 0, 2, 0, 4, 0, 6, 0}
	got := Transpose(nil, src, 3, 2, 2)
	if !bytes.Equal(got, want) {
		t.Fatalf("transpose % x", got)
	}
	if back := Untranspose([]byte{9}, got, 3, 2, 2); !bytes.Equal(back, append([]byte{9}, src...)) {
		t.Fatalf("untranspose % x", back)
	}
}

func TestLanceChunkRoundTrip(t *testing.T) {
	v := series(1536)["vectors"]
	for _, width := range []int{16, 32, 64} {
		typ := map[int]NumberType{16: F16, 32: F32, 64: F64}[width]
		raw := rawOf(v, typ)
		for _, d := range []int{1, 3, 8} {
			n := len(v) / d
			raw := raw[:n*d*width/8]
			buf, err := EncodeChunk(raw, width, d, DefaultLevel)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeChunk([]byte{7}, buf, width, d, n)
			if err != nil || !bytes.Equal(got[1:], raw) || got[0] != 7 {
				t.Fatalf("width %d d %d: %v", width, d, err)
			}
			if _, err := DecodeChunk(nil, buf, width, d, n-1); !errors.Is(err, codecs.ErrCorrupt) {
				t.Fatalf("short count: %v", err)
			}
			if _, err := DecodeChunk(nil, buf, width*2%96+16, d, n); err == nil {
				t.Fatalf("wrong width accepted")
			}
		}
	}
}

func TestParseLevel(t *testing.T) {
	for in, want := range map[string]int{"": 8, "0": 0, " 12 ": 12} {
		if got, err := ParseLevel(in); err != nil || got != want {
			t.Errorf("%q: %d %v", in, got, err)
		}
	}
	for _, bad := range []string{"13", "-1", "x"} {
		if _, err := ParseLevel(bad); !errors.Is(err, codecs.ErrUnsupported) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
