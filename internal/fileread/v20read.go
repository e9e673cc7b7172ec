package fileread

import (
	"context"
	"fmt"
	"runtime/debug"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/encodingspb"
	"github.com/lancego/lancego/layouts"
	v20 "github.com/lancego/lancego/layouts/v20"
	"github.com/lancego/lancego/searchcache"
)

// v20File is what the 2.0 read path knows about a file: every column's
// page encodings and row starts, and which decoder fields are lists.
// Unlike 2.1, a 2.0 file stores structs and lists as columns of their own.
type v20File struct {
	cols []v20Column
	// listCol maps list (and map) decoder fields to their offsets column.
	listCol map[*layouts.Field]int
}

// v20Column is one column of a 2.0 file.
type v20Column struct {
	encs []*encodingspb.ArrayEncoding
	// starts holds each page's first row and, last, the column's rows.
	starts []uint64
	// items holds each list page's first item in the items column and,
	// last, the items of all pages (list columns only).
	items []uint64
}

// openV20 parses every page encoding of a 2.0 file and builds its
// decoder fields: struct and list fields are inner fields (Column -1) and
// every other field a leaf reading its own column.
func openV20(meta *format.FileMetadata) ([]*layouts.Field, *v20File, error) {
	v := &v20File{cols: make([]v20Column, len(meta.Columns)), listCol: map[*layouts.Field]int{}}
	for c, cm := range meta.Columns {
		col := &v.cols[c]
		col.starts = make([]uint64, 1, len(cm.GetPages())+1)
		for p, pg := range cm.GetPages() {
			enc, err := format.DecodeArrayEncoding(pg)
			if err != nil {
				return nil, nil, fmt.Errorf("column %d page %d: %w", c, p, err)
			}
			col.encs = append(col.encs, enc)
			col.starts = append(col.starts, col.starts[p]+pg.GetLength())
		}
	}
	fields := make([]*layouts.Field, len(meta.Schema.Fields))
	for i, sf := range meta.Schema.Fields {
		lf, err := v.field(sf, sf.ArrowType, 0)
		if err != nil {
			return nil, nil, err
		}
		fields[i] = lf
	}
	return fields, v, nil
}

// field converts one schema field (see openV20).
func (v *v20File) field(f *format.Field, dt arrow.DataType, depth int) (*layouts.Field, error) {
	if depth > format.MaxSchemaDepth {
		return nil, fmt.Errorf("lance: field %q nested too deep", f.Name)
	}
	if f.Column < 0 || f.Column >= len(v.cols) {
		return nil, fmt.Errorf("%w: field %q has no column", format.ErrCorrupt, f.Name)
	}
	lf := &layouts.Field{Name: f.Name, Type: dt, Nullable: f.Nullable, Column: f.Column, BlobV1: f.BlobV1}
	if f.Packed || f.BlobV1 || f.BlobV2 || !format.IsNestedLogicalType(f.LogicalType) {
		if f.BlobV2 {
			return nil, fmt.Errorf("%w: blob v2 field %q in a 2.0 file", format.ErrCorrupt, f.Name)
		}
		return lf, nil
	}
	kids, err := layouts.ChildTypes(f, dt)
	if err != nil {
		return nil, err
	}
	if dt.ID() != arrow.STRUCT {
		if err := v.indexList(f.Column); err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Name, err)
		}
		v.listCol[lf] = f.Column
	}
	lf.Column = -1
	for i, c := range f.Children {
		k, err := v.field(c, kids[i], depth+1)
		if err != nil {
			return nil, err
		}
		lf.Children = append(lf.Children, k)
	}
	return lf, nil
}

// indexList records where each page of a list column starts in the items.
func (v *v20File) indexList(col int) error {
	c := &v.cols[col]
	c.items = make([]uint64, 1, len(c.encs)+1)
	for p, enc := range c.encs {
		n, err := v20.ListItems(enc)
		if err != nil {
			return fmt.Errorf("column %d page %d: %w", col, p, err)
		}
		next := c.items[p] + n
		if next < c.items[p] {
			return fmt.Errorf("%w: column %d: item count overflows", format.ErrCorrupt, col)
		}
		c.items = append(c.items, next)
	}
	return nil
}

