package layouts

import (
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
	"github.com/lancego/lancego/internal/uninit"
	"google.golang.org/protobuf/proto"
)

// SparseValueKind is the value plane of a sparse page.
type SparseValueKind uint8

// Sparse value planes.
const (
	// SparseChunked: one value per terminal slot (nulls included) in u32
	// mini-block chunks; Mini reads them, its rows being terminal slots.
	SparseChunked SparseValueKind = iota + 1
	// SparseZipped: only materialized values; Full reads them, its rows
	// being materialized values.
	SparseZipped
	// SparseConstant: one scalar for every materialized value.
	SparseConstant
	// SparseNone: no values.
	SparseNone
	// SparseIndexed: a u32 index per terminal slot (nulls included) into
	// zipped dictionary items; Full reads the items, its rows being items.
	SparseIndexed
)

// SparseLayout is what a sparse planar page needs before initialization:
// its value plane and which page buffers hold what.
type SparseLayout struct {
	Kind SparseValueKind
	// Inner is the 2.2 layout reading the value buffers (mini-block for
	// chunked, full-zip for zipped), with a single all-valid item layer.
	Inner *pb.PageLayout
	// ValueBuffers is the number of leading page buffers holding values;
	// the structural payloads follow.
	ValueBuffers int
	// MetaBuffers are the value buffers needed at initialization (chunk
	// table and dictionary, or the zipped byte index); DataBuffer holds
	// the values read per row (-1 when none).
	MetaBuffers []int
	DataBuffer  int
}

// NewSparseLayout inspects a sparse planar page's value plane.
func NewSparseLayout(pl *pb23.PlanarLayout) (*SparseLayout, error) {
	if pl.GetStructure().GetSparse() == nil {
		return nil, fmt.Errorf("%w: planar page: field structure: not sparse", ErrCorrupt)
	}
	all := []pb.RepDefLayer{pb.RepDefLayer_REPDEF_ALL_VALID_ITEM}
	switch v := pl.GetValues().GetCodec().(type) {
	case *pb23.ValuePlane_Chunked:
		c := v.Chunked
		if c.GetLevels() != nil || c.GetNumItems() != 0 {
			return nil, fmt.Errorf("%w: planar page: field values.chunked: dense levels or num_items with sparse structure", ErrCorrupt)
		}
		if c.GetCompression() == nil {
			return nil, fmt.Errorf("%w: planar page: field values.chunked.compression: missing", ErrCorrupt)
		}
		mb := &pb.MiniBlockLayout{ValueCompression: c.GetCompression(), Dictionary: c.GetDictionary(),
			NumDictionaryItems: c.GetNumDictionaryItems(), Layers: all, NumBuffers: c.GetNumBuffers(), HasLargeChunk: true}
		l := &SparseLayout{Kind: SparseChunked, Inner: &pb.PageLayout{Layout: &pb.PageLayout_MiniBlockLayout{MiniBlockLayout: mb}},
			ValueBuffers: 2, MetaBuffers: []int{0}, DataBuffer: 1}
		if c.GetDictionary() != nil {
			l.ValueBuffers, l.MetaBuffers = 3, []int{0, 2}
		}
		return l, nil
	case *pb23.ValuePlane_Zipped:
		z := v.Zipped
		if z.GetLevels() != nil || z.GetNumItems() != z.GetNumVisibleItems() {
			return nil, fmt.Errorf("%w: planar page: field values.zipped: dense levels or num_items %d != num_visible_items %d with sparse structure", ErrCorrupt, z.GetNumItems(), z.GetNumVisibleItems())
		}
		fz, err := zippedLayout(z, all, "values.zipped")
		if err != nil {
			return nil, err
		}
		l := &SparseLayout{Kind: SparseZipped, Inner: &pb.PageLayout{Layout: &pb.PageLayout_FullZipLayout{FullZipLayout: fz}},
			ValueBuffers: 1, DataBuffer: 0}
		if fz.GetBitsPerOffset() != 0 {
			l.ValueBuffers, l.MetaBuffers = 2, []int{1}
		}
		return l, nil
	case *pb23.ValuePlane_Constant:
		if n := len(v.Constant.GetScalar()); n < 1 || n > 32 {
			return nil, fmt.Errorf("%w: planar page: field values.constant.scalar: %d bytes (want 1-32)", ErrCorrupt, n)
		}
		return &SparseLayout{Kind: SparseConstant, DataBuffer: -1}, nil
	case *pb23.ValuePlane_None:
		return &SparseLayout{Kind: SparseNone, DataBuffer: -1}, nil
	case *pb23.ValuePlane_Indexed:
		return indexedLayout(v.Indexed)
	}
	return nil, fmt.Errorf("%w: planar page: field values: no value codec", ErrCorrupt)
}

