package codecs

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

func TestAxisDeltaKnown(t *testing.T) {
	// One 2×3 u16 tensor, axis_length 2, inner_stride 3: the second row is
	// stored as its difference from the first (mod 2^16).
	src := []byte{1, 0, 2, 0, 3, 0, 4, 0, 2, 0, 0, 0}
	want := []byte{1, 0, 2, 0, 3, 0, 3, 0, 0, 0, 0xfd, 0xff}
	got, err := AxisDeltaEncode(nil, src, 16, 6, 2, 3)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("encode % x, %v", got, err)
	}
	back, err := AxisDeltaDecode([]byte{9}, got, 16, 6, 2, 3)
	if err != nil || !bytes.Equal(back[1:], src) || back[0] != 9 {
		t.Fatalf("decode % x, %v", back, err)
	}
}

func TestAxisDeltaRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, bits := range []int{8, 16, 32, 64} {
		for _, shape := range [][3]int{{12, 3, 4}, {12, 12, 1}, {12, 2, 2}, {8, 1, 1}} {
			src := make([]byte, 5*shape[0]*bits/8)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			enc, err := AxisDeltaEncode(nil, src, bits, shape[0], shape[1], shape[2])
			if err != nil {
				t.Fatal(err)
			}
			dec, err := AxisDeltaDecode(nil, enc, bits, shape[0], shape[1], shape[2])
			if err != nil || !bytes.Equal(dec, src) {
				t.Fatalf("bits %d shape %v: %v", bits, shape, err)
			}
		}
	}
}

func TestAxisDeltaRejects(t *testing.T) {
	cases := []struct {
		name                          string
		n, bits, tensor, axis, stride int
	}{
		{"width", 12, 12, 6, 2, 3},
		{"zero axis", 12, 16, 6, 0, 3},
		{"zero stride", 12, 16, 6, 2, 0},
		{"span does not divide", 12, 16, 6, 4, 1},
		{"ragged tensors", 10, 16, 6, 2, 3},
		{"overflowing span", 16, 8, 16, 1 << 62, 1 << 62},
	}
	for _, c := range cases {
		if _, err := AxisDeltaDecode(nil, make([]byte, c.n), c.bits, c.tensor, c.axis, c.stride); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
