package fileread

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	pb23 "github.com/lancego/lancego/format/pb/encodings23pb"
	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/layouts"
)

// pageState is an initialized page: its layout-specific decoder state.
// Exactly one of mini, full, cnst, sparse is set; blob pages wrap one of
// them. A dense 2.3 planar page is read through its equivalent 2.2 layout
// (layout); a sparse one has planar and sparse set and layout nil.
// It is immutable once built and shared through the search cache.
type pageState struct {
	col, index        int
	firstRow, numRows uint64
	bufs              []format.Range
	layout            *pb.PageLayout
	mini              *layouts.MiniBlockPage
	full              *layouts.FullZipPage
	cnst              *layouts.ConstantPage
	planar            *pb23.PlanarLayout
	sparseLayout      *layouts.SparseLayout
	sparse            *layouts.SparsePage
	// blob is set for blob v1 pages: the outer layers and the inner page.
	blob *blobState
	// resident holds the page's data buffer when the page was small enough
	// to fetch whole at initialization.
	resident []byte
	// size approximates the memory the state holds, for the cache.
	size int64
	// rowItems is the number of page entries per row of a dense page
	// below a fixed-size list of structs (Lance counts such pages in
	// items), else 1; fslSet is then the page's layer set read as the
	// schema's (layouts.DenseFSLSet).
	rowItems uint64
	fslSet   *layouts.LayerSet
	fslPath  []*layouts.Field // the leaf's field path when rowItems > 1
}

type blobState struct {
	set   layouts.LayerSet
	inner *pageState
}

// set returns the layer set describing the page's rows.
func (p *pageState) set() layouts.LayerSet {
	switch {
	case p.fslSet != nil:
		return *p.fslSet
	case p.blob != nil:
		return p.blob.set
	case p.mini != nil:
		return p.mini.Set
	case p.full != nil:
		return p.full.Set
	case p.sparse != nil:
		return p.sparse.Set
	default:
		return p.cnst.Set
	}
}

// pageBuffers are the bytes of some of a page's buffers (nil if not read).
type pageBuffers [][]byte

// initPage decodes a page's layout and fetches its initialization buffers:
// the whole page in one request when it is small, else only the metadata.
func (f *File) initPage(ctx context.Context, col, index int, leaf arrow.DataType) (*pageState, error) {
	st, err := f.newPageState(col, index)
	if err != nil {
		return nil, err
	}
	got, whole, err := f.fetchPageBuffers(ctx, st, st.initBuffers())
	if err != nil {
		return nil, err
	}
	return st, finishPage(st, got, whole, leaf)
}

// denseFSL reads the layer set of a dense page below a fixed-size list of
// structs as the schema's.
func denseFSL(st *pageState) error {
	if st.fslPath == nil {
		return nil
	}
	if st.blob != nil {
		return fmt.Errorf("%w: blob page below a fixed-size list of structs", format.ErrCorrupt)
	}
	set, per, err := layouts.DenseFSLSet(st.set(), st.fslPath)
	if err != nil {
		return err
	}
	if per != st.rowItems {
		return fmt.Errorf("%w: page has %d items a row, schema %d", format.ErrCorrupt, per, st.rowItems)
	}
	st.fslSet = &set
	return nil
}

// belowFSLStruct reports whether a leaf's field path passes through a
// fixed-size list of structs (a layer of its own, not leaf values).
func belowFSLStruct(path []*layouts.Field) bool {
	for _, f := range path[:max(len(path)-1, 0)] {
		if f.Type.ID() == arrow.FIXED_SIZE_LIST {
			return true
		}
	}
	return false
}

// columnPath returns the fields from the top-level field down to the leaf
// stored in column col, or nil.
func (f *File) columnPath(col int) []*layouts.Field {
	for _, ls := range f.leaves {
		for _, l := range ls {
			if l.Column == col {
				return f.paths[l]
			}
		}
	}
	return nil
}

// newPageState decodes a page's layout and buffer ranges (no I/O).
func (f *File) newPageState(col, index int) (*pageState, error) {
	pg := f.meta.Columns[col].GetPages()[index]
	enc, err := format.DecodePageEncoding(pg)
	if err != nil {
		return nil, err
	}
	bufs, err := f.meta.PageRanges(col, index)
	if err != nil {
		return nil, err
	}
	st := &pageState{col: col, index: index, firstRow: pg.GetPriority(), numRows: pg.GetLength(), bufs: bufs, layout: enc.Layout, rowItems: 1}
	switch {
	case enc.Planar == nil:
	case enc.Planar.GetStructure().GetDense() != nil:
		st.layout, err = layouts.DenseAsPageLayout(enc.Planar)
	default:
		st.planar = enc.Planar
		st.sparseLayout, err = layouts.NewSparseLayout(enc.Planar)
	}
	if err == nil && st.sparseLayout == nil {
		if path := f.columnPath(col); belowFSLStruct(path) {
			// Lance counts dense pages below a fixed-size list of structs
			// in items; ParseTail checked that they fit in a uint64.
			st.rowItems, st.fslPath = f.meta.Schema.RowScale(col), path
		}
	}
	return st, err
}

