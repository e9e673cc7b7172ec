package layouts

import (
	"encoding/binary"
	"fmt"
	mathbits "math/bits"
	"unsafe"
)

// PathNode is one layer of a leaf column's structure over a run of rows:
// the validity of the layer's slots and, for lists, their offsets into the
// next layer. The inner-most node (Child == nil) describes the leaf values.
type PathNode struct {
	Kind LayerKind
	// Len is the number of slots at this layer.
	Len int
	// Validity is an LSB-first bitmap of Len bits, nil when all are valid.
	Validity []byte
	// NullCount is the number of zero bits in Validity.
	NullCount int
	// Offsets (lists only) holds Len+1 offsets into Child's slots.
	Offsets []int64
	// Child is the next inner layer; nil at the leaf.
	Child *PathNode
}

// Leaf returns the inner-most node.
func (n *PathNode) Leaf() *PathNode {
	for n.Child != nil {
		n = n.Child
	}
	return n
}

// Levels is a run of repetition and definition levels. Rep or Def is nil
// when the page stores none (then every entry has level 0).
type Levels struct {
	Rep, Def []uint16
	// N is the number of entries.
	N int
}

func (l Levels) def(i int) uint16 {
	if l.Def == nil {
		return 0
	}
	return l.Def[i]
}

// check validates level counts and ranges against the layer set.
func (l Levels) check(set LayerSet) error {
	if err := l.checkLengths(set); err != nil {
		return err
	}
	if r, bad := levelAbove(l.Rep, set.MaxRep); bad {
		return fmt.Errorf("%w: repetition level %d above maximum %d", ErrCorrupt, r, set.MaxRep)
	}
	if d, bad := levelAbove(l.Def, set.MaxDef); bad {
		return fmt.Errorf("%w: definition level %d above maximum %d", ErrCorrupt, d, set.MaxDef)
	}
	if set.DenseFSL {
		if per := set.denseRowItems(); uint64(l.N)%per != 0 {
			return fmt.Errorf("%w: %d entries are not whole rows of %d fixed-size-list items", ErrCorrupt, l.N, per)
		}
		if l.Rep != nil {
			return fmt.Errorf("%w: dense fixed-size-list page with repetition levels", ErrCorrupt)
		}
		return nil
	}
	if set.HasLists() && l.N > 0 && l.Rep[0] != set.MaxRep {
		return fmt.Errorf("%w: first entry has repetition level %d, want %d (row start)",
			ErrCorrupt, l.Rep[0], set.MaxRep)
	}
	return nil
}

// checkLengths validates the level buffers' lengths against N, and that a
// set with lists has repetition levels.
func (l Levels) checkLengths(set LayerSet) error {
	if l.N < 0 || l.Rep != nil && len(l.Rep) != l.N || l.Def != nil && len(l.Def) != l.N {
		return fmt.Errorf("%w: level buffers hold %d rep / %d def levels for %d entries",
			ErrCorrupt, len(l.Rep), len(l.Def), l.N)
	}
	if set.HasLists() && !set.DenseFSL && l.Rep == nil && l.N > 0 {
		return fmt.Errorf("%w: page has list layers but no repetition levels", ErrCorrupt)
	}
	return nil
}

// orLevels returns the bitwise OR of lv's levels: at least their maximum,
// and cheaper to compute (callers compute maxLevel only when it is above
// the limit).
func orLevels(lv []uint16) uint16 {
	var m0, m1, m2, m3 uint16
	i := 0
	for ; i+4 <= len(lv); i += 4 {
		q := lv[i : i+4 : i+4]
		m0, m1, m2, m3 = m0|q[0], m1|q[1], m2|q[2], m3|q[3]
	}
	for _, x := range lv[i:] {
		m0 |= x
	}
	return m0 | m1 | m2 | m3
}

// levelAbove reports whether a level in lv exceeds limit, and the
// largest level when one does.
func levelAbove(lv []uint16, limit uint16) (uint16, bool) {
	if orLevels(lv) <= limit {
		return 0, false
	}
	m := maxLevel(lv)
	return m, m > limit
}

// maxLevel returns the largest level in lv (0 if empty), without a branch
// per level; four running maxima keep the conditional moves independent.
func maxLevel(lv []uint16) uint16 {
	var m0, m1, m2, m3 uint16
	i := 0
	for ; i+4 <= len(lv); i += 4 {
		q := lv[i : i+4 : i+4]
		m0, m1, m2, m3 = max(m0, q[0]), max(m1, q[1]), max(m2, q[2]), max(m3, q[3])
	}
	for _, x := range lv[i:] {
		m0 = max(m0, x)
	}
	return max(m0, m1, m2, m3)
}

