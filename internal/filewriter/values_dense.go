package filewriter

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/internal/uninit"
)

// gatherShredded collects the values of s's visible entries. Dense
// entries (every one a valid leaf slot, in order: most pages) of
// fixed-width and string or binary leaves are sub-slices of the leaf's
// buffers found without a slot per entry; every other page goes through
// gatherValues with its slots.
func gatherShredded(s *shredded) (*values, error) {
	if !s.Dense {
		return gatherValues(s.Leaf, s.Idx, s.sc)
	}
	lo, n := s.DenseLo, s.DenseN
	if n == 0 {
		return gatherValues(s.Leaf, nil, s.sc)
	}
	if s.DenseNulls {
		return gatherDenseNulls(s)
	}
	v := &values{Values: codecs.Values{N: n}, sc: s.sc}
	switch a := s.Leaf.(type) {
	case *array.String:
		denseOffsets(v, a.ValueOffsets(), a.ValueBytes(), lo, n)
	case *array.LargeString:
		v.Large = true
		denseOffsets(v, a.ValueOffsets(), a.ValueBytes(), lo, n)
	case *array.Binary:
		v.Binary = true
		denseOffsets(v, a.ValueOffsets(), a.ValueBytes(), lo, n)
	case *array.LargeBinary:
		v.Large, v.Binary = true, true
		denseOffsets(v, a.ValueOffsets(), a.ValueBytes(), lo, n)
	default:
		dt, ok := s.Leaf.DataType().(arrow.FixedWidthDataType)
		if !ok || dt.ID() == arrow.BOOL || dt.BitWidth()%8 != 0 {
			return gatherValues(s.Leaf, s.slots(), s.sc)
		}
		w := dt.BitWidth() / 8
		v.Kind, v.Bits = valFixed, dt.BitWidth()
		src := fixedBytes(s.Leaf, w)
		v.Data = src[lo*w : (lo+n)*w : (lo+n)*w]
	}
	return v, nil
}

// denseOffsets sets v to the n values from slot lo of an array with
// offsets off into data: the data is shared, the offsets rebased to 0.
func denseOffsets[T int32 | int64](v *values, off []T, data []byte, lo, n int) {
	v.Kind = valVariable
	v.Offsets = v.sc.u64sAny(n + 1)
	base := off[lo]
	for j, o := range off[lo : lo+n+1] {
		v.Offsets[j] = uint64(o - base)
	}
	// ValueBytes starts at the first offset of the array's own slice
	first := off[0]
	v.Data = data[base-first : off[lo+n]-first : off[lo+n]-first]
}

// gatherDenseNulls collects a flat nullable page (layouts.Shredded
// DenseNulls: entry j is slot DenseLo+j, null where Def[j] != 0): fixed
// values are copied whole and zeroed under the nulls, as gatherValues
// leaves a null slot, without a slot list; other types take the slots.
func gatherDenseNulls(s *shredded) (*values, error) {
	dt, ok := s.Leaf.DataType().(arrow.FixedWidthDataType)
	if !ok || dt.ID() == arrow.BOOL || dt.BitWidth()%8 != 0 || s.Leaf.DataType().ID() == arrow.DICTIONARY {
		return gatherValues(s.Leaf, s.slots(), s.sc)
	}
	lo, n, w := s.DenseLo, s.DenseN, dt.BitWidth()/8
	v := &values{Values: codecs.Values{N: n, Kind: valFixed, Bits: dt.BitWidth()}, sc: s.sc}
	data := uninit.Bytes(n * w)
	copy(data, fixedBytes(s.Leaf, w)[lo*w:(lo+n)*w])
	valid := s.sc.boolsZero(n)
	for j, d := range s.Def[:n] {
		if d != 0 {
			clear(data[j*w : (j+1)*w])
		} else {
			valid[j] = true
		}
	}
	v.Data = data
	if s.NumNull > 0 {
		v.Valid = valid
	}
	return v, nil
}
