package fileread

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/layouts"
	v20 "github.com/lancego/lancego/layouts/v20"
	"github.com/lancego/lancego/searchcache"
)

// subPage is a piece decoded from the windows of its rows: rows [from,
// to) of the page are rows [from-base, to-base) of p.
type subPage struct {
	p    *v20.Page
	base uint64
}

// takeWindowsV20 reads, in one request, the bytes of the pieces on pages
// of fixed-width values that are not cached, when they are at most a
// quarter of their page, and makes a sub-page of each such piece. Other
// pieces get no sub-page and load their page whole.
func (f *File) takeWindowsV20(ctx context.Context, col int, dt arrow.DataType, ps []piece20) ([]subPage, error) {
	sub := make([]subPage, len(ps))
	type plan struct {
		piece int
		base  uint64
		ws    []v20.Window
	}
	var plans []plan
	var want []format.Range
	var binary []int // pieces of binary pages
	pages := f.meta.Columns[col].GetPages()
	for i, p := range ps {
		key := searchcache.Key{File: f.src.Key(), Column: col, Page: p.page, Kind: "v20page"}
		if _, ok := f.cache.Get(key); ok {
			continue
		}
		enc := f.v20.cols[col].encs[p.page]
		base, ws, ok := v20.Windows(enc, dt, p.from, p.to)
		if !ok && enc.GetBinary() != nil {
			binary = append(binary, i)
			continue
		}
		if !ok {
			continue
		}
		bufs := zipPageRanges(pages[p.page])
		var total uint64
		for _, w := range ws {
			if uint64(w.Buffer) >= uint64(len(bufs)) || w.Hi > bufs[w.Buffer].Length {
				ok = false
				break
			}
			total += w.Hi - w.Lo
		}
		if !ok || total > pageBytes(pages[p.page])/4 {
			continue
		}
		plans = append(plans, plan{i, base, ws})
		for _, w := range ws {
			want = append(want, format.Range{Offset: bufs[w.Buffer].Offset + w.Lo, Length: w.Hi - w.Lo})
		}
	}
	if len(binary) > 0 {
		if err := f.takeBinaryV20(ctx, col, dt, ps, binary, sub); err != nil {
			return nil, err
		}
	}
	if len(plans) == 0 {
		return sub, nil
	}
	got, err := f.fetch(ctx, want, 0)
	if err != nil {
		return nil, err
	}
	k := 0
	for _, pl := range plans {
		p := ps[pl.piece]
		bufs, err := v20.WindowBuffers(pl.ws, got[k:k+len(pl.ws)])
		if err != nil {
			return nil, err
		}
		k += len(pl.ws)
		sp, err := v20.NewPage(f.v20.cols[col].encs[p.page], dt, p.to-pl.base, v20.Buffers{Page: bufs})
		if err != nil {
			return nil, fmt.Errorf("column %d page %d: %w", col, p.page, err)
		}
		sub[pl.piece] = subPage{sp, pl.base}
	}
	return sub, nil
}

// takeBinaryV20 reads the pieces (indices into ps) of binary pages in two
// requests: the offsets of their rows, then the bytes those offsets span.
// Pieces whose page does not allow it, or whose bytes exceed a quarter of
// the page, keep no sub-page (their page is loaded whole).
func (f *File) takeBinaryV20(ctx context.Context, col int, dt arrow.DataType, ps []piece20, pieces []int, sub []subPage) error {
	type plan struct {
		piece      int
		base       uint64
		ws         []v20.Window
		bytesBuf   uint32
		bufs       [][]byte
		start, end uint64
	}
	pages := f.meta.Columns[col].GetPages()
	var plans []*plan
	var want []format.Range
	for _, i := range pieces {
		p := ps[i]
		base, ws, bb, ok := v20.BinaryWindow(f.v20.cols[col].encs[p.page], p.from, p.to)
		bufs := zipPageRanges(pages[p.page])
		if !ok || uint64(bb) >= uint64(len(bufs)) {
			continue
		}
		for _, w := range ws {
			if uint64(w.Buffer) >= uint64(len(bufs)) || w.Hi > bufs[w.Buffer].Length {
				ok = false
			}
		}
		if !ok {
			continue
		}
		plans = append(plans, &plan{piece: i, base: base, ws: ws, bytesBuf: bb})
		for _, w := range ws {
			want = append(want, format.Range{Offset: bufs[w.Buffer].Offset + w.Lo, Length: w.Hi - w.Lo})
		}
	}
	if len(plans) == 0 {
		return nil
	}
	got, err := f.fetch(ctx, want, 0)
	if err != nil {
		return err
	}
	var spans []format.Range
	var kept []*plan
	k := 0
	for _, pl := range plans {
		p := ps[pl.piece]
		enc := f.v20.cols[col].encs[p.page]
		bufs, err := v20.WindowBuffers(pl.ws, got[k:k+len(pl.ws)])
		k += len(pl.ws)
		if err != nil {
			return err
		}
		for uint32(len(bufs)) <= pl.bytesBuf {
			bufs = append(bufs, nil)
		}
		offs, err := v20.NewPage(enc, dt, p.to-pl.base, v20.Buffers{Page: bufs})
		if err != nil {
			return fmt.Errorf("column %d page %d: %w", col, p.page, err)
		}
		pl.start, pl.end, err = v20.ByteSpan(enc, offs, pl.base, p.from, p.to)
		if err != nil {
			return fmt.Errorf("column %d page %d: %w", col, p.page, err)
		}
		bytesRange := zipPageRanges(pages[p.page])[pl.bytesBuf]
		if pl.end > bytesRange.Length {
			return fmt.Errorf("%w: column %d page %d: values end at %d of %d bytes", layouts.ErrCorrupt, col, p.page, pl.end, bytesRange.Length)
		}
		if pl.end-pl.start > pageBytes(pages[p.page])/4 {
			continue // long values: read the page whole
		}
		pl.bufs = bufs
		kept = append(kept, pl)
		spans = append(spans, format.Range{Offset: bytesRange.Offset + pl.start, Length: pl.end - pl.start})
	}
	data, err := f.fetch(ctx, spans, 0)
	if err != nil {
		return err
	}
	for j, pl := range kept {
		p := ps[pl.piece]
		pl.bufs[pl.bytesBuf] = data[j]
		base := make([]uint64, len(pl.bufs))
		base[pl.bytesBuf] = pl.start
		sp, err := v20.NewPage(f.v20.cols[col].encs[p.page], dt, p.to-pl.base, v20.Buffers{Page: pl.bufs, PageBase: base})
		if err != nil {
			return fmt.Errorf("column %d page %d: %w", col, p.page, err)
		}
		sub[pl.piece] = subPage{sp, pl.base}
	}
	return nil
}

// zipPageRanges returns a page's buffer ranges.
func zipPageRanges(pg *file2pb.ColumnMetadata_Page) []format.Range {
	offs, sizes := pg.GetBufferOffsets(), pg.GetBufferSizes()
	out := make([]format.Range, min(len(offs), len(sizes)))
	for i := range out {
		out[i] = format.Range{Offset: offs[i], Length: sizes[i]}
	}
	return out
}
