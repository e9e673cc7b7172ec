package pcodec

import "testing"

func benchData(b *testing.B, name string) []byte {
	b.Helper()
	return rawOf(series(4096)[name], F64)
}

func BenchmarkDecompressWalkF64(b *testing.B) {
	raw := benchData(b, "walk")
	enc, err := Compress(raw, F64, DefaultLevel)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]byte, 0, len(raw))
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, _, err := Decompress(dst[:0], enc, 4096); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompressWalkF64(b *testing.B) {
	raw := benchData(b, "walk")
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := Compress(raw, F64, DefaultLevel); err != nil {
			b.Fatal(err)
		}
	}
}
