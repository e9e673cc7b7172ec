package codecs

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// reportGBps reports the decoded output throughput of a benchmark that
// produces bytesPerOp bytes per iteration.
func reportGBps(b *testing.B, bytesPerOp int) {
	b.ReportMetric(float64(b.N)*float64(bytesPerOp)/b.Elapsed().Seconds()/1e9, "GB/s")
}

// benchWidths are the (word width, value width) pairs of the FastLanes
// benchmarks.
var benchWidths = []struct{ t, w int }{
	{8, 1}, {8, 3}, {8, 7},
	{16, 5}, {16, 11},
	{32, 3}, {32, 17}, {32, 31},
	{64, 5}, {64, 20}, {64, 41}, {64, 63},
}

// BenchmarkFastLanesUnpack unpacks one 1024-value block into a reused buffer.
func BenchmarkFastLanesUnpack(b *testing.B) {
	for _, c := range benchWidths {
		in := randWords(rand.New(rand.NewPCG(3, 4)), 1024, c.t, c.w)
		packed := must(PackFastLanes(nil, in, c.t, c.w))
		dst := make([]byte, 0, 8192)
		b.Run(benchName(c.t, c.w), func(b *testing.B) {
			out := 1024 * c.t / 8
			b.SetBytes(int64(out))
			for b.Loop() {
				dst, _ = UnpackFastLanes(dst[:0], packed, c.t, c.w)
			}
			reportGBps(b, out)
		})
	}
}

// BenchmarkFastLanesPack packs one 1024-value block into a reused buffer.
func BenchmarkFastLanesPack(b *testing.B) {
	for _, c := range benchWidths {
		in := randWords(rand.New(rand.NewPCG(3, 4)), 1024, c.t, c.w)
		dst := make([]byte, 0, 8192)
		b.Run(benchName(c.t, c.w), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				dst, _ = PackFastLanes(dst[:0], in, c.t, c.w)
			}
			reportGBps(b, len(in))
		})
	}
}

// benchInlineValues is the value count of the bit-packing decode benchmarks
// (64 full blocks and a partial one).
const benchInlineValues = 64*1024 + 100

// BenchmarkDecodeInlineBitpackingWords decodes 65,636 values per word width
// with per-chunk widths drifting around a base width; "reuse" decodes into a
// reused buffer, "alloc" into nil as the tree walkers do.
func BenchmarkDecodeInlineBitpackingWords(b *testing.B) {
	for _, c := range []struct{ t, w int }{{8, 5}, {16, 11}, {32, 17}, {64, 20}, {64, 47}} {
		r := rand.New(rand.NewPCG(5, uint64(c.t)))
		var raw []byte
		for start := 0; start < benchInlineValues; start += 1024 {
			n := min(1024, benchInlineValues-start)
			raw = append(raw, randWords(r, n, c.t, max(1, c.w-r.IntN(3)))...)
		}
		enc := must(EncodeInlineBitpacking(nil, raw, c.t, benchInlineValues))
		for _, mode := range []string{"reuse", "alloc"} {
			dst := make([]byte, 0, len(raw)+8192)
			b.Run(benchName(c.t, c.w)+"_"+mode, func(b *testing.B) {
				b.SetBytes(int64(len(raw)))
				for b.Loop() {
					if mode == "alloc" {
						dst = nil
					}
					dst, _ = DecodeInlineBitpacking(dst[:0], enc, c.t, benchInlineValues)
				}
				reportGBps(b, len(raw))
			})
		}
	}
}

// BenchmarkDecodeOutOfLineBitpacking decodes 1M 64-bit values of width 20
// (8 MB of output, the i64 scan case of issue #6) and 65,636 values of the
// other word widths.
func BenchmarkDecodeOutOfLineBitpacking(b *testing.B) {
	for _, c := range []struct{ t, w, n int }{{8, 5, benchInlineValues}, {16, 11, benchInlineValues}, {32, 17, benchInlineValues}, {64, 20, 1 << 20}} {
		raw := randWords(rand.New(rand.NewPCG(6, uint64(c.t))), c.n, c.t, c.w)
		enc := must(EncodeOutOfLineBitpacking(nil, raw, c.t, c.w, uint64(c.n)))
		for _, mode := range []string{"reuse", "alloc"} {
			dst := make([]byte, 0, len(raw)+8192)
			b.Run(benchName(c.t, c.w)+"_"+mode, func(b *testing.B) {
				b.SetBytes(int64(len(raw)))
				for b.Loop() {
					if mode == "alloc" {
						dst = nil
					}
					dst, _ = DecodeOutOfLineBitpacking(dst[:0], enc, c.t, c.w, uint64(c.n))
				}
				reportGBps(b, len(raw))
			})
		}
	}
}

func BenchmarkFSSTDecompress(b *testing.B) {
	tab := testTable(true)
	plain := bytes.Repeat([]byte("the lance thing is going abcdefgh \x00 "), 64)
	comp := tab.Compress(nil, plain)
	dst := make([]byte, 0, len(plain))
	b.SetBytes(int64(len(plain)))
	for b.Loop() {
		dst, _ = tab.Decompress(dst[:0], comp)
	}
	reportGBps(b, len(plain))
}

