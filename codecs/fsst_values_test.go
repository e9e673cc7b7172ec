package codecs

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// fsstShortBlock compresses n random identifiers of 8-24 characters (the
// bench's str_short shape) and returns the table, the compressed block
// (32-bit offsets) and the original values.
func fsstShortBlock(tb testing.TB, n int, seed uint64) (*FSSTTable, Block, [][]byte) {
	tb.Helper()
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	rng := rand.New(rand.NewPCG(seed, 7))
	var data []byte
	offs := []uint64{0}
	vals := make([][]byte, n)
	for i := range vals {
		v := make([]byte, 8+rng.IntN(17))
		for j := range v {
			v[j] = chars[rng.IntN(len(chars))]
		}
		vals[i] = v
		data = append(data, v...)
		offs = append(offs, uint64(len(data)))
	}
	t := BuildFSSTTable(data, offs)
	enc := NewFSSTEncoder(t)
	defer enc.Release()
	b := Block{Kind: KindVariable, NumValues: uint64(n), OffsetBits: 32, Offsets: make([]byte, 4, 4*(n+1))}
	for _, v := range vals {
		b.Data = enc.Compress(b.Data, v)
		b.Offsets = binary.LittleEndian.AppendUint32(b.Offsets, uint32(len(b.Data)))
	}
	return t, b, vals
}

func TestFSSTAppendValuesMatchesDecompress(t *testing.T) {
	tab, b, vals := fsstShortBlock(t, 3000, 1)
	for _, r := range [][2]uint64{{0, 3000}, {0, 0}, {17, 18}, {100, 2999}} {
		prefix := []byte("xyz")
		data, ends, err := tab.AppendValues(prefix, []int64{3}, b, r[0], r[1])
		if err != nil {
			t.Fatal(err)
		}
		if len(ends) != int(r[1]-r[0])+1 || !bytes.Equal(data[:3], prefix) {
			t.Fatalf("range %v: %d ends, prefix %q", r, len(ends), data[:3])
		}
		for i := r[0]; i < r[1]; i++ {
			if got := data[ends[i-r[0]]:ends[i-r[0]+1]]; !bytes.Equal(got, vals[i]) {
				t.Fatalf("range %v value %d = %q, want %q", r, i, got, vals[i])
			}
		}
	}
}

func TestFSSTAppendValuesRejectsBadRuns(t *testing.T) {
	tab, b, _ := fsstShortBlock(t, 3000, 2)
	if !tab.Compressed {
		t.Fatal("table switched off; the test needs compressed values")
	}
	if _, _, err := tab.AppendValues(nil, nil, b, 5, 3001); err == nil {
		t.Fatal("range past the block accepted")
	}
	bad := b
	bad.Offsets = append([]byte(nil), b.Offsets...)
	binary.LittleEndian.PutUint32(bad.Offsets[4*5:], 1<<30) // value 4 ends past the data
	if _, _, err := tab.AppendValues(nil, nil, bad, 0, 3000); err == nil {
		t.Fatal("offset past the data accepted")
	}
	esc := b
	esc.Data = append([]byte(nil), b.Data...)
	end := binary.LittleEndian.Uint32(b.Offsets[4:])
	esc.Data[end-1] = fsstEscape // value 0 ends in an escape
	if _, _, err := tab.AppendValues(nil, nil, esc, 0, 1); err == nil {
		t.Fatal("escape at the end of a value accepted")
	}
}

// BenchmarkFSSTShortValues compares the ways to decompress a chunk of
// short strings: the run decoder, value-by-value Decompress and the block
// decoder.
func BenchmarkFSSTShortValues(b *testing.B) {
	tab, blk, vals := fsstShortBlock(b, 4096, 3)
	var raw int64
	for _, v := range vals {
		raw += int64(len(v))
	}
	var data []byte
	ends := make([]int64, 0, 4097)
	b.Run("AppendValues", func(b *testing.B) {
		b.SetBytes(raw)
		for b.Loop() {
			data, ends, _ = tab.AppendValues(data[:0], ends[:0], blk, 0, 4096)
		}
	})
	b.Run("Decompress", func(b *testing.B) {
		b.SetBytes(raw)
		for b.Loop() {
			data = data[:0]
			for i := range uint64(4096) {
				data, _ = tab.Decompress(data, valueAt(blk, i))
			}
		}
	})
	b.Run("AppendBlock", func(b *testing.B) {
		b.SetBytes(raw)
		for b.Loop() {
			data, _, _ = tab.AppendBlock(data[:0], blk)
		}
	})
}