// numItems is the number of entries of a page: its rows, times the items
// per row of a dense page below a fixed-size list of structs.
func (st *pageState) numItems() uint64 { return st.numRows * st.itemsPerRow() }

// itemsPerRow is rowItems, 1 when unset.
func (st *pageState) itemsPerRow() uint64 { return max(st.rowItems, 1) }

// pageLayoutOf returns the 2.2 layout a page is read with (the equivalent
// one for a dense planar page; nil for a sparse planar page).
func pageLayoutOf(pg *file2pb.ColumnMetadata_Page) *pb.PageLayout {
	enc, err := format.DecodePageEncoding(pg)
	if err != nil || enc.Layout != nil || enc.Planar.GetStructure().GetDense() == nil {
		return enc.Layout
	}
	l, _ := layouts.DenseAsPageLayout(enc.Planar)
	return l
}

// initBuffers lists the buffers a page needs at initialization.
func (st *pageState) initBuffers() []int {
	if st.sparseLayout == nil {
		return initBuffers(st.layout, len(st.bufs))
	}
	out := slices.Clone(st.sparseLayout.MetaBuffers)
	for i := st.sparseLayout.ValueBuffers; i < len(st.bufs); i++ {
		out = append(out, i) // structural payloads
	}
	return out
}

// dataBuffer is the index of the page's data buffer (-1 if none).
func (st *pageState) dataBuffer() int {
	if st.sparseLayout != nil {
		return st.sparseLayout.DataBuffer
	}
	return dataBuffer(st.layout)
}

// finishPage builds the decoder state from fetched buffers; with whole,
// got holds every buffer and the data buffer stays resident.
func finishPage(st *pageState, got pageBuffers, whole bool, leaf arrow.DataType) error {
	if st.sparseLayout != nil {
		if err := initSparse(st, got, leaf); err != nil {
			return err
		}
	} else if err := initLayout(st, st.layout, got, leaf); err != nil {
		return err
	} else if err := denseFSL(st); err != nil {
		return err
	}
	if whole {
		st.resident = bufAt(got, st.dataBuffer())
	}
	for _, b := range got {
		st.size += int64(len(b))
	}
	return nil
}

// splitSpan cuts the bytes of a page's span into its buffers.
func splitSpan(bufs []format.Range, span format.Range, b []byte) pageBuffers {
	out := make(pageBuffers, len(bufs))
	for i, r := range bufs {
		out[i] = b[r.Offset-span.Offset : r.Offset-span.Offset+r.Length]
	}
	return out
}

