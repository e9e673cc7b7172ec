package codecs

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// fsstBlockOf builds a variable block whose values are data cut at the
// given lengths (the rest of data is the last value), with offsets of
// offsetBits bits starting at skip (data is preceded by skip junk bytes).
func fsstBlockOf(data []byte, lens []int, offsetBits, skip int) Block {
	b := Block{Kind: KindVariable, OffsetBits: offsetBits, Data: append(bytes.Repeat([]byte{0xCC}, skip), data...)}
	put := func(v int) {
		if offsetBits == 32 {
			b.Offsets = binary.LittleEndian.AppendUint32(b.Offsets, uint32(v))
		} else {
			b.Offsets = binary.LittleEndian.AppendUint64(b.Offsets, uint64(v))
		}
	}
	pos := skip
	put(pos)
	for _, l := range lens {
		l = min(l, len(b.Data)-pos)
		pos += l
		put(pos)
		b.NumValues++
	}
	if pos < len(b.Data) {
		put(len(b.Data))
		b.NumValues++
	}
	return b
}

// checkFSSTBlock compares DecompressBlock with the value-by-value reference
// (decompressBlockGeneric, the original implementation).
func checkFSSTBlock(t testing.TB, tab *FSSTTable, in Block) {
	t.Helper()
	want, werr := tab.decompressBlockGeneric(in)
	got, gerr := tab.DecompressBlock(in)
	if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
		t.Fatalf("error %v, reference %v", gerr, werr)
	}
	if werr != nil {
		return
	}
	if got.Kind != want.Kind || got.NumValues != want.NumValues || got.OffsetBits != want.OffsetBits ||
		!bytes.Equal(got.Offsets, want.Offsets) || !bytes.Equal(got.Data, want.Data) {
		t.Fatalf("block differs from reference:\n got %x / %q\nwant %x / %q", got.Offsets, got.Data, want.Offsets, want.Data)
	}
	if got.Data == nil {
		t.Fatal("nil data")
	}
}

// randFSSTTable returns a parsed table with n random symbols.
func randFSSTTable(r *rand.Rand, n int) *FSSTTable {
	t := &FSSTTable{Compressed: true, NumSymbols: n}
	for i := 0; i < n; i++ {
		t.Symbols[i], t.Lens[i] = r.Uint64(), uint8(1+r.IntN(8))
	}
	return must(ParseFSSTTable(t.Serialize()))
}

func TestFastFSSTBlockRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for iter := 0; iter < 3000; iter++ {
		tab := randFSSTTable(r, []int{0, 1, 7, 200, 254, 255}[r.IntN(6)])
		// Mostly defined codes, some escapes and undefined codes.
		data := make([]byte, r.IntN(300))
		for i := range data {
			switch x := r.IntN(100); {
			case x < 2 && iter%3 == 0:
				data[i] = byte(r.IntN(256)) // maybe undefined
			case x < 6:
				data[i] = fsstEscape
			default:
				data[i] = byte(r.IntN(max(1, tab.NumSymbols)))
			}
		}
		var lens []int
		for range r.IntN(40) {
			lens = append(lens, r.IntN(20))
		}
		in := fsstBlockOf(data, lens, []int{32, 64}[r.IntN(2)], r.IntN(3))
		checkFSSTBlock(t, tab, in)
	}
}

func TestFastFSSTBlockCases(t *testing.T) {
	tab := testTable(true)
	plain := []string{"the lance", "", "going abcdefgh", "x\xff\x00", "", "ingingingingingingingingingingingthe "}
	var data []byte
	var lens []int
	for _, s := range plain {
		c := tab.Compress(nil, []byte(s))
		data = append(data, c...)
		lens = append(lens, len(c))
	}
	for _, bits := range []int{32, 64} {
		for _, skip := range []int{0, 5} {
			in := fsstBlockOf(data, lens, bits, skip)
			got := must(tab.DecompressBlock(in))
			for i, s := range plain {
				if v := valueAt(got, uint64(i)); string(v) != s {
					t.Fatalf("value %d = %q, want %q", i, v, s)
				}
			}
			checkFSSTBlock(t, tab, in)
			checkFSSTBlock(t, testTable(false), in)
		}
	}
	// An escape as the last byte of a value inside an 8-code group, an
	// undefined code after a long valid run, no values.
	checkFSSTBlock(t, tab, fsstBlockOf([]byte{0, 1, 2, 255, 3, 4, 5, 6, 0, 1, 2, 3}, []int{4, 8}, 32, 0))
	checkFSSTBlock(t, tab, fsstBlockOf([]byte{0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 99}, []int{3, 20}, 64, 1))
	checkFSSTBlock(t, tab, fsstBlockOf(nil, nil, 32, 2))
	// A hand-built table with a zero-length symbol takes the generic path.
	odd := testTable(true)
	odd.Lens[1] = 0
	checkFSSTBlock(t, odd, fsstBlockOf(data, lens, 32, 0))
	// A malformed block is rejected before decoding.
	_, err := tab.DecompressBlock(Block{Kind: KindVariable, OffsetBits: 32, NumValues: 1, Offsets: u32s(0, 9), Data: []byte{1}})
	wantErr(t, err, ErrCorrupt)
}

// FuzzFSSTBlock checks DecompressBlock against the value-by-value reference
// for any table, data and value split.
func FuzzFSSTBlock(f *testing.F) {
	tab := testTable(true)
	f.Add(tab.Serialize()[:64], tab.Compress(nil, []byte("the lance thing is going abcdefgh\xff")), []byte{3, 9, 0, 4}, false)
	f.Add(testTable(false).Serialize()[:8], []byte("plain strings"), []byte{5}, true)
	f.Fuzz(func(t *testing.T, table, data, cuts []byte, wide bool) {
		full := make([]byte, FSSTTableSize)
		copy(full, table)
		tb, err := ParseFSSTTable(full)
		if err != nil {
			return
		}
		lens := make([]int, len(cuts))
		for i, c := range cuts {
			lens[i] = int(c)
		}
		bits := 32
		if wide {
			bits = 64
		}
		checkFSSTBlock(t, tb, fsstBlockOf(data, lens, bits, len(cuts)%3))
	})
}

// TestFastFSSTBlockLarge covers blocks too large for the scratch buffer,
// which are sized by a first pass.
func TestFastFSSTBlockLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	tab := randFSSTTable(r, 200)
	data := make([]byte, 300<<10)
	for i := range data {
		data[i] = byte(r.IntN(200))
		if r.IntN(50) == 0 {
			data[i] = fsstEscape
		}
	}
	var lens []int
	for range 3000 {
		lens = append(lens, r.IntN(200))
	}
	for _, bits := range []int{32, 64} {
		in := fsstBlockOf(data, lens, bits, 3)
		// Make it decodable: no value may end in an escape.
		for k := uint64(1); k <= in.NumValues; k++ {
			if e := offsetAt(in, k); e > offsetAt(in, k-1) && in.Data[e-1] == fsstEscape {
				in.Data[e-1] = 7
			}
		}
		checkFSSTBlock(t, tab, in)
		if _, err := tab.DecompressBlock(in); err != nil {
			t.Fatal(err)
		}
		bad := in
		bad.Data = bytes.Clone(in.Data)
		bad.Data[len(bad.Data)-1000] = 230 // undefined
		checkFSSTBlock(t, tab, bad)
		bad.Data[len(bad.Data)-1000] = 7
		bad.Data[offsetAt(bad, 2000)-1] = fsstEscape // escape ends value 1999
		checkFSSTBlock(t, tab, bad)
	}
}