// SparsePage is an initialized sparse planar page: its structure as
// page-wide PathNodes, and the reader of its values. Immutable once built
// (its rep/def levels, which blob descriptors read, are built on first
// use, once).
type SparsePage struct {
	Layout  *SparseLayout
	Set     LayerSet
	NumRows uint64
	parsed  *sparseParsed
	// tree is the structure as nodes.
	tree *sparseTree
	// levels are built on the first AppendRows or AppendLevels
	// (levelsOnce, levelsErr).
	levels     *sparseLevels
	levelsOnce sync.Once
	levelsErr  error
	// Mini or Full reads the values (chunked or zipped); Const is the
	// scalar of a constant plane.
	Mini  *MiniBlockPage
	Full  *FullZipPage
	Const *codecs.Block
	// indices holds an indexed plane's item per terminal slot.
	indices []uint32
	// dictFlat32 says Mini's dictionary passed flatDict32.
	dictFlat32 bool
	// matBefore[t] counts the materialized slots before terminal slot t
	// (terminal+1 entries; levels only): slot t is materialized iff
	// matBefore[t+1] > matBefore[t], and then matBefore[t] is its index
	// among them.
	matBefore []int32
	numMat    uint64
	// allReached says every terminal slot is reached by one entry (no
	// children of null parents were dropped); always true with a tree.
	allReached bool
}

// NewSparsePage builds a sparse page from its planar layout, its buffer
// sizes and the bytes of its metadata and structural buffers (bufs[i] nil
// for the data buffer, which is read per row). leaf is the Arrow leaf type.
func NewSparsePage(pl *pb23.PlanarLayout, l *SparseLayout, numRows uint64, sizes []uint64, bufs [][]byte, leaf arrow.DataType) (*SparsePage, error) {
	if len(bufs) < l.ValueBuffers || len(sizes) != len(bufs) {
		return nil, fmt.Errorf("%w: sparse page with %d buffers, its values need %d", ErrCorrupt, len(bufs), l.ValueBuffers)
	}
	ps, err := parseSparse(pl.GetStructure().GetSparse(), numRows, bufs[l.ValueBuffers:])
	if err != nil {
		return nil, err
	}
	p := &SparsePage{Layout: l, Set: ps.layerSet(), NumRows: numRows, parsed: ps}
	tree, err := ps.buildTree()
	if err != nil {
		return nil, err
	}
	p.tree, p.numMat, p.allReached = tree, tree.numMat, tree.raw == nil
	if err := p.initValues(pl, sizes, bufs, leaf); err != nil {
		return nil, err
	}
	p.dictFlat32 = p.Mini != nil && flatDict32(p.Mini)
	return p, nil
}

// ensureLevels expands the structure to levels (once).
func (p *SparsePage) ensureLevels() error {
	p.levelsOnce.Do(func() {
		lv, err := p.parsed.levels()
		if err != nil {
			p.levelsErr = err
			return
		}
		p.levels = lv
		p.matBefore, _, _ = lv.indexMaterialized()
	})
	return p.levelsErr
}

// Direct reports whether the page's structure is built as nodes, so a
// read appends it with AppendStructure and its values with AppendValues.
func (p *SparsePage) Direct() bool { return p.tree != nil }

// terminal is the size of the terminal (leaf slot) domain.
func (p *SparsePage) terminal() uint64 { return p.parsed.terminal }

