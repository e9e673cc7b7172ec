package codecs

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// fuzzMaxValues keeps fuzzed value counts small enough that codecs whose
// output is not bounded by their input (Constant, width-0 packing, RLE) stay
// cheap.
const fuzzMaxValues = 1 << 16

var wordWidths = []int{8, 16, 32, 64}

// checkOutput asserts the invariants of a successfully decoded block.
func checkOutput(t *testing.T, b Block) {
	t.Helper()
	switch b.Kind {
	case KindFixed:
		if b.AllNull {
			return
		}
		need, _ := bitsToBytes("test", b.NumValues, b.BitsPerValue)
		for _, l := range b.FSL {
			need *= l.Dimension
		}
		if uint64(len(b.Data)) != need && len(b.FSL) == 0 {
			t.Fatalf("fixed block: %d bytes for %d×%d bits", len(b.Data), b.NumValues, b.BitsPerValue)
		}
	case KindVariable:
		if err := checkVariable("check", b); err != nil {
			t.Fatalf("decoded variable block invalid: %v", err)
		}
	case KindStruct:
		for _, c := range b.Children {
			if c.NumValues != b.NumValues {
				t.Fatalf("struct child has %d values, struct %d", c.NumValues, b.NumValues)
			}
			checkOutput(t, c)
		}
	default:
		t.Fatalf("bad kind %d", b.Kind)
	}
}

func FuzzInlineBitpacking(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, tb := range wordWidths {
		raw := randWords(r, 1500, tb, tb/2)
		f.Add(must(EncodeInlineBitpacking(nil, raw, tb, 1500)), uint8(tb), uint32(1500))
	}
	f.Fuzz(func(t *testing.T, data []byte, tb uint8, n uint32) {
		n %= fuzzMaxValues
		out, err := DecodeInlineBitpacking(nil, data, int(tb), uint64(n))
		if err == nil && len(out) != int(n)*int(tb)/8 {
			t.Fatalf("decoded %d bytes for %d values", len(out), n)
		}
		if err == nil && n > 0 {
			again := must(EncodeInlineBitpacking(nil, out, int(tb), uint64(n)))
			back := must(DecodeInlineBitpacking(nil, again, int(tb), uint64(n)))
			if !bytes.Equal(back, out) {
				t.Fatal("re-encode round trip mismatch")
			}
		}
	})
}

func FuzzOutOfLineBitpacking(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tb := range wordWidths {
		for _, n := range []int{1024, 1100, 2047} {
			raw := randWords(r, n, tb, 3)
			f.Add(must(EncodeOutOfLineBitpacking(nil, raw, tb, 3, uint64(n))), uint8(tb), uint8(3), uint32(n))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, tb, w uint8, n uint32) {
		n %= fuzzMaxValues
		out, err := DecodeOutOfLineBitpacking(nil, data, int(tb), int(w), uint64(n))
		if err == nil && len(out) != int(n)*int(tb)/8 {
			t.Fatalf("decoded %d bytes for %d values", len(out), n)
		}
	})
}

func FuzzFSST(f *testing.F) {
	tab := testTable(true)
	f.Add(tab.Serialize()[:64], tab.Compress(nil, []byte("the lance thing\xff")))
	f.Add(testTable(false).Serialize()[:8], []byte("plain"))
	f.Fuzz(func(t *testing.T, table, s []byte) {
		full := make([]byte, FSSTTableSize)
		copy(full, table)
		tb, err := ParseFSSTTable(full)
		if err != nil {
			return
		}
		out, err := tb.Decompress(nil, s)
		if err == nil && len(out) > 8*len(s) {
			t.Fatalf("expanded %d → %d bytes", len(s), len(out))
		}
		checkAgainstSimple(t, tb, s, out, err)
		checkAppendValues(t, tb, s)
		if tb.Compressed && tb.NumSymbols > 0 {
			plain := s
			back := must(tb.Decompress(nil, tb.Compress(nil, plain)))
			if !bytes.Equal(back, plain) {
				t.Fatalf("compress/decompress mismatch: %q → %q", plain, back)
			}
		}
	})
}

// checkAgainstSimple checks Decompress's result (out, err) against the
// one-code-at-a-time reference decoder.
func checkAgainstSimple(t *testing.T, tb *FSSTTable, s, out []byte, err error) {
	if !tb.Compressed {
		return
	}
	want, wantErr := tb.decompressSimple(make([]byte, 0, len(s)*fsstMaxExpansion+8), s)
	if (err != nil) != (wantErr != nil) || err == nil && !bytes.Equal(out, want) {
		t.Fatalf("Decompress %q (%v), reference %q (%v)", out, err, want, wantErr)
	}
}

