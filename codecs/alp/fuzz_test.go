package alp

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// splitFuzz cuts data into four buffers using its first three bytes as
// lengths (the rest goes to the last buffer).
func splitFuzz(data []byte) [4][]byte {
	var b [4][]byte
	if len(data) < 3 {
		return b
	}
	lens, rest := data[:3], data[3:]
	for i, l := range lens {
		k := min(int(l), len(rest))
		b[i], rest = rest[:k], rest[k:]
	}
	b[3] = rest
	return b
}

func joinFuzz(b [4][]byte) []byte {
	if len(b[0]) > 255 || len(b[1]) > 255 || len(b[2]) > 255 {
		return nil
	}
	out := []byte{byte(len(b[0])), byte(len(b[1])), byte(len(b[2]))}
	for _, x := range b {
		out = append(out, x...)
	}
	return out
}

// FuzzDecodeChunk feeds hostile buffers to the decoder: it must never panic
// and must produce exactly n values when it succeeds.
func FuzzDecodeChunk(f *testing.F) {
	for _, v := range [][]float64{{1.5, 2.5, math.NaN()}, {7, 9, 8}, smooth(16), priceWalk(20, 1)} {
		bitsV := make([]uint64, len(v))
		for i, x := range v {
			bitsV[i] = math.Float64bits(x)
		}
		if ch, ok := EncodeChunk(bitsV, 64); ok {
			if s := joinFuzz(ch.Bufs); s != nil {
				f.Add(s, uint16(len(v)), true)
			}
		}
	}
	f.Add([]byte{0, 8, 8, modeRD, 8, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, uint16(2), true)
	f.Fuzz(func(t *testing.T, data []byte, n uint16, wide bool) {
		width := 32
		if wide {
			width = 64
		}
		bufs := splitFuzz(data)
		out, err := DecodeChunk(make([]byte, 0, 8), bufs, width, int(n))
		if err == nil && len(out) != int(n)*width/8 {
			t.Fatalf("%d bytes for %d values", len(out), n)
		}
	})
}

// FuzzRoundTrip encodes arbitrary bit patterns (every NaN payload, ±0,
// subnormals, ±Inf reachable) and requires a bit-exact decode.
func FuzzRoundTrip(f *testing.F) {
	f.Add(f64Raw(adversarial64()[:18]), true)
	f.Add(f32Raw(adversarial32()[:13]), false)
	f.Add(f64Raw(priceWalk(64, 3)), true)
	f.Fuzz(func(t *testing.T, raw []byte, wide bool) {
		width := 32
		if wide {
			width = 64
		}
		wb := width / 8
		n := min(len(raw)/wb, MaxChunkValues)
		if n == 0 {
			return
		}
		v := make([]uint64, n)
		for i := range v {
			if wide {
				v[i] = binary.LittleEndian.Uint64(raw[i*8:])
			} else {
				v[i] = uint64(binary.LittleEndian.Uint32(raw[i*4:]))
			}
		}
		ch, ok := EncodeChunk(v, width)
		if !ok {
			return
		}
		out, err := DecodeChunk(nil, ch.Bufs, width, n)
		if err != nil || !bytes.Equal(out, raw[:n*wb]) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
