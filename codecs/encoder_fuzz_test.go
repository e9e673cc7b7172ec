package codecs

import (
	"encoding/binary"
	"fmt"
	"testing"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lebits"
)

// This is the one round-trip harness of the encoders (the pattern of
// parquet-go's encoding/fuzz): every MiniBlockEncoder is driven through
// roundTripEncoder, which cuts the page into chunks with Next, encodes each
// with Encode and checks that DecodeMiniBlock with Encoding() gives the
// chunk's values back. Each encoder has a fuzz target below that only
// builds Values from the fuzz input.

// roundTripEncoder encodes v chunk by chunk with enc and decodes every
// chunk back; want returns the block a chunk [start, end) must decode to.
func roundTripEncoder(t *testing.T, enc MiniBlockEncoder, v *Values, maxValues int, want func(start, end int) Block) {
	t.Helper()
	var tmp []byte
	for start := 0; start < v.N; {
		n := enc.Next(v, start, maxValues)
		if n < 1 || start+n > v.N {
			t.Fatalf("%s: Next(%d) = %d of %d values", enc.Name(), start, n, v.N)
		}
		end := start + n
		tmp = tmp[:0]
		bufs := enc.Encode(v, start, end, &tmp)
		if len(bufs) != enc.NumBuffers() {
			t.Fatalf("%s: %d buffers, NumBuffers %d", enc.Name(), len(bufs), enc.NumBuffers())
		}
		got, err := DecodeMiniBlock(enc.Encoding(), bufs, uint64(n))
		if err != nil {
			t.Fatalf("%s: chunk [%d, %d): decode %s: %v", enc.Name(), start, end, Describe(enc.Encoding()), err)
		}
		if err := sameBlock(got, want(start, end)); err != nil {
			t.Fatalf("%s: chunk [%d, %d): %v", enc.Name(), start, end, err)
		}
		start = end
	}
}

// fixedWant is the decoded form of fixed values [start, end) of v.
func fixedWant(v *Values) func(start, end int) Block {
	return func(start, end int) Block {
		n := uint64(end - start)
		if v.Bits == 1 {
			var tmp []byte
			return Block{Kind: KindFixed, NumValues: n, BitsPerValue: 1, Data: AppendBitRange(&tmp, v.Data, start, end)}
		}
		w := v.Bits / 8
		return Block{Kind: KindFixed, NumValues: n, BitsPerValue: uint64(v.Bits), Data: v.Data[start*w : end*w]}
	}
}

// variableWant is the decoded form of variable values [start, end) of v.
func variableWant(v *Values) func(start, end int) Block {
	return func(start, end int) Block {
		var offs []byte
		for i := start; i <= end; i++ {
			offs = binary.LittleEndian.AppendUint64(offs, v.Offsets[i])
		}
		return Block{Kind: KindVariable, NumValues: uint64(end - start), Data: v.Data, Offsets: offs, OffsetBits: 64}
	}
}

// fuzzFixed builds fixed values of bits bits from data (whole values only).
func fuzzFixed(data []byte, bits int) *Values {
	w := max(bits/8, 1)
	n := len(data) / w
	if bits == 1 {
		n = len(data) * 8
	}
	kind := ValFixed
	if bits == 1 {
		kind = ValBool
	}
	return &Values{Kind: kind, N: n, Bits: bits, Data: data[:(n*bits+7)/8]}
}

// fuzzVariable splits data into values whose lengths come from lens.
func fuzzVariable(data, lens []byte) *Values {
	v := &Values{Kind: ValVariable, Data: data, Offsets: []uint64{0}}
	at := 0
	for _, l := range lens {
		at = min(at+int(l), len(data))
		v.Offsets = append(v.Offsets, uint64(at))
	}
	v.Offsets = append(v.Offsets, uint64(len(data)))
	v.N = len(v.Offsets) - 1
	return v
}

// pick returns one of choices by b.
func pick(b byte, choices ...int) int { return choices[int(b)%len(choices)] }

func FuzzEncodeFlat(f *testing.F) {
	f.Add(byte(3), []byte("0123456789abcdef0123456789abcdef"), uint16(64))
	f.Fuzz(func(t *testing.T, sel byte, data []byte, maxValues uint16) {
		bits := pick(sel, 1, 8, 16, 32, 64, 128)
		v := fuzzFixed(data, bits)
		roundTripEncoder(t, FlatEncoder{Bits: bits}, v, int(maxValues%4096)+8, fixedWant(v))
	})
}