// checkAppendValues splits s into three values and checks that the run
// decoder agrees with Decompress value by value: the same bytes and ends,
// or an error from both.
func checkAppendValues(t *testing.T, tb *FSSTTable, s []byte) {
	cuts := []int{0, len(s) / 3, 2 * len(s) / 3, len(s)}
	b := Block{Kind: KindVariable, NumValues: 3, OffsetBits: 32, Data: s}
	for _, c := range cuts {
		b.Offsets = binary.LittleEndian.AppendUint32(b.Offsets, uint32(c))
	}
	var want []byte
	var wantErr error
	for i := range 3 {
		if want, wantErr = tb.Decompress(want, s[cuts[i]:cuts[i+1]]); wantErr != nil {
			break
		}
	}
	got, ends, err := tb.AppendValues(nil, nil, b, 0, 3)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("AppendValues error %v, Decompress error %v", err, wantErr)
	}
	if err == nil && (!bytes.Equal(got, want) || len(ends) != 3 || ends[2] != int64(len(got))) {
		t.Fatalf("AppendValues %q ends %v, want %q", got, ends, want)
	}
}

func FuzzRLE(f *testing.F) {
	raw := bytes.Repeat([]byte{1, 1, 1, 2, 3, 3}, 100)
	for _, lb := range []int{8, 16, 32} {
		v, l := must2(EncodeRLE(nil, nil, raw, 16, lb, 300))
		f.Add(v, l, uint8(16), uint8(lb), uint32(300))
	}
	f.Fuzz(func(t *testing.T, vals, lens []byte, vb, lb uint8, n uint32) {
		n %= fuzzMaxValues
		out, err := DecodeRLE(nil, vals, lens, int(vb), int(lb), uint64(n))
		if err == nil && len(out) != int(n)*int(vb)/8 {
			t.Fatalf("decoded %d bytes for %d values", len(out), n)
		}
		blk := append(binary.LittleEndian.AppendUint64(nil, uint64(len(vals))), vals...)
		_, _ = DecodeRLEBlock(nil, append(blk, lens...), int(vb), int(lb), uint64(n))
	})
}

func FuzzByteStreamSplit(f *testing.F) {
	f.Add(u32s(1, 2, 3, 4), uint8(32), uint32(4))
	f.Add(u32s(1, 2, 3, 4), uint8(64), uint32(2))
	f.Fuzz(func(t *testing.T, data []byte, w uint8, n uint32) {
		out, err := DecodeByteStreamSplit(nil, data, int(w), uint64(n))
		if err != nil {
			return
		}
		back := must(EncodeByteStreamSplit(nil, out, int(w), uint64(n)))
		if !bytes.Equal(back, data) {
			t.Fatal("bss round trip mismatch")
		}
	})
}

func FuzzGeneral(f *testing.F) {
	text := bytes.Repeat([]byte("lance "), 200)
	f.Add(must(CompressLZ4(nil, text)), false)
	f.Add(must(CompressZstd(nil, text, 0)), true)
	f.Add(must(CompressZstd(nil, text, 0))[8:], true)
	f.Fuzz(func(t *testing.T, data []byte, zstd bool) {
		var d Decompressor
		defer d.Close()
		if zstd {
			_, _ = d.DecompressZstd(nil, data)
			return
		}
		_, _ = DecompressLZ4(nil, data)
	})
}

