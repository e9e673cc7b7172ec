package layouts

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/codecs"
)

// idx32 returns a block of 32-bit indices.
func idx32(ks ...uint32) *codecs.Block {
	b := &codecs.Block{Kind: codecs.KindFixed, NumValues: uint64(len(ks)), BitsPerValue: 32}
	for _, k := range ks {
		b.Data = binary.LittleEndian.AppendUint32(b.Data, k)
	}
	return b
}

// TestDictTableGather gathers through a prepared table, for dictionaries
// whose longest value takes each copy width (8, 16, 32 bytes, longer) and
// with 32- and 64-bit offsets, in chunks with and without an allocator
// and a batch reservation, and checks every value against the checked
// gather (AppendGather); the last entry (no bytes after it in the file's
// dictionary) is gathered too.
func TestDictTableGather(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, maxLen := range []int{0, 1, 8, 9, 16, 17, 32, 33, 700} {
		for _, bits := range []int{32, 64} {
			for _, pooled := range []bool{false, true} {
				t.Run(fmt.Sprintf("max %d offsets %d pooled %v", maxLen, bits, pooled), func(t *testing.T) {
					var vals [][]byte
					for i := range 50 {
						vals = append(vals, bytes.Repeat([]byte{byte('a' + i%26)}, rng.IntN(maxLen+1)))
					}
					vals = append(vals, bytes.Repeat([]byte{'Z'}, maxLen))
					dict := gatherDict(vals, bits)
					tab := newDictTable(dict)
					if tab == nil || int(tab.maxLen) != maxLen {
						t.Fatalf("table %v for a sound dictionary", tab)
					}
					var got, want Values
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					if pooled {
						got.SetAllocator(mem)
						got.InitShape(dict)
						got.reserveGather(dict, 1500, 100)
					}
					for range 3 {
						ks := make([]uint32, 500)
						for i := range ks {
							ks[i] = uint32(rng.IntN(len(vals)))
						}
						ks[499] = uint32(len(vals) - 1)
						ix := idx32(ks...)
						if err := got.appendDict(tab, dict, ix, 1, 500); err != nil {
							t.Fatal(err)
						}
						if err := want.AppendGather(dict, ix, 1, 500); err != nil {
							t.Fatal(err)
						}
					}
					checkSameValues(t, &got, &want)
					got.Free()
					mem.AssertSize(t, 0)
				})
			}
		}
	}
}

// checkSameValues compares two accumulators of variable-width values.
func checkSameValues(t *testing.T, got, want *Values) {
	t.Helper()
	if got.N != want.N || len(got.Offsets) != len(want.Offsets) {
		t.Fatalf("%d values, %d offsets; want %d, %d", got.N, len(got.Offsets), want.N, len(want.Offsets))
	}
	for i := range want.N {
		g, w := got.Data[got.Offsets[i]:got.Offsets[i+1]], want.Data[want.Offsets[i]:want.Offsets[i+1]]
		if !bytes.Equal(g, w) {
			t.Fatalf("value %d = %q, want %q", i, g, w)
		}
	}
}

// TestDictTableRefused: dictionaries whose offsets decrease, pass the
// data or are missing get no table (the checked gather reports them), and
// a dictionary whose offsets start past 0 is rebased.
func TestDictTableRefused(t *testing.T) {
	for name, offs := range map[string][]uint32{"decreasing": {0, 4, 2, 6}, "beyond": {0, 2, 4, 99}, "short": {0, 2}} {
		dict := &codecs.Block{Kind: codecs.KindVariable, NumValues: 3, Data: []byte("abcdefgh"), OffsetBits: 32}
		for _, o := range offs {
			dict.Offsets = binary.LittleEndian.AppendUint32(dict.Offsets, o)
		}
		if newDictTable(dict) != nil {
			t.Errorf("%s offsets: table made", name)
		}
		var v Values
		if err := v.appendDict(nil, dict, idx32(0, 1, 2), 0, 3); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s offsets: %v, want ErrCorrupt", name, err)
		}
	}
	dict := &codecs.Block{Kind: codecs.KindVariable, NumValues: 2, Data: []byte("xxabcde"), OffsetBits: 32}
	for _, o := range []uint32{2, 4, 7} {
		dict.Offsets = binary.LittleEndian.AppendUint32(dict.Offsets, o)
	}
	tab := newDictTable(dict)
	var v Values
	if err := v.appendDict(tab, dict, idx32(1, 0), 0, 2); err != nil {
		t.Fatal(err)
	}
	if got := string(v.Data); got != "cdeab" || v.Offsets[1] != 3 || v.Offsets[2] != 5 {
		t.Fatalf("rebased gather = %q %v", got, v.Offsets)
	}
}

