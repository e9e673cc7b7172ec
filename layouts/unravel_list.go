package layouts

import (
	"encoding/binary"
	"fmt"
	"math"
	mathbits "math/bits"
	"slices"
	"unsafe"

	"github.com/lancego/lancego/internal/uninit"
)

// unravelOneList is Unravel for the most common list shape, one list layer
// over one item layer ([list, item] outer first): offsets, list validity
// and item validity come out of a single pass over the levels, without the
// per-layer slot arrays of the general walk. It checks the levels itself,
// folding check's passes into its own: one over the repetition levels
// (row count and range) and the definition range inside the main pass.
//
// The loops are written without data-dependent branches on the row
// structure (row starts fall at random), which a predictor cannot learn:
// every repetition level is checked to be 0 or 1 first, so it is used as a
// count, and each entry stores its offset slot unconditionally (a store
// into the next row's slot is overwritten when that row starts).
func unravelOneList(set LayerSet, lv Levels) (*PathNode, error) {
	rows, err := oneListRows(set, lv)
	if err != nil {
		return nil, err
	}
	// fillOneList writes every offset slot: no zeroing needed.
	// fillOneList writes every offset slot after the first, the base.
	top := &PathNode{Kind: LayerList, Len: rows, Offsets: uninit.Int64s(rows + 1)}
	top.Offsets[0] = 0
	top.Child = &PathNode{Kind: LayerItem}
	if err := fillOneList(set, lv, top, top.Offsets); err != nil {
		return nil, err
	}
	return top, nil
}

// appendOneList unravels lv onto the end of dst, a [list, item] node of
// earlier rows, writing the new offsets in place instead of building a node
// and copying it over. Levels that may hold nulls go through a fresh node
// and AppendNode.
func appendOneList(dst *PathNode, set LayerSet, lv Levels) error {
	if set.Layers[0].NullCode != 0 || set.Layers[1].NullCode != 0 || dst.Child == nil || dst.Kind != LayerList || len(dst.Offsets) != dst.Len+1 {
		node, err := unravelOneList(set, lv)
		if err != nil {
			return err
		}
		return AppendNode(dst, node)
	}
	rows, err := oneListRows(set, lv)
	if err != nil {
		return err
	}
	at := len(dst.Offsets) - 1
	dst.Offsets = slices.Grow(dst.Offsets, rows)[:at+rows+1]
	part := &PathNode{Kind: LayerList, Len: rows, Child: &PathNode{Kind: LayerItem}}
	if err := fillOneList(set, lv, part, dst.Offsets[at:]); err != nil {
		dst.Offsets = dst.Offsets[:at+1]
		return err
	}
	if part.NullCount > 0 || part.Child.NullCount > 0 { // a hostile file's stray entries
		dst.Offsets = dst.Offsets[:at+1]
		node, err := unravelOneList(set, lv)
		if err != nil {
			return err
		}
		return AppendNode(dst, node)
	}
	for _, n := range []*PathNode{dst, dst.Child} {
		if n.Validity != nil {
			grow := rows
			if n != dst {
				grow = part.Child.Len
			}
			n.Validity = appendBits(n.Validity, n.Len, nil, 0, grow)
		}
	}
	dst.Len += rows
	dst.Child.Len += part.Child.Len
	return nil
}

// oneListRows checks lv against a [list, item] set (counts, the range of
// the repetition levels, a row start first) and returns the row count.
func oneListRows(set LayerSet, lv Levels) (int, error) {
	if err := lv.checkLengths(set); err != nil {
		return 0, err
	}
	rep := lv.Rep[:lv.N]
	rows, ok := countZeroOne(rep)
	if !ok {
		return 0, fmt.Errorf("%w: repetition level %d above maximum %d", ErrCorrupt, maxLevel(rep), set.MaxRep)
	}
	if len(rep) > 0 && rep[0] != 1 {
		return 0, fmt.Errorf("%w: first entry has repetition level %d, want %d (row start)", ErrCorrupt, rep[0], set.MaxRep)
	}
	return rows, nil
}

// countZeroOne returns the number of 1s in lv and whether every level is
// 0 or 1, four levels at a time: a machine word of four such levels has
// one bit per 1, so its population count adds them up, and any other bit
// set marks a level above 1.
func countZeroOne(lv []uint16) (int, bool) {
	const notZeroOne = 0xFFFE_FFFE_FFFE_FFFE
	n := 0
	var bad uint64
	if len(lv) >= 4 {
		b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(lv))), 2*len(lv))
		for i := 0; i+8 <= len(b); i += 8 {
			w := binary.NativeEndian.Uint64(b[i : i+8 : i+8])
			n += mathbits.OnesCount64(w)
			bad |= w & notZeroOne
		}
	}
	for _, x := range lv[len(lv)&^3:] {
		n += int(x)
		bad |= uint64(x) &^ 1
	}
	return n, bad == 0
}