func FuzzVariable(f *testing.F) {
	b := NewVariableBlock(strs("a", "", "hello"))
	f.Add(must(EncodeVariableChunk(nil, b)), uint32(3), false)
	f.Add(must(EncodeVariableChunk(nil, to64(b))), uint32(3), true)
	f.Add(must(EncodeVariableBlock(nil, b)), uint32(3), false)
	f.Add(must(EncodeVariableBlock(nil, to64(b))), uint32(3), true)
	f.Fuzz(func(t *testing.T, data []byte, n uint32, wide bool) {
		ob := 32
		if wide {
			ob = 64
		}
		if out, err := DecodeVariableChunk(data, ob, uint64(n)); err == nil {
			checkOutput(t, out)
		}
		if out, err := DecodeVariableBlock(data, uint64(n)); err == nil {
			checkOutput(t, out)
			back := must(DecodeVariableBlock(must(EncodeVariableBlock(nil, out)), uint64(n)))
			if err := sameBlock(back, out); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func FuzzPackedStruct(f *testing.F) {
	for _, c := range vpsCases() {
		f.Add(must(EncodeVariableBlock(nil, c.in)), uint32(c.in.NumValues), true)
	}
	f.Add([]byte{1, 0, 0, 0, 9, 5, 0, 2, 0, 0, 0, 8, 6, 0}, uint32(2), false)
	vps := vpsCases()[0].enc
	f.Fuzz(func(t *testing.T, data []byte, n uint32, variable bool) {
		if !variable {
			if out, err := DecodeMiniBlock(packedEnc(32, 8, 16), [][]byte{data}, uint64(n%fuzzMaxValues)); err == nil {
				checkOutput(t, out)
			}
			return
		}
		in, err := DecodeVariableBlock(data, uint64(n))
		if err != nil {
			return
		}
		if out, err := DecodeFullZipVariable(vps, in); err == nil {
			checkOutput(t, out)
		}
	})
}

// fuzzTrees are the hand-built encoding trees the walker fuzzers pick from.
func fuzzTrees() []*pb.CompressiveEncoding {
	tab := testTable(true).Serialize()
	return []*pb.CompressiveEncoding{
		flatEnc(32), flatEnc(1), inlineEnc(16), varEnc(32), varEnc(64), fsstEnc(tab, varEnc(32)),
		packedEnc(32, 8), fslEnc(3, true, fslEnc(2, true, flatEnc(8))), rleEnc(32, 8), rleEnc(16, 16),
		bssEnc(64), generalEnc(lz4S, varEnc(32)), generalEnc(zstdS, rleEnc(8, 8)), constEnc([]byte{7}),
		oolEnc(32, 5), generalEnc(lz4S, flatEnc(64)), vpsCases()[0].enc, generalEnc(zstdS, fsstEnc(tab, varEnc(32))),
		constEnc(nil), fslEnc(4, false, flatEnc(16)),
		axisEnc(4, 2, fslEnc(8, false, flatEnc(16))), generalEnc(zstdS, axisEnc(8, 1, fslEnc(8, false, flatEnc(32)))),
	}
}

// axisEnc is AxisDelta(axis length al, inner stride st) over inner.
func axisEnc(al, st uint64, inner *pb.CompressiveEncoding) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_AxisDelta{
		AxisDelta: &pb.AxisDelta{AxisLength: al, InnerStride: st, Values: inner}}}
}

// splitBufs cuts data into up to 3 buffers using the first bytes as sizes.
func splitBufs(data []byte, k int) [][]byte {
	var out [][]byte
	for i := 0; i < k; i++ {
		if i == k-1 || len(data) < 2 {
			out = append(out, data)
			data = nil
			continue
		}
		sz := min(int(binary.LittleEndian.Uint16(data)), len(data)-2)
		out = append(out, data[2:2+sz])
		data = data[2+sz:]
	}
	return out
}

// addWalkerSeeds seeds a walker fuzzer with the round-trip cases for ctx.
func addWalkerSeeds(f *testing.F, c ctx) {
	trees := fuzzTrees()
	for _, tc := range append(append(append(bitpackCases(rand.New(rand.NewPCG(5, 5)))[:4], generalCases(rand.New(rand.NewPCG(5, 6)))...), structureCases(nil)...), rleCases(rand.New(rand.NewPCG(5, 7)))[:3]...) {
		if tc.ctx != c || len(tc.bufs) == 0 {
			continue
		}
		var data []byte
		for i, b := range tc.bufs {
			if i < len(tc.bufs)-1 {
				data = binary.LittleEndian.AppendUint16(data, uint16(len(b)))
			}
			data = append(data, b...)
		}
		for i, tr := range trees {
			if Describe(tr) == Describe(tc.enc) {
				f.Add(uint8(i), data, uint32(tc.want.NumValues))
			}
		}
	}
	f.Add(uint8(0), u32s(1, 2, 3), uint32(3))
}

func FuzzDecodeMiniBlock(f *testing.F) {
	addWalkerSeeds(f, ctxMini)
	trees := fuzzTrees()
	f.Fuzz(func(t *testing.T, which uint8, data []byte, n uint32) {
		enc := trees[int(which)%len(trees)]
		k, err := MiniBlockBufferCount(enc)
		if err != nil {
			return
		}
		if out, err := DecodeMiniBlock(enc, splitBufs(data, k), uint64(n%fuzzMaxValues)); err == nil {
			checkOutput(t, out)
		}
	})
}

func FuzzDecodeBlock(f *testing.F) {
	addWalkerSeeds(f, ctxBlock)
	trees := fuzzTrees()
	f.Fuzz(func(t *testing.T, which uint8, data []byte, n uint32) {
		enc := trees[int(which)%len(trees)]
		if out, err := DecodeBlock(enc, data, uint64(n%fuzzMaxValues)); err == nil {
			checkOutput(t, out)
		}
	})
}

func FuzzDecodeFullZip(f *testing.F) {
	addWalkerSeeds(f, ctxFZFixed)
	trees := fuzzTrees()
	for _, c := range append(generalCases(rand.New(rand.NewPCG(9, 9))), vpsCases()...) {
		for i, tr := range trees {
			if c.ctx == ctxFZVar && Describe(tr) == Describe(c.enc) {
				f.Add(uint8(i), must(EncodeVariableBlock(nil, c.in)), uint32(c.in.NumValues))
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte, n uint32) {
		enc := trees[int(which)%len(trees)]
		if out, err := DecodeFullZipFixed(enc, data, uint64(n%fuzzMaxValues)); err == nil {
			checkOutput(t, out)
		}
		in, err := DecodeVariableBlock(data, uint64(n))
		if err != nil {
			return
		}
		if out, err := DecodeFullZipVariable(enc, in); err == nil {
			checkOutput(t, out)
		}
	})
}
