package v20

import (
	"fmt"

	pb "github.com/lancego/lancego/format/pb/encodingspb"
)

// ListItems returns the number of items a list page refers to (its
// num_items), which places the next page's items in the items column.
func ListItems(enc *pb.ArrayEncoding) (uint64, error) {
	l := enc.GetList()
	if l == nil {
		return 0, fmt.Errorf("%w: list column page encoded as %T", ErrCorrupt, enc.GetArrayEncoding())
	}
	return l.GetNumItems(), nil
}

// DecodeList appends rows [from, to) of a list page to acc and returns the
// page-relative item range they cover. Offsets are each list's end; an end
// at or above null_offset_adjustment marks a null list, and every end is
// taken modulo that adjustment. The first list of a page starts at item 0.
func (p *Page) DecodeList(from, to uint64, acc *List) (itemFrom, itemTo uint64, err error) {
	l := p.enc.GetList()
	if l == nil {
		return 0, 0, fmt.Errorf("%w: not a list page", ErrCorrupt)
	}
	if from > to || to > p.rows {
		return 0, 0, fmt.Errorf("%w: rows [%d,%d) of a list page of %d", ErrCorrupt, from, to, p.rows)
	}
	adj := l.GetNullOffsetAdjustment()
	if adj == 0 {
		return 0, 0, fmt.Errorf("%w: list page with null offset adjustment 0", ErrCorrupt)
	}
	lo := from
	if from > 0 {
		lo = from - 1
	}
	offs, _, err := p.decode(l.GetOffsets(), nil, p.rows, lo, to, 1)
	if err != nil {
		return 0, 0, fmt.Errorf("list offsets: %w", err)
	}
	if err := checkUints(&offs, to-lo, "list offsets"); err != nil {
		return 0, 0, err
	}
	var start uint64
	if from > 0 {
		start = uintAt(&offs, 0) % adj
	}
	prev := start
	for i := from; i < to; i++ {
		raw := uintAt(&offs, i-lo)
		end := raw % adj
		if end < prev || end > l.GetNumItems() {
			return 0, 0, fmt.Errorf("%w: list %d ends at item %d (previous %d, %d items)", ErrCorrupt, i, end, prev, l.GetNumItems())
		}
		acc.add(end-prev, raw < adj)
		prev = end
	}
	return start, prev, nil
}
