package indices

import (
	"encoding/binary"
	"testing"
)

// FuzzFSTMap: arbitrary bytes never panic or loop (Get and Each on any map that opens).
func FuzzFSTMap(f *testing.F) {
	seed := make([]byte, 36)
	binary.LittleEndian.PutUint64(seed, 3)
	f.Add(seed)
	f.Add([]byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xc1, 0x82, 1, 0, 0, 0, 0, 0, 0, 0, 17, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := OpenFSTMap(b)
		if err != nil {
			return
		}
		_, _, _ = m.Get([]byte("alpha"))
		_ = m.Each(1<<12, func([]byte, uint64) {})
	})
}

// FuzzDecodePostings: arbitrary blocks never panic; decoded lists have n entries.
func FuzzDecodePostings(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 3, 1, 2, 1, 1}, uint16(3), uint8(2))
	f.Add(make([]byte, 4+5+16+1+16), uint16(128), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, n uint16, fv uint8) {
		p, err := DecodePostings([][]byte{b, b}, uint64(n), int(fv%3)+1)
		if err == nil && (len(p.Docs) != int(n) || len(p.Freqs) != int(n)) {
			t.Fatalf("%d postings for n=%d", len(p.Docs), n)
		}
	})
}
