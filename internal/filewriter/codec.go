package filewriter

import (
	"math/bits"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lebits"
)

// Mini-block chunk budgets (Lance: primitive.rs / value.rs / binary.rs).
const (
	miniFixedChunkBytes = 8186 // fixed-width chunks stay below this
	miniVarChunkBytes   = 4096 // variable chunks stay within this (unless one value is larger)
	bitpackBlock        = 1024 // values per InlineBitpacking chunk
)

// miniCodec encodes values chunk by chunk for a mini-block page.
type miniCodec interface {
	// encoding is the codec tree stored in MiniBlockLayout.value_compression.
	encoding() *pb.CompressiveEncoding
	// numBuffers is the number of value buffers per chunk.
	numBuffers() int
	// next returns how many values the chunk starting at value start holds.
	next(v *values, start, maxValues int) int
	// encode returns the value buffers of values [start, end): parts of
	// v or bytes appended to *tmp (scratch reused from chunk to chunk;
	// the buffers are used before the next call).
	encode(v *values, start, end int, tmp *[]byte) [][]byte
	// name is a short description for summaries.
	name() string
}

// flatEnc returns Flat{bits}.
func flatEnc(bits uint64) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Flat{Flat: &pb.Flat{BitsPerValue: bits}}}
}

// flatCodec stores fixed-width values (and booleans) as they are.
type flatCodec struct{ bits int }

func (c flatCodec) encoding() *pb.CompressiveEncoding { return flatEnc(uint64(c.bits)) }
func (c flatCodec) numBuffers() int                   { return 1 }
func (c flatCodec) name() string                      { return "flat" }

func (c flatCodec) next(v *values, start, maxValues int) int {
	n := 2
	if c.bits == 1 {
		n = 8
	}
	for 2*n*c.bits/8 < miniFixedChunkBytes && 2*n <= maxValues {
		n *= 2
	}
	return min(n, v.n-start)
}

func (c flatCodec) encode(v *values, start, end int, tmp *[]byte) [][]byte {
	if c.bits == 1 {
		return [][]byte{appendBits(tmp, v.data, start, end)}
	}
	w := c.bits / 8
	return [][]byte{v.data[start*w : end*w]}
}

// appendBits appends sliceBits(src, start, end) to *tmp and returns it.
func appendBits(tmp *[]byte, src []byte, start, end int) []byte {
	at := len(*tmp)
	n := (end - start + 7) / 8
	*tmp = append(*tmp, make([]byte, n)...)
	out := (*tmp)[at : at+n]
	copyBits(out, src, start, end)
	return out
}

// sliceBits copies bits [start, end) of an LSB-first bitmap to bit 0.
func sliceBits(src []byte, start, end int) []byte {
	out := make([]byte, (end-start+7)/8)
	copyBits(out, src, start, end)
	return out
}

// copyBits copies bits [start, end) of src to bit 0 of the zeroed out.
func copyBits(out, src []byte, start, end int) {
	if start%8 == 0 {
		copy(out, src[start/8:])
		if r := (end - start) % 8; r != 0 {
			out[len(out)-1] &= byte(1)<<r - 1
		}
		return
	}
	for i := start; i < end; i++ {
		if src[i/8]&(1<<(i%8)) != 0 {
			j := i - start
			out[j/8] |= 1 << (j % 8)
		}
	}
}

// bitpackCodec stores InlineBitpacking chunks of 1024 values.
type bitpackCodec struct{ bits int }

func (c bitpackCodec) encoding() *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_InlineBitpacking{
		InlineBitpacking: &pb.InlineBitpacking{UncompressedBitsPerValue: uint64(c.bits)}}}
}
func (c bitpackCodec) numBuffers() int { return 1 }
func (c bitpackCodec) name() string    { return "inline_bitpacking" }
func (c bitpackCodec) next(v *values, start, _ int) int {
	return min(bitpackBlock, v.n-start)
}

func (c bitpackCodec) encode(v *values, start, end int, tmp *[]byte) [][]byte {
	w := c.bits / 8
	at := len(*tmp)
	*tmp, _ = codecs.EncodeInlineBitpacking(*tmp, v.data[start*w:end*w], c.bits, uint64(end-start))
	return [][]byte{(*tmp)[at:]}
}

