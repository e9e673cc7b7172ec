package lance

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	pb "github.com/lancego/lancego/format/pb/encodings21pb"
	"github.com/lancego/lancego/layouts"
)

// pageState is an initialized page: its layout-specific decoder state.
// Exactly one of mini, full, cnst is set; blob pages wrap one of them.
type pageState struct {
	col, index        int
	firstRow, numRows uint64
	bufs              []format.Range
	layout            *pb.PageLayout
	mini              *layouts.MiniBlockPage
	full              *layouts.FullZipPage
	cnst              *layouts.ConstantPage
	// blob is set for blob v1 pages: the outer layers and the inner page.
	blob *blobState
}

type blobState struct {
	set   layouts.LayerSet
	inner *pageState
}

// set returns the layer set describing the page's rows.
func (p *pageState) set() layouts.LayerSet {
	switch {
	case p.blob != nil:
		return p.blob.set
	case p.mini != nil:
		return p.mini.Set
	case p.full != nil:
		return p.full.Set
	default:
		return p.cnst.Set
	}
}

// initPage decodes a page's layout and fetches its metadata buffers.
func (f *File) initPage(ctx context.Context, col, index int, leaf arrow.DataType) (*pageState, error) {
	pages := f.meta.Columns[col].GetPages()
	pg := pages[index]
	layout, err := format.DecodePageLayout(pg)
	if err != nil {
		return nil, err
	}
	bufs, err := f.meta.PageRanges(col, index)
	if err != nil {
		return nil, err
	}
	st := &pageState{col: col, index: index, firstRow: pg.GetPriority(), numRows: pg.GetLength(), bufs: bufs, layout: layout}
	if err := f.initLayout(ctx, st, layout, leaf); err != nil {
		return nil, err
	}
	return st, nil
}

func (f *File) initLayout(ctx context.Context, st *pageState, layout *pb.PageLayout, leaf arrow.DataType) error {
	switch l := layout.GetLayout().(type) {
	case *pb.PageLayout_MiniBlockLayout:
		return f.initMiniBlock(ctx, st, l.MiniBlockLayout)
	case *pb.PageLayout_FullZipLayout:
		return f.initFullZip(ctx, st, l.FullZipLayout)
	case *pb.PageLayout_ConstantLayout:
		bufs, err := f.fetch(ctx, st.bufs, 0)
		if err != nil {
			return err
		}
		st.cnst, err = layouts.NewConstantPage(l.ConstantLayout, st.numRows, bufs, leaf)
		return err
	case *pb.PageLayout_BlobLayout:
		return f.initBlob(ctx, st, l.BlobLayout, leaf)
	}
	return fmt.Errorf("%w: page layout %T", ErrUnsupported, layout.GetLayout())
}

func (f *File) initMiniBlock(ctx context.Context, st *pageState, l *pb.MiniBlockLayout) error {
	if len(st.bufs) < 2 {
		return fmt.Errorf("%w: mini-block page with %d buffers", format.ErrCorrupt, len(st.bufs))
	}
	dict, rep := layouts.MiniBlockMetaBuffers(l, len(st.bufs))
	want := []format.Range{st.bufs[0]}
	for _, i := range []int{dict, rep} {
		if i >= len(st.bufs) {
			return fmt.Errorf("%w: mini-block page needs buffer %d, has %d", format.ErrCorrupt, i, len(st.bufs))
		}
		if i >= 0 {
			want = append(want, st.bufs[i])
		}
	}
	got, err := f.fetch(ctx, want, 0)
	if err != nil {
		return err
	}
	meta := layouts.MiniBlockMeta{ChunkWords: got[0]}
	next := 1
	if dict >= 0 {
		meta.Dictionary = got[next]
		next++
	}
	if rep >= 0 {
		meta.RepIndex = got[next]
	}
	st.mini, err = layouts.NewMiniBlockPage(l, st.numRows, st.bufs[1].Length, meta)
	return err
}

func (f *File) initFullZip(ctx context.Context, st *pageState, l *pb.FullZipLayout) error {
	if len(st.bufs) < 1 {
		return fmt.Errorf("%w: full-zip page without buffers", format.ErrCorrupt)
	}
	var repIndex []byte
	if len(st.bufs) > 1 {
		got, err := f.fetch(ctx, st.bufs[1:2], 0)
		if err != nil {
			return err
		}
		repIndex = got[0]
	}
	var err error
	st.full, err = layouts.NewFullZipPage(l, st.numRows, st.bufs[0].Length, repIndex)
	return err
}

func (f *File) initBlob(ctx context.Context, st *pageState, l *pb.BlobLayout, leaf arrow.DataType) error {
	set, err := layouts.NewLayerSet(l.GetLayers())
	if err != nil {
		return err
	}
	if l.GetInnerLayout() == nil {
		return fmt.Errorf("%w: blob page without inner layout", format.ErrCorrupt)
	}
	inner := &pageState{col: st.col, index: st.index, firstRow: st.firstRow, numRows: st.numRows,
		bufs: st.bufs, layout: l.GetInnerLayout()}
	if _, nested := l.GetInnerLayout().GetLayout().(*pb.PageLayout_BlobLayout); nested {
		return fmt.Errorf("%w: nested blob layout", format.ErrCorrupt)
	}
	if err := f.initLayout(ctx, inner, l.GetInnerLayout(), nil); err != nil {
		return fmt.Errorf("blob descriptors: %w", err)
	}
	st.blob = &blobState{set: set, inner: inner}
	return nil
}
