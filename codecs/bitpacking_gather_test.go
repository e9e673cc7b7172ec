package codecs

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// gatherRowSets returns row lists over n values from base: sorted random
// rows, unsorted rows with repeats, a dense run within one block (unpacked
// whole), each block's first and last row, and one row.
func gatherRowSets(rng *rand.Rand, n, base uint64) [][]uint64 {
	var sorted, shuffled, dense, edges []uint64
	for k := uint64(0); k < n; k += 1 + rng.Uint64N(40) {
		sorted = append(sorted, base+k)
	}
	for range 200 {
		shuffled = append(shuffled, base+rng.Uint64N(n))
	}
	shuffled = append(shuffled, shuffled[:20]...)
	for k := uint64(0); k < min(n, 100); k++ {
		dense = append(dense, base+k)
	}
	for b := uint64(0); b*1024 < n; b++ {
		edges = append(edges, base+b*1024, base+min(n, b*1024+1024)-1)
	}
	return [][]uint64{sorted, shuffled, dense, edges, {base + n - 1}, {}}
}

// TestGatherInlineBitpacking compares gathers of inline bit-packed buffers
// (every word width, full and partial last blocks, random block widths)
// with the full decode, and checks that rows outside the values and
// buffers the full decode refuses are refused.
func TestGatherInlineBitpacking(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tw := range []int{8, 16, 32, 64} {
		for _, n := range []uint64{1, 100, 1023, 1024, 1025, 3000, 4096} {
			src := inlineBuffer(rng, tw, n)
			full, err := DecodeInlineBitpacking(nil, src, tw, n)
			if err != nil {
				t.Fatal(err)
			}
			wb := uint64(tw / 8)
			const base = 7000
			for _, rows := range gatherRowSets(rng, n, base) {
				got, err := GatherInlineBitpacking([]byte{0xAA}, src, tw, n, rows, base)
				if err != nil {
					t.Fatalf("t=%d n=%d: %v", tw, n, err)
				}
				want := []byte{0xAA}
				for _, r := range rows {
					want = append(want, full[(r-base)*wb:(r-base+1)*wb]...)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("t=%d n=%d rows %v: gather differs from the full decode", tw, n, rows)
				}
			}
			for _, rows := range [][]uint64{{base + n}, {base - 1}, {base, base + n + 5}} {
				if _, err := GatherInlineBitpacking(nil, src, tw, n, rows, base); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("t=%d n=%d rows %v outside the values: %v", tw, n, rows, err)
				}
			}
			for _, bad := range [][]byte{src[:len(src)-1], append(append([]byte{}, src...), 0), src[:int(wb)-1]} {
				if _, err := GatherInlineBitpacking(nil, bad, tw, n, []uint64{base}, base); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("t=%d n=%d: truncated/extended buffer: %v", tw, n, err)
				}
			}
		}
	}
	if _, err := GatherInlineBitpacking(nil, make([]byte, 8), 12, 1, []uint64{0}, 0); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("word width 12: %v", err)
	}
}

// TestGatherInlineBitpackingManyBlocks gathers from a buffer of more
// blocks than the layout locates (decoded whole instead).
func TestGatherInlineBitpackingManyBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n := uint64(maxInlineBlocks*1024 + 10)
	src := inlineBuffer(rng, 32, n)
	full, err := DecodeInlineBitpacking(nil, src, 32, n)
	if err != nil {
		t.Fatal(err)
	}
	rows := []uint64{n - 1, 0, 5000, 5000}
	got, err := GatherInlineBitpacking(nil, src, 32, n, rows, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if !bytes.Equal(got[i*4:i*4+4], full[r*4:r*4+4]) {
			t.Fatalf("row %d differs", r)
		}
	}
}

