package codecs

import (
	"fmt"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/internal/lebits"
)

// checkFlatBits validates a Flat bits_per_value (1 or a non-zero multiple of 8).
func checkFlatBits(codec string, bitsPer uint64) error {
	if bitsPer == 1 || (bitsPer > 0 && bitsPer%8 == 0 && bitsPer <= 1<<20) {
		return nil
	}
	return fmt.Errorf("%w: %s: bits per value %d is neither 1 nor a multiple of 8", ErrCorrupt, codec, bitsPer)
}

// DecodeFlat returns the first ⌈numValues·bitsPer/8⌉ bytes of buf as a fixed
// block (aliasing buf). Extra trailing bytes are ignored.
func DecodeFlat(buf []byte, bitsPer, numValues uint64) (Block, error) {
	if err := checkFlatBits("flat", bitsPer); err != nil {
		return Block{}, err
	}
	need, err := bitsToBytes("flat", numValues, bitsPer)
	if err != nil {
		return Block{}, err
	}
	if need > uint64(len(buf)) {
		return Block{}, fmt.Errorf("%w: flat: %d values of %d bits need %d bytes, have %d", ErrCorrupt, numValues, bitsPer, need, len(buf))
	}
	return Block{Kind: KindFixed, NumValues: numValues, BitsPerValue: bitsPer, Data: buf[:need]}, nil
}

// flatOf returns the Flat message of enc (1 or whole-byte bits), or an error
// naming codec.
func flatOf(codec string, enc *pb.CompressiveEncoding) (*pb.Flat, error) {
	f, err := flatRaw(codec, enc)
	if err != nil {
		return nil, err
	}
	return f, checkFlatBits(codec, f.GetBitsPerValue())
}

// flatRaw returns the Flat message of enc without checking its width.
func flatRaw(codec string, enc *pb.CompressiveEncoding) (*pb.Flat, error) {
	f := enc.GetFlat()
	if f == nil {
		return nil, fmt.Errorf("%w: %s: child must be flat, got %s", ErrUnsupported, codec, Describe(enc))
	}
	if f.GetData() != nil {
		return nil, fmt.Errorf("%w: %s: flat buffer compression slot is set", ErrUnsupported, codec)
	}
	return f, nil
}

// decodeConstant materializes a Constant encoding: numValues copies of the
// value (bits = 8·len(value)), or an AllNull block when the value is absent.
func decodeConstant(c *pb.Constant, numValues uint64) (Block, error) {
	v := c.GetValue()
	if c.Value == nil {
		return Block{Kind: KindFixed, NumValues: numValues, AllNull: true}, nil
	}
	size, err := mulBytes("constant", numValues, uint64(len(v)))
	if err != nil {
		return Block{}, err
	}
	data := appendRepeated(make([]byte, 0, size), v, numValues)
	return Block{Kind: KindFixed, NumValues: numValues, BitsPerValue: uint64(len(v)) * 8, Data: data}, nil
}

// fslShape describes a FixedSizeList…→Flat chain.
type fslShape struct {
	dims     []uint64 // per layer, outer first
	validity []bool   // per layer
	cumDims  []uint64 // product of dims down to each layer
	itemBits uint64   // Flat bits per item
}

// parseFSL walks a FixedSizeList chain down to its Flat leaf.
func parseFSL(enc *pb.CompressiveEncoding) (fslShape, error) {
	var s fslShape
	cum := uint64(1)
	for depth := 0; ; depth++ {
		fsl := enc.GetFixedSizeList()
		if fsl == nil {
			break
		}
		if depth >= maxTreeDepth {
			return s, fmt.Errorf("%w: fixed size list: nesting deeper than %d", ErrCorrupt, maxTreeDepth)
		}
		d := fsl.GetItemsPerValue()
		if d == 0 || d > MaxDecodedSize || cum*d > MaxDecodedSize {
			return s, fmt.Errorf("%w: fixed size list: dimension %d (cumulative %d) out of range", ErrCorrupt, d, cum)
		}
		cum *= d
		s.dims, s.validity, s.cumDims = append(s.dims, d), append(s.validity, fsl.GetHasValidity()), append(s.cumDims, cum)
		enc = fsl.GetValues()
	}
	f, err := flatOf("fixed size list", enc)
	if err != nil {
		return s, err
	}
	s.itemBits = f.GetBitsPerValue()
	return s, nil
}

// numValidity counts the layers that carry a validity bitmap.
func (s fslShape) numValidity() int {
	n := 0
	for _, v := range s.validity {
		if v {
			n++
		}
	}
	return n
}

// items returns rows × Π dims with a limit check.
func (s fslShape) items(rows uint64) (uint64, error) {
	return mulBytes("fixed size list", rows, s.cumDims[len(s.cumDims)-1])
}

// decodeFSLMiniBlock decodes FSL mini-block buffers: one validity bitmap per
// layer with has_validity (outer first), then the flat item data.
func decodeFSLMiniBlock(s fslShape, bufs [][]byte, rows uint64) (Block, error) {
	if len(bufs) != s.numValidity()+1 {
		return Block{}, fmt.Errorf("%w: fixed size list: %d buffers, want %d", ErrCorrupt, len(bufs), s.numValidity()+1)
	}
	items, err := s.items(rows)
	if err != nil {
		return Block{}, err
	}
	b, err := DecodeFlat(bufs[len(bufs)-1], s.itemBits, items)
	if err != nil {
		return Block{}, err
	}
	b.NumValues = rows
	next := 0
	for i, d := range s.dims {
		layer := FSLLayer{Dimension: d}
		if s.validity[i] {
			n := rows * s.cumDims[i]
			if uint64(len(bufs[next]))*8 < n {
				return Block{}, fmt.Errorf("%w: fixed size list: layer %d validity has %d bytes for %d items", ErrCorrupt, i, len(bufs[next]), n)
			}
			layer.Validity = bufs[next][:(n+7)/8]
			next++
		}
		b.FSL = append(b.FSL, layer)
	}
	return b, nil
}

