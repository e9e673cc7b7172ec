package layouts

import (
	"encoding/binary"
	mathbits "math/bits"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
	"google.golang.org/protobuf/proto"
)

// Sparse 2.3 pages (planar_sparse_layers.go builds the layers): each
// validity set lists the null or the valid slots, whichever encodes
// smaller (as pylance 14.0.2 does). Buffers: value buffers first, then the
// structural payloads, outer layer first.

// chooseValidity lists the null or the valid positions, whichever encodes
// smaller (ties: the nulls), as pylance 14.0.2 does.
func chooseValidity(nulls, valid []uint64) (pb23.SparseValiditySet_Meaning, *pb.CompressiveEncoding, []byte, int, error) {
	ne, np, err := EncodePositions(nulls)
	if err != nil {
		return 0, nil, nil, 0, err
	}
	ve, vp, err := EncodePositions(valid)
	if err != nil {
		return 0, nil, nil, 0, err
	}
	if positionsSize(ve, vp) < positionsSize(ne, np) {
		return pb23.SparseValiditySet_SPARSE_VALIDITY_VALID_POSITIONS, ve, vp, len(valid), nil
	}
	return pb23.SparseValiditySet_SPARSE_VALIDITY_NULL_POSITIONS, ne, np, len(nulls), nil
}

// NoValuesPlane is the value plane of a page without materialized values.
func NoValuesPlane() *pb23.ValuePlane {
	return &pb23.ValuePlane{Codec: &pb23.ValuePlane_None{None: &pb23.NoValues{}}}
}

// ConstantPlane is the value plane of a page whose materialized values all
// equal scalar (1-32 bytes).
func ConstantPlane(scalar []byte) *pb23.ValuePlane {
	return &pb23.ValuePlane{Codec: &pb23.ValuePlane_Constant{Constant: &pb23.ConstantValue{Scalar: scalar}}}
}

// EncodePositions describes a strictly increasing u64 sequence as a
// generic unsigned block the way pylance 14.0.2 writes position sets: the
// smallest (descriptor + payload) of: Constant (no value when empty, the
// value when one), Range (arithmetic, two or more), Delta whose deltas are
// a Range, Flat, and Delta with out-of-line bit-packed deltas (costed as
// whole 1024-value blocks). The payload is nil for metadata-only forms.
func EncodePositions(pos []uint64) (*pb.CompressiveEncoding, []byte, error) {
	switch len(pos) {
	case 0:
		return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Constant{Constant: &pb.Constant{}}}, nil, nil
	case 1:
		v := binary.LittleEndian.AppendUint64(nil, pos[0])
		return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Constant{Constant: &pb.Constant{Value: v}}}, nil, nil
	}
	if step, ok := arithmetic(pos); ok {
		return rangeEncoding(pos[0], step), nil, nil
	}
	deltas := make([]uint64, len(pos)-1)
	widest := uint64(0)
	for i := range deltas {
		deltas[i] = pos[i+1] - pos[i]
		widest |= deltas[i]
	}
	if step, ok := arithmetic(deltas); ok && len(deltas) >= 2 {
		return deltaEncoding(pos[0], rangeEncoding(deltas[0], step)), nil, nil
	}
	w := max(mathbits.Len64(widest), 1)
	packedCost := (len(deltas) + 1023) / 1024 * 1024 * w / 8
	if 8*len(pos) <= packedCost {
		return codecs.FlatEncoding(64), u64Bytes(pos), nil
	}
	payload, err := codecs.EncodeOutOfLineBitpacking(nil, u64Bytes(deltas), 64, w, uint64(len(deltas)))
	if err != nil {
		return nil, nil, err
	}
	child := &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{
		OutOfLineBitpacking: &pb.OutOfLineBitpacking{UncompressedBitsPerValue: 64, Values: codecs.FlatEncoding(uint64(w))}}}
	return deltaEncoding(pos[0], child), payload, nil
}

// positionsSize is the cost EncodePositions minimizes.
func positionsSize(enc *pb.CompressiveEncoding, payload []byte) int {
	return proto.Size(enc) + len(payload)
}

func u64Bytes(v []uint64) []byte {
	out := make([]byte, 0, 8*len(v))
	for _, x := range v {
		out = binary.LittleEndian.AppendUint64(out, x)
	}
	return out
}

func deltaEncoding(base uint64, deltas *pb.CompressiveEncoding) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Delta{Delta: &pb.Delta{
		UncompressedBitsPerValue: 64, Base: base, Deltas: deltas}}}
}

// arithmetic reports whether s (non-empty) steps by one positive amount;
// s has two or more values.
func arithmetic(s []uint64) (uint64, bool) {
	if len(s) < 2 || s[1] <= s[0] {
		return 0, false
	}
	step := s[1] - s[0]
	for i := 2; i < len(s); i++ {
		if s[i] <= s[i-1] || s[i]-s[i-1] != step {
			return 0, false
		}
	}
	return step, true
}

func rangeEncoding(start, step uint64) *pb.CompressiveEncoding {
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Range{Range: &pb.Range{
		UncompressedBitsPerValue: 64, Start: start, Step: step}}}
}
