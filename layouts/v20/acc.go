package v20

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	"github.com/lancego/lancego/layouts"
)

// validity accumulates a bitmap that stays nil while every bit is set.
type validity struct {
	bits  []byte
	n     uint64
	nulls int
}

// appendBits adds n bits of src (nil: all set).
func (v *validity) appendBits(src []byte, n uint64) {
	if src == nil && v.bits == nil {
		v.n += n
		return
	}
	if v.bits == nil {
		v.bits = setBits(v.n)
	}
	if need := (v.n + n + 7) / 8; uint64(len(v.bits)) < need {
		v.bits = append(v.bits, make([]byte, need-uint64(len(v.bits)))...)
	}
	i := uint64(0)
	if v.n%8 == 0 { // byte-aligned (pages of multiples of 8 rows): whole bytes at once
		k, whole := v.n/8, n/8
		if src == nil {
			for j := range whole {
				v.bits[k+j] = 0xFF
			}
		} else {
			copy(v.bits[k:k+whole], src[:whole])
			for _, b := range src[:whole] {
				v.nulls += 8 - bits.OnesCount8(b)
			}
		}
		i = whole * 8
	}
	for ; i < n; i++ {
		k := v.n + i
		if src == nil || getBit(src, i) {
			v.bits[k/8] |= 1 << (k % 8)
		} else {
			v.bits[k/8] &^= 1 << (k % 8)
			v.nulls++
		}
	}
	v.n += n
}

// bitmap returns the bitmap (nil when no bit is clear).
func (v *validity) bitmap() []byte {
	if v.nulls == 0 {
		return nil
	}
	return v.bits
}

// Leaf accumulates the values and validity of one value column.
type Leaf struct {
	values layouts.Values
	valid  validity
	// expect is the rows to size the values for on the first block, and
	// copy makes appends copy (Expect: a scan's leaf).
	expect uint64
	copy   bool
	// spare is a buffer for variable-width offsets (SpareOffsets).
	spare []int64
}

// Append adds decoded rows.
func (l *Leaf) Append(d Decoded) error {
	l.reserveOffsets(&d.Block)
	if err := l.values.Append(&d.Block, 0, d.Block.NumValues); err != nil {
		return err
	}
	if d.Validity != nil && uint64(len(d.Validity))*8 < d.Block.NumValues {
		return fmt.Errorf("%w: validity of %d bytes for %d values", ErrCorrupt, len(d.Validity), d.Block.NumValues)
	}
	l.valid.appendBits(d.Validity, d.Block.NumValues)
	return nil
}

// reserveOffsets makes room for the offsets of a block of variable-width
// values at once: Values.Append adds them one by one, which regrew the
// slice about 13 times for a batch of 8,192 strings.
func (l *Leaf) reserveOffsets(b *codecs.Block) {
	v := &l.values
	if b.Kind != codecs.KindVariable || v.Kind != 0 && v.Kind != codecs.KindVariable || b.NumValues > 1<<28 {
		return
	}
	if v.Offsets == nil {
		v.Offsets = make([]int64, 1, b.NumValues+1) // what the first Append would start from: [0]
		return
	}
	v.Offsets = slices.Grow(v.Offsets, int(b.NumValues))
}

// AppendNulls adds n null values shaped for dt (rows the file has no page
// for cannot occur; this is for values under null parents, never stored).
func (l *Leaf) AppendNulls(dt arrow.DataType, n uint64) error {
	if err := l.shape(dt); err != nil {
		return err
	}
	l.values.AppendEmpty(int(n))
	l.valid.appendBits(make([]byte, (n+7)/8), n)
	return nil
}

// shape gives the values dt's shape if nothing was appended yet.
func (l *Leaf) shape(dt arrow.DataType) error {
	if l.values.Kind != 0 {
		return nil
	}
	s, err := layouts.ShapeFor(dt)
	if err != nil {
		return err
	}
	l.values.InitShape(&s)
	return nil
}

// Len returns the number of values appended.
func (l *Leaf) Len() uint64 { return l.valid.n }

// Finish returns the leaf's node and values for layouts.BuildArray. dt
// gives the values their shape when no rows were appended.
func (l *Leaf) Finish(dt arrow.DataType) (layouts.LeafData, error) {
	if err := l.shape(dt); err != nil {
		return layouts.LeafData{}, err
	}
	if uint64(l.values.N) != l.valid.n {
		return layouts.LeafData{}, fmt.Errorf("%w: %d values, %d validity bits", ErrCorrupt, l.values.N, l.valid.n)
	}
	node := &layouts.PathNode{Kind: layouts.LayerItem, Len: int(l.valid.n), Validity: l.valid.bitmap(), NullCount: l.valid.nulls}
	return layouts.LeafData{Node: node, Values: &l.values}, nil
}

// List accumulates the offsets and validity of a list column.
type List struct {
	offsets []int64
	valid   validity
}

// add appends one list of n items.
func (l *List) add(n uint64, valid bool) {
	if l.offsets == nil {
		l.offsets = []int64{0}
	}
	l.offsets = append(l.offsets, l.offsets[len(l.offsets)-1]+int64(n))
	if valid {
		l.valid.appendBits(nil, 1)
	} else {
		l.valid.appendBits([]byte{0}, 1)
	}
}

// Add appends one list of n items (for other decoders of list offsets).
func (l *List) Add(n uint64, valid bool) { l.add(n, valid) }

// Len returns the number of lists appended.
func (l *List) Len() uint64 { return l.valid.n }

// Items returns the number of items the appended lists hold.
func (l *List) Items() uint64 {
	if len(l.offsets) == 0 {
		return 0
	}
	return uint64(l.offsets[len(l.offsets)-1])
}

// Node returns the list layer over child (the item layer of the list's
// child field).
func (l *List) Node(child *layouts.PathNode) *layouts.PathNode {
	offs := l.offsets
	if offs == nil {
		offs = []int64{0}
	}
	return &layouts.PathNode{Kind: layouts.LayerList, Len: int(l.valid.n), Validity: l.valid.bitmap(),
		NullCount: l.valid.nulls, Offsets: offs, Child: child}
}

// StructNode returns a struct layer of n always-valid rows over child:
// 2.0 files store no struct validity.
func StructNode(n uint64, child *layouts.PathNode) *layouts.PathNode {
	return &layouts.PathNode{Kind: layouts.LayerItem, Len: int(n), Child: child}
}
