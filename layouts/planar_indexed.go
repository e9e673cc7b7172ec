package layouts

import (
	"fmt"
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
)

// Indexed value planes (sparse structure, binary or string leaf), written
// by pylance 14.0.2 for wide, repetitive values: buffer 0 holds one u32
// index per terminal slot (nulls included) as a typed unsigned sequence
// (empty when its codec is metadata-only), buffer 1 the zipped dictionary
// items (length-prefixed, no control words), buffer 2 their byte index.
// The indices and the byte index are read at initialization; a read
// fetches the items from the least to the greatest its rows use.

// indexedLayout inspects an indexed value plane.
func indexedLayout(ix *pb23.IndexedValues) (*SparseLayout, error) {
	if ix.GetIndices() == nil {
		return nil, fmt.Errorf("%w: planar page: field values.indexed.indices: missing", ErrCorrupt)
	}
	items := ix.GetItems()
	if items == nil {
		return nil, fmt.Errorf("%w: planar page: field values.indexed.items: missing", ErrCorrupt)
	}
	if items.GetLevels() != nil || items.GetNumItems() != items.GetNumVisibleItems() {
		return nil, fmt.Errorf("%w: planar page: field values.indexed.items: dense levels or num_items %d != num_visible_items %d", ErrCorrupt, items.GetNumItems(), items.GetNumVisibleItems())
	}
	if items.GetNumItems() > maxSparseEntries {
		return nil, fmt.Errorf("%w: planar page: field values.indexed.items.num_items: %d", ErrCorrupt, items.GetNumItems())
	}
	if _, ok := items.GetAddressing().(*pb23.ZippedValues_BitsPerOffset); !ok {
		return nil, fmt.Errorf("%w: planar page: field values.indexed.items.addressing: items are variable width (bits_per_offset)", ErrCorrupt)
	}
	fz, err := zippedLayout(items, []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM}, "values.indexed.items")
	if err != nil {
		return nil, err
	}
	return &SparseLayout{Kind: SparseIndexed, Inner: &pb.PageLayout{Layout: &pb.PageLayout_FullZipLayout{FullZipLayout: fz}},
		ValueBuffers: 3, MetaBuffers: []int{0, 2}, DataBuffer: 1}, nil
}

// binaryLeaf reports the leaf types an indexed plane may hold.
func binaryLeaf(dt arrow.DataType) bool {
	if d, ok := dt.(*arrow.DictionaryType); ok {
		dt = d.ValueType
	}
	switch dt.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		return true
	}
	return false
}

// initIndexed decodes and checks the indices and the items' byte index.
func (p *SparsePage) initIndexed(ix *pb23.IndexedValues, sizes []uint64, bufs [][]byte, leaf arrow.DataType) error {
	if leaf != nil && !binaryLeaf(leaf) {
		return fmt.Errorf("%w: planar page: indexed values for a %s leaf (want binary or string)", ErrCorrupt, leaf)
	}
	enc, n := ix.GetIndices(), p.terminal()
	payload := bufs[0]
	if !codecs.SequenceHasPayload(enc) && sizes[0] != 0 {
		return fmt.Errorf("%w: planar page: field values.indexed.indices: metadata-only codec with a %d-byte buffer", ErrCorrupt, sizes[0])
	}
	// n is the terminal domain (at most maxSparseEntries): exact capacity.
	idx, err := codecs.DecodeSequence(make([]uint64, 0, n), enc, 32, payload, n)
	if err != nil {
		return fmt.Errorf("planar page: field values.indexed.indices: %w", err)
	}
	fz := p.Layout.Inner.GetFullZipLayout()
	items := uint64(fz.GetNumItems())
	p.indices = make([]uint32, len(idx))
	for t, k := range idx {
		if k >= items {
			return fmt.Errorf("%w: planar page: field values.indexed.indices: index %d of slot %d is not below the %d items", ErrCorrupt, k, t, items)
		}
		p.indices[t] = uint32(k)
	}
	if p.Full, err = NewFullZipPage(fz, items, sizes[1], bufs[2]); err != nil {
		return fmt.Errorf("indexed items: %w", err)
	}
	return nil
}

// itemSpan returns the items [lo, hi) the materialized terminal slots in
// [first, last] use.
func (p *SparsePage) itemSpan(first, last int32) (uint64, uint64) {
	lo, hi := uint32(1<<32-1), uint32(0)
	for t := first; t <= last; t++ {
		if p.materialized(t) {
			lo, hi = min(lo, p.indices[t]), max(hi, p.indices[t])
		}
	}
	return uint64(lo), uint64(hi) + 1
}

// ItemRun is a run of consecutive items [Lo, Hi) of an indexed plane.
type ItemRun struct{ Lo, Hi uint64 }

// ItemRuns returns the distinct items the materialized slots of rows
// [from, to) use, ascending, as runs of consecutive items: a take reads
// only their bytes. It is nil for pages of other planes, pages read by
// levels, or rows without values.
func (p *SparsePage) ItemRuns(from, to uint64) []ItemRun {
	if p.indices == nil || p.tree == nil || from > to || to > p.NumRows {
		return nil
	}
	t0, t1 := p.tree.slots(from, to)
	items := make([]uint32, 0, t1-t0)
	for s := t0; s < t1; s++ {
		if p.tree.materialized(s) {
			items = append(items, p.indices[p.tree.rawSlot(s)])
		}
	}
	slices.Sort(items)
	var runs []ItemRun
	for i, k := range items {
		switch {
		case i > 0 && k == items[i-1]:
		case len(runs) > 0 && uint64(k) == runs[len(runs)-1].Hi:
			runs[len(runs)-1].Hi++
		default:
			runs = append(runs, ItemRun{uint64(k), uint64(k) + 1})
		}
	}
	return runs
}

// AppendItemRuns is AppendValues for an indexed page whose inner holds
// the items of runs (ItemRuns of the same rows), one run after another.
func (p *SparsePage) AppendItemRuns(from, to uint64, runs []ItemRun, inner *Values, vals *Values, leaf arrow.DataType) error {
	if p.indices == nil || p.tree == nil || from > to || to > p.NumRows {
		return fmt.Errorf("%w: item runs of rows [%d,%d) of a sparse page that is not indexed", ErrCorrupt, from, to)
	}
	src, err := p.valueSource(inner, vals, leaf)
	if err != nil {
		return err
	}
	before := make([]uint64, len(runs)) // items of the runs before each
	n := uint64(0)
	for i, r := range runs {
		before[i], n = n, n+r.Hi-r.Lo
	}
	t0, t1 := p.tree.slots(from, to)
	idx := make([]int32, 0, t1-t0)
	for s := t0; s < t1; s++ {
		if src == nil || !p.tree.materialized(s) {
			idx = append(idx, -1)
			continue
		}
		k := uint64(p.indices[p.tree.rawSlot(s)])
		i := sort.Search(len(runs), func(i int) bool { return runs[i].Hi > k })
		if i == len(runs) || k < runs[i].Lo {
			return fmt.Errorf("%w: sparse page: item %d of slot %d is in no run read", ErrCorrupt, k, s)
		}
		idx = append(idx, int32(before[i]+k-runs[i].Lo))
	}
	return scatter(vals, src, idx, leaf)
}
