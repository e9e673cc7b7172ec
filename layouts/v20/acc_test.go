package v20

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
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

// TestLeafAppendVariable: strings appended page by page (the first block
// sizes the offsets at once) keep their values and offsets, after a
// first empty block too.
func TestLeafAppendVariable(t *testing.T) {
	block := func(vals ...string) Decoded {
		offs := u64s(0)
		var data []byte
		for _, v := range vals {
			data = append(data, v...)
			offs = append(offs, u64s(uint64(len(data)))...)
		}
		return Decoded{Block: codecs.Block{Kind: codecs.KindVariable, OffsetBits: 64, Offsets: offs, Data: data, NumValues: uint64(len(vals))}}
	}
	tests := []struct {
		name   string
		blocks [][]string
		want   []string
	}{
		{"one", [][]string{{"a", "", "bcd"}}, []string{"a", "", "bcd"}},
		{"three", [][]string{{"x"}, {"yy", "z"}, {"", "wwww"}}, []string{"x", "yy", "z", "", "wwww"}},
		{"empty first", [][]string{{}, {"p", "q"}}, []string{"p", "q"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var l Leaf
			for _, b := range tc.blocks {
				if err := l.Append(block(b...)); err != nil {
					t.Fatal(err)
				}
			}
			ld, err := l.Finish(arrow.BinaryTypes.String)
			if err != nil {
				t.Fatal(err)
			}
			v := ld.Values
			if v.N != len(tc.want) || len(v.Offsets) != len(tc.want)+1 || v.Offsets[0] != 0 {
				t.Fatalf("%d values, offsets %v", v.N, v.Offsets)
			}
			for i, w := range tc.want {
				if got := string(v.Data[v.Offsets[i]:v.Offsets[i+1]]); got != w {
					t.Errorf("value %d = %q, want %q", i, got, w)
				}
			}
		})
	}
}
