package fileread

import (
	"context"
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/internal/bufpool"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/layouts"
	"github.com/lancego/lancego/layouts/v01"
	"github.com/lancego/lancego/layouts/v20"
	"github.com/lancego/lancego/searchcache"
)

// legacyFile is what the legacy (v1) read path knows about a file.
type legacyFile struct {
	footer v01.Footer
	meta   *v01.Metadata
	minID  int32
	// pages[id-minID][batch] from the page table.
	pages [][]v01.Page
	// ids maps every decoder field to its field id.
	ids map[*layouts.Field]int32
	// dicts holds where the values of each dictionary field are stored.
	dicts map[*layouts.Field]*filepb.Dictionary
	// embedded holds the dictionaries of the file's embedded schema by id.
	embedded map[int32]*filepb.Dictionary
}

// OpenLegacy opens a legacy Lance data file (the v1 format, footer 0.1 or
// 0.2, e.g. written by pylance with data_storage_version="legacy"). The
// dataset's manifest holds the schema of such a file: fields are the
// dataset's schema fields this file stores (lance.file.Field, in the
// manifest's pre-order, with their ids). With nil fields the schema the
// writer embedded in the file is used (what Open does for legacy files):
// right for a file read on its own, but it predates any later schema
// evolution of the dataset. Scan and Take then read it like any
// other File, with Lance's legacy semantics: fixed-width values, lists and
// structs have no nulls (null values were stored as zeros, empty lists or
// zero-filled structs) and an empty string or binary of a nullable field
// reads as null.
func OpenLegacy(ctx context.Context, url string, fields []*filepb.Field, opts ...Option) (*File, error) {
	cfg := DefaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.IO.Stats == nil {
		cfg.IO.Stats = lanceio.NewStats()
	}
	if cfg.Mem == nil { // before the scheduler, which takes read buffers from it
		cfg.Mem = bufpool.New(DefaultBufferPoolBytes)
	}
	src, tail, err := openSource(ctx, url, &cfg)
	if err != nil {
		return nil, err
	}
	f, err := newLegacyFile(ctx, url, withTail(src, tail), tail, fields, cfg)
	if err != nil {
		src.Close()
		return nil, fmt.Errorf("lance: open %s: %w", url, err)
	}
	return f, nil
}

// openFromTail opens a v2 file from its tail (its last bytes), or else a
// legacy v1 file with the schema its writer embedded: what Open does.
func openFromTail(ctx context.Context, url string, src source, tail []byte, cfg Config) (*File, error) {
	f, err := newFileFromTail(ctx, url, src, tail, cfg)
	if err == nil || !IsLegacyTail(tail) {
		return f, err
	}
	f, lerr := newLegacyFile(ctx, url, src, tail, nil, cfg)
	if lerr != nil {
		return nil, fmt.Errorf("lance: open %s: %w", url, lerr)
	}
	return f, nil
}

// newLegacyFile reads the footer, metadata and page table of a legacy file
// whose page table covers the ids of fields.
func newLegacyFile(ctx context.Context, url string, src source, tail []byte, fields []*filepb.Field, cfg Config) (*File, error) {
	return newLegacyFileIDs(ctx, url, src, tail, fields, nil, cfg)
}