func FuzzEncodeInlineBitpacking(f *testing.F) {
	f.Add(byte(2), []byte{1, 0, 0, 0, 7, 0, 0, 0, 255, 255, 0, 0})
	f.Fuzz(func(t *testing.T, sel byte, data []byte) {
		bits := pick(sel, 8, 16, 32, 64)
		v := fuzzFixed(data, bits)
		roundTripEncoder(t, InlineBitpackingEncoder{Bits: bits}, v, 4096, fixedWant(v))
	})
}

func FuzzEncodeRLE(f *testing.F) {
	f.Add(byte(1), []byte{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}, uint16(8))
	f.Fuzz(func(t *testing.T, sel byte, data []byte, maxValues uint16) {
		bits := pick(sel, 8, 16, 32, 64)
		v := fuzzFixed(data, bits)
		roundTripEncoder(t, RLEEncoder{Bits: bits}, v, int(maxValues%4096)+8, fixedWant(v))
	})
}

func FuzzEncodeByteStreamSplit(f *testing.F) {
	f.Add(byte(0), []byte("float bytes for split streams!!!"))
	f.Fuzz(func(t *testing.T, sel byte, data []byte) {
		bits := pick(sel, 32, 64)
		v := fuzzFixed(data, bits)
		roundTripEncoder(t, BSSEncoder{Bits: bits}, v, 4096, fixedWant(v))
	})
}

func FuzzEncodeVariable(f *testing.F) {
	f.Add(byte(0), []byte("hello, world, of strings"), []byte{5, 2, 0, 5}, uint16(3))
	f.Fuzz(func(t *testing.T, sel byte, data, lens []byte, maxValues uint16) {
		bits := pick(sel, 32, 64)
		v := fuzzVariable(data, lens)
		roundTripEncoder(t, VariableEncoder{OffsetBits: bits}, v, int(maxValues%4096)+1, variableWant(v))
	})
}

// FuzzEncodeFixedSizeList round-trips fixed-size lists of whole-byte items
// and of booleans (bits 1: rows of d bits, chunks of whole words of 8 rows
// unless d is a multiple of 8), with and without item validity.
func FuzzEncodeFixedSizeList(f *testing.F) {
	f.Add(byte(2), byte(3), []byte("abcdefghijklmnopqrstuvwx"), []byte{0xF5, 0x0F})
	f.Add(byte(4), byte(2), []byte("abcdefghijklmnopqrstuvwx"), []byte{0xF5, 0x0F, 0x33, 0x44})
	f.Fuzz(func(t *testing.T, sel, dim byte, data, validity []byte) {
		bits := pick(sel, 8, 16, 32, 64, 1)
		d := int(dim%8) + 1
		if bits == 1 {
			d = int(dim%40) + 1
		}
		rows := len(data) * 8 / (bits * d)
		v := &Values{Kind: ValFSL, N: rows, Bits: bits, Data: data[:(rows*bits*d+7)/8], FSL: []FSLDim{{Dim: d}}}
		if len(validity)*8 >= rows*d && rows > 0 {
			v.FSL[0].Validity = validity[:(rows*d+7)/8]
		}
		want := func(start, end int) Block {
			var tmp []byte
			b := Block{Kind: KindFixed, NumValues: uint64(end - start), BitsPerValue: uint64(bits),
				Data: AppendBitRange(&tmp, v.Data, start*d*bits, end*d*bits), FSL: []FSLLayer{{Dimension: uint64(d)}}}
			if v.FSL[0].Validity != nil {
				b.FSL[0].Validity = AppendBitRange(&tmp, v.FSL[0].Validity, start*d, end*d)
			}
			return b
		}
		roundTripEncoder(t, FSLEncoder{V: v}, v, 4096, want)
	})
}

func FuzzEncodeGeneral(f *testing.F) {
	f.Add(byte(0), byte(0), []byte("aaaaaaaaaaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbbbbbbbbb"), []byte{4, 4, 8})
	f.Fuzz(func(t *testing.T, scheme, inner byte, data, lens []byte) {
		s := pb.CompressionScheme_COMPRESSION_ALGORITHM_LZ4
		if scheme%2 == 1 {
			s = pb.CompressionScheme_COMPRESSION_ALGORITHM_ZSTD
		}
		var zstd ZstdEncoders
		if inner%2 == 0 {
			v := fuzzFixed(data, 32)
			roundTripEncoder(t, GeneralEncoder{Inner: FlatEncoder{Bits: 32}, Scheme: s, Zstd: &zstd}, v, 4096, fixedWant(v))
			return
		}
		v := fuzzVariable(data, lens)
		roundTripEncoder(t, GeneralEncoder{Inner: VariableEncoder{OffsetBits: 32}, Scheme: s, Zstd: &zstd}, v, 4096, variableWant(v))
	})
}

