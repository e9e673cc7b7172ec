package layouts

// chunkStore holds a memo's decoded chunks in the order they were decoded.
// A scan's batch touches a few dozen chunks, found by a scan from the most
// recent; past memoScanMax chunks (a take of rows all over a page) an
// index map is kept as well. Its slice is lent by the arena between reads,
// so a scan does not allocate one per batch and page.
type chunkStore struct {
	list  []storedChunk
	index map[int]int // chunk -> position in list, past memoScanMax
}

type storedChunk struct {
	i  int
	dc DecodedChunk
}

// memoScanMax is the number of chunks a store searches without an index.
const memoScanMax = 64

func (s *chunkStore) get(i int) (DecodedChunk, bool) {
	if s.index != nil {
		if p, ok := s.index[i]; ok {
			return s.list[p].dc, true
		}
		return DecodedChunk{}, false
	}
	for k := len(s.list) - 1; k >= 0; k-- {
		if s.list[k].i == i {
			return s.list[k].dc, true
		}
	}
	return DecodedChunk{}, false
}

func (s *chunkStore) put(i int, dc DecodedChunk) {
	s.list = append(s.list, storedChunk{i, dc})
	switch {
	case s.index != nil:
		s.index[i] = len(s.list) - 1
	case len(s.list) > memoScanMax:
		s.reindex()
	}
}

// reindex rebuilds the index from the list (none while the list is short).
func (s *chunkStore) reindex() {
	if len(s.list) <= memoScanMax {
		s.index = nil
		return
	}
	s.index = make(map[int]int, len(s.list))
	for p, c := range s.list {
		s.index[c.i] = p
	}
}

// removeBefore drops the chunks before index first, handing each to drop.
func (s *chunkStore) removeBefore(first int, drop func(DecodedChunk)) {
	kept := s.list[:0]
	for _, c := range s.list {
		if c.i < first {
			drop(c.dc)
			continue
		}
		kept = append(kept, c)
	}
	clear(s.list[len(kept):])
	if len(kept) != len(s.list) {
		s.list = kept
		s.reindex()
	}
}

// removeAll drops every chunk, handing each to drop.
func (s *chunkStore) removeAll(drop func(DecodedChunk)) {
	for _, c := range s.list {
		drop(c.dc)
	}
	clear(s.list)
	s.list, s.index = s.list[:0], nil
}
