package codecs

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// refUnpack is a bit-at-a-time transcription of the FastLanes unpacking
// (the inverse of refPack) used as an oracle: value (row r, lane l) takes
// bits r·w … r·w+w−1 of lane l's bit stream.
func refUnpack(packed []byte, t, w int) []uint64 {
	lanes := 1024 / t
	out := make([]uint64, 1024)
	for l := 0; l < lanes; l++ {
		for r := 0; r < t; r++ {
			var v uint64
			for b := 0; b < w; b++ {
				p := r*w + b
				word := readUint(packed, lanes*(p/t)+l, t)
				v |= (word >> (p % t) & 1) << b
			}
			out[fastlanesRowBase(r)+l] = v
		}
	}
	return out
}

func wordsOf(vals []uint64, t int) []byte {
	var out []byte
	for _, v := range vals {
		out = appendUint(out, v, t)
	}
	return out
}

// TestFastUnpackOracle unpacks random packed bytes (any bit pattern, not
// only what the packer writes) at every width, from misaligned sources and
// into buffers with a prefix and stale spare capacity.
func TestFastUnpackOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, tb := range []int{8, 16, 32, 64} {
		for w := 0; w <= tb; w++ {
			off := r.IntN(8)
			buf := make([]byte, off+FastLanesPackedBytes(w)+r.IntN(3))
			for i := range buf {
				buf[i] = byte(r.Uint32())
			}
			packed := buf[off:]
			want := wordsOf(refUnpack(packed, tb, w), tb)
			dst := make([]byte, 3, 3+len(want)+5)
			for i := range dst[:cap(dst)] {
				dst[:cap(dst)][i] = 0xEE
			}
			got := must(UnpackFastLanes(dst, packed, tb, w))
			if !bytes.Equal(got[:3], []byte{0xEE, 0xEE, 0xEE}) || !bytes.Equal(got[3:], want) {
				t.Fatalf("T=%d W=%d off=%d: unpack differs from oracle", tb, w, off)
			}
			if again := must(PackFastLanes(nil, got[3:], tb, w)); !bytes.Equal(again, packed[:FastLanesPackedBytes(w)]) {
				t.Fatalf("T=%d W=%d: pack(unpack(x)) != x", tb, w)
			}
		}
	}
}

// TestFastPackDropsHighBits packs values with bits above w set.
func TestFastPackDropsHighBits(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, tb := range []int{8, 16, 32, 64} {
		for w := 0; w <= tb; w++ {
			off := r.IntN(8)
			in := append(make([]byte, off), randWords(r, 1024, tb, tb)...)[off:]
			vals := make([]uint64, 1024)
			for i := range vals {
				vals[i] = readUint(in, i, tb)
			}
			want := wordsOf(refPack(vals, tb, w), tb)
			got := must(PackFastLanes([]byte{1, 2}, in, tb, w))
			if !bytes.Equal(got[:2], []byte{1, 2}) || !bytes.Equal(got[2:], want) {
				t.Fatalf("T=%d W=%d: pack differs from oracle", tb, w)
			}
		}
	}
}

// TestFastBitpackingDecoders checks both bit-packing decoders against the
// oracle for value counts around block boundaries and mixed chunk widths.
func TestFastBitpackingDecoders(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, tb := range []int{8, 16, 32, 64} {
		for _, n := range []int{0, 1, 100, 1023, 1024, 1025, 2048, 3000} {
			// Inline: random chunk widths, random packed bits.
			var src, want []byte
			for s := 0; s < n; s += 1024 {
				w := r.IntN(tb + 1)
				src = appendUint(src, uint64(w), tb)
				block := make([]byte, FastLanesPackedBytes(w))
				for i := range block {
					block[i] = byte(r.Uint32())
				}
				src = append(src, block...)
				want = append(want, wordsOf(refUnpack(block, tb, w), tb)[:min(1024, n-s)*tb/8]...)
			}
			prefix := []byte{9}
			got, err := DecodeInlineBitpacking(prefix, src, tb, uint64(n))
			if err != nil || !bytes.Equal(got[:1], prefix) || !bytes.Equal(got[1:], want) {
				t.Fatalf("inline T=%d n=%d: err %v, mismatch", tb, n, err)
			}
			// Out-of-line: one width, packed or raw tail.
			w := r.IntN(tb + 1)
			raw := randWords(r, n, tb, w)
			enc := must(EncodeOutOfLineBitpacking(nil, raw, tb, w, uint64(n)))
			got, err = DecodeOutOfLineBitpacking(make([]byte, 0, 7), enc, tb, w, uint64(n))
			if err != nil || !bytes.Equal(got, raw) {
				t.Fatalf("out-of-line T=%d W=%d n=%d: err %v, mismatch", tb, w, n, err)
			}
		}
	}
}

// TestFastInlineErrorKeepsPrefix checks that a failing inline decode
// returns dst holding exactly the values decoded before the bad chunk.
func TestFastInlineErrorKeepsPrefix(t *testing.T) {
	raw := randWords(rand.New(rand.NewPCG(1, 3)), 2048, 32, 9)
	enc := must(EncodeInlineBitpacking(nil, raw, 32, 2048))
	bad := bytes.Clone(enc)
	bad[4+FastLanesPackedBytes(9)] = 40 // second chunk width > 32
	got, err := DecodeInlineBitpacking([]byte{5}, bad, 32, 2048)
	wantErr(t, err, ErrCorrupt)
	if len(got) != 1+4096 || !bytes.Equal(got[1:], raw[:4096]) {
		t.Fatalf("error result has %d bytes", len(got))
	}
}

func TestFastMaxBitLen(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, tb := range []int{8, 16, 32, 64} {
		for iter := 0; iter < 500; iter++ {
			n := r.IntN(40)
			src := randWords(r, n, tb, r.IntN(tb+1))
			want := 0
			for i := 0; i < n; i++ {
				v := readUint(src, i, tb)
				for v>>want != 0 {
					want++
				}
			}
			if got := maxBitLen(src, tb); got != want {
				t.Fatalf("T=%d n=%d: maxBitLen %d, want %d", tb, n, got, want)
			}
		}
	}
}
