package dataset

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/rowidspb"
)

// RowIDs is the stable row id of each row (deleted rows included) of a
// fragment, decoded from a lance.table.RowIdSequence.
type RowIDs struct {
	segs []segment
	n    uint64
}

// segment is one run of a sequence. Exactly one representation is used:
// a range [start, end) minus sorted holes, a range filtered by a bitmap
// (bit i = value start+i, least significant bit first), or explicit values.
type segment struct {
	start, end uint64
	holes      []uint64
	bitmap     []byte
	values     []uint64
	sorted     bool
	n          uint64 // number of values
	first      uint64 // index of the segment's first value in the sequence
	cum        []uint32
}

// DecodeRowIDs decodes a serialized RowIdSequence for a fragment of
// physicalRows rows; the sequence must hold exactly that many ids.
func DecodeRowIDs(b []byte, physicalRows uint64) (*RowIDs, error) {
	var pb rowidspb.RowIdSequence
	if err := proto.Unmarshal(b, &pb); err != nil {
		return nil, corruptf("row id sequence: %v", err)
	}
	r := &RowIDs{}
	for i, s := range pb.GetSegments() {
		seg, err := decodeSegment(s, physicalRows)
		if err != nil {
			return nil, corruptf("row id sequence, segment %d: %v", i, err)
		}
		seg.first = r.n
		r.n += seg.n
		if r.n > physicalRows {
			return nil, corruptf("row id sequence holds more than the fragment's %d rows", physicalRows)
		}
		r.segs = append(r.segs, seg)
	}
	if r.n != physicalRows {
		return nil, corruptf("row id sequence holds %d ids for a fragment of %d rows", r.n, physicalRows)
	}
	return r, nil
}

func decodeSegment(s *rowidspb.U64Segment, limit uint64) (segment, error) {
	switch v := s.GetSegment().(type) {
	case *rowidspb.U64Segment_Range_:
		return rangeSegment(v.Range.GetStart(), v.Range.GetEnd(), limit)
	case *rowidspb.U64Segment_RangeWithHoles_:
		seg, err := rangeSegment(v.RangeWithHoles.GetStart(), v.RangeWithHoles.GetEnd(), 1<<63)
		if err != nil {
			return seg, err
		}
		holes, err := decodeArray(v.RangeWithHoles.GetHoles(), limit)
		if err != nil {
			return seg, err
		}
		for i, h := range holes {
			if h < seg.start || h >= seg.end || (i > 0 && h <= holes[i-1]) {
				return seg, corruptf("hole %d (%d) is not sorted inside [%d, %d)", i, h, seg.start, seg.end)
			}
		}
		seg.holes, seg.n = holes, seg.n-uint64(len(holes))
		if seg.n > limit {
			return seg, corruptf("range of %d values is longer than the fragment", seg.n)
		}
		return seg, nil
	case *rowidspb.U64Segment_RangeWithBitmap_:
		return bitmapSegment(v.RangeWithBitmap, limit)
	case *rowidspb.U64Segment_SortedArray:
		vals, err := decodeArray(v.SortedArray, limit)
		if err != nil {
			return segment{}, err
		}
		if !slices.IsSorted(vals) {
			return segment{}, corruptf("sorted array is not sorted")
		}
		return segment{values: vals, sorted: true, n: uint64(len(vals))}, nil
	case *rowidspb.U64Segment_Array:
		vals, err := decodeArray(v.Array, limit)
		return segment{values: vals, n: uint64(len(vals))}, err
	}
	return segment{}, corruptf("segment has no known kind")
}

func rangeSegment(start, end, limit uint64) (segment, error) {
	if end < start || end-start > limit {
		return segment{}, corruptf("range [%d, %d) is reversed or longer than the fragment", start, end)
	}
	return segment{start: start, end: end, n: end - start}, nil
}

func bitmapSegment(v *rowidspb.U64Segment_RangeWithBitmap, limit uint64) (segment, error) {
	seg, err := rangeSegment(v.GetStart(), v.GetEnd(), 1<<40)
	if err != nil {
		return seg, err
	}
	bm := v.GetBitmap()
	if uint64(len(bm)) < (seg.end-seg.start+7)/8 {
		return seg, corruptf("bitmap of %d bytes for a range of %d values", len(bm), seg.end-seg.start)
	}
	bm = bm[:(seg.end-seg.start+7)/8]
	// cum[k] = set bits in bytes [0, k); bits past the range are ignored.
	seg.cum = make([]uint32, len(bm)+1)
	for k, x := range bm {
		if uint64(k+1)*8 > seg.end-seg.start {
			x &= byte(1<<((seg.end-seg.start)%8) - 1)
			bm = append(bm[:k:k], x)
		}
		seg.cum[k+1] = seg.cum[k] + uint32(bits.OnesCount8(x))
	}
	seg.bitmap, seg.n = bm, uint64(seg.cum[len(bm)])
	if seg.n > limit {
		return seg, corruptf("bitmap of %d values is longer than the fragment", seg.n)
	}
	return seg, nil
}

