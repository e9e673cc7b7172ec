package pcodec

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecompress feeds hostile standalone files to the decoder (bin tables,
// ANS states, mode and delta headers are all attacker-controlled): it must
// not panic, and a success yields whole numbers within the bound.
func FuzzDecompress(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.pco"))
	for i, p := range files {
		if i%4 != 0 {
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		const maxN = 4096
		out, typ, err := Decompress(nil, src, maxN)
		if err != nil {
			return
		}
		if wb := int(typ.Bits() / 8); wb == 0 || len(out)%wb != 0 || len(out)/wb > maxN {
			t.Fatalf("%v: %d bytes", typ, len(out))
		}
	})
}

// FuzzCompressRoundTrip compresses arbitrary bit patterns (every NaN
// payload, ±0, subnormals, ±Inf, runs) of each float type at a fuzzed level
// and requires a bit-exact decode.
func FuzzCompressRoundTrip(f *testing.F) {
	f.Add(rawOf(series(64)["adversarial"], F64), uint8(8), uint8(2))
	f.Add(rawOf(series(64)["walk"], F32), uint8(0), uint8(1))
	f.Add(rawOf(series(64)["smooth"], F16), uint8(12), uint8(0))
	f.Fuzz(func(t *testing.T, raw []byte, level, kind uint8) {
		typ := []NumberType{F16, F32, F64}[kind%3]
		wb := int(typ.Bits() / 8)
		raw = raw[:len(raw)/wb*wb]
		enc, err := Compress(raw, typ, int(level%13))
		if err != nil {
			t.Fatal(err)
		}
		got, gt, err := Decompress(nil, enc, len(raw)/wb)
		if err != nil || gt != typ || !bytes.Equal(got, raw) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
