package codecs

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// fsstRoundTrip builds a table for strs, compresses every string, checks
// the serialized table parses back and decompression restores the input;
// it returns the compressed size.
func fsstRoundTrip(t testing.TB, strs [][]byte) int {
	var data []byte
	offsets := []uint64{0}
	for _, s := range strs {
		data = append(data, s...)
		offsets = append(offsets, uint64(len(data)))
	}
	tab := BuildFSSTTable(data, offsets)
	parsed, err := ParseFSSTTable(tab.Serialize())
	if err != nil {
		t.Fatal(err)
	}
	enc := NewFSSTEncoder(tab)
	total := 0
	for _, s := range strs {
		c := enc.Compress(nil, s)
		total += len(c)
		got, err := parsed.Decompress(nil, c)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, s) {
			t.Fatalf("round trip: got %q, want %q", got, s)
		}
	}
	return total
}

func TestFSSTBuildCompresses(t *testing.T) {
	var strs [][]byte
	for i := 0; i < 3000; i++ {
		strs = append(strs, fmt.Appendf(nil, "user-%05d@example.com visited https://www.example.org/page/%d", i*7919%100000, i%97))
	}
	raw := 0
	for _, s := range strs {
		raw += len(s)
	}
	got := fsstRoundTrip(t, strs)
	t.Logf("raw %d compressed %d (%.2f)", raw, got, float64(got)/float64(raw))
	if got*2 > raw {
		t.Fatalf("compressed %d of %d bytes: table does not help", got, raw)
	}
}

func TestFSSTBuildSmallIsSwitchedOff(t *testing.T) {
	tab := BuildFSSTTable([]byte("hello world"), []uint64{0, 5, 11})
	if tab.Compressed || tab.NumSymbols != 0 {
		t.Fatalf("small input: compressed=%v n=%d", tab.Compressed, tab.NumSymbols)
	}
	fsstRoundTrip(t, [][]byte{[]byte("hello"), []byte(" world")})
}

// FuzzFSSTBuild checks that tables built from arbitrary strings serialize,
// parse back and round-trip every string.
func FuzzFSSTBuild(f *testing.F) {
	f.Add([]byte("abcabcabc\x00\xffxyz"), uint8(7))
	f.Add(bytes.Repeat([]byte{0xff}, 100), uint8(3))
	f.Fuzz(func(t *testing.T, seed []byte, step uint8) {
		if len(seed) == 0 {
			return
		}
		// repeat the seed with variations to pass the 32 KiB switch
		var strs [][]byte
		size := 0
		for i := 0; size < FSSTMinInputBytes+1000; i++ {
			n := 1 + (i*int(step+1))%len(seed)
			s := append([]byte(nil), seed[:n]...)
			s = append(s, byte(i), byte(i>>8))
			strs = append(strs, s)
			size += len(s)
		}
		fsstRoundTrip(t, strs)
	})
}

// refEncoder is the plain greedy matcher the fast encoder must agree with.
type refEncoder struct {
	m    *fsstMatcher
	code []byte
}

func newRefEncoder(t *FSSTTable) *refEncoder {
	r := &refEncoder{m: newMatcher()}
	for i := 0; i < t.NumSymbols; i++ {
		s := fsstSym{val: t.Symbols[i], n: t.Lens[i]}
		if s.n < 8 {
			s.val &= 1<<(8*s.n) - 1
		}
		if r.m.add(s) {
			r.code = append(r.code, byte(i))
		}
	}
	return r
}

func (r *refEncoder) compress(dst, src []byte) []byte {
	m, code := r.m, r.code
	for pos := 0; pos < len(src); {
		c, n := m.longest(src[pos:])
		if c < fsstCodeBase {
			dst = append(dst, fsstEscape, src[pos])
		} else {
			dst = append(dst, code[c-fsstCodeBase])
		}
		pos += n
	}
	return dst
}