// decodeArray decodes an EncodedU64Array of at most limit values.
func decodeArray(a *rowidspb.EncodedU64Array, limit uint64) ([]uint64, error) {
	var base uint64
	var raw []byte
	width := 0
	switch v := a.GetArray().(type) {
	case *rowidspb.EncodedU64Array_U16Array_:
		base, raw, width = v.U16Array.GetBase(), v.U16Array.GetOffsets(), 2
	case *rowidspb.EncodedU64Array_U32Array_:
		base, raw, width = v.U32Array.GetBase(), v.U32Array.GetOffsets(), 4
	case *rowidspb.EncodedU64Array_U64Array_:
		raw, width = v.U64Array.GetValues(), 8
	default:
		return nil, corruptf("array has no known encoding")
	}
	if len(raw)%width != 0 {
		return nil, corruptf("array of %d bytes is not a multiple of %d", len(raw), width)
	}
	n := uint64(len(raw) / width)
	if n > limit {
		return nil, corruptf("array of %d values is longer than the fragment", n)
	}
	out := make([]uint64, n)
	for i := range out {
		var x uint64
		switch width {
		case 2:
			x = uint64(binary.LittleEndian.Uint16(raw[2*i:]))
		case 4:
			x = uint64(binary.LittleEndian.Uint32(raw[4*i:]))
		default:
			x = binary.LittleEndian.Uint64(raw[8*i:])
		}
		if x+base < x {
			return nil, corruptf("array value %d overflows", i)
		}
		out[i] = x + base
	}
	return out, nil
}

// Len returns the number of row ids.
func (r *RowIDs) Len() uint64 { return r.n }

// Get returns the row id of row i (i < Len).
func (r *RowIDs) Get(i uint64) uint64 {
	k, _ := slices.BinarySearchFunc(r.segs, i, func(s segment, i uint64) int {
		switch {
		case s.first+s.n <= i:
			return -1
		case s.first > i:
			return 1
		}
		return 0
	})
	return r.segs[k].get(i - r.segs[k].first)
}

// AppendAll appends the row ids of rows [lo, hi) to dst.
func (r *RowIDs) AppendAll(dst []uint64, lo, hi uint64) []uint64 {
	for i := lo; i < hi; i++ {
		dst = append(dst, r.Get(i))
	}
	return dst
}

// Find returns the row (offset in the fragment) holding row id id.
func (r *RowIDs) Find(id uint64) (uint64, bool) {
	for _, s := range r.segs {
		if i, ok := s.find(id); ok {
			return s.first + i, true
		}
	}
	return 0, false
}

func (s *segment) get(i uint64) uint64 {
	switch {
	case s.values != nil:
		return s.values[i]
	case s.bitmap != nil:
		// the byte holding the (i+1)th set bit, then the bit within it
		k, _ := slices.BinarySearch(s.cum, uint32(i+1))
		k--
		x := s.bitmap[k]
		for rank := i - uint64(s.cum[k]); rank > 0; rank-- {
			x &= x - 1
		}
		return s.start + uint64(k)*8 + uint64(bits.TrailingZeros8(x))
	}
	v := s.start + i
	for _, h := range s.holes {
		if h > v {
			break
		}
		v++
	}
	return v
}

func (s *segment) find(id uint64) (uint64, bool) {
	switch {
	case s.values != nil && s.sorted:
		i, ok := slices.BinarySearch(s.values, id)
		return uint64(i), ok
	case s.values != nil:
		i := slices.Index(s.values, id)
		return uint64(i), i >= 0
	case id < s.start || id >= s.end:
		return 0, false
	case s.bitmap != nil:
		off := id - s.start
		x := s.bitmap[off/8]
		if x&(1<<(off%8)) == 0 {
			return 0, false
		}
		return uint64(s.cum[off/8]) + uint64(bits.OnesCount8(x&(1<<(off%8)-1))), true
	}
	h, found := slices.BinarySearch(s.holes, id)
	if found {
		return 0, false
	}
	return id - s.start - uint64(h), true
}
