package layouts

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
)

// Sparse 2.3 pages written for flat columns (one nullable item layer): the
// structure is one validity set listing the null or the valid slots,
// whichever is fewer (as pylance 14.0.2 does); the values are constant (a
// nullable constant page) or none (an all-null page). Buffers: value
// buffers first, then the position payload if its codec has one.

// EncodeSparseFlat writes a flat page (no repetition, one layer) as a
// sparse planar page with value plane values and value buffers bufs.
// Pages with repetition or several layers give ErrUnsupported.
func EncodeSparseFlat(s *Shredded, values *pb23.ValuePlane, bufs [][]byte, desc string) (*EncodedPage, error) {
	if s.Rep != nil || len(s.Layers) != 1 {
		return nil, fmt.Errorf("%w: 2.3 sparse page with %d layers", ErrUnsupported, len(s.Layers))
	}
	n := s.NumItems()
	var nulls, valid []uint64
	for i := 0; i < n; i++ {
		if s.Def != nil && s.Def[i] != 0 {
			nulls = append(nulls, uint64(i))
		} else {
			valid = append(valid, uint64(i))
		}
	}
	meaning, pos := pb23.SparseValiditySet_SPARSE_VALIDITY_NULL_POSITIONS, nulls
	if len(valid) < len(nulls) {
		meaning, pos = pb23.SparseValiditySet_SPARSE_VALIDITY_VALID_POSITIONS, valid
	}
	enc, payload, err := EncodePositions(pos)
	if err != nil {
		return nil, err
	}
	if payload != nil {
		bufs = append(bufs, payload)
	}
	layer := &pb23.SparseStructuralLayer{Layer: &pb23.SparseStructuralLayer_Validity{Validity: &pb23.SparseValiditySet{
		Meaning: meaning, Positions: enc, NumPositions: uint64(len(pos))}}}
	pl := &pb23.PlanarLayout{
		Structure: &pb23.StructuralPlane{Codec: &pb23.StructuralPlane_Sparse{Sparse: &pb23.SparseStructure{
			Layers: []*pb23.SparseStructuralLayer{layer}}}},
		Values: values,
	}
	return &EncodedPage{Buffers: bufs, NumRows: uint64(s.NumRows), Desc: desc, Planar: pl}, nil
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
// generic unsigned block, the way pylance 14.0.2 writes position sets:
// empty → Constant without a value; an arithmetic sequence → Range;
// otherwise Delta from the first position whose deltas are a Range when
// arithmetic, else out-of-line bit-packed at the widest delta's width.
// The payload is nil for the metadata-only forms.
func EncodePositions(pos []uint64) (*pb.CompressiveEncoding, []byte, error) {
	if len(pos) == 0 {
		return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Constant{Constant: &pb.Constant{}}}, nil, nil
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
	var child *pb.CompressiveEncoding
	var payload []byte
	if step, ok := arithmetic(deltas); ok {
		child = rangeEncoding(deltas[0], step)
	} else {
		w := max(bits.Len64(widest), 1)
		raw := make([]byte, 0, 8*len(deltas))
		for _, d := range deltas {
			raw = binary.LittleEndian.AppendUint64(raw, d)
		}
		var err error
		if payload, err = codecs.EncodeOutOfLineBitpacking(nil, raw, 64, w, uint64(len(deltas))); err != nil {
			return nil, nil, err
		}
		child = &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{
			OutOfLineBitpacking: &pb.OutOfLineBitpacking{UncompressedBitsPerValue: 64, Values: codecs.FlatEncoding(uint64(w))}}}
	}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Delta{Delta: &pb.Delta{
		UncompressedBitsPerValue: 64, Base: pos[0], Deltas: child}}}, payload, nil
}

// arithmetic reports whether s (non-empty) steps by one positive amount;
// a single value counts, with step 1.
func arithmetic(s []uint64) (uint64, bool) {
	if len(s) == 1 {
		return 1, true
	}
	if s[1] <= s[0] {
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