// benchStrings generates the bench package's str_short (8-24 random
// identifier characters) or str_long (64-512 bytes of Zipf-distributed
// words) strings, about total bytes of them.
func benchStrings(kind string, total int) [][]byte {
	r := rand.New(rand.NewPCG(11, 13))
	const letters = "etaoinshrdlcumwfgypbvkjxqz"
	words := make([]string, 4096)
	for i := range words {
		l := 2 + int(math.Min(12, r.ExpFloat64()*4))
		var sb strings.Builder
		for range l {
			sb.WriteByte(letters[int(math.Min(25, r.ExpFloat64()*6))])
		}
		words[i] = sb.String()
	}
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	var out [][]byte
	for size := 0; size < total; {
		var s []byte
		if kind == "short" {
			s = make([]byte, 8+r.IntN(17))
			for i := range s {
				s[i] = chars[r.IntN(len(chars))]
			}
		} else {
			n := 64 + r.IntN(449)
			for len(s) < n {
				if len(s) > 0 {
					s = append(s, ' ')
				}
				z := min(len(words)-1, int(math.Exp(r.Float64()*math.Log(float64(len(words)))))-1)
				s = append(s, words[z]...)
			}
		}
		out = append(out, s)
		size += len(s)
	}
	return out
}

// fsstBenchChunks trains a table on strs, compresses them and cuts them into
// variable blocks (32-bit offsets) of at most 4096 compressed bytes, like
// the writer's mini-block chunks. It returns the table, the blocks and the
// plain size.
func fsstBenchChunks(strs [][]byte) (*FSSTTable, []Block, int) {
	var data []byte
	offsets := []uint64{0}
	for _, s := range strs {
		data = append(data, s...)
		offsets = append(offsets, uint64(len(data)))
	}
	tab := BuildFSSTTable(data, offsets)
	enc := NewFSSTEncoder(tab)
	var blocks []Block
	cur := Block{Kind: KindVariable, OffsetBits: 32, Offsets: binary.LittleEndian.AppendUint32(nil, 0)}
	for _, s := range strs {
		c := enc.Compress(nil, s)
		if cur.NumValues > 0 && len(cur.Data)+len(c) > 4096 {
			blocks = append(blocks, cur)
			cur = Block{Kind: KindVariable, OffsetBits: 32, Offsets: binary.LittleEndian.AppendUint32(nil, 0)}
		}
		cur.Data = append(cur.Data, c...)
		cur.Offsets = binary.LittleEndian.AppendUint32(cur.Offsets, uint32(len(cur.Data)))
		cur.NumValues++
	}
	return tab, append(blocks, cur), len(data)
}

// BenchmarkFSSTDecompressBlock decompresses about 1 MB of strings held in
// 4 KiB chunks, one DecompressBlock call per chunk.
func BenchmarkFSSTDecompressBlock(b *testing.B) {
	for _, kind := range []string{"short", "long"} {
		tab, blocks, plain := fsstBenchChunks(benchStrings(kind, 1<<20))
		comp := 0
		for _, blk := range blocks {
			comp += len(blk.Data)
		}
		b.Run(kind, func(b *testing.B) {
			b.SetBytes(int64(plain))
			for b.Loop() {
				for _, blk := range blocks {
					if _, err := tab.DecompressBlock(blk); err != nil {
						b.Fatal(err)
					}
				}
			}
			reportGBps(b, plain)
			b.ReportMetric(float64(plain)/float64(comp), "ratio")
		})
	}
}

func BenchmarkDecodeInlineBitpacking(b *testing.B) {
	raw := bytes.Repeat([]byte{1, 0, 0, 0, 7, 0, 0, 0}, 2048)
	enc := must(EncodeInlineBitpacking(nil, raw, 32, 4096))
	dst := make([]byte, 0, len(raw)+4096)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		dst, _ = DecodeInlineBitpacking(dst[:0], enc, 32, 4096)
	}
	b.ReportMetric(float64(b.N)*4096/b.Elapsed().Seconds(), "values/s")
	reportGBps(b, len(raw))
}

// BenchmarkEncodeInlineBitpacking encodes 65,636 values per word width (the
// writer's mini-block path); GB/s counts the input values.
func BenchmarkEncodeInlineBitpacking(b *testing.B) {
	for _, c := range []struct{ t, w int }{{8, 5}, {32, 17}, {64, 20}} {
		raw := randWords(rand.New(rand.NewPCG(7, uint64(c.t))), benchInlineValues, c.t, c.w)
		dst := make([]byte, 0, len(raw)+8192)
		b.Run(benchName(c.t, c.w), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				dst, _ = EncodeInlineBitpacking(dst[:0], raw, c.t, benchInlineValues)
			}
			reportGBps(b, len(raw))
		})
	}
}
