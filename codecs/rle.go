package codecs

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lebits"
)

// checkRLEWidths validates RLE value and run-length widths.
func checkRLEWidths(valueBits, lengthBits int) error {
	switch valueBits {
	case 8, 16, 32, 64, 128:
	default:
		return fmt.Errorf("%w: rle: value width %d not in {8,16,32,64,128}", ErrCorrupt, valueBits)
	}
	switch lengthBits {
	case 8, 16, 32:
	default:
		return fmt.Errorf("%w: rle: run-length width %d not in {8,16,32}", ErrCorrupt, lengthBits)
	}
	return nil
}

// DecodeRLE expands runs (values: valueBits-wide LE values; lengths: one
// lengthBits-wide LE count per value) and appends exactly numValues values to
// dst. Runs beyond numValues are truncated (as the Lance reader does); fewer
// than numValues values is an error.
func DecodeRLE(dst, values, lengths []byte, valueBits, lengthBits int, numValues uint64) ([]byte, error) {
	if err := checkRLEWidths(valueBits, lengthBits); err != nil {
		return dst, err
	}
	vb, lb := valueBits/8, lengthBits/8
	if len(values)%vb != 0 {
		return dst, fmt.Errorf("%w: rle: %d value bytes not a multiple of %d", ErrCorrupt, len(values), vb)
	}
	runs := len(values) / vb
	if len(lengths) != runs*lb {
		return dst, fmt.Errorf("%w: rle: %d runs but %d run-length bytes (width %d)", ErrCorrupt, runs, len(lengths), lengthBits)
	}
	var total uint64
	for i := 0; i < runs; i++ {
		total += readUint(lengths, i, lengthBits)
	}
	if total < numValues {
		return dst, fmt.Errorf("%w: rle: runs cover %d values, want %d", ErrCorrupt, total, numValues)
	}
	size, err := mulBytes("rle", numValues, uint64(vb))
	if err != nil {
		return dst, err
	}
	dst = growCap(dst, int(size))
	left := numValues
	for i := 0; i < runs && left > 0; i++ {
		n := min(readUint(lengths, i, lengthBits), left)
		dst = appendRepeated(dst, values[i*vb:(i+1)*vb], n)
		left -= n
	}
	return dst, nil
}

// appendRepeated appends n copies of v to dst by doubling copies.
func appendRepeated(dst, v []byte, n uint64) []byte {
	if n == 0 {
		return dst
	}
	start := len(dst)
	total := int(n) * len(v)
	dst = append(dst, v...)
	for len(dst)-start < total {
		k := min(len(dst)-start, total-(len(dst)-start))
		dst = append(dst, dst[start:start+k]...)
	}
	return dst
}

// DecodeRLEBlock decodes the 2.2 RLE block form
// [u64 values_byte_len][values][lengths] holding numValues values.
func DecodeRLEBlock(dst, buf []byte, valueBits, lengthBits int, numValues uint64) ([]byte, error) {
	if len(buf) < 8 {
		return dst, fmt.Errorf("%w: rle block: %d bytes is shorter than its header", ErrCorrupt, len(buf))
	}
	vl := binary.LittleEndian.Uint64(buf)
	if vl > uint64(len(buf)-8) {
		return dst, fmt.Errorf("%w: rle block: values length %d exceeds %d bytes", ErrCorrupt, vl, len(buf)-8)
	}
	return DecodeRLE(dst, buf[8:8+vl], buf[8+vl:], valueBits, lengthBits, numValues)
}

// EncodeRLE run-length encodes numValues valueBits-wide values from src,
// appending run values to values and lengthBits-wide run lengths to lengths
// (runs longer than the length type allows are split).
func EncodeRLE(values, lengths, src []byte, valueBits, lengthBits int, numValues uint64) ([]byte, []byte, error) {
	if err := checkRLEWidths(valueBits, lengthBits); err != nil {
		return values, lengths, err
	}
	vb := uint64(valueBits / 8)
	if uint64(len(src))/vb < numValues {
		return values, lengths, fmt.Errorf("%w: rle: %d values need %d bytes, have %d", ErrCorrupt, numValues, numValues*vb, len(src))
	}
	maxRun := uint64(1)<<lengthBits - 1
	word := vb == 1 || vb == 2 || vb == 4 || vb == 8
	for i := uint64(0); i < numValues; {
		v := src[i*vb : (i+1)*vb]
		j := i + 1
		if word { // compare as integers: no call per value
			x := lebits.Uint(v, int(vb))
			for j < numValues && j-i < maxRun && lebits.Uint(src[j*vb:], int(vb)) == x {
				j++
			}
		} else {
			for j < numValues && j-i < maxRun && string(src[j*vb:(j+1)*vb]) == string(v) {
				j++
			}
		}
		values = append(values, v...)
		lengths = appendUint(lengths, j-i, lengthBits)
		i = j
	}
	return values, lengths, nil
}

