package codecs

import (
	"fmt"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// decodeFSLZipped decodes rows whose bytes are, per row, each validity layer's
// ⌈cumDim/8⌉ bytes followed by the row's items (the full-zip FSL form).
func decodeFSLZipped(s fslShape, data []byte, rows uint64) (Block, error) {
	if s.itemBits%8 != 0 {
		return Block{}, fmt.Errorf("%w: fixed size list: zipped items of %d bits are not byte-aligned", ErrUnsupported, s.itemBits)
	}
	items, err := s.items(rows)
	if err != nil {
		return Block{}, err
	}
	rowData := s.cumDims[len(s.cumDims)-1] * s.itemBits / 8
	rowBytes := rowData
	for i, v := range s.validity {
		if v {
			rowBytes += (s.cumDims[i] + 7) / 8
		}
	}
	total, err := mulBytes("fixed size list", rows, rowBytes)
	if err != nil {
		return Block{}, err
	}
	if total > uint64(len(data)) {
		return Block{}, fmt.Errorf("%w: fixed size list: %d rows of %d bytes need %d bytes, have %d", ErrCorrupt, rows, rowBytes, total, len(data))
	}
	if s.numValidity() == 0 {
		return Block{Kind: KindFixed, NumValues: rows, BitsPerValue: s.itemBits, Data: data[:total], FSL: s.layers(nil)}, nil
	}
	return unzipFSL(s, data, rows, rowBytes, rowData, items)
}

// unzipFSL splits zipped FSL rows into per-layer bitmaps and item data.
func unzipFSL(s fslShape, data []byte, rows, rowBytes, rowData, items uint64) (Block, error) {
	vals := make([][]byte, len(s.dims))
	for i, v := range s.validity {
		if v {
			vals[i] = make([]byte, (rows*s.cumDims[i]+7)/8)
		}
	}
	out := make([]byte, 0, items*s.itemBits/8)
	for r := uint64(0); r < rows; r++ {
		row := data[r*rowBytes : (r+1)*rowBytes]
		for i, v := range s.validity {
			if !v {
				continue
			}
			n := s.cumDims[i]
			copyBits(vals[i], r*n, row, n)
			row = row[(n+7)/8:]
		}
		out = append(out, row[:rowData]...)
	}
	return Block{Kind: KindFixed, NumValues: rows, BitsPerValue: s.itemBits, Data: out, FSL: s.layers(vals)}, nil
}

// layers builds the FSL layer list, attaching validity bitmaps when given.
func (s fslShape) layers(vals [][]byte) []FSLLayer {
	out := make([]FSLLayer, len(s.dims))
	for i, d := range s.dims {
		out[i].Dimension = d
		if vals != nil {
			out[i].Validity = vals[i]
		}
	}
	return out
}

// copyBits copies n bits from src (starting at bit 0) into dst at bit offset
// at, LSB-first.
func copyBits(dst []byte, at uint64, src []byte, n uint64) {
	if at%8 == 0 {
		copy(dst[at/8:], src[:n/8])
		for i := n / 8 * 8; i < n; i++ {
			setBit(dst, at+i, src[i/8]>>(i%8)&1)
		}
		return
	}
	for i := uint64(0); i < n; i++ {
		setBit(dst, at+i, src[i/8]>>(i%8)&1)
	}
}

func setBit(dst []byte, i uint64, v byte) {
	if v != 0 {
		dst[i/8] |= 1 << (i % 8)
	}
}

// decodePackedStruct de-interleaves numValues rows of a PackedStruct whose
// rows are the concatenation of byte-aligned children into child blocks.
func decodePackedStruct(ps *pb.PackedStruct, buf []byte, numValues uint64) (Block, error) {
	f, err := flatOf("packed struct", ps.GetValues())
	if err != nil {
		return Block{}, err
	}
	widths := ps.GetBitsPerValue()
	var sum uint64
	for _, w := range widths {
		if w == 0 || w%8 != 0 || w > 1<<20 {
			return Block{}, fmt.Errorf("%w: packed struct: child width %d bits is not a positive byte multiple", ErrCorrupt, w)
		}
		sum += w
	}
	if len(widths) == 0 || sum != f.GetBitsPerValue() {
		return Block{}, fmt.Errorf("%w: packed struct: child widths sum to %d bits, row is %d", ErrCorrupt, sum, f.GetBitsPerValue())
	}
	rows, err := DecodeFlat(buf, sum, numValues)
	if err != nil {
		return Block{}, err
	}
	rowBytes := sum / 8
	out := Block{Kind: KindStruct, NumValues: numValues, Children: make([]Block, len(widths))}
	off := uint64(0)
	for c, w := range widths {
		cb := w / 8
		data := make([]byte, 0, numValues*cb)
		for r := uint64(0); r < numValues; r++ {
			data = append(data, rows.Data[r*rowBytes+off:r*rowBytes+off+cb]...)
		}
		out.Children[c] = Block{Kind: KindFixed, NumValues: numValues, BitsPerValue: w, Data: data}
		off += cb
	}
	return out, nil
}

// PackedStructEncoder stores packed-struct rows (the byte-aligned fields of
// each row back to back, Widths bits each) in flat chunks with a
// PackedStruct encoding.
type PackedStructEncoder struct {
	FlatEncoder
	Widths []uint64
}

// Encoding implements MiniBlockEncoder.
func (c PackedStructEncoder) Encoding() *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_PackedStruct{PackedStruct: &pb.PackedStruct{
		BitsPerValue: c.Widths, Values: FlatEncoding(uint64(c.Bits))}}}
}

// Name implements MiniBlockEncoder.
func (c PackedStructEncoder) Name() string { return "packed_struct" }