// indexMaterialized counts the terminal slots whose entry is valid in
// every layer (def 0): matBefore (see SparsePage), how many there are and
// whether every terminal slot is reached.
func (s *sparseLevels) indexMaterialized() (matBefore []int32, numMat uint64, allReached bool) {
	if s.set.MaxRep == 0 && uint64(len(s.slot)) == s.terminal { // no lists: slot = entry
		matBefore = make([]int32, s.terminal+1)
		n := int32(0)
		for t := range s.slot {
			matBefore[t] = n
			if s.lv.Def == nil || s.lv.Def[t] == 0 {
				n++
			}
		}
		matBefore[s.terminal] = n
		return matBefore, uint64(n), true
	}
	mat := make([]bool, s.terminal)
	def := s.lv.Def
	reached := uint64(0)
	for e, t := range s.slot {
		if t >= 0 {
			reached++
			if def == nil || def[e] == 0 {
				mat[t] = true
			}
		}
	}
	matBefore = make([]int32, s.terminal+1)
	n := int32(0)
	for t, m := range mat {
		matBefore[t] = n
		if m {
			n++
		}
	}
	matBefore[s.terminal] = n
	return matBefore, uint64(n), reached == s.terminal
}

// materialized reports whether terminal slot t holds a value.
func (p *SparsePage) materialized(t int32) bool { return p.matBefore[t+1] > p.matBefore[t] }

func (p *SparsePage) initValues(pl *pb23.PlanarLayout, sizes []uint64, bufs [][]byte, leaf arrow.DataType) error {
	var err error
	switch p.Layout.Kind {
	case SparseChunked:
		mb := proto.CloneOf(p.Layout.Inner.GetMiniBlockLayout())
		mb.NumItems = p.terminal()
		meta := MiniBlockMeta{ChunkWords: bufs[0]}
		if mb.GetDictionary() != nil {
			meta.Dictionary = bufs[2]
		}
		p.Mini, err = NewMiniBlockPage(mb, p.terminal(), sizes[1], meta)
		if err != nil {
			return fmt.Errorf("chunked values: %w", err)
		}
	case SparseZipped:
		fz := p.Layout.Inner.GetFullZipLayout()
		if uint64(fz.GetNumItems()) != p.numMat {
			return fmt.Errorf("%w: planar page: field values.zipped.num_items: %d, structure materializes %d", ErrCorrupt, fz.GetNumItems(), p.numMat)
		}
		var index []byte
		if p.Layout.ValueBuffers == 2 {
			index = bufs[1]
		} else if fz.GetBitsPerValue()%8 == 0 && sizes[0] != p.numMat*uint64(fz.GetBitsPerValue()/8) {
			return fmt.Errorf("%w: planar page: zipped values: %d bytes for %d values of %d bits", ErrCorrupt, sizes[0], p.numMat, fz.GetBitsPerValue())
		}
		p.Full, err = NewFullZipPage(fz, p.numMat, sizes[0], index)
		if err != nil {
			return fmt.Errorf("zipped values: %w", err)
		}
	case SparseConstant:
		s := pl.GetValues().GetConstant().GetScalar()
		b := codecs.Block{Kind: codecs.KindFixed, NumValues: 1, BitsPerValue: uint64(len(s)) * 8, Data: s}
		if leaf != nil && leaf.ID() == arrow.BOOL {
			b.BitsPerValue, b.Data = 1, []byte{s[0] & 1}
		}
		p.Const = &b
	case SparseNone:
		if p.numMat != 0 {
			return fmt.Errorf("%w: planar page: none values with %d materialized slots", ErrCorrupt, p.numMat)
		}
	case SparseIndexed:
		return p.initIndexed(pl.GetValues().GetIndexed(), sizes, bufs, leaf)
	}
	return nil
}

// ValueRows returns the rows of the value reader (terminal slots for
// chunked values, materialized values for zipped ones, items for indexed
// ones) that rows [from, to) need: from the first to the last materialized
// slot among them (indexed: from the least to the greatest item they use).
// ok is false when the rows need no value bytes (all null, or constant
// and none planes).
func (p *SparsePage) ValueRows(from, to uint64) (lo, hi uint64, ok bool, err error) {
	if from > to || to > p.NumRows {
		return 0, 0, false, fmt.Errorf("%w: rows [%d,%d) of a sparse page of %d", ErrCorrupt, from, to, p.NumRows)
	}
	if p.Mini == nil && p.Full == nil {
		return 0, 0, false, nil
	}
	if p.tree != nil {
		lo, hi, ok := p.treeValueRows(from, to)
		return lo, hi, ok, nil
	}
	e0, e1 := p.levels.entries(from, to)
	slot := p.levels.slot
	for e0 < e1 && slot[e0] < 0 {
		e0++
	}
	for e1 > e0 && slot[e1-1] < 0 {
		e1--
	}
	if e0 == e1 {
		return 0, 0, false, nil
	}
	first, last := slot[e0], slot[e1-1] // slots increase with entries
	if p.matBefore[last+1] == p.matBefore[first] {
		return 0, 0, false, nil // nothing materialized: no value bytes
	}
	if p.indices != nil {
		lo, hi := p.itemSpan(first, last)
		return lo, hi, true, nil
	}
	if p.Mini != nil {
		return uint64(first), uint64(last) + 1, true, nil
	}
	return uint64(p.matBefore[first]), uint64(p.matBefore[last+1]), true, nil
}