// readFieldV20 reads rows of ranges (in order) of top-level field c.
func (f *File) readFieldV20(ctx context.Context, c int, ranges []RowRange, nrows uint64, take bool) (_ arrow.Array, err error) {
	top := f.fields[c]
	batch := v20BatchOf(ctx)
	if batch != nil { // the pages are views (v20scan.go)
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer f.recoverViewFault(top.Name, -1, &err)
	}
	leaves, err := f.readV20(ctx, top, ranges, take)
	defer func() { // give back what no array took over
		if batch != nil {
			batch.scan.putOffsets(leaves)
		}
		freeLeafData(leaves)
	}()
	return f.buildLeaves(top, leaves, nrows, err)
}

// readV20 reads the rows of ranges of fld and returns the data of each of
// its leaves, with one path node per layer from fld down.
func (f *File) readV20(ctx context.Context, fld *layouts.Field, ranges []RowRange, take bool) ([]layouts.LeafData, error) {
	if fld.IsLeaf() {
		d, err := f.readLeafV20(ctx, fld, ranges, take)
		if err != nil {
			return nil, err
		}
		return []layouts.LeafData{d}, nil
	}
	if col, ok := f.v20.listCol[fld]; ok {
		return f.readListV20(ctx, fld, col, ranges, take)
	}
	var n uint64
	for _, r := range ranges {
		n += r.To - r.From
	}
	var out []layouts.LeafData
	for _, c := range fld.Children {
		kids, err := f.readV20(ctx, c, ranges, take)
		if err != nil {
			freeLeafData(out)
			return nil, err
		}
		for _, k := range kids {
			out = append(out, layouts.LeafData{Node: v20.StructNode(n, k.Node), Values: k.Values})
		}
	}
	return out, nil
}

