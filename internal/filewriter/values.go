package filewriter

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/lancego/lancego/internal/lerr"
)

// valueKind is the physical shape of a leaf's values.
type valueKind uint8

const (
	valFixed    valueKind = iota + 1 // bits per value a multiple of 8
	valBool                          // 1 bit per value
	valVariable                      // offsets + data
	valFSL                           // fixed-size list(s) of fixed-width items
)

// fslLayer is one fixed-size-list dimension of the gathered values.
type fslLayer struct {
	dim      int
	validity []byte // LSB-first bitmap over rows×cumulative dim items, nil if all valid
}

// values are the gathered leaf values of one page (one per visible entry).
type values struct {
	kind    valueKind
	n       int // number of values (rows for FSL)
	bits    int // bits per value (fixed/bool) or per item (FSL)
	data    []byte
	offsets []uint64 // variable: n+1 offsets into data
	large   bool     // variable: 64-bit offsets
	binary  bool     // variable: binary (not string) values
	fsl     []fslLayer
	valid   []bool // per value: not null (nil = all valid)
	sc      *leafScratch
}

// rowBits is the number of bits of one FSL row or fixed value.
func (v *values) rowBits() int {
	b := v.bits
	for _, l := range v.fsl {
		b *= l.dim
	}
	return b
}

// valueLen returns the byte length of variable value i.
func (v *values) valueLen(i int) uint64 { return v.offsets[i+1] - v.offsets[i] }

// gatherValues collects the values at idx (-1 = null slot) from leaf.
// Contiguous slots are not copied: v.data may then alias the Arrow
// buffers of leaf (read-only, valid while leaf is).
func gatherValues(leaf arrow.Array, idx []int, sc *leafScratch) (*values, error) {
	v := &values{n: len(idx), sc: sc}
	v.valid = validSlots(leaf, idx, sc)
	switch dt := leaf.DataType().(type) {
	case *arrow.BooleanType:
		v.kind, v.bits = valBool, 1
		v.data = gatherBools(leaf.(*array.Boolean), idx)
	case *arrow.FixedSizeListType:
		return v, gatherFSL(v, leaf.(*array.FixedSizeList), idx)
	case arrow.BinaryDataType:
		v.kind = valVariable
		v.large = dt.Layout().Buffers[1].ByteWidth == 8
		v.binary = dt.ID() == arrow.BINARY || dt.ID() == arrow.LARGE_BINARY
		gatherVariable(v, leaf, idx)
	case arrow.FixedWidthDataType:
		v.kind, v.bits = valFixed, dt.BitWidth()
		if v.bits%8 != 0 {
			return nil, fmt.Errorf("%w: %s", lerr.ErrUnsupportedType, dt)
		}
		v.data = gatherFixed(leaf, idx, v.bits/8)
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
	for j, i := range idx {
		valid[j] = i >= 0 && leaf.IsValid(i)
		anyNull = anyNull || !valid[j]
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
	for j, i := range idx {
		if i >= 0 {
			copy(out[j*width:(j+1)*width], src[i*width:])
		}
	}
	return out
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
		v.offsets = make([]uint64, 1, len(idx)+1)
		for _, i := range idx {
			if i >= 0 && a.IsValid(i) {
				v.data = append(v.data, binaryValue(a, i)...)
			}
			v.offsets = append(v.offsets, uint64(len(v.data)))
		}
	}
}

// gatherOffsets gathers the values at idx of an array with offsets off
// (one per slot plus one, indexing data). Contiguous slots whose null
// slots are empty are not copied: v.data is then a sub-slice of data.
func gatherOffsets[T int32 | int64](v *values, off []T, data []byte, idx []int) {
	n := len(idx)
	v.offsets = v.sc.u64sZero(n + 1)
	valid := func(j int) bool { return v.valid == nil || v.valid[j] }
	if contiguous(idx) {
		lo, hi := off[idx[0]], off[idx[n-1]+1]
		share := true
		if v.valid != nil {
			for j, i := range idx {
				if !v.valid[j] && off[i+1] != off[i] {
					share = false
					break
				}
			}
		}
		if share {
			v.data = data[lo:hi:hi]
			for j, o := range off[idx[0]+1 : idx[n-1]+2] {
				v.offsets[j+1] = uint64(o - lo)
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
	out := make([]byte, 0, total)
	for j, i := range idx {
		if valid(j) {
			out = append(out, data[off[i]:off[i+1]]...)
		}
		v.offsets[j+1] = uint64(len(out))
	}
	v.data = out
}

// gatherFSL collects fixed-size-list rows of fixed-width items.
func gatherFSL(v *values, a *array.FixedSizeList, idx []int) error {
	v.kind = valFSL
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
		v.fsl = append(v.fsl, fslLayer{dim: dim, validity: validityOf(child, items)})
		rows, cur = items, child
	}
	dt, ok := cur.DataType().(arrow.FixedWidthDataType)
	if !ok || dt.BitWidth()%8 != 0 || cur.DataType().ID() == arrow.BOOL {
		return fmt.Errorf("%w: fixed-size list of %s", lerr.ErrUnsupportedType, cur.DataType())
	}
	v.bits = dt.BitWidth()
	v.data = gatherFixed(cur, rows, v.bits/8)
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
		layers = append(layers, fslLayer{dim: dim})
		off := fl.Data().Offset()
		lo, hi = (lo+off)*dim, (hi+off)*dim
		cur = child
	}
	dt, ok := cur.DataType().(arrow.FixedWidthDataType)
	if !ok || dt.BitWidth()%8 != 0 || cur.DataType().ID() == arrow.BOOL {
		return false
	}
	v.fsl, v.bits = layers, dt.BitWidth()
	w := v.bits / 8
	src := fixedBytes(cur, w)
	v.data = src[lo*w : hi*w : hi*w]
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