// Mini-block chunk budgets of the encoders (Lance: primitive.rs, value.rs,
// binary.rs).
const (
	// MiniBlockFixedChunkBytes: fixed-width chunks stay below this size.
	MiniBlockFixedChunkBytes = 8186
	// MiniBlockVariableChunkBytes: variable chunks stay within this size
	// (unless one value is larger).
	MiniBlockVariableChunkBytes = 4096
)

// FlatEncoding returns the codec tree Flat{bits}.
func FlatEncoding(bits uint64) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Flat{Flat: &pb.Flat{BitsPerValue: bits}}}
}

// FlatEncoder stores fixed-width values (and booleans, Bits 1) as they are,
// in chunks of the largest power of two of values below
// MiniBlockFixedChunkBytes.
type FlatEncoder struct{ Bits int }

// Encoding implements MiniBlockEncoder.
func (c FlatEncoder) Encoding() *pb.CompressiveEncoding { return FlatEncoding(uint64(c.Bits)) }

// NumBuffers implements MiniBlockEncoder.
func (c FlatEncoder) NumBuffers() int { return 1 }

// Name implements MiniBlockEncoder.
func (c FlatEncoder) Name() string { return "flat" }

// Next implements MiniBlockEncoder.
func (c FlatEncoder) Next(v *Values, start, maxValues int) int {
	n := 2
	if c.Bits == 1 {
		n = 8
	}
	for 2*n*c.Bits/8 < MiniBlockFixedChunkBytes && 2*n <= maxValues {
		n *= 2
	}
	return min(n, v.N-start)
}

// Encode implements MiniBlockEncoder.
func (c FlatEncoder) Encode(v *Values, start, end int, tmp *[]byte) [][]byte {
	if c.Bits == 1 {
		return [][]byte{AppendBitRange(tmp, v.Data, start, end)}
	}
	w := c.Bits / 8
	return [][]byte{v.Data[start*w : end*w]}
}

// AppendBitRange appends bits [start, end) of the LSB-first bitmap src,
// moved to bit 0, to *tmp and returns them.
func AppendBitRange(tmp *[]byte, src []byte, start, end int) []byte {
	at := len(*tmp)
	n := (end - start + 7) / 8
	*tmp = append(*tmp, make([]byte, n)...)
	out := (*tmp)[at : at+n]
	lebits.CopyRange(out, src, start, end)
	return out
}

// FSLEncoder stores fixed-size lists of fixed-width items (V.FSL): per
// chunk one validity bitmap per FSL layer that has nulls (outer first),
// then the items (bit-packed for booleans, Bits 1).
type FSLEncoder struct{ V *Values }

// Encoding implements MiniBlockEncoder.
func (c FSLEncoder) Encoding() *pb.CompressiveEncoding {
	enc := FlatEncoding(uint64(c.V.Bits))
	for i := len(c.V.FSL) - 1; i >= 0; i-- {
		l := c.V.FSL[i]
		enc = &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_FixedSizeList{FixedSizeList: &pb.FixedSizeList{
			ItemsPerValue: uint64(l.Dim), HasValidity: l.Validity != nil, Values: enc}}}
	}
	return enc
}

// NumBuffers implements MiniBlockEncoder.
func (c FSLEncoder) NumBuffers() int {
	n := 1
	for _, l := range c.V.FSL {
		if l.Validity != nil {
			n++
		}
	}
	return n
}

// Name implements MiniBlockEncoder.
func (c FSLEncoder) Name() string { return "fixed_size_list" }

// FSLWord is Lance's chunk-size estimate of fixed-size-list rows
// (chunk_fsl): a word is one row of whole bytes, or 8 rows when a row's
// items are not whole bytes (booleans), so that chunks start on a byte;
// its size counts the items plus ⌈items/8⌉ bytes per row and layer with
// validity.
func FSLWord(v *Values) (bytes, rows int) {
	valBytes, cum := 0, 1
	for _, l := range v.FSL {
		cum *= l.Dim
		if l.Validity != nil {
			valBytes += (cum + 7) / 8
		}
	}
	rowBits := v.Bits * cum
	if rowBits%8 != 0 {
		return rowBits + 8*valBytes, 8
	}
	return rowBits/8 + valBytes, 1
}

// Next implements MiniBlockEncoder: Lance's find_log_vals_per_chunk on
// FSLWord, from 2 rows (or one word of 8) doubling while twice the
// estimate (which starts at two words) stays below the chunk budget.
func (c FSLEncoder) Next(v *Values, start, maxValues int) int {
	wordBytes, n := FSLWord(v)
	n = max(n, 2)
	for size := 2 * wordBytes; 2*size < MiniBlockFixedChunkBytes && 2*n <= maxValues; size *= 2 {
		n *= 2
	}
	return min(n, v.N-start)
}

// Encode implements MiniBlockEncoder.
func (c FSLEncoder) Encode(v *Values, start, end int, tmp *[]byte) [][]byte {
	var out [][]byte
	cum := 1
	for _, l := range v.FSL {
		cum *= l.Dim
		if l.Validity != nil {
			out = append(out, AppendBitRange(tmp, l.Validity, start*cum, end*cum))
		}
	}
	if v.Bits%8 != 0 { // booleans: chunks start on a byte (see Next)
		return append(out, AppendBitRange(tmp, v.Data, start*cum*v.Bits, end*cum*v.Bits))
	}
	w := v.Bits / 8 * cum
	return append(out, v.Data[start*w:end*w])
}