// TestFSSTEncoderMatchesGreedy checks the table-driven encoder against the
// plain greedy matcher, string by string and in batches.
func TestFSSTEncoderMatchesGreedy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"the ", "quick", "brown", " fox", "\x00\x00\x00", "\xff\xfe", "aaaaaaaaaaaa", "ab", "a", "zz\x00"}
	for i := 0; i < 300; i++ { // many long symbols: collisions in the encoder's table
		words = append(words, fmt.Sprintf("%c%c%c%c%c ", 'a'+r.IntN(26), 'a'+r.IntN(26), 'a'+r.IntN(26), 'a'+r.IntN(26), 'a'+r.IntN(26)))
	}
	chains := 0
	for round := 0; round < 20; round++ {
		var data []byte
		offsets := []uint64{0}
		for i := 0; i < 4000; i++ {
			n := r.IntN(12)
			if round%3 == 0 {
				n = r.IntN(80)
			}
			for k := 0; k < n; k++ {
				if r.IntN(5) == 0 {
					data = append(data, byte(r.IntN(256)))
				} else {
					data = append(data, words[r.IntN(len(words))]...)
				}
			}
			if r.IntN(10) == 0 { // cut mid-word
				data = data[:int(offsets[len(offsets)-1])+r.IntN(len(data)-int(offsets[len(offsets)-1])+1)]
			}
			offsets = append(offsets, uint64(len(data)))
		}
		tab := BuildFSSTTable(data, offsets)
		enc, ref := NewFSSTEncoder(tab), newRefEncoder(tab)
		if enc.slow != nil {
			t.Fatalf("round %d: long symbols did not fit the table", round)
		}
		for _, x := range enc.long {
			if x&fsstAlt != 0 {
				chains++ // a symbol in its second slot
			}
		}
		var want []byte
		wantEnds := make([]uint64, 0, len(offsets))
		for i := 0; i+1 < len(offsets); i++ {
			s := data[offsets[i]:offsets[i+1]]
			one := ref.compress(nil, s)
			if got := enc.Compress(nil, s); !bytes.Equal(got, one) {
				t.Fatalf("round %d string %d %q: got %x, want %x", round, i, s, got, one)
			}
			want = append(want, one...)
			wantEnds = append(wantEnds, uint64(len(want)))
		}
		// whole batch, and a batch starting mid-way after a prefix in dst
		ends := make([]uint64, len(offsets))
		if got := enc.CompressValues(nil, data, offsets, ends); !bytes.Equal(got, want) || !slices.Equal(ends[:len(offsets)-1], wantEnds) {
			t.Fatalf("round %d: batch differs", round)
		}
		// the plain-matcher fallback (symbols that fit no table) agrees too
		slow := *enc
		slow.slow, slow.code = ref.m, ref.code
		if got := slow.CompressValues(nil, data, offsets, ends); !bytes.Equal(got, want) || !slices.Equal(ends[:len(offsets)-1], wantEnds) {
			t.Fatalf("round %d: fallback differs", round)
		}
		mid := len(offsets) / 2
		got := enc.CompressValues([]byte("xy"), data, offsets[mid:], ends)
		if !bytes.Equal(got[2:], want[wantEnds[mid-1]:]) || ends[0] != 2+wantEnds[mid]-wantEnds[mid-1] {
			t.Fatalf("round %d: second half differs", round)
		}
	}
	if chains == 0 {
		t.Fatal("no long symbol was in its second slot")
	}
}

// fsstScratchData returns strings (as data and offsets) drawn from a
// vocabulary that depends on seed, enough to pass FSSTMinInputBytes.
func fsstScratchData(seed uint64) ([]byte, []uint64) {
	r := rand.New(rand.NewPCG(seed, 99))
	words := make([]string, 50)
	for i := range words {
		w := make([]byte, 2+r.IntN(9))
		for k := range w {
			w[k] = byte('a' + r.IntN(26))
		}
		words[i] = string(w)
	}
	var data []byte
	offsets := []uint64{0}
	for len(data) < 3*FSSTMinInputBytes {
		for n := r.IntN(20); n > 0; n-- {
			data = append(data, words[r.IntN(len(words))]...)
			data = append(data, ' ')
		}
		offsets = append(offsets, uint64(len(data)))
	}
	return data, offsets
}

// TestFSSTScratchMatchesFresh checks that tables and encoders built with
// a shared FSSTScratch, reused across inputs by concurrent goroutines and
// after Clear, equal those of BuildFSSTTable and NewFSSTEncoder; a nil
// FSSTScratch works too.
func TestFSSTScratchMatchesFresh(t *testing.T) {
	type want struct {
		table, comp []byte
	}
	const inputs = 6
	data, offsets := make([][]byte, inputs), make([][]uint64, inputs)
	wants := make([]want, inputs)
	for i := range inputs {
		data[i], offsets[i] = fsstScratchData(uint64(i))
		tab := BuildFSSTTable(data[i], offsets[i])
		if !tab.Compressed {
			t.Fatalf("input %d: table switched off", i)
		}
		ends := make([]uint64, len(offsets[i]))
		comp := NewFSSTEncoder(tab).CompressValues(nil, data[i], offsets[i], ends)
		wants[i] = want{tab.Serialize(), comp}
	}
	check := func(s *FSSTScratch, i int) error {
		tab := s.BuildTable(data[i], offsets[i])
		if got := tab.Serialize(); !bytes.Equal(got, wants[i].table) {
			return fmt.Errorf("input %d: table differs", i)
		}
		enc := s.NewEncoder(tab)
		defer enc.Release()
		ends := make([]uint64, len(offsets[i]))
		if got := enc.CompressValues(nil, data[i], offsets[i], ends); !bytes.Equal(got, wants[i].comp) {
			return fmt.Errorf("input %d: compressed bytes differ", i)
		}
		return nil
	}
	var s FSSTScratch
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			for k := range 3 * inputs {
				if err := check(&s, (g+k)%inputs); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	s.Clear()
	for i := range inputs {
		if err := check(&s, i); err != nil {
			t.Fatal("after Clear:", err)
		}
		if err := check(nil, i); err != nil {
			t.Fatal("nil scratch:", err)
		}
	}
}