// newLegacyFileIDs is newLegacyFile with the field id range of the page
// table given (ids[0] to ids[1]; nil: that of fields). A dataset's data
// file says it: its first listed field id to its largest (the writer's
// schema, which may hold fields the dataset has dropped since).
func newLegacyFileIDs(ctx context.Context, url string, src source, tail []byte, fields []*filepb.Field, ids *[2]int32, cfg Config) (*File, error) {
	if cfg.Mem == nil {
		cfg.Mem = bufpool.New(DefaultBufferPoolBytes)
	}
	if cfg.Cache == nil {
		cfg.Cache = searchcache.New(searchcache.Config{})
	}
	size := uint64(src.Size())
	ft, err := v01.ParseFooter(tail, size)
	if err != nil {
		return nil, err
	}
	got, err := src.Fetch(ctx, []format.Range{{Offset: ft.MetadataPosition, Length: size - v01.FooterSize - ft.MetadataPosition}}, 0)
	if err != nil {
		return nil, err
	}
	lm, err := v01.ParseMetadata(got[0])
	if err != nil {
		return nil, err
	}
	embedded, err := embeddedFields(ctx, src, lm, ft)
	if err != nil {
		return nil, err
	}
	if fields == nil {
		if len(embedded) == 0 {
			return nil, fmt.Errorf("%w: legacy file without an embedded schema: pass the dataset's fields to OpenLegacy", ErrInvalidArgument)
		}
		fields = embedded
	}
	dicts := map[int32]*filepb.Dictionary{}
	for _, f := range embedded {
		if d := f.GetDictionary(); d != nil {
			dicts[f.GetId()] = d
		}
	}
	schema, err := format.BuildSchema(&filepb.Schema{Fields: fields}, format.V2_1)
	if err != nil {
		return nil, err
	}
	minID, maxID := fieldIDRange(fields)
	if ids != nil {
		minID, maxID = ids[0], ids[1]
	}
	n := lm.NumBatches()
	ptSize, err := v01.PageTableSize(minID, maxID, n, size)
	if err != nil {
		return nil, err
	}
	pt, err := src.Fetch(ctx, []format.Range{{Offset: lm.PageTablePosition, Length: ptSize}}, 0)
	if err != nil {
		return nil, err
	}
	pages, err := v01.ParsePageTable(pt[0], minID, maxID, n, size)
	if err != nil {
		return nil, err
	}
	lf := &legacyFile{footer: ft, meta: lm, minID: minID, pages: pages, ids: map[*layouts.Field]int32{},
		dicts: map[*layouts.Field]*filepb.Dictionary{}, embedded: dicts}
	meta := &format.FileMetadata{Version: format.Version(uint32(ft.Major)<<16 | uint32(ft.Minor)), FileSize: size,
		NumRows: lm.BatchStarts[n], Schema: schema, SchemaMetadata: map[string]string{}, Footer: legacyFooter(ft, lm)}
	for range pages { // one column per field id, one page per batch (for scan sizing)
		cm := &file2pb.ColumnMetadata{}
		for b := range n {
			cm.Pages = append(cm.Pages, &file2pb.ColumnMetadata_Page{Length: lm.BatchStarts[b+1] - lm.BatchStarts[b]})
		}
		meta.Columns = append(meta.Columns, cm)
	}
	f := &File{url: url, src: src, meta: meta, schema: schema.ArrowSchema(), cfg: cfg, cache: cfg.Cache,
		paths: map[*layouts.Field][]*layouts.Field{}, legacy: lf}
	for _, sf := range schema.Fields {
		top, err := lf.field(sf, sf.ArrowType, 0)
		if err != nil {
			return nil, err
		}
		f.fields = append(f.fields, top)
		f.leaves = append(f.leaves, top.Leaves())
	}
	return f, nil
}

// embeddedFields reads the schema a legacy file embeds (nil when it embeds
// none): the fields as the writer saw them, with where it stored each
// dictionary's values.
func embeddedFields(ctx context.Context, src source, lm *v01.Metadata, ft v01.Footer) ([]*filepb.Field, error) {
	if lm.ManifestPosition == 0 || lm.ManifestPosition >= ft.MetadataPosition {
		return nil, nil
	}
	got, err := src.Fetch(ctx, []format.Range{{Offset: lm.ManifestPosition, Length: ft.MetadataPosition - lm.ManifestPosition}}, 0)
	if err != nil {
		return nil, err
	}
	return v01.EmbeddedFields(got[0])
}

// IsLegacyTail reports whether a file's last bytes are a legacy footer
// (version 0.1 or 0.2 before the magic).
func IsLegacyTail(tail []byte) bool {
	n := len(tail)
	if n < v01.FooterSize || string(tail[n-4:]) != format.Magic {
		return false
	}
	major, minor := binary.LittleEndian.Uint16(tail[n-8:]), binary.LittleEndian.Uint16(tail[n-6:])
	return major == 0 && minor <= 2
}

// fieldIDRange returns the smallest and largest field id.
func fieldIDRange(fields []*filepb.Field) (lo, hi int32) {
	for i, f := range fields {
		if i == 0 || f.GetId() < lo {
			lo = f.GetId()
		}
		if i == 0 || f.GetId() > hi {
			hi = f.GetId()
		}
	}
	return lo, hi
}