// bitpackedSize estimates the InlineBitpacking size of fixed values.
func bitpackedSize(v *values) int {
	w := v.bits / 8
	total := 0
	for s := 0; s < v.n; s += bitpackBlock {
		e := min(s+bitpackBlock, v.n)
		var acc uint64
		for i := s; i < e; i++ {
			acc |= lebits.Uint(v.data[i*w:], w)
		}
		total += w + 128*bits.Len64(acc)
	}
	return total
}

// rleCodec stores run values and u8 run lengths (two buffers per chunk).
type rleCodec struct{ bits int }

func (c rleCodec) encoding() *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{
		Values: flatEnc(uint64(c.bits)), RunLengths: flatEnc(8)}}}
}
func (c rleCodec) numBuffers() int { return 2 }
func (c rleCodec) name() string    { return "rle" }

func (c rleCodec) next(v *values, start, maxValues int) int {
	n := min(maxValues, 4096)
	for n > 8 && start+n <= v.n && c.size(v, start, start+n) > miniFixedChunkBytes {
		n /= 2
	}
	return min(n, v.n-start)
}

// size is the encoded size of values [start, end).
func (c rleCodec) size(v *values, start, end int) int {
	return countRuns(v, start, end) * (c.bits/8 + 1)
}

func (c rleCodec) encode(v *values, start, end int, _ *[]byte) [][]byte {
	w := c.bits / 8
	vals, lens, _ := codecs.EncodeRLE(nil, nil, v.data[start*w:end*w], c.bits, 8, uint64(end-start))
	return [][]byte{vals, lens}
}

// countRuns counts u8-length runs of equal values in [start, end).
func countRuns(v *values, start, end int) int {
	w := v.bits / 8
	switch w {
	case 1, 2, 4, 8:
		return countRunsLE(v.data, w, start, end)
	}
	runs, length := 0, 0
	for i := start; i < end; i++ {
		if i == start || length == 255 || string(v.data[i*w:(i+1)*w]) != string(v.data[(i-1)*w:i*w]) {
			runs++
			length = 0
		}
		length++
	}
	return runs
}

// countRunsLE is countRuns for values of 1, 2, 4 or 8 bytes.
func countRunsLE(data []byte, w, start, end int) int {
	if start >= end {
		return 0
	}
	runs, length := 1, 1
	prev := lebits.Uint(data[start*w:], w)
	for i := start + 1; i < end; i++ {
		x := lebits.Uint(data[i*w:], w)
		if length == 255 || x != prev {
			runs++
			length = 0
		}
		length++
		prev = x
	}
	return runs
}

// variableCodec stores Variable chunks: offsets then value bytes.
type variableCodec struct{ offsetBits int }

func (c variableCodec) encoding() *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Variable{
		Variable: &pb.Variable{Offsets: flatEnc(uint64(c.offsetBits))}}}
}
func (c variableCodec) numBuffers() int { return 1 }
func (c variableCodec) name() string    { return "variable" }

// next doubles the chunk's value count from 1 while the chunk (offsets
// and bytes) stays within 4096 bytes and keeps the last count that fits
// (at least 1); the rest of the page is one chunk when it fits.
func (c variableCodec) next(v *values, start, maxValues int) int {
	w := c.offsetBits / 8
	size := func(n int) int { return (n+1)*w + int(v.offsets[start+n]-v.offsets[start]) }
	n := 1
	for {
		if start+2*n > v.n {
			if rest := v.n - start; size(rest) <= miniVarChunkBytes && rest <= maxValues {
				return rest
			}
			return min(n, v.n-start)
		}
		if size(2*n) > miniVarChunkBytes || 2*n > maxValues {
			return n
		}
		n *= 2
	}
}

func (c variableCodec) encode(v *values, start, end int, tmp *[]byte) [][]byte {
	w := uint64(c.offsetBits / 8)
	n := uint64(end - start)
	table := (n + 1) * w
	base := v.offsets[start]
	at := len(*tmp)
	out := *tmp
	for i := start; i <= end; i++ {
		out = lebits.AppendUint(out, table+v.offsets[i]-base, int(w))
	}
	out = append(out, v.data[base:v.offsets[end]]...)
	for uint64(len(out)-at)%w != 0 {
		out = append(out, 0x48)
	}
	*tmp = out
	return [][]byte{out[at:]}
}
