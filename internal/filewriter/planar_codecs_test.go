package filewriter

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// decodeAll runs enc over v chunk by chunk through the codecs decoder and
// returns the decoded value bytes (fixed) or values (variable).
func decodeAll(t *testing.T, enc miniCodec, v *values, maxValues int) (fixed []byte, vars [][]byte) {
	t.Helper()
	var tmp []byte
	for start := 0; start < v.N; {
		n := enc.Next(&v.Values, start, maxValues)
		if n < 1 || start+n > v.N {
			t.Fatalf("%s: Next(%d) = %d", enc.Name(), start, n)
		}
		tmp = tmp[:0]
		bufs := enc.Encode(&v.Values, start, start+n, &tmp)
		if len(bufs) != enc.NumBuffers() {
			t.Fatalf("%s: %d buffers, want %d", enc.Name(), len(bufs), enc.NumBuffers())
		}
		blk, err := codecs.DecodeMiniBlock(enc.Encoding(), bufs, uint64(n))
		if err != nil {
			t.Fatalf("%s: chunk at %d: %v", enc.Name(), start, err)
		}
		if blk.Kind == codecs.KindVariable {
			w := blk.OffsetBits / 8
			off := func(i int) uint64 {
				if w == 4 {
					return uint64(binary.LittleEndian.Uint32(blk.Offsets[i*4:]))
				}
				return binary.LittleEndian.Uint64(blk.Offsets[i*8:])
			}
			for i := 0; i < n; i++ {
				vars = append(vars, append([]byte(nil), blk.Data[off(i)-off(0):off(i+1)-off(0)]...))
			}
		} else {
			fixed = append(fixed, blk.Data[:n*v.Bits/8]...)
		}
		start += n
	}
	return fixed, vars
}

// TestLengthOffsetsEncoderRoundTrip: 2.3 Variable with Delta(bit-packed
// lengths) offsets decodes to the values, for short, empty and long values.
func TestLengthOffsetsEncoderRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name   string
		n, max int
	}{{"short", 5000, 40}, {"empty", 100, 0}, {"long", 300, 3000}, {"one", 1, 7}} {
		t.Run(tc.name, func(t *testing.T) {
			v := &values{Values: codecs.Values{Kind: codecs.ValVariable, N: tc.n, Offsets: []uint64{0}}}
			var want [][]byte
			for i := 0; i < tc.n; i++ {
				b := bytes.Repeat([]byte{byte('a' + i%26)}, r.IntN(tc.max+1))
				want = append(want, b)
				v.Data = append(v.Data, b...)
				v.Offsets = append(v.Offsets, uint64(len(v.Data)))
			}
			enc := newLengthOffsetsEncoder(v, codecs.VariableEncoder{OffsetBits: 32})
			_, got := decodeAll(t, enc, v, 1<<16)
			if len(got) != len(want) {
				t.Fatalf("%d values, want %d", len(got), len(want))
			}
			for i := range want {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("value %d: %q, want %q", i, got[i], want[i])
				}
			}
		})
	}
}

// TestRLEChildEncoderRoundTrip: RLE with packed values, packed run
// lengths or General children decodes to the values, and chooseChildRLE
// picks a packed form where it is smaller.
func TestRLEChildEncoderRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, bitsPer := range []int{8, 16, 32, 64} {
		v := &values{Values: codecs.Values{Kind: codecs.ValFixed, Bits: bitsPer}}
		w := bitsPer / 8
		for v.N < 6000 {
			val, run := uint64(r.IntN(50)), 1+r.IntN(3)
			for j := 0; j < run; j++ {
				var b [8]byte
				binary.LittleEndian.PutUint64(b[:], val)
				v.Data = append(v.Data, b[:w]...)
				v.N++
			}
		}
		rle := codecs.RLEEncoder{Bits: bitsPer}
		lz4 := rleGeneral{scheme: pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4}
		zstd := rleGeneral{scheme: pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD}
		for _, enc := range []rleChildEncoder{
			{rle: rle, runs: rleChild{kind: childPacked, width: 7}},
			{rle: rle, values: rleChild{kind: childPacked, width: 6}},
			{rle: rle, values: rleChild{kind: childGeneral}, runs: rleChild{kind: childGeneral}, gen: lz4},
			{rle: rle, values: rleChild{kind: childPacked, width: 6}, runs: rleChild{kind: childGeneral}, gen: zstd},
		} {
			got, _ := decodeAll(t, enc, v, 1<<16)
			if !bytes.Equal(got, v.Data) {
				t.Fatalf("%d bits, %s: decoded values differ", bitsPer, enc.Name())
			}
		}
		if c, _ := chooseChildRLE(rle, v, 1<<16, nil); bitsPer > 8 && c.Name() == "rle" {
			t.Fatalf("%d bits: packed RLE not chosen for runs of 1-3", bitsPer)
		}
	}
}