// field converts a schema field into a decoder field: structs and lists
// are inner fields, everything else a leaf on the column of its field id.
func (l *legacyFile) field(f *format.Field, dt arrow.DataType, depth int) (*layouts.Field, error) {
	if depth > format.MaxSchemaDepth {
		return nil, fmt.Errorf("field %q nested too deep", f.Name)
	}
	lf := &layouts.Field{Name: f.Name, Type: dt, Nullable: f.Nullable, Column: int(f.ID - l.minID)}
	l.ids[lf] = f.ID
	if d := l.embedded[f.ID]; d != nil {
		l.dicts[lf] = d // where this file stored the values
	} else if d := f.Proto.GetDictionary(); d != nil {
		l.dicts[lf] = d
	}
	if f.BlobV1 || f.BlobV2 {
		return nil, fmt.Errorf("%w: blob field %q in a legacy file", ErrUnsupported, f.Name)
	}
	if !format.IsNestedLogicalType(f.LogicalType) {
		return lf, nil
	}
	kids, err := layouts.ChildTypes(f, dt)
	if err != nil {
		return nil, err
	}
	lf.Column = -1
	for i, c := range f.Children {
		k, err := l.field(c, kids[i], depth+1)
		if err != nil {
			return nil, err
		}
		lf.Children = append(lf.Children, k)
	}
	return lf, nil
}

// legacyPiece is rows [from, to) of one batch.
type legacyPiece struct {
	batch    int
	from, to uint64
}

// readFieldLegacy reads rows of ranges (in order) of top-level field c.
func (f *File) readFieldLegacy(ctx context.Context, c int, ranges []RowRange, nrows uint64) (arrow.Array, error) {
	top := f.fields[c]
	starts := f.legacy.meta.BatchStarts
	var ps []legacyPiece
	for _, r := range ranges {
		for row := r.From; row < r.To; {
			b := sort.Search(len(starts)-1, func(i int) bool { return starts[i+1] > row })
			if b == len(starts)-1 {
				return nil, fmt.Errorf("%w: row %d beyond the file's %d rows", ErrInvalidArgument, row, starts[b])
			}
			end := min(r.To, starts[b+1])
			ps = append(ps, legacyPiece{b, row - starts[b], end - starts[b]})
			row = end
		}
	}
	leaves, err := f.readLegacy(ctx, top, ps)
	return f.buildLeaves(top, leaves, nrows, err)
}

// readLegacy reads the pieces of fld and returns its leaves' data.
func (f *File) readLegacy(ctx context.Context, fld *layouts.Field, ps []legacyPiece) ([]layouts.LeafData, error) {
	var n uint64
	for _, p := range ps {
		n += p.to - p.from
	}
	switch {
	case fld.IsLeaf():
		d, err := f.readLeafLegacy(ctx, fld, ps)
		if err != nil {
			return nil, err
		}
		return []layouts.LeafData{d}, nil
	case fld.Type.ID() == arrow.STRUCT:
		var out []layouts.LeafData
		for _, c := range fld.Children {
			kids, err := f.readLegacy(ctx, c, ps)
			if err != nil {
				return nil, err
			}
			for _, k := range kids {
				out = append(out, layouts.LeafData{Node: v20.StructNode(n, k.Node), Values: k.Values})
			}
		}
		return out, nil
	}
	return f.readListLegacy(ctx, fld, ps)
}

// page returns the page of a field in a batch.
func (l *legacyFile) page(fld *layouts.Field, batch int) (v01.Page, int32, error) {
	id := l.ids[fld]
	i := int(id - l.minID)
	if i < 0 || i >= len(l.pages) || batch >= len(l.pages[i]) {
		return v01.Page{}, id, fmt.Errorf("%w: field %d has no page for batch %d", layouts.ErrCorrupt, id, batch)
	}
	return l.pages[i][batch], id, nil
}

