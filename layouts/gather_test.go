package layouts

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lancego/lancego/codecs"
)

// gatherDict builds a variable-width dictionary of vals with offsets of
// bits bits.
func gatherDict(vals [][]byte, bits int) *codecs.Block {
	var data, offs []byte
	put := func(o int) {
		if bits == 32 {
			offs = binary.LittleEndian.AppendUint32(offs, uint32(o))
		} else {
			offs = binary.LittleEndian.AppendUint64(offs, uint64(o))
		}
	}
	put(0)
	for _, v := range vals {
		data = append(data, v...)
		put(len(data))
	}
	return &codecs.Block{Kind: codecs.KindVariable, NumValues: uint64(len(vals)), Data: data, Offsets: offs, OffsetBits: bits}
}

// TestAppendGatherVariable gathers strings of every length around the
// 16-byte short copy, the last dictionary value included (no 16 bytes
// after it), in several chunks with and without a reservation, and checks
// the values and offsets; a bad index fails and leaves the values as they
// were.
func TestAppendGatherVariable(t *testing.T) {
	var vals [][]byte
	for n := range 40 {
		vals = append(vals, bytes.Repeat([]byte{byte('a' + n%26)}, n))
	}
	vals = append(vals, []byte("0123456789abcdefX")) // 17 bytes, last: no slack after it
	rng := rand.New(rand.NewPCG(3, 4))
	for _, ib := range []int{16, 32} { // 32-bit indices into 32-bit offsets: gatherFlat32
		for _, bits := range []int{32, 64} {
			for _, reserve := range []bool{false, true} {
				t.Run(fmt.Sprintf("indices %d offsets %d reserve %v", ib, bits, reserve), func(t *testing.T) {
					dict := gatherDict(vals, bits)
					var v Values
					v.InitShape(dict)
					var want [][]byte
					for c := range 3 {
						idx := make([]byte, ib/8*500)
						for i := range 500 {
							k := rng.IntN(len(vals))
							if i == 499 {
								k = len(vals) - 1
							}
							if ib == 16 {
								binary.LittleEndian.PutUint16(idx[2*i:], uint16(k))
							} else {
								binary.LittleEndian.PutUint32(idx[4*i:], uint32(k))
							}
							want = append(want, vals[k])
						}
						b := &codecs.Block{Kind: codecs.KindFixed, NumValues: 500, BitsPerValue: uint64(ib), Data: idx}
						if size, wantSize := gatherSize(dict, b, 0, 500), sizeOf(want[c*500:]); size != wantSize {
							t.Fatalf("gatherSize = %d, want %d", size, wantSize)
						}
						if reserve && c == 0 {
							v.reserveGather(dict, 3*500, 3*gatherSize(dict, b, 0, 500))
						}
						if err := v.AppendGather(dict, b, 0, 500); err != nil {
							t.Fatal(err)
						}
					}
					if v.N != len(want) || len(v.Offsets) != len(want)+1 {
						t.Fatalf("%d values, %d offsets; want %d", v.N, len(v.Offsets), len(want))
					}
					for i, w := range want {
						if got := v.Data[v.Offsets[i]:v.Offsets[i+1]]; !bytes.Equal(got, w) {
							t.Fatalf("value %d = %q, want %q", i, got, w)
						}
					}
					n, data := v.N, len(v.Data)
					bad := &codecs.Block{Kind: codecs.KindFixed, NumValues: 2, BitsPerValue: 16, Data: []byte{1, 0, 200, 0}}
					if ib == 32 {
						bad = &codecs.Block{Kind: codecs.KindFixed, NumValues: 2, BitsPerValue: 32, Data: []byte{1, 0, 0, 0, 200, 0, 0, 0}}
					}
					if err := v.AppendGather(dict, bad, 0, 2); !errors.Is(err, ErrCorrupt) {
						t.Fatalf("index 200 of %d: %v", len(vals), err)
					}
					if v.N != n || len(v.Data) != data || len(v.Offsets) != n+1 {
						t.Errorf("a failed gather changed the values: %d values, %d bytes, %d offsets", v.N, len(v.Data), len(v.Offsets))
					}
				})
			}
		}
	}
}

// TestGatherFlat32Corrupt: a 32-bit dictionary whose offsets decrease or
// pass its data is not trusted by the fast gather; the checked one
// reports it.
func TestGatherFlat32Corrupt(t *testing.T) {
	for name, offs := range map[string][]uint32{"decreasing": {0, 4, 2, 6}, "beyond": {0, 2, 4, 99}} {
		dict := &codecs.Block{Kind: codecs.KindVariable, NumValues: 3, Data: []byte("abcdefgh"), OffsetBits: 32}
		for _, o := range offs {
			dict.Offsets = binary.LittleEndian.AppendUint32(dict.Offsets, o)
		}
		if checkedOffsets32(dict) {
			t.Fatalf("%s offsets accepted", name)
		}
		idx := &codecs.Block{Kind: codecs.KindFixed, NumValues: 3, BitsPerValue: 32, Data: []byte{0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0}}
		var v Values
		if err := v.AppendGather(dict, idx, 0, 3); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%s offsets: %v, want ErrCorrupt", name, err)
		}
	}
}

func sizeOf(vals [][]byte) uint64 {
	var n uint64
	for _, v := range vals {
		n += uint64(len(v))
	}
	return n
}

// TestReserveGatherBounded reserves for a huge size (as a corrupt file
// could claim): the reservation stays at maxGatherReserve.
func TestReserveGatherBounded(t *testing.T) {
	dict := gatherDict([][]byte{make([]byte, 1<<20), nil}, 64)
	var v Values
	v.InitShape(dict)
	v.reserveGather(dict, 1<<20, 1<<40)
	if c := cap(v.Data); c > maxGatherReserve {
		t.Fatalf("reserved %d bytes, want at most %d", c, maxGatherReserve)
	}
}