// Unravel turns levels into one PathNode per layer, outer-most first.
// The returned leaf node's Len is the number of values the levels expect.
func Unravel(set LayerSet, lv Levels) (*PathNode, error) {
	if isOneList(set) {
		return unravelOneList(set, lv)
	}
	if err := lv.check(set); err != nil {
		return nil, err
	}
	return unravelLayers(set, lv)
}

// UnravelAppend unravels lv and appends the result to dst (the structure
// of earlier rows of the same column, same layer shape), returning the
// combined node; dst may be nil. The one-list shape is appended in place.
func UnravelAppend(dst *PathNode, set LayerSet, lv Levels) (*PathNode, error) {
	if dst != nil && isOneList(set) {
		return dst, appendOneList(dst, set, lv)
	}
	node, err := Unravel(set, lv)
	if err != nil || dst == nil {
		return node, err
	}
	return dst, AppendNode(dst, node)
}

// unravelLayers is the general walk of Unravel, one layer at a time.
func unravelLayers(set LayerSet, lv Levels) (*PathNode, error) {
	var slots []int32 // entry index of each slot; nil means slot i = entry i
	var stride uint64 // entries per slot of a dense fixed-size-list page
	switch {
	case set.DenseFSL:
		stride = set.denseRowItems()
		slots = denseSlots(lv.N, stride)
	case set.HasLists():
		slots = rowStarts(lv.Rep, set.MaxRep)
	}
	nslots := lv.N
	if slots != nil {
		nslots = len(slots)
	}
	var top, prev *PathNode
	for _, layer := range set.Layers {
		node := &PathNode{Kind: layer.Kind, Len: nslots}
		switch layer.Kind {
		case LayerItem:
			itemValidity(node, layer, lv, slots, set.MaxDef)
		case LayerList:
			slots = listLayer(node, layer, lv, slots)
			nslots = len(slots)
		case LayerFSL:
			var err error
			if set.DenseFSL {
				slots, stride = denseFSLLayer(node, layer, lv, slots, stride)
			} else if slots, err = fslLayer(node, layer, lv, slots); err != nil {
				return nil, err
			}
			nslots = len(slots)
		}
		if top == nil {
			top = node
		} else {
			prev.Child = node
		}
		prev = node
	}
	if prev.Kind != LayerItem {
		return nil, fmt.Errorf("%w: inner-most rep/def layer is a list", ErrCorrupt)
	}
	return top, nil
}

func rowStarts(rep []uint16, maxRep uint16) []int32 {
	n := 0
	for _, r := range rep {
		if r == maxRep {
			n++
		}
	}
	out := make([]int32, 0, n)
	for i, r := range rep {
		if r == maxRep {
			out = append(out, int32(i))
		}
	}
	return out
}

func slotEntry(slots []int32, i int) int {
	if slots == nil {
		return i
	}
	return int(slots[i])
}

func itemValidity(node *PathNode, layer RepDefLayer, lv Levels, slots []int32, maxDef uint16) {
	if lv.Def == nil || layer.Before >= maxDef {
		return
	}
	if slots == nil {
		if layer.Before == 0 && maxDef == 1 && isLittleEndian() { // levels passed check: all 0 or 1
			node.Validity, node.NullCount = zeroOneBitmap(lv.Def[:node.Len])
			return
		}
		node.Validity, node.NullCount = defBitmap(lv.Def[:node.Len], layer.Before)
		return
	}
	bm := newBitmap(node.Len)
	nulls := 0
	for i := 0; i < node.Len; i++ {
		v := b2i(lv.Def[slotEntry(slots, i)] <= layer.Before)
		bm[i>>3] |= byte(v) << (i & 7)
		nulls += 1 - v
	}
	if nulls > 0 {
		node.Validity, node.NullCount = bm, nulls
	}
}

