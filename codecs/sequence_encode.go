package codecs

import (
	"encoding/binary"
	"fmt"
	"slices"

	"google.golang.org/protobuf/proto"

	pb "github.com/lancego/lancego/format/pb/encodings21pb"
)

// EncodeSequence encodes n unsigned integers of width bits (32 or 64) as a
// 2.3 generic sequence, the inverse of DecodeSequence: it tries Constant,
// Range, Delta (non-decreasing values, bit-packed deltas), block Dictionary,
// RLE and the leaves (Flat, out-of-line bit-packing) and returns the
// candidate with the smallest descriptor plus payload. payload is nil for
// metadata-only descriptors.
func EncodeSequence(vals []uint64, width int) (*pb.CompressiveEncoding, []byte, error) {
	if width != 32 && width != 64 {
		return nil, nil, fmt.Errorf("%w: sequence: width %d not 32 or 64", ErrCorrupt, width)
	}
	for i, v := range vals {
		if v > maxOf(width) {
			return nil, nil, fmt.Errorf("%w: sequence: value %d (%d) exceeds %d bits", ErrCorrupt, i, v, width)
		}
	}
	type cand struct {
		enc     *pb.CompressiveEncoding
		payload []byte
	}
	var cands []cand
	add := func(enc *pb.CompressiveEncoding, payload []byte) {
		if enc != nil {
			cands = append(cands, cand{enc, payload})
		}
	}
	add(constantSeq(vals, width))
	add(rangeSeq(vals, width))
	add(deltaSeq(vals, width))
	add(dictSeq(vals, width))
	add(rleSeq(vals, width))
	add(leafSeq(vals, width))
	best := cands[0]
	size := func(c cand) int { return proto.Size(c.enc) + len(c.payload) }
	for _, c := range cands[1:] {
		if size(c) < size(best) {
			best = c
		}
	}
	return best.enc, best.payload, nil
}

func wordBytes(vals []uint64, width int) []byte {
	out := make([]byte, 0, len(vals)*width/8)
	for _, v := range vals {
		if width == 32 {
			out = binary.LittleEndian.AppendUint32(out, uint32(v))
		} else {
			out = binary.LittleEndian.AppendUint64(out, v)
		}
	}
	return out
}

func constantSeq(vals []uint64, width int) (*pb.CompressiveEncoding, []byte) {
	if len(vals) == 0 {
		return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Constant{Constant: &pb.Constant{}}}, nil
	}
	for _, v := range vals[1:] {
		if v != vals[0] {
			return nil, nil
		}
	}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Constant{Constant: &pb.Constant{Value: wordBytes(vals[:1], width)}}}, nil
}

func rangeSeq(vals []uint64, width int) (*pb.CompressiveEncoding, []byte) {
	if len(vals) == 0 {
		return nil, nil
	}
	step := uint64(1)
	if len(vals) > 1 {
		if vals[1] <= vals[0] {
			return nil, nil
		}
		step = vals[1] - vals[0]
	}
	for i := 1; i < len(vals); i++ {
		if vals[i] < vals[i-1] || vals[i]-vals[i-1] != step {
			return nil, nil
		}
	}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Range{Range: &pb.Range{
		UncompressedBitsPerValue: uint64(width), Start: vals[0], Step: step}}}, nil
}

func deltaSeq(vals []uint64, width int) (*pb.CompressiveEncoding, []byte) {
	if len(vals) < 2 {
		return nil, nil
	}
	deltas := make([]uint64, len(vals)-1)
	for i := 1; i < len(vals); i++ {
		if vals[i] < vals[i-1] {
			return nil, nil
		}
		deltas[i-1] = vals[i] - vals[i-1]
	}
	child, payload := constantSeq(deltas, width)
	if child == nil {
		child, payload = leafSeq(deltas, width)
	}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Delta{Delta: &pb.Delta{
		UncompressedBitsPerValue: uint64(width), Base: vals[0], Deltas: child}}}, payload
}

