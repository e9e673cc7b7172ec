package layouts

// unravelOneList is Unravel for the most common list shape, one list layer
// over one item layer ([list, item] outer first): offsets, list validity
// and item validity come out of a single pass over the levels, without the
// per-layer slot arrays of the general walk. lv has passed check.
func unravelOneList(set LayerSet, lv Levels) *PathNode {
	list, item := set.Layers[0], set.Layers[1]
	n := lv.N
	rep := lv.Rep[:n]
	rows := 0
	for _, r := range rep {
		if r == 1 {
			rows++
		}
	}
	top := &PathNode{Kind: LayerList, Len: rows, Offsets: make([]int64, rows+1)}
	leaf := &PathNode{Kind: LayerItem}
	top.Child = leaf
	offs := top.Offsets[:rows+1]
	if lv.Def == nil { // every row is a valid list and every entry an item
		row := 0
		for i, r := range rep {
			if r == 1 {
				offs[row] = int64(i)
				row++
			}
		}
		offs[rows], leaf.Len = int64(n), n
		return top
	}
	def := lv.Def[:n]
	itemBits := item.Before < set.MaxDef
	var listBM, itemBM []byte
	if itemBits {
		itemBM = newBitmapSet(n)
	}
	row, items := 0, 0
	open := false // the current row holds items (not null or empty)
	for i, r := range rep {
		d := def[i]
		if r == 1 {
			if row >= rows {
				break // unreachable: rows counts these entries
			}
			offs[row] = int64(items)
			row++
			open = d <= list.Before
			if !open {
				if d != list.EmptyCode {
					if listBM == nil {
						listBM = newBitmapSet(rows)
					}
					clearBit(listBM, row-1)
					top.NullCount++
				}
				continue
			}
		} else if !open {
			continue // hostile levels: entries after a null or empty row
		}
		if itemBits && d > item.Before {
			clearBit(itemBM, items)
			leaf.NullCount++
		}
		items++
	}
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

// isOneList reports whether set is [list, item] (outer first).
func isOneList(set LayerSet) bool {
	return len(set.Layers) == 2 && set.MaxRep == 1 &&
		set.Layers[0].Kind == LayerList && set.Layers[1].Kind == LayerItem
}
