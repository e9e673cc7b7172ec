package v20

import (
	"math/rand/v2"
	"testing"
)

// TestValidityAppendBits appends random bitmaps (and all-set runs) of
// random lengths, aligned and not, and checks every bit and the null count
// against a bit-by-bit reference.
func TestValidityAppendBits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		var v validity
		var want []bool
		for range 1 + r.IntN(6) {
			n := uint64(r.IntN(40))
			if r.IntN(3) == 0 {
				n = uint64(8 * r.IntN(5)) // keep the next append aligned sometimes
			}
			var src []byte
			if r.IntN(4) != 0 {
				src = make([]byte, (n+7)/8)
				for i := range src {
					src[i] = byte(r.Uint32())
				}
			}
			for i := range n {
				want = append(want, src == nil || getBit(src, i))
			}
			v.appendBits(src, n)
		}
		if v.n != uint64(len(want)) {
			t.Fatalf("trial %d: %d bits, want %d", trial, v.n, len(want))
		}
		nulls := 0
		for i, w := range want {
			if !w {
				nulls++
			}
			if v.bits != nil && getBit(v.bits, uint64(i)) != w {
				t.Fatalf("trial %d: bit %d = %v, want %v", trial, i, !w, w)
			}
		}
		if v.nulls != nulls || (nulls > 0 && v.bits == nil) {
			t.Fatalf("trial %d: %d nulls (bitmap %v), want %d", trial, v.nulls, v.bits != nil, nulls)
		}
	}
}