// ChunkedDirect reports whether the values of rows that need value bytes
// decode straight from the chunks into the accumulator: chunked values
// whose every terminal slot is reached, in order, so the value rows
// ValueRows returns are exactly the rows' terminal slots. Levels are then
// appended with AppendLevels.
func (p *SparsePage) ChunkedDirect() bool { return p.Mini != nil && p.allReached }

// AppendLevels appends the levels of rows [from, to) to lv.
func (p *SparsePage) AppendLevels(from, to uint64, lv *Levels) error {
	if err := p.ensureLevels(); err != nil {
		return err
	}
	e0, e1 := p.levels.entries(from, to)
	AppendLevels(lv, sliceLevels(p.levels.lv, e0, e1))
	return nil
}

// AppendRows appends the levels of rows [from, to) to lv and one value per
// terminal slot they reach to vals: the stored value where the slot is
// materialized, a placeholder elsewhere. inner holds the value reader's
// rows [lo, ValueRows' hi) (nil when ValueRows said none are needed).
func (p *SparsePage) AppendRows(from, to, lo uint64, inner *Values, lv *Levels, vals *Values, leaf arrow.DataType) error {
	if err := p.ensureLevels(); err != nil {
		return err
	}
	e0, e1 := p.levels.entries(from, to)
	AppendLevels(lv, sliceLevels(p.levels.lv, e0, e1))
	src, err := p.valueSource(inner, vals, leaf)
	if err != nil {
		return err
	}
	if p.Mini != nil && src != nil && inner != nil {
		if done, err := p.appendSlotRun(e0, e1, lo, src, vals, leaf); done || err != nil {
			return err
		}
	}
	idx := make([]int32, 0, e1-e0) // per terminal slot reached: source value or -1
	for e := e0; e < e1; e++ {
		t := p.levels.slot[e]
		switch {
		case t < 0:
			continue
		case src == nil || !p.materialized(t):
			idx = append(idx, -1)
		case p.Const != nil:
			idx = append(idx, 0)
		case p.Mini != nil:
			idx = append(idx, t-int32(lo))
		case p.indices != nil:
			idx = append(idx, int32(p.indices[t])-int32(lo))
		default:
			idx = append(idx, p.matBefore[t]-int32(lo))
		}
	}
	return scatter(vals, src, idx, leaf)
}

// scatter appends src[idx[i]] for each i, a placeholder where idx[i] < 0.
func scatter(vals *Values, src *codecs.Block, idx []int32, leaf arrow.DataType) error {
	if len(idx) == 0 {
		return nil
	}
	if src == nil {
		return appendNulls(vals, len(idx), leaf)
	}
	for _, k := range idx {
		if k >= 0 && uint64(k) >= src.NumValues {
			return fmt.Errorf("%w: sparse page: value %d outside the %d decoded", ErrCorrupt, k, src.NumValues)
		}
	}
	if vals.Kind == 0 {
		vals.initFrom(src)
	}
	if err := vals.checkShape(src); err != nil {
		return err
	}
	switch {
	case src.Kind == codecs.KindFixed && src.BitsPerValue%8 == 0 && plainFSL(src.FSL) && plainFSLValues(vals.FSL):
		return scatterFixed(vals, src, idx)
	case src.Kind == codecs.KindVariable && (src.OffsetBits == 32 || src.OffsetBits == 64):
		return scatterVariable(vals, src, idx)
	}
	for i := 0; i < len(idx); { // runs of placeholders or of consecutive values
		j := i + 1
		if idx[i] < 0 {
			for j < len(idx) && idx[j] < 0 {
				j++
			}
			if err := appendNulls(vals, j-i, leaf); err != nil {
				return err
			}
		} else {
			for j < len(idx) && idx[j] == idx[j-1]+1 {
				j++
			}
			if err := vals.appendBlock(src, uint64(idx[i]), uint64(idx[j-1])+1, false); err != nil {
				return err
			}
		}
		i = j
	}
	return nil
}