// fillOneList writes offs (len(top's rows)+1 slots, offs[0] the base) and
// the validity and lengths of top and its leaf from checked repetition
// levels, and checks the definition levels' range on the way.
func fillOneList(set LayerSet, lv Levels, top *PathNode, offs []int64) error {
	list, item, leaf := set.Layers[0], set.Layers[1], top.Child
	n, rows, base := lv.N, top.Len, offs[0]
	rep := lv.Rep[:n]
	if lv.Def == nil { // every row is a valid list and every entry an item
		row := 0
		for i, r := range rep {
			offs[row] = base + int64(i)
			row += int(r)
		}
		offs[rows], leaf.Len = base+int64(n), n
		return nil
	}
	def := lv.Def[:n]
	items, stray, dor := 0, true, uint16(math.MaxUint16)
	if list.NullCode == 0 && item.NullCode == 0 {
		items, stray, dor = oneListOffsets(list.Before, rep, def, offs)
	}
	if dor > set.MaxDef { // the OR of the levels bounds their maximum
		if m, bad := levelAbove(def, set.MaxDef); bad {
			return fmt.Errorf("%w: definition level %d above maximum %d", ErrCorrupt, m, set.MaxDef)
		}
	}
	var listBM, itemBM []byte
	if stray {
		if item.Before < set.MaxDef {
			itemBM = newBitmapSet(n)
		}
		items = oneListPass(list, item, rep, def, offs, base, top, leaf, &listBM, itemBM)
	}
	offs[rows] = base + int64(items)
	leaf.Len = items
	if top.NullCount > 0 {
		top.Validity = listBM
	}
	if leaf.NullCount > 0 {
		leaf.Validity = itemBM[:(items+7)/8]
	}
	return nil
}

// oneListPass walks [list, item] levels that carry definition levels: it
// fills offs, clears the bits of null lists (allocating *listBM on the
// first) and of null items (in itemBM, if not nil), counts both into the
// nodes, and returns the number of items. An entry counts as an item while
// its row holds items (the row start is neither null nor empty), as the
// general walk counts it, even where a hostile file continues a null row.
func oneListPass(list, item RepDefLayer, rep, def []uint16, offs []int64, base int64, top, leaf *PathNode, listBM *[]byte, itemBM []byte) int {
	rows := len(offs) - 1
	row, items := 0, 0
	open := 0 // 1 while the current row holds items (not null or empty)
	for i, r := range rep {
		d := def[i]
		offs[row] = base + int64(items)
		row += int(r)
		holds := b2i(d <= list.Before)
		if r != 0 {
			open = holds
		}
		if r&^uint16(holds) == 1 && d != list.EmptyCode { // rare: a null list
			if *listBM == nil {
				*listBM = newBitmapSet(rows)
			}
			clearBit(*listBM, row-1)
			top.NullCount++
		}
		if itemBM != nil && open&b2i(d > item.Before) == 1 { // rare: a null item
			clearBit(itemBM, items)
			leaf.NullCount++
		}
		items += open
	}
	return items
}

// oneListOffsets fills offs (offs[0] holds the base) for lists that cannot
// be null over items that cannot be null (so an item's definition level is
// valid exactly when its list's is: both are at most before), and returns
// the number of items and whether there were stray entries: entries counted
// as items whose definition level says null or empty, which only a hostile
// file has (oneListPass then redoes the walk to report them as the general
// walk does), and the OR of the definition levels (for the range check).
// Few live values keep the loop in registers.
func oneListOffsets(before uint16, rep, def []uint16, offs []int64) (items int, stray bool, defOr uint16) {
	def = def[:len(rep)]
	base := offs[0]
	cur, open, bad := base, int64(0), int64(0)
	row := 0
	for i, r := range rep {
		d := def[i]
		defOr |= d
		holds := int64(b2i(d <= before))
		offs[row] = cur
		row += int(r)
		if r != 0 {
			open = holds
		}
		bad |= open &^ holds
		cur += open
	}
	return int(cur - base), bad != 0, defOr
}

// b2i is 1 for true and 0 for false (compiled to a flag set, no branch).
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}

// isOneList reports whether set is [list, item] (outer first).
func isOneList(set LayerSet) bool {
	return len(set.Layers) == 2 && set.MaxRep == 1 &&
		set.Layers[0].Kind == LayerList && set.Layers[1].Kind == LayerItem
}
