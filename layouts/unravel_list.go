package layouts

// unravelOneList is Unravel for the most common list shape, one list layer
// over one item layer ([list, item] outer first): offsets, list validity
// and item validity come out of a single pass over the levels, without the
// per-layer slot arrays of the general walk. lv has passed check.
//
// The loops are written without data-dependent branches on the row
// structure (row starts fall at random), which a predictor cannot learn:
// check guarantees every repetition level is 0 or 1, so it is used as a
// count, and each entry stores its offset slot unconditionally (a store
// into the next row's slot is overwritten when that row starts).
func unravelOneList(set LayerSet, lv Levels) *PathNode {
	list, item := set.Layers[0], set.Layers[1]
	n := lv.N
	rep := lv.Rep[:n]
	rows := 0
	for _, r := range rep {
		rows += int(r)
	}
	top := &PathNode{Kind: LayerList, Len: rows, Offsets: make([]int64, rows+1)}
	leaf := &PathNode{Kind: LayerItem}
	top.Child = leaf
	offs := top.Offsets[:rows+1]
	if lv.Def == nil { // every row is a valid list and every entry an item
		row := 0
		for i, r := range rep {
			offs[row] = int64(i)
			row += int(r)
		}
		offs[rows], leaf.Len = int64(n), n
		return top
	}
	var listBM, itemBM []byte
	if item.Before < set.MaxDef {
		itemBM = newBitmapSet(n)
	}
	items := oneListPass(list, item, rep, lv.Def[:n], offs, top, leaf, &listBM, itemBM)
	offs[rows] = int64(items)
	leaf.Len = items
	if top.NullCount > 0 {
		top.Validity = listBM
	}
	if leaf.NullCount > 0 {
		leaf.Validity = itemBM[:(items+7)/8]
	}
	return top
}

// oneListPass walks [list, item] levels that carry definition levels: it
// fills offs, clears the bits of null lists (allocating *listBM on the
// first) and of null items (in itemBM, if not nil), counts both into the
// nodes, and returns the number of items.
func oneListPass(list, item RepDefLayer, rep, def []uint16, offs []int64, top, leaf *PathNode, listBM *[]byte, itemBM []byte) int {
	rows := len(offs) - 1
	row, items := 0, 0
	open := 0 // 1 while the current row holds items (not null or empty)
	for i, r := range rep {
		d := def[i]
		offs[row] = int64(items)
		row += int(r)
		holds := b2i(d <= list.Before)
		start := int(r)
		open = start*holds + (1-start)*open
		if start&^holds == 1 && d != list.EmptyCode { // rare: a null list
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