func plainFSL(ls []codecs.FSLLayer) bool {
	for _, l := range ls {
		if l.Validity != nil {
			return false
		}
	}
	return true
}

func plainFSLValues(ls []FSLValues) bool {
	for _, l := range ls {
		if l.Validity != nil {
			return false
		}
	}
	return true
}

// scatterFixed copies whole-byte fixed-width values (zeros for
// placeholders) in one pass.
func scatterFixed(vals *Values, src *codecs.Block, idx []int32) error {
	w := int(src.BitsPerValue/8) * int(vals.itemsPerValue())
	if w == 0 || uint64(len(src.Data))/uint64(w) < src.NumValues {
		return fmt.Errorf("%w: sparse page: %d value bytes for %d values of %d bytes", ErrCorrupt, len(src.Data), src.NumValues, w)
	}
	vals.reserve(uint64(len(idx)))
	start := len(vals.Data)
	vals.Data = uninit.Grow(vals.Data, len(idx)*w)[:start+len(idx)*w]
	out := vals.Data[start:]
	for i, k := range idx {
		dst := out[i*w : (i+1)*w]
		if k < 0 {
			clear(dst)
		} else {
			copy(dst, src.Data[int(k)*w:])
		}
	}
	vals.N += len(idx)
	return nil
}

// scatterVariable appends variable-width values (empty placeholders).
func scatterVariable(vals *Values, src *codecs.Block, idx []int32) error {
	ow := uint64(src.OffsetBits / 8)
	if uint64(len(src.Offsets)) < (src.NumValues+1)*ow {
		return fmt.Errorf("%w: sparse page: offsets of %d values", ErrCorrupt, src.NumValues)
	}
	last := vals.Offsets[len(vals.Offsets)-1]
	for _, k := range idx {
		if k >= 0 {
			a, b := readOffset(src.Offsets, src.OffsetBits, uint64(k)), readOffset(src.Offsets, src.OffsetBits, uint64(k)+1)
			if a > b || b > uint64(len(src.Data)) {
				return fmt.Errorf("%w: sparse page: value %d outside its data", ErrCorrupt, k)
			}
			vals.Data = append(vals.Data, src.Data[a:b]...)
			last += int64(b - a)
		}
		vals.Offsets = append(vals.Offsets, last)
	}
	vals.N += len(idx)
	return nil
}

// appendSlotRun is AppendRows' path for chunked values when the entries
// reach consecutive terminal slots (always, unless null parents dropped
// children): chunked values hold one per slot, nulls included, so the
// decoded range is appended whole, with placeholders for the slots before
// lo and after it that were not decoded (none of them is materialized).
func (p *SparsePage) appendSlotRun(e0, e1 int, lo uint64, src *codecs.Block, vals *Values, leaf arrow.DataType) (bool, error) {
	slot := p.levels.slot
	n, first, last := 0, int32(-1), int32(-1)
	for e := e0; e < e1; e++ {
		if t := slot[e]; t >= 0 {
			if first < 0 {
				first = t
			}
			last, n = t, n+1
		}
	}
	if n == 0 || int(last-first)+1 != n || uint64(first) > lo || lo+src.NumValues > uint64(last)+1 {
		return false, nil
	}
	if err := scatterPlaceholders(vals, int(lo-uint64(first)), leaf); err != nil {
		return true, err
	}
	if err := vals.appendBlock(src, 0, src.NumValues, false); err != nil {
		return true, err
	}
	return true, scatterPlaceholders(vals, int(uint64(last)+1-lo-src.NumValues), leaf)
}

func scatterPlaceholders(vals *Values, n int, leaf arrow.DataType) error {
	if n == 0 {
		return nil
	}
	return appendNulls(vals, n, leaf)
}