// listLayer fills node's offsets and validity and returns the child slots.
func listLayer(node *PathNode, layer RepDefLayer, lv Levels, slots []int32) []int32 {
	k := layer.RepNumber
	child := make([]int32, 0, lv.N)
	node.Offsets = make([]int64, node.Len+1)
	var bm []byte
	nulls := 0
	for i := 0; i < node.Len; i++ {
		s := slotEntry(slots, i)
		d := lv.def(s)
		if d > layer.Before {
			if d != layer.EmptyCode {
				if bm == nil {
					bm = newBitmapSet(node.Len)
				}
				clearBit(bm, i)
				nulls++
			}
			node.Offsets[i+1] = int64(len(child))
			continue
		}
		child = append(child, int32(s))
		for p := s + 1; p < lv.N && lv.Rep[p] < k; p++ {
			if lv.Rep[p] == k-1 {
				child = append(child, int32(p))
			}
		}
		node.Offsets[i+1] = int64(len(child))
	}
	if nulls > 0 {
		node.Validity, node.NullCount = bm, nulls
	}
	return child
}

// fslLayer fills a fixed-size-list node's validity and returns the child
// slots: every slot, null or not, has exactly Dim children, the slot's
// entry and the entries after it at the layer's continuation level.
func fslLayer(node *PathNode, layer RepDefLayer, lv Levels, slots []int32) ([]int32, error) {
	k, dim := layer.RepNumber, layer.Dim
	if dim == 0 || uint64(node.Len)*dim > uint64(lv.N) {
		return nil, fmt.Errorf("%w: fixed-size list of %d slots of %d items over %d entries", ErrCorrupt, node.Len, dim, lv.N)
	}
	child := make([]int32, 0, uint64(node.Len)*dim)
	var bm []byte
	nulls := 0
	for i := 0; i < node.Len; i++ {
		s := slotEntry(slots, i)
		if lv.def(s) > layer.Before {
			if bm == nil {
				bm = newBitmapSet(node.Len)
			}
			clearBit(bm, i)
			nulls++
		}
		start := len(child)
		child = append(child, int32(s))
		for p := s + 1; p < lv.N && lv.Rep[p] < k; p++ {
			if lv.Rep[p] == k-1 {
				child = append(child, int32(p))
			}
		}
		if uint64(len(child)-start) != dim {
			return nil, fmt.Errorf("%w: fixed-size list slot %d has %d items, want %d", ErrCorrupt, i, len(child)-start, dim)
		}
	}
	if nulls > 0 {
		node.Validity, node.NullCount = bm, nulls
	}
	return child, nil
}

// zeroOneBitmap is defBitmap(def, 0) for levels that are all 0 or 1, on
// a little-endian machine: eight levels (two words of four) become one
// bitmap byte through a multiply that gathers the lanes' low bits.
func zeroOneBitmap(def []uint16) ([]byte, int) {
	bm := newBitmap(len(def))
	nulls := 0
	full := len(def) &^ 7
	if full > 0 {
		b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(def))), 2*full)
		for i := 0; i < full; i += 8 {
			q := b[2*i : 2*i+16 : 2*i+16]
			m := gatherLanes(binary.LittleEndian.Uint64(q)) | gatherLanes(binary.LittleEndian.Uint64(q[8:]))<<4
			bm[i>>3] = ^m
			nulls += mathbits.OnesCount8(m)
		}
	}
	for i := full; i < len(def); i++ {
		if def[i] == 0 {
			setBit(bm, i)
		} else {
			nulls++
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	return bm, nulls
}

// gatherLanes returns the low bits of w's four 16-bit lanes as bits 0-3:
// the multiply moves lane k's bit 16k to bit 48+k, and every other product
// term lands on a distinct bit below 48 or above 63, so nothing carries.
func gatherLanes(w uint64) byte {
	const lowBits = 0x0001_0001_0001_0001
	const magic = 1<<48 | 1<<33 | 1<<18 | 1<<3
	return byte((w & lowBits) * magic >> 48 & 0xF)
}

// defBitmap returns the bitmap of entries whose def level is at most
// before, and the count of the others; nil when there are none.
func defBitmap(def []uint16, before uint16) ([]byte, int) {
	bm := newBitmap(len(def))
	valid := 0
	full := len(def) &^ 7
	for i := 0; i < full; i += 8 {
		d := def[i : i+8 : i+8]
		var b byte
		for j, x := range d { // no branch per level: nulls fall at random
			b |= byte(b2i(x <= before)) << j
		}
		bm[i>>3] = b
		valid += mathbits.OnesCount8(b)
	}
	for i := full; i < len(def); i++ {
		if def[i] <= before {
			setBit(bm, i)
			valid++
		}
	}
	if valid == len(def) {
		return nil, 0
	}
	return bm, len(def) - valid
}