// initBuffers lists the page buffers a layout needs at initialization.
func initBuffers(layout *pb.PageLayout, n int) []int {
	switch l := layout.GetLayout().(type) {
	case *pb.PageLayout_MiniBlockLayout:
		dict, rep := layouts.MiniBlockMetaBuffers(l.MiniBlockLayout, n)
		out := []int{0}
		for _, i := range []int{dict, rep} {
			if i >= 0 {
				out = append(out, i)
			}
		}
		return out
	case *pb.PageLayout_FullZipLayout:
		if n > 1 {
			return []int{1}
		}
		return nil
	case *pb.PageLayout_BlobLayout:
		return initBuffers(l.BlobLayout.GetInnerLayout(), n)
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// dataBuffer is the index of a layout's data buffer.
func dataBuffer(layout *pb.PageLayout) int {
	switch l := layout.GetLayout().(type) {
	case *pb.PageLayout_MiniBlockLayout:
		return 1
	case *pb.PageLayout_BlobLayout:
		return dataBuffer(l.BlobLayout.GetInnerLayout())
	}
	return 0
}

// fetchPageBuffers reads the listed buffers, or every buffer of the page
// in one request when the page spans at most the small-page size.
func (f *File) fetchPageBuffers(ctx context.Context, st *pageState, want []int) (pageBuffers, bool, error) {
	out := make(pageBuffers, len(st.bufs))
	for _, i := range want {
		if i >= len(st.bufs) {
			return nil, false, fmt.Errorf("%w: page needs buffer %d, has %d", format.ErrCorrupt, i, len(st.bufs))
		}
	}
	if span, ok := pageSpan(st.bufs); ok && span.Length <= f.cfg.SmallPage {
		got, err := f.fetch(ctx, []format.Range{span}, st.firstRow)
		if err != nil {
			return nil, false, err
		}
		return splitSpan(st.bufs, span, got[0]), true, nil
	}
	ranges := make([]format.Range, len(want))
	for k, i := range want {
		ranges[k] = st.bufs[i]
	}
	got, err := f.fetch(ctx, ranges, st.firstRow)
	if err != nil {
		return nil, false, err
	}
	for k, i := range want {
		out[i] = got[k]
	}
	return out, false, nil
}

// pageSpan is the smallest range covering all buffers of a page.
func pageSpan(bufs []format.Range) (format.Range, bool) {
	if len(bufs) == 0 {
		return format.Range{}, false
	}
	lo, hi := bufs[0].Offset, uint64(0)
	for _, r := range bufs {
		end, ok := r.End()
		if !ok {
			return format.Range{}, false
		}
		lo, hi = min(lo, r.Offset), max(hi, end)
	}
	return format.Range{Offset: lo, Length: hi - lo}, true
}

func initLayout(st *pageState, layout *pb.PageLayout, got pageBuffers, leaf arrow.DataType) error {
	var err error
	switch l := layout.GetLayout().(type) {
	case *pb.PageLayout_MiniBlockLayout:
		if len(st.bufs) < 2 {
			return fmt.Errorf("%w: mini-block page with %d buffers", format.ErrCorrupt, len(st.bufs))
		}
		dict, rep := layouts.MiniBlockMetaBuffers(l.MiniBlockLayout, len(st.bufs))
		meta := layouts.MiniBlockMeta{ChunkWords: got[0], Dictionary: bufAt(got, dict), RepIndex: bufAt(got, rep)}
		st.mini, err = layouts.NewMiniBlockPage(l.MiniBlockLayout, st.numItems(), st.bufs[1].Length, meta)
	case *pb.PageLayout_FullZipLayout:
		if len(st.bufs) < 1 {
			return fmt.Errorf("%w: full-zip page without buffers", format.ErrCorrupt)
		}
		st.full, err = layouts.NewFullZipPage(l.FullZipLayout, st.numItems(), st.bufs[0].Length, bufAt(got, 1))
	case *pb.PageLayout_ConstantLayout:
		st.cnst, err = layouts.NewConstantPage(l.ConstantLayout, st.numItems(), got, leaf)
	case *pb.PageLayout_BlobLayout:
		err = initBlob(st, l.BlobLayout, got)
	default:
		err = fmt.Errorf("%w: page layout %T", ErrUnsupported, layout.GetLayout())
	}
	return err
}

func bufAt(got pageBuffers, i int) []byte {
	if i < 0 || i >= len(got) {
		return nil
	}
	return got[i]
}

func initBlob(st *pageState, l *pb.BlobLayout, got pageBuffers) error {
	set, err := layouts.NewLayerSet(l.GetLayers())
	if err != nil {
		return err
	}
	if l.GetInnerLayout() == nil {
		return fmt.Errorf("%w: blob page without inner layout", format.ErrCorrupt)
	}
	if _, nested := l.GetInnerLayout().GetLayout().(*pb.PageLayout_BlobLayout); nested {
		return fmt.Errorf("%w: nested blob layout", format.ErrCorrupt)
	}
	inner := &pageState{col: st.col, index: st.index, firstRow: st.firstRow, numRows: st.numRows,
		bufs: st.bufs, layout: l.GetInnerLayout()}
	if err := initLayout(inner, l.GetInnerLayout(), got, nil); err != nil {
		return fmt.Errorf("blob descriptors: %w", err)
	}
	st.blob = &blobState{set: set, inner: inner}
	return nil
}

// initSparse builds a sparse planar page's state from its metadata and
// structural buffers.
func initSparse(st *pageState, got pageBuffers, leaf arrow.DataType) error {
	sizes := make([]uint64, len(st.bufs))
	for i, r := range st.bufs {
		sizes[i] = r.Length
	}
	bufs := make([][]byte, len(got))
	copy(bufs, got)
	if d := st.sparseLayout.DataBuffer; d >= 0 && d < len(bufs) {
		bufs[d] = nil // read per row
	}
	var err error
	st.sparse, err = layouts.NewSparsePage(st.planar, st.sparseLayout, st.numRows, sizes, bufs, leaf)
	return err
}
