package filewriter

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/internal/lebits"
	"github.com/lancego/lancego/internal/lerr"
	"github.com/lancego/lancego/internal/uninit"
)

const (
	valFixed    = codecs.ValFixed    // bits per value a multiple of 8
	valBool     = codecs.ValBool     // 1 bit per value
	valVariable = codecs.ValVariable // offsets + data
	valFSL      = codecs.ValFSL      // fixed-size list(s) of fixed-width items
)

// fslLayer is one fixed-size-list dimension of the gathered values.
type fslLayer = codecs.FSLDim

// values are the gathered leaf values of one page (one per visible entry):
// the encoders' codecs.Values plus the pooled temporaries of the page.
type values struct {
	codecs.Values
	sc *leafScratch
	// indices marks dictionary indices, whose codec follows the 2.2 RLE
	// rule at 2.3 too (policy.go, chooseMiniCodec).
	indices bool
	// zipped holds, for a dictionary of fixed-size lists with null items,
	// the rows zipped with their validity as Lance keys them (zipFSLRows),
	// zipWidth bytes each.
	zipped   []byte
	zipWidth int
}

// gatherValues collects the values at idx (-1 = null slot) from leaf.
// Contiguous slots are not copied: v.data may then alias the Arrow
// buffers of leaf (read-only, valid while leaf is).
func gatherValues(leaf arrow.Array, idx []int, sc *leafScratch) (*values, error) {
	v := &values{Values: codecs.Values{N: len(idx)}, sc: sc}
	v.Valid = validSlots(leaf, idx, sc)
	switch dt := leaf.DataType().(type) {
	case *arrow.BooleanType:
		v.Kind, v.Bits = valBool, 1
		v.Data = gatherBools(leaf.(*array.Boolean), idx)
	case *arrow.FixedSizeListType:
		return v, gatherFSL(v, leaf.(*array.FixedSizeList), idx)
	case arrow.BinaryDataType:
		v.Kind = valVariable
		v.Large = dt.Layout().Buffers[1].ByteWidth == 8
		v.Binary = dt.ID() == arrow.BINARY || dt.ID() == arrow.LARGE_BINARY
		gatherVariable(v, leaf, idx)
	case arrow.FixedWidthDataType:
		v.Kind, v.Bits = valFixed, dt.BitWidth()
		if v.Bits%8 != 0 {
			return nil, fmt.Errorf("%w: %s", lerr.ErrUnsupportedType, dt)
		}
		v.Data = gatherFixed(leaf, idx, v.Bits/8)
	default:
		return nil, fmt.Errorf("%w: leaf %s", lerr.ErrUnsupportedType, dt)
	}
	return v, nil
}

// validSlots returns per entry of idx whether it is a valid slot of leaf,
// or nil when all are.
func validSlots(leaf arrow.Array, idx []int, sc *leafScratch) []bool {
	if leaf.NullN() == 0 && allSlots(idx) {
		return nil
	}
	valid := sc.boolsZero(len(idx))
	anyNull := false
	bm, off := leaf.NullBitmapBytes(), leaf.Data().Offset()
	switch {
	case leaf.NullN() == 0:
		for j, i := range idx {
			valid[j] = i >= 0
		}
		anyNull = true // allSlots said so
	case len(bm) > 0:
		for j, i := range idx {
			ok := i >= 0 && bm[(off+i)>>3]&(1<<((off+i)&7)) != 0
			valid[j] = ok
			anyNull = anyNull || !ok
		}
	default:
		for j, i := range idx {
			valid[j] = i >= 0 && leaf.IsValid(i)
			anyNull = anyNull || !valid[j]
		}
	}
	if !anyNull {
		return nil
	}
	return valid
}

// fixedBytes returns the value bytes of a fixed-width array from its offset.
func fixedBytes(a arrow.Array, width int) []byte {
	bufs := a.Data().Buffers()
	if len(bufs) < 2 || bufs[1] == nil {
		return nil
	}
	return bufs[1].Bytes()[a.Data().Offset()*width:]
}

