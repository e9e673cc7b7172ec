package codecs

import (
	"bytes"
	"testing"
)

func BenchmarkFSSTDecompress(b *testing.B) {
	tab := testTable(true)
	plain := bytes.Repeat([]byte("the lance thing is going abcdefgh \x00 "), 64)
	comp := tab.Compress(nil, plain)
	dst := make([]byte, 0, len(plain))
	b.SetBytes(int64(len(plain)))
	for b.Loop() {
		dst, _ = tab.Decompress(dst[:0], comp)
	}
}

func BenchmarkDecodeInlineBitpacking(b *testing.B) {
	raw := bytes.Repeat([]byte{1, 0, 0, 0, 7, 0, 0, 0}, 2048)
	enc := must(EncodeInlineBitpacking(nil, raw, 32, 4096))
	dst := make([]byte, 0, len(raw)+4096)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		dst, _ = DecodeInlineBitpacking(dst[:0], enc, 32, 4096)
	}
	b.ReportMetric(float64(b.N)*4096/b.Elapsed().Seconds(), "values/s")
}
