package layouts

import (
	"encoding/binary"
	"fmt"
	mathbits "math/bits"

	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
)

// SparseStructureOf describes the levels of a shredded page as sparse
// layers, outer-most first: one validity layer per item (struct or leaf)
// layer, one list layer per list. It returns the layers, the structural
// payloads in the order the page stores them (after its value buffers)
// and the terminal slot count (leaf slots, nulls included).
func SparseStructureOf(s *Shredded) ([]*pb23.SparseStructuralLayer, [][]byte, int, error) {
	set, err := NewLayerSet(s.Layers)
	if err != nil {
		return nil, nil, 0, err
	}
	if s.FSL != nil {
		set = *s.FSL
	}
	lv := Levels{Rep: s.Rep, Def: s.Def, N: s.NumItems()}
	node, err := Unravel(set, lv)
	if err != nil {
		return nil, nil, 0, err
	}
	var layers []*pb23.SparseStructuralLayer
	var payloads [][]byte
	terminal := 0
	for i, n := 0, node; n != nil; i, n = i+1, n.Child {
		switch n.Kind {
		case LayerItem:
			vs, p, err := validitySet(n)
			if err != nil {
				return nil, nil, 0, err
			}
			payloads = appendPayload(payloads, p)
			layers = append(layers, &pb23.SparseStructuralLayer{Layer: &pb23.SparseStructuralLayer_Validity{Validity: vs}})
		case LayerList:
			ll, ps, err := listSet(n)
			if err != nil {
				return nil, nil, 0, err
			}
			payloads = append(payloads, ps...)
			layers = append(layers, &pb23.SparseStructuralLayer{Layer: &pb23.SparseStructuralLayer_List{List: ll}})
		case LayerFSL:
			vs, p, err := validitySet(n)
			if err != nil {
				return nil, nil, 0, err
			}
			payloads = appendPayload(payloads, p)
			layers = append(layers, &pb23.SparseStructuralLayer{Layer: &pb23.SparseStructuralLayer_FixedSizeList{
				FixedSizeList: &pb23.SparseFixedSizeListLayer{Dimension: set.Layers[i].Dim, Validity: vs}}})
		default:
			return nil, nil, 0, fmt.Errorf("%w: 2.3 sparse layer kind %d", ErrUnsupported, n.Kind)
		}
		terminal = n.Len
	}
	return layers, payloads, terminal, nil
}

func appendPayload(dst [][]byte, p []byte) [][]byte {
	if p != nil {
		dst = append(dst, p)
	}
	return dst
}

func slotValid(n *PathNode, i int) bool {
	return n.Validity == nil || n.Validity[i/8]>>(i%8)&1 != 0
}

// validitySet lists the node's null or valid slots, whichever is smaller.
func validitySet(n *PathNode) (*pb23.SparseValiditySet, []byte, error) {
	if n.Validity == nil {
		// no null: the empty null set (Constant without a value) is smaller
		// than any description of the valid ones, which need not be listed
		ne, np, err := EncodePositions(nil)
		return &pb23.SparseValiditySet{Meaning: pb23.SparseValiditySet_SPARSE_VALIDITY_NULL_POSITIONS, Positions: ne}, np, err
	}
	var nulls, valid []uint64
	for i := 0; i < n.Len; i++ {
		if slotValid(n, i) {
			valid = append(valid, uint64(i))
		} else {
			nulls = append(nulls, uint64(i))
		}
	}
	meaning, enc, payload, npos, err := chooseValidity(nulls, valid)
	if err != nil {
		return nil, nil, err
	}
	return &pb23.SparseValiditySet{Meaning: meaning, Positions: enc, NumPositions: uint64(npos)}, payload, nil
}