func FuzzEncodeFSSTMiniBlock(f *testing.F) {
	f.Add([]byte("the quick brown fox jumps over the lazy dog; the quick brown fox again"), []byte{9, 6, 6, 4, 5, 4, 5, 4})
	f.Fuzz(func(t *testing.T, data, lens []byte) {
		v := fuzzVariable(data, lens)
		var s FSSTScratch
		tab := s.BuildTable(v.Data, v.Offsets)
		cv := &Values{Kind: ValVariable, N: v.N, Offsets: make([]uint64, v.N+1)}
		if !tab.Compressed {
			cv.Data = v.Data
			copy(cv.Offsets, v.Offsets)
		} else {
			enc := s.NewEncoder(tab)
			cv.Data = enc.CompressValues(make([]byte, 0, 2*len(v.Data)+16), v.Data, v.Offsets, cv.Offsets[1:])
			enc.Release()
		}
		e := FSSTMiniBlockEncoder{Table: tab.Serialize(), Compressed: cv, Inner: VariableEncoder{OffsetBits: 32}}
		roundTripEncoder(t, e, v, 4096, variableWant(v))
	})
}

func FuzzEncodePackedStruct(f *testing.F) {
	f.Add(byte(1), []byte("row0-abcrow1-defrow2-ghi"))
	f.Fuzz(func(t *testing.T, shape byte, data []byte) {
		widths := [][]uint64{{8}, {32, 8}, {64, 64}, {16, 8, 32}}[int(shape)%4]
		row := 0
		for _, w := range widths {
			row += int(w) / 8
		}
		n := len(data) / row
		v := &Values{Kind: ValFixed, N: n, Bits: row * 8, Data: data[:n*row]}
		want := func(start, end int) Block {
			b := Block{Kind: KindStruct, NumValues: uint64(end - start)}
			at := 0
			for _, w := range widths {
				bw := int(w) / 8
				var child []byte
				for i := start; i < end; i++ {
					child = append(child, v.Data[i*row+at:i*row+at+bw]...)
				}
				b.Children = append(b.Children, Block{Kind: KindFixed, NumValues: uint64(end - start), BitsPerValue: w, Data: child})
				at += bw
			}
			return b
		}
		roundTripEncoder(t, PackedStructEncoder{FlatEncoder: FlatEncoder{Bits: row * 8}, Widths: widths}, v, 4096, want)
	})
}

// TestEncodersRoundTrip runs every encoder through the harness on one
// page large enough for several chunks.
func TestEncodersRoundTrip(t *testing.T) {
	data := make([]byte, 64<<10)
	for i := range data {
		data[i] = byte(i / 97 * 13)
	}
	var lens []byte
	for i := range 3000 {
		lens = append(lens, byte(i%23))
	}
	for _, bits := range []int{1, 8, 16, 32, 64} {
		v := fuzzFixed(data, bits)
		t.Run(fmt.Sprint("flat", bits), func(t *testing.T) { roundTripEncoder(t, FlatEncoder{Bits: bits}, v, 4096, fixedWant(v)) })
		if bits >= 8 {
			t.Run(fmt.Sprint("bitpack", bits), func(t *testing.T) {
				roundTripEncoder(t, InlineBitpackingEncoder{Bits: bits}, v, 4096, fixedWant(v))
			})
			t.Run(fmt.Sprint("rle", bits), func(t *testing.T) { roundTripEncoder(t, RLEEncoder{Bits: bits}, v, 4096, fixedWant(v)) })
		}
		if bits >= 32 {
			t.Run(fmt.Sprint("bss", bits), func(t *testing.T) { roundTripEncoder(t, BSSEncoder{Bits: bits}, v, 4096, fixedWant(v)) })
		}
	}
	v := fuzzVariable(data, lens)
	for _, bits := range []int{32, 64} {
		t.Run(fmt.Sprint("variable", bits), func(t *testing.T) {
			roundTripEncoder(t, VariableEncoder{OffsetBits: bits}, v, 4096, variableWant(v))
		})
	}
	if lebits.Uint(data[97:], 1) != 13 {
		t.Fatal("test data")
	}
}