// TestOutOfLineBitpacked reads every value of out-of-line bit-packed
// buffers (packed and raw tails, as the Lance writer chooses them) one by
// one and compares them with the full decode; a buffer one byte longer or
// shorter is refused exactly when the full decode refuses it.
func TestOutOfLineBitpacked(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, tw := range []int{8, 16, 32, 64} {
		for _, w := range []int{0, 1, 3, tw} {
			for _, n := range []uint64{1, 100, 1000, 1023, 1024, 1025, 2100, 4096} {
				raw := make([]byte, n*uint64(tw/8))
				for i := range n {
					v := rng.Uint64()
					if w < 64 {
						v &= 1<<uint(w) - 1
					}
					appendUint(raw[:i*uint64(tw/8)], v, tw)
				}
				src, err := EncodeOutOfLineBitpacking(nil, raw, tw, w, n)
				if err != nil {
					t.Fatal(err)
				}
				full, err := DecodeOutOfLineBitpacking(nil, src, tw, w, n)
				if err != nil {
					t.Fatal(err)
				}
				r, err := NewOutOfLineBitpacked(src, tw, w, n)
				if err != nil {
					t.Fatalf("t=%d w=%d n=%d: %v", tw, w, n, err)
				}
				for k := range r.Len() {
					if got, want := r.Value(k), readUint(full, int(k), tw); got != want {
						t.Fatalf("t=%d w=%d n=%d value %d: %#x, decode %#x", tw, w, n, k, got, want)
					}
				}
				if tw == 16 {
					rows := gatherRowSets(rng, n, 50)[1] // shuffled, with repeats
					got := r.AppendUint16s([]uint16{7}, rows, 50)
					for i, row := range rows {
						if want := uint16(readUint(full, int(row-50), 16)); got[i+1] != want {
							t.Fatalf("w=%d n=%d: AppendUint16s row %d: %d, decode %d", w, n, row, got[i+1], want)
						}
					}
				}
				bads := [][]byte{append(src[:len(src):len(src)], 0)}
				if len(src) > 0 {
					bads = append(bads, src[:len(src)-1])
				}
				for _, bad := range bads {
					_, errFull := DecodeOutOfLineBitpacking(nil, bad, tw, w, n)
					if _, err := NewOutOfLineBitpacked(bad, tw, w, n); (err == nil) != (errFull == nil) {
						t.Fatalf("t=%d w=%d n=%d: %d-byte buffer: reader %v, decode %v", tw, w, n, len(bad), err, errFull)
					}
				}
			}
		}
	}
	if _, err := NewOutOfLineBitpacked(nil, 16, 17, 1); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("width 17 of 16: %v", err)
	}
}

// FuzzGatherInlineBitpacking gathers rows from arbitrary bytes: no panic,
// and whenever the full decode accepts the buffer the gather agrees with it.
func FuzzGatherInlineBitpacking(f *testing.F) {
	rng := rand.New(rand.NewPCG(11, 12))
	f.Add(inlineBuffer(rng, 64, 1024), uint8(64), uint16(1024), []byte{0, 5, 200, 5})
	f.Add(inlineBuffer(rng, 16, 3000), uint8(16), uint16(3000), []byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, src []byte, tw uint8, n uint16, sel []byte) {
		rows := make([]uint64, 0, len(sel))
		for i := 0; i+1 < len(sel); i += 2 {
			rows = append(rows, uint64(sel[i])<<8|uint64(sel[i+1]))
		}
		got, err := GatherInlineBitpacking(nil, src, int(tw), uint64(n), rows, 0)
		full, errFull := DecodeInlineBitpacking(nil, src, int(tw), uint64(n))
		if err != nil || errFull != nil {
			return
		}
		wb := uint64(tw / 8)
		for i, r := range rows {
			if !bytes.Equal(got[uint64(i)*wb:uint64(i+1)*wb], full[r*wb:(r+1)*wb]) {
				t.Fatalf("row %d differs from the full decode", r)
			}
		}
	})
}

// FuzzOutOfLineBitpacked reads values of arbitrary bytes: no panic, the
// reader accepts exactly the buffers the full decode accepts, and then
// agrees with it on every value.
func FuzzOutOfLineBitpacked(f *testing.F) {
	raw := make([]byte, 2*1500)
	for i := range raw {
		raw[i] = byte(i % 2)
	}
	packed, _ := EncodeOutOfLineBitpacking(nil, raw, 16, 1, 1500)
	f.Add(packed, uint8(16), uint8(1), uint16(1500))
	f.Add([]byte{1, 2, 3, 4}, uint8(8), uint8(3), uint16(4))
	f.Fuzz(func(t *testing.T, src []byte, tw, w uint8, n uint16) {
		r, err := NewOutOfLineBitpacked(src, int(tw), int(w), uint64(n))
		full, errFull := DecodeOutOfLineBitpacking(nil, src, int(tw), int(w), uint64(n))
		if (err == nil) != (errFull == nil) {
			t.Fatalf("reader %v, full decode %v", err, errFull)
		}
		if err != nil {
			return
		}
		for k := range r.Len() {
			if got, want := r.Value(k), readUint(full, int(k), int(tw)); got != want {
				t.Fatalf("value %d: %#x, decode %#x", k, got, want)
			}
		}
	})
}