// listSet describes a list node: its non-empty slots, their child counts
// and its validity; payloads in that order.
func listSet(n *PathNode) (*pb23.SparseListLayer, [][]byte, error) {
	var pos, counts []uint64
	for i := 0; i < n.Len; i++ {
		if c := n.Offsets[i+1] - n.Offsets[i]; c > 0 {
			pos = append(pos, uint64(i))
			counts = append(counts, uint64(c))
		}
	}
	pe, pp, err := EncodePositions(pos)
	if err != nil {
		return nil, nil, err
	}
	ce, cp, err := EncodeCounts(counts)
	if err != nil {
		return nil, nil, err
	}
	vs, vp, err := validitySet(n)
	if err != nil {
		return nil, nil, err
	}
	child := 0
	if n.Len > 0 {
		child = int(n.Offsets[n.Len] - n.Offsets[0])
	}
	ll := &pb23.SparseListLayer{NumChildSlots: uint64(child), NonEmptyPositions: pe, NumNonEmptyPositions: uint64(len(pos)),
		Counts: ce, Validity: vs}
	return ll, appendPayload(appendPayload(appendPayload(nil, pp), cp), vp), nil
}

// EncodeCounts describes list counts (all > 0) as pylance 14.0.2 does:
// Constant (no value when empty, the value when all equal), else the
// smaller of Flat and out-of-line bit-packing (costed as whole 1024-value
// blocks), unless a generic sequence form (codecs.EncodeSequence: RLE,
// block dictionary, ...) is strictly smaller: 14.0.2 writes the counts of
// a list page of mostly single items and a few long lists as
// Rle(Flat(64), Flat(32)) (testdata/pylance/2.3/big_list_page).
func EncodeCounts(counts []uint64) (*pb.CompressiveEncoding, []byte, error) {
	if len(counts) == 0 {
		return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Constant{Constant: &pb.Constant{}}}, nil, nil
	}
	same, widest := true, uint64(0)
	for _, c := range counts {
		same = same && c == counts[0]
		widest |= c
	}
	if same {
		v := binary.LittleEndian.AppendUint64(nil, counts[0])
		return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_Constant{Constant: &pb.Constant{Value: v}}}, nil, nil
	}
	enc, payload, err := packedOrFlat(counts, max(mathbits.Len64(widest), 1))
	if err != nil {
		return nil, nil, err
	}
	if ge, gp, err := codecs.EncodeSequence(counts, 64); err == nil && positionsSize(ge, gp) < positionsSize(enc, payload) {
		return ge, gp, nil
	}
	return enc, payload, nil
}

// packedOrFlat stores v as Flat(64) or out-of-line bit-packed at width w,
// whichever is smaller when the packing is costed as whole blocks.
func packedOrFlat(v []uint64, w int) (*pb.CompressiveEncoding, []byte, error) {
	if 8*len(v) <= (len(v)+1023)/1024*1024*w/8 {
		return codecs.FlatEncoding(64), u64Bytes(v), nil
	}
	payload, err := codecs.EncodeOutOfLineBitpacking(nil, u64Bytes(v), 64, w, uint64(len(v)))
	if err != nil {
		return nil, nil, err
	}
	return &pb.CompressiveEncoding{Compression: &pb.CompressiveEncoding_OutOfLineBitpacking{
		OutOfLineBitpacking: &pb.OutOfLineBitpacking{UncompressedBitsPerValue: 64, Values: codecs.FlatEncoding(uint64(w))}}}, payload, nil
}

// EncodeSparse writes a page as a sparse planar page with value plane
// values and value buffers bufs (structural payloads follow them). slots,
// when not negative, is the number of values bufs hold one per terminal
// slot (chunked values); it must equal the structure's terminal count.
func EncodeSparse(s *Shredded, values *pb23.ValuePlane, bufs [][]byte, slots int, desc string) (*EncodedPage, error) {
	layers, payloads, terminal, err := SparseStructureOf(s)
	if err != nil {
		return nil, err
	}
	if slots >= 0 && slots != terminal {
		return nil, fmt.Errorf("%w: 2.3 sparse page: %d values for %d terminal slots", ErrCorrupt, slots, terminal)
	}
	pl := &pb23.PlanarLayout{
		Structure: &pb23.StructuralPlane{Codec: &pb23.StructuralPlane_Sparse{Sparse: &pb23.SparseStructure{Layers: layers}}},
		Values:    values,
	}
	return &EncodedPage{Buffers: append(bufs, payloads...), NumRows: uint64(s.NumRows), Desc: desc, Planar: pl}, nil
}