// readListV20 reads the offsets of a list column, then its items.
func (f *File) readListV20(ctx context.Context, fld *layouts.Field, col int, ranges []RowRange, take bool) ([]layouts.LeafData, error) {
	var acc v20.List
	acc.Expect(rangeRows(ranges))
	var items []RowRange
	err := f.eachPieceV20(ctx, col, nil, ranges, false, func(p *v20.Page, page int, from, to uint64) error {
		lo, hi, err := p.DecodeList(from, to, &acc)
		if err != nil {
			return err
		}
		base := f.v20.cols[col].items[page]
		if lo < hi {
			items = appendRange(items, RowRange{base + lo, base + hi})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if n := acc.Items(); n > max(1<<20, 512*f.meta.FileSize) {
		// Item counts are claims of the offsets pages; all-null items
		// store no bytes, so bound them by the file's size.
		return nil, fmt.Errorf("%w: column %d: %d list items for a file of %d bytes", layouts.ErrCorrupt, col, n, f.meta.FileSize)
	}
	kids, err := f.readV20(ctx, fld.Children[0], items, take)
	if err != nil {
		return nil, err
	}
	out := make([]layouts.LeafData, len(kids))
	for i, k := range kids {
		out[i] = layouts.LeafData{Node: acc.Node(k.Node), Values: k.Values}
	}
	return out, nil
}

// appendRange appends r, merging it into the last range when adjacent.
func appendRange(rs []RowRange, r RowRange) []RowRange {
	if n := len(rs); n > 0 && rs[n-1].To == r.From {
		rs[n-1].To = r.To
		return rs
	}
	return append(rs, r)
}

// readLeafV20 decodes the rows of ranges of a value column.
func (f *File) readLeafV20(ctx context.Context, leaf *layouts.Field, ranges []RowRange, take bool) (layouts.LeafData, error) {
	if leaf.BlobV1 {
		return f.readBlobV20(ctx, leaf, ranges, take)
	}
	var acc v20.Leaf
	batch := v20BatchOf(ctx)
	scan := batch != nil
	if scan { // copied out of the views, into the batch's buffers sized once
		acc.Expect(f.cfg.Mem, rangeRows(ranges))
		acc.SpareOffsets(batch.scan.spareOffsets(leaf.Type))
	}
	err := f.eachPieceV20(ctx, leaf.Column, leaf.Type, ranges, take, func(p *v20.Page, _ int, from, to uint64) error {
		if scan {
			return p.DecodeInto(from, to, &acc)
		}
		d, err := p.Decode(from, to)
		if err != nil {
			return err
		}
		return acc.Append(d)
	})
	if err != nil {
		acc.Free()
		return layouts.LeafData{}, err
	}
	d, err := acc.Finish(leaf.Type)
	if err != nil {
		acc.Free()
	}
	return d, err
}

// eachPieceV20 splits ranges (in order) along the pages of col, makes sure
// every page they touch is loaded (concurrently, through the search cache)
// and calls fn for each piece in order with page-relative rows. A take
// (sc == nil in readField) reads only the bytes of its rows from pages of
// fixed-width values that are not cached yet (takeWindowsV20).
func (f *File) eachPieceV20(ctx context.Context, col int, dt arrow.DataType, ranges []RowRange, take bool, fn func(p *v20.Page, page int, from, to uint64) error) error {
	ps, err := f.piecesV20(col, ranges)
	if err != nil {
		return err
	}
	var sub []subPage
	if take && dt != nil {
		if sub, err = f.takeWindowsV20(ctx, col, dt, ps); err != nil {
			return err
		}
	}
	var need []int
	seen := map[int]bool{}
	for i, p := range ps {
		if (sub == nil || sub[i].p == nil) && !seen[p.page] {
			seen[p.page] = true
			need = append(need, p.page)
		}
	}
	pages := make([]*v20.Page, len(f.v20.cols[col].starts)-1)
	load := func(ctx context.Context, k int) error {
		p, err := f.loadPageV20(ctx, col, need[k], dt)
		pages[need[k]] = p
		return err
	}
	if len(need) == 1 {
		err = load(ctx, 0)
	} else if len(need) > 1 {
		err = FanOut(ctx, len(need), load)
	}
	if err != nil {
		return err
	}
	for i, p := range ps {
		pg, from, to := pages[p.page], p.from, p.to
		if sub != nil && sub[i].p != nil {
			pg, from, to = sub[i].p, p.from-sub[i].base, p.to-sub[i].base
		}
		if err := fn(pg, p.page, from, to); err != nil {
			return fmt.Errorf("column %d (field %q) page %d: %w", col, f.columnName(col), p.page, err)
		}
		f.passedV20(ctx, col, p.page, p.to)
	}
	return nil
}

// piece20 is the rows [from, to) of one page of a 2.0 column.
type piece20 struct {
	page     int
	from, to uint64
}

// piecesV20 splits row ranges (in order) along the pages of col.
func (f *File) piecesV20(col int, ranges []RowRange) ([]piece20, error) {
	starts := f.v20.cols[col].starts
	var ps []piece20
	for _, r := range ranges {
		for row := r.From; row < r.To; {
			i := sort.Search(len(starts)-1, func(i int) bool { return starts[i+1] > row })
			if i == len(starts)-1 {
				return nil, fmt.Errorf("%w: row %d beyond column %d (%d rows)", layouts.ErrCorrupt, row, col, starts[i])
			}
			end := min(r.To, starts[i+1])
			ps = append(ps, piece20{i, row - starts[i], end - starts[i]})
			row = end
		}
	}
	return ps, nil
}

// pageV20 returns a prepared 2.0 page from the search cache, reading its
// buffers (and its column's) in one request on first use.
func (f *File) pageV20(ctx context.Context, col, index int, dt arrow.DataType) (*v20.Page, error) {
	key := searchcache.Key{File: f.src.Key(), Column: col, Page: index, Kind: "v20page"}
	loaded := false
	p, err := searchcache.GetOrLoad(ctx, f.cache, key, func(ctx context.Context) (*v20.Page, int64, error) {
		loaded = true
		pr, err := f.meta.PageRanges(col, index)
		if err != nil {
			return nil, 0, err
		}
		cr, err := f.meta.ColumnBufferRanges(col)
		if err != nil {
			return nil, 0, err
		}
		got, err := f.fetch(ctx, append(append([]format.Range(nil), pr...), cr...), f.v20.cols[col].starts[index])
		if err != nil {
			return nil, 0, err
		}
		enc := f.v20.cols[col].encs[index]
		rows := f.meta.Columns[col].GetPages()[index].GetLength()
		p, err := v20.NewPage(enc, dt, rows, v20.Buffers{Page: got[:len(pr)], Column: got[len(pr):]})
		if err != nil {
			return nil, 0, err
		}
		return p, p.Size() + 1024, nil
	})
	if loaded {
		f.stats.cacheMisses.Add(1)
	} else if err == nil {
		f.stats.cacheHits.Add(1)
	}
	if err != nil {
		return nil, fmt.Errorf("lance: %s: column %d (field %q) page %d: %w", f.url, col, f.columnName(col), index, err)
	}
	return p, nil
}

// blobDescriptorType is how 2.0 stores a blob: a packed struct of the
// position and size of its bytes in the file.
var blobDescriptorType = arrow.StructOf(
	arrow.Field{Name: "position", Type: arrow.PrimitiveTypes.Uint64},
	arrow.Field{Name: "size", Type: arrow.PrimitiveTypes.Uint64})

// readBlobV20 decodes blob descriptors, then fetches the blobs' bytes. A
// null blob is stored as position 1, size 0.
func (f *File) readBlobV20(ctx context.Context, leaf *layouts.Field, ranges []RowRange, take bool) (layouts.LeafData, error) {
	var acc v20.Leaf
	err := f.eachPieceV20(ctx, leaf.Column, blobDescriptorType, ranges, take, func(p *v20.Page, _ int, from, to uint64) error {
		d, err := p.Decode(from, to)
		if err != nil {
			return err
		}
		return acc.Append(d)
	})
	if err != nil {
		return layouts.LeafData{}, err
	}
	desc, err := acc.Finish(blobDescriptorType)
	if err != nil {
		return layouts.LeafData{}, err
	}
	refs, err := layouts.BlobRefs(desc.Values, false)
	if err != nil {
		return layouts.LeafData{}, err
	}
	var want []format.Range
	for _, r := range refs {
		if r.Size > 0 {
			if r.Position+r.Size < r.Position || r.Position+r.Size > f.meta.FileSize {
				return layouts.LeafData{}, fmt.Errorf("%w: blob [%d,+%d) outside file of %d bytes", layouts.ErrCorrupt, r.Position, r.Size, f.meta.FileSize)
			}
			want = append(want, format.Range{Offset: r.Position, Length: r.Size})
		}
	}
	got, err := f.fetch(ctx, want, ranges[0].From)
	if err != nil {
		return layouts.LeafData{}, err
	}
	data := make([][]byte, len(refs))
	var out v20.Leaf
	valid := make([]byte, (len(refs)+7)/8)
	k := 0
	for i, r := range refs {
		if r.Size > 0 {
			data[i] = got[k]
			k++
		}
		if r.Position != 1 || r.Size != 0 {
			valid[i/8] |= 1 << (i % 8)
		}
	}
	vals, err := layouts.BlobData(refs, data, false)
	if err != nil {
		return layouts.LeafData{}, err
	}
	if err := out.Append(v20.Decoded{Block: vals.Block(), Validity: valid}); err != nil {
		return layouts.LeafData{}, err
	}
	return out.Finish(leaf.Type)
}

// buildLeaves builds the array of top-level field top from the leaves a
// 2.0 or legacy read returned (err: the read's error), checking that it
// holds nrows rows. Errors name the file and field.
func (f *File) buildLeaves(top *layouts.Field, leaves []layouts.LeafData, nrows uint64, err error) (arrow.Array, error) {
	if err == nil && len(leaves) == 0 {
		err = fmt.Errorf("%w: field has no value columns", ErrUnsupported)
	}
	if err != nil {
		return nil, fmt.Errorf("lance: %s: field %q: %w", f.url, top.Name, err)
	}
	a, err := layouts.BuildArray(f.cfg.Mem, top, leaves)
	if err != nil {
		return nil, fmt.Errorf("lance: %s: field %q: %w", f.url, top.Name, err)
	}
	return f.checkFieldRows(top, a, nrows)
}
