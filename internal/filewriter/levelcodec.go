package filewriter

import (
	"math/bits"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/layouts"
)

// levelCodec compresses a page's rep or def levels (layouts.LevelEncoder).
type levelCodec = layouts.LevelEncoder

// rleLevels is the RLE block form of levels: u16 values, run lengths of
// runBits (8, 16 or 32) bits.
func rleLevels(runBits int) levelCodec {
	return levelCodec{RLE: true, RunBits: runBits, Enc: &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{
		Values: codecs.FlatEncoding(16), RunLengths: codecs.FlatEncoding(uint64(runBits))}}}}
}

// flatLevels stores levels as flat u16 values.
func flatLevels() levelCodec { return levelCodec{Enc: codecs.FlatEncoding(16)} }

// packedLevels bit-packs levels out of line at width w.
func packedLevels(w int) levelCodec {
	return levelCodec{Width: w, Enc: &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{
		OutOfLineBitpacking: &pb.OutOfLineBitpacking{UncompressedBitsPerValue: 16, Values: codecs.FlatEncoding(uint64(w))}}}}
}

// inlineLevels bit-packs levels inline: a width word before each 1024.
func inlineLevels() levelCodec {
	return levelCodec{Inline: true, Enc: &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_InlineBitpacking{
		InlineBitpacking: &pb.InlineBitpacking{UncompressedBitsPerValue: 16}}}}
}

// levelBlock is the number of levels per bit-packing block.
const levelBlock = 1024

// rleBlockHeader is the size Lance counts for the RLE block form's header.
const rleBlockHeader = 8

// levelRLE returns the RLE block form Lance (2.2 on) stores levels of bit
// width w in, if any: its size (runs of a u16 value and a run length, plus
// the header) must be smaller than the raw u16 levels and no larger than
// the bit-packing estimate (levelPackedBytes). 2.2 always writes u8 run
// lengths (longer runs split); 2.3 picks the run-length width of 8, 16 or
// 32 bits that makes the runs smallest, the narrower one on a tie.
func levelRLE(levels []uint16, w int, v format.Version) (levelCodec, bool) {
	entries := levelRunEntries(levels)
	runBits, size := 8, entries[0]*3
	if v >= format.V2_3 {
		for i, bits := range []int{16, 32} {
			if c := entries[i+1] * (2 + bits/8); c < size {
				runBits, size = bits, c
			}
		}
	}
	size += rleBlockHeader
	if size >= 2*len(levels) {
		return levelCodec{}, false
	}
	if packed, ok := levelPackedBytes(len(levels), w); ok && packed < size {
		return levelCodec{}, false
	}
	return rleLevels(runBits), true
}

// levelRunEntries counts the runs of equal levels when runs are split at
// 255, 65535 and 2^32-1 values (the run-length widths of 8, 16, 32 bits).
// It has no branch on the data (runs of nested levels are short and of
// any length, which a branch mispredicts): r8 and r16 count the current
// run's length within its last 255- or 65535-value piece, and a piece
// that fills starts another entry.
func levelRunEntries(levels []uint16) [3]int {
	if len(levels) == 0 {
		return [3]int{}
	}
	if runs, ok := shortLevelRuns(levels); ok {
		return [3]int{runs, runs, runs}
	}
	e8, e16, runs := 1, 1, 1
	r8, r16 := 1, 1
	prev := levels[0]
	for _, x := range levels[1:] {
		same := b2i(x == prev)
		prev = x
		runs += 1 - same
		e8 += 1 - same
		e16 += 1 - same
		r8, r16 = r8*same+1, r16*same+1
		full8, full16 := b2i(r8 > 255), b2i(r16 > 65535)
		e8 += full8
		e16 += full16
		r8 -= 255 * full8
		r16 -= 65535 * full16
	}
	return [3]int{e8, e16, runs} // a page holds fewer than 2^32-1 levels
}

// shortLevelRuns counts the runs of equal levels four at a time (a word
// of four u16 lanes against the same word one level on), reporting false
// once 248 unchanged levels are seen in a row: only runs of more than 255
// levels count differently at the 8- and 16-bit widths, and a page whose
// runs may be that long goes through the exact count instead. A word with
// a change resets the count, so up to 3 unchanged levels are missed at
// each end of a run: a run of 256 still shows at least 249.
func shortLevelRuns(levels []uint16) (int, bool) {
	const lanes, high = 0x7fff7fff7fff7fff, 0x8000800080008000
	n := len(levels)
	changes, quiet := 0, 0
	i := 0
	for ; i+5 <= n; i += 4 {
		a := uint64(levels[i]) | uint64(levels[i+1])<<16 | uint64(levels[i+2])<<32 | uint64(levels[i+3])<<48
		b := uint64(levels[i+1]) | uint64(levels[i+2])<<16 | uint64(levels[i+3])<<32 | uint64(levels[i+4])<<48
		x := a ^ b
		c := bits.OnesCount64((x | ((x & lanes) + lanes)) & high) // lanes that differ
		changes += c
		quiet = (quiet + 4) * b2i(c == 0)
		if quiet >= 248 {
			return 0, false
		}
	}
	for ; i+1 < n; i++ {
		if levels[i+1] != levels[i] {
			changes++
			quiet = 0
		} else if quiet++; quiet >= 248 {
			return 0, false
		}
	}
	return changes + 1, true
}

// b2i is 1 for true (compiled to a flag move, not a branch).
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}

// levelPackedBytes is Lance's estimate of n u16 levels bit-packed at width
// w: one inline chunk (width word and 1024 packed values) for n <= 1024,
// else out-of-line blocks whose tail is packed when padding costs less
// than it saves, raw otherwise. ok is false when the estimate does not
// beat the raw levels (Lance then ignores it).
func levelPackedBytes(n, w int) (int, bool) {
	if n == 0 || w >= 16 {
		return 0, false
	}
	words := 0 // 16-bit words
	if n <= levelBlock {
		words = 1 + levelBlock*w/16
	} else {
		perBlock := (levelBlock*w + 15) / 16
		full, tail := n/levelBlock, n%levelBlock
		words = full * perBlock
		switch {
		case tail == 0:
		case w*(levelBlock-tail) < (16-w)*tail:
			words += perBlock
		default:
			words += tail
		}
	}
	if 2*words >= 2*n {
		return 0, false
	}
	return 2 * words, true
}

// chooseLevelCodec picks the block codec for a page's levels, as Lance's
// block compressor does for a u16 block (measured on 14.0.2, see
// TestWriterLevelCodecs): from 2.2 on the RLE block form (levelRLE) when
// it is smaller than the raw levels and no larger than bit-packing's
// estimate;
// else bit-packing at the page's maximum width, inline for pages of at most
// 1024 levels (flat when one inline chunk would not be smaller than the raw
// levels), out of line for larger pages.
func chooseLevelCodec(levels []uint16, v format.Version) levelCodec {
	var acc uint16
	for _, l := range levels {
		acc |= l
	}
	w, n := bits.Len16(acc), len(levels)
	if v >= format.V2_2 {
		if c, ok := levelRLE(levels, w, v); ok {
			return c
		}
	}
	switch {
	case w == 0 || w >= 16:
		return flatLevels()
	case n <= levelBlock:
		if (levelBlock*w+7)/8 >= 2*n {
			return flatLevels()
		}
		return inlineLevels()
	}
	return packedLevels(w)
}
