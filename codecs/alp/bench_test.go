package alp

import (
	"math"
	"testing"
)

// benchDecode decodes a page of chunks repeatedly, reporting output GB/s.
func benchDecode(b *testing.B, raw []byte, width int) {
	chunks, ok, err := EncodePage(raw, width, Options{Mode: On})
	if err != nil || !ok {
		b.Fatalf("encode: ok=%v err=%v", ok, err)
	}
	n := len(raw) / (width / 8)
	dst := make([]byte, 0, len(raw)+2*MaxChunkValues)
	b.SetBytes(int64(len(raw)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := DecodePage(dst[:0], chunks, width, n); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(raw))*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

func BenchmarkDecodePriceWalk(b *testing.B) { benchDecode(b, f64Raw(priceWalk(64*1024, 1)), 64) }
func BenchmarkDecodeSensor(b *testing.B)    { benchDecode(b, f64Raw(sensor(64*1024, 2)), 64) }
func BenchmarkDecodeSmoothRD(b *testing.B)  { benchDecode(b, f64Raw(smooth(64*1024)), 64) }
func BenchmarkDecodeF32(b *testing.B) {
	v := make([]float32, 64*1024)
	for i := range v {
		v[i] = float32(math.Round(math.Sin(float64(i)/30)*1000)) / 10
	}
	benchDecode(b, f32Raw(v), 32)
}

func BenchmarkEncodePriceWalk(b *testing.B) {
	raw := f64Raw(priceWalk(64*1024, 1))
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, ok, _ := EncodePage(raw, 64, Options{Mode: On}); !ok {
			b.Fatal("not encoded")
		}
	}
}
