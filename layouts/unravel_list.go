package layouts

// unravelOneList is Unravel for the most common list shape, one list layer
// over one item layer ([list, item] outer first): offsets, list validity
// and item validity come out of a single pass over the levels, without the
// per-layer slot arrays of the general walk. lv has passed check.
func unravelOneList(set LayerSet, lv Levels) *PathNode {
	list, item := set.Layers[0], set.Layers[1]
	rows := 0
	for _, r := range lv.Rep {
		if r == 1 {
			rows++
		}
	}
	top := &PathNode{Kind: LayerList, Len: rows, Offsets: make([]int64, rows+1)}
	leaf := &PathNode{Kind: LayerItem}
	top.Child = leaf
	itemBits := lv.Def != nil && item.Before < set.MaxDef
	var listBM, itemBM []byte
	if itemBits {
		itemBM = newBitmapSet(lv.N)
	}
	row, items := -1, 0
	open := false // the current row holds items (not null or empty)
	for i := 0; i < lv.N; i++ {
		d := uint16(0)
		if lv.Def != nil {
			d = lv.Def[i]
		}
		if lv.Rep[i] == 1 {
			if row >= 0 {
				top.Offsets[row+1] = int64(items)
			}
			row++
			open = d <= list.Before
			if !open {
				if d != list.EmptyCode {
					if listBM == nil {
						listBM = newBitmapSet(rows)
					}
					clearBit(listBM, row)
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
	if row >= 0 {
		top.Offsets[row+1] = int64(items)
	}
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
