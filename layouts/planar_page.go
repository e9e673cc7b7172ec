package layouts

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/codecs"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
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
		fz, err := zippedLayout(z, all)
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
		return nil, fmt.Errorf("%w: planar page: indexed values are not read yet", ErrUnsupported)
	}
	return nil, fmt.Errorf("%w: planar page: field values: no value codec", ErrCorrupt)
}

// SparsePage is an initialized sparse planar page: its structure expanded
// to rep/def levels, and the reader of its values. Immutable.
type SparsePage struct {
	Layout  *SparseLayout
	Set     LayerSet
	NumRows uint64
	levels  *sparseLevels
	// Mini or Full reads the values (chunked or zipped); Const is the
	// scalar of a constant plane.
	Mini  *MiniBlockPage
	Full  *FullZipPage
	Const *codecs.Block
	// mat[t] is the materialized index of terminal slot t, or -1.
	mat    []int32
	numMat uint64
}

// NewSparsePage builds a sparse page from its planar layout, its buffer
// sizes and the bytes of its metadata and structural buffers (bufs[i] nil
// for the data buffer, which is read per row). leaf is the Arrow leaf type.
func NewSparsePage(pl *pb23.PlanarLayout, l *SparseLayout, numRows uint64, sizes []uint64, bufs [][]byte, leaf arrow.DataType) (*SparsePage, error) {
	if len(bufs) < l.ValueBuffers || len(sizes) != len(bufs) {
		return nil, fmt.Errorf("%w: sparse page with %d buffers, its values need %d", ErrCorrupt, len(bufs), l.ValueBuffers)
	}
	lv, err := newSparseLevels(pl.GetStructure().GetSparse(), numRows, bufs[l.ValueBuffers:])
	if err != nil {
		return nil, err
	}
	p := &SparsePage{Layout: l, Set: lv.set, NumRows: numRows, levels: lv}
	p.indexMaterialized()
	if err := p.initValues(pl, sizes, bufs, leaf); err != nil {
		return nil, err
	}
	return p, nil
}

// indexMaterialized numbers the terminal slots whose entry is valid in
// every layer (def 0).
func (p *SparsePage) indexMaterialized() {
	s := p.levels
	p.mat = make([]int32, s.terminal)
	for i := range p.mat {
		p.mat[i] = -1
	}
	for e, t := range s.slot {
		if t >= 0 && s.lv.def(e) == 0 {
			p.mat[t] = int32(p.numMat)
			p.numMat++
		}
	}
}

func (p *SparsePage) initValues(pl *pb23.PlanarLayout, sizes []uint64, bufs [][]byte, leaf arrow.DataType) error {
	var err error
	switch p.Layout.Kind {
	case SparseChunked:
		mb := proto.CloneOf(p.Layout.Inner.GetMiniBlockLayout())
		mb.NumItems = p.levels.terminal
		meta := MiniBlockMeta{ChunkWords: bufs[0]}
		if mb.GetDictionary() != nil {
			meta.Dictionary = bufs[2]
		}
		p.Mini, err = NewMiniBlockPage(mb, p.levels.terminal, sizes[1], meta)
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
	}
	return nil
}

// ValueRows returns the rows of the value reader (terminal slots for
// chunked values, materialized values for zipped ones) that rows [from,
// to) need: from the first to the last materialized slot among them.
// ok is false when the rows need no value bytes (all null, or constant
// and none planes).
func (p *SparsePage) ValueRows(from, to uint64) (lo, hi uint64, ok bool, err error) {
	if from > to || to > p.NumRows {
		return 0, 0, false, fmt.Errorf("%w: rows [%d,%d) of a sparse page of %d", ErrCorrupt, from, to, p.NumRows)
	}
	if p.Mini == nil && p.Full == nil {
		return 0, 0, false, nil
	}
	e0, e1 := p.levels.entries(from, to)
	first, last := int32(-1), int32(-1)
	for e := e0; e < e1; e++ {
		if t := p.levels.slot[e]; t >= 0 && p.mat[t] >= 0 {
			if first < 0 {
				first = t
			}
			last = t
		}
	}
	if first < 0 {
		return 0, 0, false, nil
	}
	if p.Mini != nil {
		return uint64(first), uint64(last) + 1, true, nil
	}
	return uint64(p.mat[first]), uint64(p.mat[last]) + 1, true, nil
}

// AppendRows appends the levels of rows [from, to) to lv and one value per
// terminal slot they reach to vals: the stored value where the slot is
// materialized, a placeholder elsewhere. inner holds the value reader's
// rows [lo, ValueRows' hi) (nil when ValueRows said none are needed).
func (p *SparsePage) AppendRows(from, to, lo uint64, inner *Values, lv *Levels, vals *Values, leaf arrow.DataType) error {
	e0, e1 := p.levels.entries(from, to)
	AppendLevels(lv, sliceLevels(p.levels.lv, e0, e1))
	if vals.Kind == 0 {
		switch {
		case inner != nil && inner.Kind != 0:
			b := inner.Block()
			vals.InitShape(&b)
		case p.Const != nil:
			vals.InitShape(p.Const)
		case leaf != nil:
			if err := appendNulls(vals, 0, leaf); err != nil {
				return err
			}
		}
	}
	var blk codecs.Block
	if inner != nil {
		blk = inner.Block()
	}
	run := 0 // placeholders not yet appended
	for e := e0; e < e1; e++ {
		t := p.levels.slot[e]
		if t < 0 {
			continue
		}
		m := p.mat[t]
		if m < 0 {
			run++
			continue
		}
		if err := p.flushNulls(vals, &run, leaf); err != nil {
			return err
		}
		var err error
		switch {
		case p.Const != nil:
			err = vals.Append(p.Const, 0, 1)
		case p.Mini != nil:
			err = appendInner(vals, &blk, uint64(t), lo)
		default:
			err = appendInner(vals, &blk, uint64(m), lo)
		}
		if err != nil {
			return err
		}
	}
	return p.flushNulls(vals, &run, leaf)
}

func (p *SparsePage) flushNulls(vals *Values, run *int, leaf arrow.DataType) error {
	if *run == 0 {
		return nil
	}
	err := appendNulls(vals, *run, leaf)
	*run = 0
	return err
}

// appendInner appends value i (a value-reader row) of blk, which starts at
// row lo.
func appendInner(vals *Values, blk *codecs.Block, i, lo uint64) error {
	if i < lo || i-lo >= blk.NumValues {
		return fmt.Errorf("%w: sparse page: value %d outside the %d decoded from %d", ErrCorrupt, i, blk.NumValues, lo)
	}
	return vals.appendBlock(blk, i-lo, i-lo+1, false)
}