// gatherFixed returns the width-byte values at idx (zeros for -1): a
// sub-slice of a's buffer when idx is contiguous, else a copy.
func gatherFixed(a arrow.Array, idx []int, width int) []byte {
	src := fixedBytes(a, width)
	if contiguous(idx) {
		lo, hi := idx[0]*width, (idx[0]+len(idx))*width
		return src[lo:hi:hi]
	}
	out := make([]byte, len(idx)*width)
	switch width {
	case 1:
		gatherWords[uint8](out, src, idx)
	case 2:
		gatherWords[uint16](out, src, idx)
	case 4:
		gatherWords[uint32](out, src, idx)
	case 8:
		gatherWords[uint64](out, src, idx)
	default:
		for j, i := range idx {
			if i >= 0 {
				copy(out[j*width:(j+1)*width], src[i*width:])
			}
		}
	}
	return out
}

// gatherWords copies the T-sized values of src at idx (-1: left zero) to
// out, one load and store per value instead of a copy call.
func gatherWords[T uint8 | uint16 | uint32 | uint64](out, src []byte, idx []int) {
	o, s := lebits.Words[T](out), lebits.Words[T](src)
	if len(idx) == 0 || s == nil {
		return
	}
	for j, i := range idx {
		if i >= 0 {
			o[j] = s[i]
		}
	}
}

// contiguous reports idx == start, start+1, ... (non-empty, no -1).
// Dictionary slots can be a permutation, so every step is checked.
func contiguous(idx []int) bool {
	if len(idx) == 0 || idx[0] < 0 {
		return false
	}
	for j := 1; j < len(idx); j++ {
		if idx[j] != idx[j-1]+1 {
			return false
		}
	}
	return true
}

// allSlots reports that no entry of idx is -1.
func allSlots(idx []int) bool {
	for _, i := range idx {
		if i < 0 {
			return false
		}
	}
	return true
}

// gatherBools packs the booleans at idx into an LSB-first bitmap.
func gatherBools(a *array.Boolean, idx []int) []byte {
	out := make([]byte, (len(idx)+7)/8)
	for j, i := range idx {
		if i >= 0 && a.IsValid(i) && a.Value(i) {
			bitutil.SetBit(out, j)
		}
	}
	return out
}

// binaryValue returns value i of a string or binary array.
func binaryValue(a arrow.Array, i int) []byte {
	switch t := a.(type) {
	case *array.String:
		return []byte(t.Value(i))
	case *array.LargeString:
		return []byte(t.Value(i))
	case *array.Binary:
		return t.Value(i)
	case *array.LargeBinary:
		return t.Value(i)
	}
	return nil
}

// gatherVariable collects variable-width values (empty for nulls).
func gatherVariable(v *values, a arrow.Array, idx []int) {
	var data []byte
	if bufs := a.Data().Buffers(); len(bufs) > 2 && bufs[2] != nil {
		data = bufs[2].Bytes()
	}
	switch t := a.(type) {
	case *array.String:
		gatherOffsets(v, t.ValueOffsets(), data, idx)
	case *array.LargeString:
		gatherOffsets(v, t.ValueOffsets(), data, idx)
	case *array.Binary:
		gatherOffsets(v, t.ValueOffsets(), data, idx)
	case *array.LargeBinary:
		gatherOffsets(v, t.ValueOffsets(), data, idx)
	default:
		v.Offsets = make([]uint64, 1, len(idx)+1)
		for _, i := range idx {
			if i >= 0 && a.IsValid(i) {
				v.Data = append(v.Data, binaryValue(a, i)...)
			}
			v.Offsets = append(v.Offsets, uint64(len(v.Data)))
		}
	}
}

// gatherOffsets gathers the values at idx of an array with offsets off
// (one per slot plus one, indexing data). Contiguous slots whose null
// slots are empty are not copied: v.data is then a sub-slice of data.
func gatherOffsets[T int32 | int64](v *values, off []T, data []byte, idx []int) {
	n := len(idx)
	v.Offsets = v.sc.u64sAny(n + 1) // [0] here, every later one below
	v.Offsets[0] = 0
	valid := func(j int) bool { return v.Valid == nil || v.Valid[j] }
	if contiguous(idx) {
		lo, hi := off[idx[0]], off[idx[n-1]+1]
		share := true
		if v.Valid != nil {
			for j, i := range idx {
				if !v.Valid[j] && off[i+1] != off[i] {
					share = false
					break
				}
			}
		}
		if share {
			v.Data = data[lo:hi:hi]
			for j, o := range off[idx[0]+1 : idx[n-1]+2] {
				v.Offsets[j+1] = uint64(o - lo)
			}
			return
		}
	}
	total := 0
	for j, i := range idx {
		if valid(j) {
			total += int(off[i+1] - off[i])
		}
	}
	out := uninit.Bytes(total)[:0] // appended to in full
	for j, i := range idx {
		if valid(j) {
			out = append(out, data[off[i]:off[i+1]]...)
		}
		v.Offsets[j+1] = uint64(len(out))
	}
	v.Data = out
}

