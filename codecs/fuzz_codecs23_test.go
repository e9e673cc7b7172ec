package codecs

import (
	"bytes"
	"testing"
)

// FuzzAxisDelta checks hostile shapes never panic and that any accepted
// shape round-trips.
func FuzzAxisDelta(f *testing.F) {
	f.Add([]byte{1, 0, 2, 0, 3, 0, 4, 0, 2, 0, 0, 0}, uint8(16), 6, 2, 3)
	f.Fuzz(func(t *testing.T, src []byte, bits uint8, tensor, axis, stride int) {
		enc, err := AxisDeltaEncode(nil, src, int(bits), tensor, axis, stride)
		if err != nil {
			return
		}
		dec, err := AxisDeltaDecode(nil, enc, int(bits), tensor, axis, stride)
		if err != nil || !bytes.Equal(dec, src) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// FuzzEncodeSequence round-trips arbitrary u32/u64 sequences.
func FuzzEncodeSequence(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0}, true)
	f.Fuzz(func(t *testing.T, raw []byte, wide bool) {
		width := 32
		if wide {
			width = 64
		}
		vals := appendWords(nil, raw, width, len(raw)/(width/8))
		enc, payload, err := EncodeSequence(vals, width)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeSequence(nil, enc, width, payload, uint64(len(vals)))
		if err != nil || len(got) != len(vals) {
			t.Fatalf("%s: %v", Describe(enc), err)
		}
		for i := range got {
			if got[i] != vals[i] {
				t.Fatalf("%s: value %d", Describe(enc), i)
			}
		}
	})
}
