package filewriter

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/layouts"
)

// shredded is one leaf column of a page flattened into rep/def levels
// (layouts.Shred, the inverse of layouts.Unravel) plus the pooled
// temporaries of the page.
type shredded struct {
	layouts.Shredded
	sc *leafScratch
}

// shred flattens the leaf of l out of top (a whole top-level column),
// with level buffers from sc.
func shred(top arrow.Array, l *wleaf, sc *leafScratch) (*shredded, error) {
	var lend layouts.ShredScratch
	if sc != nil {
		lend = sc
	}
	s, err := layouts.Shred(top, l.child, lend)
	if err != nil {
		return nil, err
	}
	return &shredded{Shredded: *s, sc: sc}, nil
}

// slots returns the leaf slot of every visible entry, from the Writer's
// shared identity when the entries are dense (layouts.Shredded.Dense).
func (s *shredded) slots() []int {
	switch {
	case s.Dense && s.DenseNulls:
		var lend layouts.ShredScratch
		if s.sc != nil {
			lend = s.sc
		}
		return s.Shredded.Slots(lend)
	case s.Dense:
		return s.sc.identity(s.DenseLo, s.DenseLo+s.DenseN)
	}
	return s.Idx
}