// gatherFSL collects fixed-size-list rows of fixed-width items.
func gatherFSL(v *values, a *array.FixedSizeList, idx []int) error {
	v.Kind = valFSL
	if gatherFSLContiguous(v, a, idx) {
		return nil
	}
	rows := idx
	var cur arrow.Array = a
	for {
		fl, ok := cur.(*array.FixedSizeList)
		if !ok {
			break
		}
		dim := int(fl.DataType().(*arrow.FixedSizeListType).Len())
		child := fl.ListValues()
		items := make([]int, 0, len(rows)*dim)
		for _, r := range rows {
			for d := 0; d < dim; d++ {
				if r < 0 || fl.IsNull(r) {
					items = append(items, -1)
				} else {
					items = append(items, (r+fl.Data().Offset())*dim+d)
				}
			}
		}
		v.FSL = append(v.FSL, fslLayer{Dim: dim, Validity: validityOf(child, items)})
		rows, cur = items, child
	}
	if b, ok := cur.(*array.Boolean); ok { // bit-packed items
		v.Bits, v.Data = 1, gatherBools(b, rows)
		return nil
	}
	dt, ok := cur.DataType().(arrow.FixedWidthDataType)
	if !ok || dt.BitWidth()%8 != 0 {
		return fmt.Errorf("%w: fixed-size list of %s", lerr.ErrUnsupportedType, cur.DataType())
	}
	v.Bits = dt.BitWidth()
	v.Data = gatherFixed(cur, rows, v.Bits/8)
	return nil
}

// gatherFSLContiguous handles contiguous rows of fixed-size lists without
// nulls at any level (no item slots listed, no copy); it reports false,
// changing nothing, for other input.
func gatherFSLContiguous(v *values, a *array.FixedSizeList, idx []int) bool {
	if !contiguous(idx) {
		return false
	}
	lo, hi := idx[0], idx[len(idx)-1]+1
	var layers []fslLayer
	var cur arrow.Array = a
	for {
		fl, ok := cur.(*array.FixedSizeList)
		if !ok {
			break
		}
		child := fl.ListValues()
		if fl.NullN() != 0 || child.NullN() != 0 {
			return false
		}
		dim := int(fl.DataType().(*arrow.FixedSizeListType).Len())
		layers = append(layers, fslLayer{Dim: dim})
		off := fl.Data().Offset()
		lo, hi = (lo+off)*dim, (hi+off)*dim
		cur = child
	}
	if b, ok := cur.(*array.Boolean); ok {
		lo, hi = lo+b.Data().Offset(), hi+b.Data().Offset()
		if lo%8 != 0 {
			return false // the bitmap does not start on a byte: gathered
		}
		v.FSL, v.Bits = layers, 1
		v.Data = b.Data().Buffers()[1].Bytes()[lo/8 : (hi+7)/8 : (hi+7)/8]
		return true
	}
	dt, ok := cur.DataType().(arrow.FixedWidthDataType)
	if !ok || dt.BitWidth()%8 != 0 || cur.DataType().ID() == arrow.BOOL {
		return false
	}
	v.FSL, v.Bits = layers, dt.BitWidth()
	w := v.Bits / 8
	src := fixedBytes(cur, w)
	v.Data = src[lo*w : hi*w : hi*w]
	return true
}

// validityOf builds the item validity bitmap of slots (nil if all valid).
func validityOf(a arrow.Array, slots []int) []byte {
	if a.NullN() == 0 {
		return nil
	}
	out := make([]byte, (len(slots)+7)/8)
	for j, i := range slots {
		if i >= 0 && a.IsValid(i) {
			bitutil.SetBit(out, j)
		}
	}
	return out
}
