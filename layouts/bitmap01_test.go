package layouts

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestZeroOneBitmapMatchesDefBitmap compares the word-at-a-time bitmap
// with defBitmap on random 0/1 levels of every length up to 70.
func TestZeroOneBitmapMatchesDefBitmap(t *testing.T) {
	if !isLittleEndian() {
		t.Skip("zeroOneBitmap is used on little-endian machines only")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for n := range 70 {
		for _, nullRate := range []int{0, 3, 50, 100} {
			def := make([]uint16, n)
			for i := range def {
				if rng.IntN(100) < nullRate {
					def[i] = 1
				}
			}
			wantBM, wantNulls := defBitmap(def, 0)
			gotBM, gotNulls := zeroOneBitmap(def)
			if gotNulls != wantNulls || (wantBM == nil) != (gotBM == nil) || wantBM != nil && !bytes.Equal(trimBits(gotBM, n), trimBits(wantBM, n)) {
				t.Fatalf("n=%d rate=%d: got %08b (%d nulls), want %08b (%d nulls)", n, nullRate, gotBM, gotNulls, wantBM, wantNulls)
			}
		}
	}
}

// trimBits clears the bits of bm past n.
func trimBits(bm []byte, n int) []byte {
	out := append([]byte(nil), bm[:(n+7)/8]...)
	if r := n % 8; r != 0 {
		out[len(out)-1] &= byte(1)<<r - 1
	}
	return out
}
