package vector

import (
	"math"
	"testing"
)

// TestHalfRoundTrip: every binary16 value converts to float32 and back
// unchanged, and float32 values between two halves round to the nearer
// (ties to even).
func TestHalfRoundTrip(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		f := HalfToFloat32(uint16(h))
		if math.IsNaN(float64(f)) {
			continue
		}
		if g := Float32ToHalf(f); g != uint16(h) {
			t.Fatalf("%#04x → %v → %#04x", h, f, g)
		}
	}
	for _, c := range []struct {
		f float32
		h uint16
	}{{1 + 1.0/2048, 0x3c00}, {1 + 3.0/2048, 0x3c02}, {1 + 1.1/2048, 0x3c01}, {65519, 0x7bff}, {65520, 0x7c00}, {-2.5e-8, 0x8000}, {3.0e-8, 0x0001}} {
		if g := Float32ToHalf(c.f); g != c.h {
			t.Errorf("Float32ToHalf(%v) = %#04x, want %#04x", c.f, g, c.h)
		}
	}
}
