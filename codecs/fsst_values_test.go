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

// BenchmarkFSSTDecompressValues decompresses about 1 MB of str_short- and
// str_long-like strings value by value with Decompress (the full-zip
// page's path, and a take's).
func BenchmarkFSSTDecompressValues(b *testing.B) {
	for _, kind := range []string{"short", "long"} {
		built, blocks, plain := fsstBenchChunks(benchStrings(kind, 1<<20))
		tab := must(ParseFSSTTable(built.Serialize())) // as read from a file
		b.Run(kind, func(b *testing.B) {
			b.SetBytes(int64(plain))
			dst := make([]byte, 0, plain+4096)
			for b.Loop() {
				dst = dst[:0]
				for _, blk := range blocks {
					for i := range blk.NumValues {
						var err error
						if dst, err = tab.Decompress(dst, valueAt(blk, i)); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		})
	}
}

// TestFSSTDecompressRandom checks the value decoders (Decompress,
// AppendValues) against the one-code-at-a-time reference on random tables
// and code streams with escapes, undefined codes and escapes at value
// ends, at every alignment of the four-code groups.
func TestFSSTDecompressRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for iter := range 4000 {
		tab := randFSSTTable(r, []int{0, 1, 7, 64, 200, 254}[r.IntN(6)])
		s := make([]byte, r.IntN(70))
		for i := range s {
			switch x := r.IntN(100); {
			case x < 3 && iter%2 == 0:
				s[i] = byte(r.IntN(256)) // maybe undefined
			case x < 8:
				s[i] = fsstEscape
			default:
				s[i] = byte(r.IntN(max(1, tab.NumSymbols)))
			}
		}
		prefix := []byte("ab")[:r.IntN(3)]
		got, err := tab.Decompress(append([]byte(nil), prefix...), s)
		want, wantErr := tab.decompressSimple(append(make([]byte, 0, len(prefix)+8*len(s)+8), prefix...), s)
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) ||
			!bytes.Equal(got, want) {
			t.Fatalf("iter %d: Decompress %x (%v), reference %x (%v)", iter, got, err, want, wantErr)
		}
		checkAppendValues(t, tab, s)
	}
}