// TestDictTableBadIndex: an index past the dictionary fails with
// ErrCorrupt in both gather loops and leaves the values as they were.
func TestDictTableBadIndex(t *testing.T) {
	for _, maxLen := range []int{8, 100} {
		dict := gatherDict([][]byte{bytes.Repeat([]byte{'a'}, maxLen), []byte("b")}, 32)
		tab := newDictTable(dict)
		var v Values
		if err := v.appendDict(tab, dict, idx32(0, 1), 0, 2); err != nil {
			t.Fatal(err)
		}
		n, data, offs := v.N, string(v.Data), len(v.Offsets)
		if err := v.appendDict(tab, dict, idx32(1, 2), 0, 2); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("max %d: index 2 of 2: %v", maxLen, err)
		}
		if v.N != n || string(v.Data) != data || len(v.Offsets) != offs {
			t.Errorf("max %d: a failed gather changed the values", maxLen)
		}
	}
}

// FuzzDictGather gathers arbitrary indices from an arbitrary dictionary
// (offsets and bytes from the input): the table gather, when a table is
// made, must agree with the checked gather, error for error.
func FuzzDictGather(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 3, 0, 0, 0, 5, 0, 0, 0}, []byte("abcde"), []byte{1, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{0, 0, 0, 0, 40, 0, 0, 0}, bytes.Repeat([]byte{'q'}, 40), []byte{0, 0, 0, 0, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, offs, data, ix []byte) {
		n := len(offs)/4 - 1
		if n < 0 {
			return
		}
		dict := &codecs.Block{Kind: codecs.KindVariable, NumValues: uint64(n), Data: data, Offsets: offs, OffsetBits: 32}
		idx := &codecs.Block{Kind: codecs.KindFixed, NumValues: uint64(len(ix) / 4), BitsPerValue: 32, Data: ix}
		var got, want Values
		errGot := got.appendDict(newDictTable(dict), dict, idx, 0, idx.NumValues)
		errWant := want.AppendGather(dict, idx, 0, idx.NumValues)
		if (errGot == nil) != (errWant == nil) {
			t.Fatalf("table gather: %v; checked gather: %v", errGot, errWant)
		}
		if errGot == nil {
			checkSameValues(t, &got, &want)
		}
	})
}

// TestReserveAfterDictGather: once a value was gathered through a table
// (a take's first row), Reserve sizes the rest from the dictionary, so
// rows gathered one by one afterwards never move the bytes.
func TestReserveAfterDictGather(t *testing.T) {
	for _, maxLen := range []int{20, 600} {
		vals := [][]byte{bytes.Repeat([]byte{'a'}, maxLen/2), bytes.Repeat([]byte{'b'}, maxLen)}
		dict := gatherDict(vals, 32)
		tab := newDictTable(dict)
		var v Values
		if err := v.appendDict(tab, dict, idx32(0), 0, 1); err != nil {
			t.Fatal(err)
		}
		v.Reserve(1000)
		data, offs := cap(v.Data), cap(v.Offsets)
		for i := range 1000 {
			if err := v.appendDict(tab, dict, idx32(uint32(i%2)), 0, 1); err != nil {
				t.Fatal(err)
			}
		}
		if cap(v.Data) != data || cap(v.Offsets) != offs {
			t.Errorf("max %d: bytes %d -> %d, offsets %d -> %d after Reserve", maxLen, data, cap(v.Data), offs, cap(v.Offsets))
		}
	}
}