// dictSeq builds a block dictionary when fewer than half the values are
// distinct: sorted items and u32 indices, both as leaves, framed as
// [u64 indices length][u64 items length][indices][items].
func dictSeq(vals []uint64, width int) (*pb.CompressiveEncoding, []byte) {
	if len(vals) < 4 {
		return nil, nil
	}
	items, idx := dictRanks(vals)
	if items == nil {
		return nil, nil
	}
	ienc, ibuf := leafSeq(idx, 32)
	tenc, tbuf := leafSeq(items, width)
	payload := binary.LittleEndian.AppendUint64(nil, uint64(len(ibuf)))
	payload = binary.LittleEndian.AppendUint64(payload, uint64(len(tbuf)))
	payload = append(append(payload, ibuf...), tbuf...)
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Dictionary{Dictionary: &pb.Dictionary{
		Indices: ienc, Items: tenc, NumDictionaryItems: uint32(len(items))}}}, payload
}

// dictRanks returns the distinct values of vals in increasing order and
// each value's rank among them, or nil when more than half the values are
// distinct. Small values (list counts, lengths) are ranked through a
// table over [0, max] instead of a sort and a search per value.
func dictRanks(vals []uint64) (items, idx []uint64) {
	var top uint64
	for _, v := range vals {
		top = max(top, v)
	}
	idx = make([]uint64, len(vals))
	if top < 1<<16 && int(top) < 4*len(vals) {
		rank := make([]uint32, top+1) // 1 + rank of each present value
		for _, v := range vals {
			rank[v] = 1
		}
		for v, present := range rank {
			if present != 0 {
				items = append(items, uint64(v))
				rank[v] = uint32(len(items))
			}
		}
		if 2*len(items) > len(vals) {
			return nil, nil
		}
		for i, v := range vals {
			idx[i] = uint64(rank[v] - 1)
		}
		return items, idx
	}
	items = slices.Clone(vals)
	slices.Sort(items)
	items = slices.Compact(items)
	if 2*len(items) > len(vals) || len(items) > 1<<31 {
		return nil, nil
	}
	for i, v := range vals {
		k, _ := slices.BinarySearch(items, v)
		idx[i] = uint64(k)
	}
	return items, idx
}

// rleSeq builds Rle(Flat values, Flat u32 run lengths) framed as
// [u64 values length][values][run lengths], when runs are long enough.
func rleSeq(vals []uint64, width int) (*pb.CompressiveEncoding, []byte) {
	if len(vals) < 2 {
		return nil, nil
	}
	var rv, rl []uint64
	for i := 0; i < len(vals); {
		j := i + 1
		for j < len(vals) && vals[j] == vals[i] && j-i < 1<<31 {
			j++
		}
		rv, rl = append(rv, vals[i]), append(rl, uint64(j-i))
		i = j
	}
	if 2*len(rv) > len(vals) {
		return nil, nil
	}
	vb := wordBytes(rv, width)
	payload := binary.LittleEndian.AppendUint64(nil, uint64(len(vb)))
	payload = append(append(payload, vb...), wordBytes(rl, 32)...)
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Rle{Rle: &pb.Rle{
		Values:     seqFlat(width),
		RunLengths: seqFlat(32)}}}, payload
}

func seqFlat(width int) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Flat{Flat: &pb.Flat{BitsPerValue: uint64(width)}}}
}

// leafSeq is the smaller of Flat and out-of-line bit-packing.
func leafSeq(vals []uint64, width int) (*pb.CompressiveEncoding, []byte) {
	raw := wordBytes(vals, width)
	w := maxBitLen(raw, width)
	packed, err := EncodeOutOfLineBitpacking(nil, raw, width, w, uint64(len(vals)))
	if err != nil || len(packed) >= len(raw) {
		return seqFlat(width), raw
	}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{OutOfLineBitpacking: &pb.OutOfLineBitpacking{
		UncompressedBitsPerValue: uint64(width), Values: seqFlat(w)}}}, packed
}