// EncodeRLEBlock appends the 2.2 RLE block form of numValues values to dst.
func EncodeRLEBlock(dst, src []byte, valueBits, lengthBits int, numValues uint64) ([]byte, error) {
	values, lengths, err := EncodeRLE(nil, nil, src, valueBits, lengthBits, numValues)
	if err != nil {
		return dst, err
	}
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(values)))
	dst = append(dst, values...)
	return append(dst, lengths...), nil
}

// RLEEncoder stores run values and u8 run lengths (two buffers per chunk)
// of Bits-bit values.
type RLEEncoder struct{ Bits int }

// Encoding implements MiniBlockEncoder.
func (c RLEEncoder) Encoding() *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{
		Values: FlatEncoding(uint64(c.Bits)), RunLengths: FlatEncoding(8)}}}
}

// NumBuffers implements MiniBlockEncoder.
func (c RLEEncoder) NumBuffers() int { return 2 }

// Name implements MiniBlockEncoder.
func (c RLEEncoder) Name() string { return "rle" }

// Next implements MiniBlockEncoder like Lance's RLE chunker: the rest of
// the page when it is at most 4096 (and maxValues) values whose runs fit
// MiniBlockFixedChunkBytes, else the largest power of two of values (at
// least 2) whose runs fit.
func (c RLEEncoder) Next(v *Values, start, maxValues int) int {
	left := v.N - start
	n := min(maxValues, 4096)
	m := min(n, left)
	// the window [start, start+k) fits when its runs are at most maxRuns;
	// runs only grow with k, so one scan finds the longest that fits
	maxRuns := MiniBlockFixedChunkBytes / (c.Bits/8 + 1)
	fit := fittingPrefix(v, start, m, maxRuns)
	if left <= n && fit == left {
		return left
	}
	n = 1 << (bits.Len(uint(m)) - 1)
	for n > 2 && n > fit {
		n /= 2
	}
	return n
}

// fittingPrefix returns the longest k <= m such that values [start,
// start+k) hold at most maxRuns u8-length runs (CountRuns), scanning no
// further than the first value past it.
func fittingPrefix(v *Values, start, m, maxRuns int) int {
	if m <= 0 || maxRuns < 1 {
		return 0
	}
	w := v.Bits / 8
	switch w {
	case 1:
		return fittingPrefixOf(lebits.Words[uint8](v.Data[start:start+m]), maxRuns)
	case 2:
		return fittingPrefixOf(lebits.Words[uint16](v.Data[start*2:(start+m)*2]), maxRuns)
	case 4:
		return fittingPrefixOf(lebits.Words[uint32](v.Data[start*4:(start+m)*4]), maxRuns)
	case 8:
		return fittingPrefixOf(lebits.Words[uint64](v.Data[start*8:(start+m)*8]), maxRuns)
	}
	runs, length := 1, 1
	for k := 1; k < m; k++ {
		i := start + k
		if length == 255 || string(v.Data[i*w:(i+1)*w]) != string(v.Data[(i-1)*w:i*w]) {
			runs++
			length = 0
			if runs > maxRuns {
				return k
			}
		}
		length++
	}
	return m
}

// fittingPrefixOf is fittingPrefix over words xs (m = len(xs) > 0).
func fittingPrefixOf[T uint8 | uint16 | uint32 | uint64](xs []T, maxRuns int) int {
	runs, length := 1, 1
	for k := 1; k < len(xs); k++ {
		if length == 255 || xs[k] != xs[k-1] {
			runs++
			length = 0
			if runs > maxRuns {
				return k
			}
		}
		length++
	}
	return len(xs)
}

// Encode implements MiniBlockEncoder: the run values and lengths go into
// *tmp (a chunk has at most one run per value, so room for n values and n
// lengths is made once and the runs never outgrow it).
func (c RLEEncoder) Encode(v *Values, start, end int, tmp *[]byte) [][]byte {
	w, n := c.Bits/8, end-start
	if tmp == nil {
		tmp = new([]byte)
	}
	at := len(*tmp)
	*tmp = slices.Grow(*tmp, n*w+n)[:at+n*w+n]
	vals, lens := (*tmp)[at:at:at+n*w], (*tmp)[at+n*w:at+n*w:at+n*w+n]
	vals, lens, _ = EncodeRLE(vals, lens, v.Data[start*w:end*w], c.Bits, 8, uint64(n))
	return [][]byte{vals, lens}
}

// CountRuns counts the u8-length runs of equal fixed values in [start, end).
func CountRuns(v *Values, start, end int) int {
	w := v.Bits / 8
	switch w {
	case 1, 2, 4, 8:
		return countRunsLE(v.Data, w, start, end)
	}
	runs, length := 0, 0
	for i := start; i < end; i++ {
		if i == start || length == 255 || string(v.Data[i*w:(i+1)*w]) != string(v.Data[(i-1)*w:i*w]) {
			runs++
			length = 0
		}
		length++
	}
	return runs
}

// countRunsLE is CountRuns for values of 1, 2, 4 or 8 bytes.
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
