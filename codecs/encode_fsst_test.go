package codecs

import (
	"bytes"
	"fmt"
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