// readListLegacy reads list positions, then the items they cover.
func (f *File) readListLegacy(ctx context.Context, fld *layouts.Field, ps []legacyPiece) ([]layouts.LeafData, error) {
	width := uint64(4)
	if fld.Type.ID() == arrow.LARGE_LIST {
		width = 8
	}
	want := make([]format.Range, len(ps))
	for i, p := range ps {
		pg, id, err := f.legacy.page(fld, p.batch)
		if err != nil {
			return nil, err
		}
		if p.to+1 > pg.Length {
			return nil, fmt.Errorf("%w: field %d batch %d: lists [%d,%d) of a page of %d positions", layouts.ErrCorrupt, id, p.batch, p.from, p.to, pg.Length)
		}
		want[i] = format.Range{Offset: pg.Position + p.from*width, Length: (p.to - p.from + 1) * width}
	}
	got, err := f.fetch(ctx, want, 0)
	if err != nil {
		return nil, err
	}
	var acc v20.List
	var items []legacyPiece
	for i, p := range ps {
		lo, hi, err := v01.AppendLists(&acc, got[i], width, p.to-p.from)
		if err != nil {
			return nil, fmt.Errorf("field %q batch %d: %w", fld.Name, p.batch, err)
		}
		if lo < hi {
			items = append(items, legacyPiece{p.batch, lo, hi})
		}
	}
	if n := acc.Items(); n > max(1<<20, 8*f.meta.FileSize) {
		return nil, fmt.Errorf("%w: %d list items for a file of %d bytes", layouts.ErrCorrupt, n, f.meta.FileSize)
	}
	kids, err := f.readLegacy(ctx, fld.Children[0], items)
	if err != nil {
		return nil, err
	}
	out := make([]layouts.LeafData, len(kids))
	for i, k := range kids {
		out[i] = layouts.LeafData{Node: acc.Node(k.Node), Values: k.Values}
	}
	return out, nil
}

// readLeafLegacy reads plain or binary values.
func (f *File) readLeafLegacy(ctx context.Context, leaf *layouts.Field, ps []legacyPiece) (layouts.LeafData, error) {
	switch leaf.Type.ID() {
	case arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY:
		return f.readBinaryLegacy(ctx, leaf, ps)
	case arrow.DICTIONARY:
		return f.readDictionaryLegacy(ctx, leaf, ps)
	}
	return f.readPlainLegacy(ctx, leaf, leaf.Type, ps, nil)
}

// readPlainLegacy reads plain values of type dt into acc (a new one when
// nil) and returns the leaf's data.
func (f *File) readPlainLegacy(ctx context.Context, leaf *layouts.Field, dt arrow.DataType, ps []legacyPiece, each func(d v20.Decoded) (v20.Decoded, error)) (layouts.LeafData, error) {
	want := make([]format.Range, len(ps))
	offs := make([]uint64, len(ps))
	for i, p := range ps {
		pg, id, err := f.legacy.page(leaf, p.batch)
		if err != nil {
			return layouts.LeafData{}, err
		}
		if p.to > pg.Length {
			return layouts.LeafData{}, fmt.Errorf("%w: field %d batch %d: rows [%d,%d) of a page of %d", layouts.ErrCorrupt, id, p.batch, p.from, p.to, pg.Length)
		}
		lo, hi, bit, err := v01.FixedRange(dt, p.from, p.to)
		if err != nil {
			return layouts.LeafData{}, fmt.Errorf("field %q: %w", leaf.Name, err)
		}
		want[i], offs[i] = format.Range{Offset: pg.Position + lo, Length: hi - lo}, bit
	}
	got, err := f.fetch(ctx, want, 0)
	if err != nil {
		return layouts.LeafData{}, err
	}
	var acc v20.Leaf
	for i, p := range ps {
		d, err := v01.DecodeFixed(dt, got[i], offs[i], p.to-p.from)
		if err == nil && each != nil {
			d, err = each(d)
		}
		if err == nil {
			err = acc.Append(d)
		}
		if err != nil {
			return layouts.LeafData{}, fmt.Errorf("field %q batch %d: %w", leaf.Name, p.batch, err)
		}
	}
	return acc.Finish(leaf.Type)
}

