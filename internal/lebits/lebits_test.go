package lebits

import "testing"

// TestRoundTrip writes and reads every width and checks the byte order.
func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		width int
		v     uint64
		want  []byte
	}{
		{1, 0xAB, []byte{0xAB}},
		{2, 0xABCD, []byte{0xCD, 0xAB}},
		{4, 0x01020304, []byte{4, 3, 2, 1}},
		{8, 0x0102030405060708, []byte{8, 7, 6, 5, 4, 3, 2, 1}},
	} {
		got := AppendUint(nil, tc.v, tc.width)
		if string(got) != string(tc.want) {
			t.Fatalf("AppendUint width %d: % x, want % x", tc.width, got, tc.want)
		}
		put := make([]byte, tc.width)
		PutUint(put, tc.v, tc.width)
		if string(put) != string(tc.want) {
			t.Fatalf("PutUint width %d: % x", tc.width, put)
		}
		if r := Uint(got, tc.width); r != tc.v {
			t.Fatalf("Uint width %d: %x, want %x", tc.width, r, tc.v)
		}
		two := AppendWord(AppendWord(nil, 0, tc.width*8), tc.v, tc.width*8)
		if r := Word(two, 1, tc.width*8); r != tc.v {
			t.Fatalf("Word bits %d: %x, want %x", tc.width*8, r, tc.v)
		}
	}
}

// TestBits sets, reads and clears bits across byte boundaries.
func TestBits(t *testing.T) {
	b := make([]byte, 3)
	for _, i := range []int{0, 7, 8, 17} {
		SetBit(b, i)
	}
	if b[0] != 0x81 || b[1] != 0x01 || b[2] != 0x02 {
		t.Fatalf("bits % x", b)
	}
	for i := range 24 {
		want := i == 0 || i == 7 || i == 8 || i == 17
		if Bit(b, i) != want {
			t.Fatalf("bit %d = %v", i, !want)
		}
	}
	ClearBit(b, 7)
	if b[0] != 0x01 {
		t.Fatalf("clear: % x", b)
	}
}