// readBinaryLegacy reads positions, then the bytes between them.
func (f *File) readBinaryLegacy(ctx context.Context, leaf *layouts.Field, ps []legacyPiece) (layouts.LeafData, error) {
	want := make([]format.Range, len(ps))
	for i, p := range ps {
		pg, id, err := f.legacy.page(leaf, p.batch)
		if err != nil {
			return layouts.LeafData{}, err
		}
		if p.to > pg.Length {
			return layouts.LeafData{}, fmt.Errorf("%w: field %d batch %d: rows [%d,%d) of a page of %d", layouts.ErrCorrupt, id, p.batch, p.from, p.to, pg.Length)
		}
		want[i] = format.Range{Offset: pg.Position + p.from*8, Length: (p.to - p.from + 1) * 8}
	}
	pos, err := f.fetch(ctx, want, 0)
	if err != nil {
		return layouts.LeafData{}, err
	}
	data := make([]format.Range, len(ps))
	for i, p := range ps {
		lo, hi, err := v01.Span(pos[i], 8, p.to-p.from)
		if err != nil {
			return layouts.LeafData{}, fmt.Errorf("field %q batch %d: %w", leaf.Name, p.batch, err)
		}
		if hi > f.meta.FileSize {
			return layouts.LeafData{}, fmt.Errorf("%w: field %q: values end at %d beyond the file", layouts.ErrCorrupt, leaf.Name, hi)
		}
		data[i] = format.Range{Offset: lo, Length: hi - lo}
	}
	got, err := f.fetch(ctx, data, 0)
	if err != nil {
		return layouts.LeafData{}, err
	}
	var acc v20.Leaf
	for i, p := range ps {
		d, err := v01.DecodeBinary(pos[i], got[i], p.to-p.from, leaf.Nullable)
		if err == nil {
			err = acc.Append(d)
		}
		if err != nil {
			return layouts.LeafData{}, fmt.Errorf("field %q batch %d: %w", leaf.Name, p.batch, err)
		}
	}
	return acc.Finish(leaf.Type)
}

// readDictionaryLegacy reads a dictionary field: plain indices in each
// batch's page and the dictionary values where the field's Dictionary
// (from the manifest) says, read whole once per call.
func (f *File) readDictionaryLegacy(ctx context.Context, leaf *layouts.Field, ps []legacyPiece) (layouts.LeafData, error) {
	dt := leaf.Type.(*arrow.DictionaryType)
	d := f.legacy.dicts[leaf]
	if d == nil || d.GetOffset() < 0 || d.GetLength() < 0 || uint64(d.GetLength()) > f.meta.FileSize {
		return layouts.LeafData{}, fmt.Errorf("%w: dictionary field %q without a valid dictionary", layouts.ErrCorrupt, leaf.Name)
	}
	items, err := f.readDictionaryValues(ctx, leaf.Name, dt.ValueType, uint64(d.GetOffset()), uint64(d.GetLength()))
	if err != nil {
		return layouts.LeafData{}, err
	}
	return f.readPlainLegacy(ctx, leaf, dt.IndexType, ps, func(idx v20.Decoded) (v20.Decoded, error) {
		return v20.GatherDictionary(items, idx.Block)
	})
}

// readDictionaryValues reads n dictionary values of type dt stored at pos
// (binary: their positions array; else plain values).
func (f *File) readDictionaryValues(ctx context.Context, name string, dt arrow.DataType, pos, n uint64) (v20.Decoded, error) {
	switch dt.ID() {
	case arrow.STRING, arrow.BINARY, arrow.LARGE_STRING, arrow.LARGE_BINARY:
		got, err := f.fetch(ctx, []format.Range{{Offset: pos, Length: (n + 1) * 8}}, 0)
		if err != nil {
			return v20.Decoded{}, err
		}
		lo, hi, err := v01.Span(got[0], 8, n)
		if err != nil || hi > f.meta.FileSize {
			return v20.Decoded{}, fmt.Errorf("%w: dictionary of %q: values [%d,%d): %v", layouts.ErrCorrupt, name, lo, hi, err)
		}
		data, err := f.fetch(ctx, []format.Range{{Offset: lo, Length: hi - lo}}, 0)
		if err != nil {
			return v20.Decoded{}, err
		}
		return v01.DecodeBinary(got[0], data[0], n, false)
	}
	lo, hi, bit, err := v01.FixedRange(dt, 0, n)
	if err != nil {
		return v20.Decoded{}, err
	}
	got, err := f.fetch(ctx, []format.Range{{Offset: pos + lo, Length: hi - lo}}, 0)
	if err != nil {
		return v20.Decoded{}, err
	}
	return v01.DecodeFixed(dt, got[0], bit, n)
}
