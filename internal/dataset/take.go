package dataset

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/fileread"
)

// Names of the columns a dataset read appends on request, after the data
// columns, as pylance does. A filter may reference them, and
// RowOffsetColumn, the row's position among the version's live rows
// (fragments in manifest order): the offset Take takes.
const (
	RowIDColumn      = "_rowid"
	RowAddressColumn = "_rowaddr"
	RowOffsetColumn  = "_rowoffset"
)

// ReadOptions selects the columns of a dataset read.
type ReadOptions struct {
	// Columns are top-level column names; empty means all.
	Columns []string
	// WithRowID appends _rowid (uint64): the stable row id when the
	// dataset has stable row ids, else the row address.
	WithRowID bool
	// WithRowAddress appends _rowaddr (uint64): fragment id << 32 | the
	// row's offset in its fragment (deleted rows counted).
	WithRowAddress bool
}

// dsProjection is what a read returns: dataset top-level fields, then the
// requested row id columns (_rowid, _rowaddr, _rowoffset, in that order).
type dsProjection struct {
	fields                    []int
	rowID, rowAddr, rowOffset bool
	schema                    *arrow.Schema
	dataFieldsCount           int
}

// project resolves a read's columns against the dataset schema.
func (ds *Dataset) project(o ReadOptions) (*dsProjection, error) {
	var fields []int
	if len(o.Columns) == 0 {
		for i := range ds.arrow.NumFields() {
			fields = append(fields, i)
		}
	} else {
		for _, n := range o.Columns {
			idx := ds.arrow.FieldIndices(n)
			if len(idx) == 0 {
				return nil, fmt.Errorf("%w: no column %q in dataset %s version %d", ErrInvalidArgument, n, ds.url, ds.man.Version)
			}
			fields = append(fields, idx[0])
		}
	}
	return ds.newProjection(fields, o.WithRowID, o.WithRowAddress, false), nil
}

// newProjection returns the read of the dataset fields and of the row id
// columns asked for.
func (ds *Dataset) newProjection(fields []int, rowID, rowAddr, rowOffset bool) *dsProjection {
	p := &dsProjection{fields: fields, rowID: rowID, rowAddr: rowAddr, rowOffset: rowOffset, dataFieldsCount: len(fields)}
	out := make([]arrow.Field, 0, len(fields)+3)
	for _, i := range fields {
		out = append(out, ds.arrow.Field(i))
	}
	for _, c := range []struct {
		on   bool
		name string
	}{{rowID, RowIDColumn}, {rowAddr, RowAddressColumn}, {rowOffset, RowOffsetColumn}} {
		if c.on {
			out = append(out, arrow.Field{Name: c.name, Type: arrow.PrimitiveTypes.Uint64, Nullable: true})
		}
	}
	md := ds.arrow.Metadata()
	p.schema = arrow.NewSchema(out, &md)
	return p
}

// fileColumns says which data file of a fragment stores each projected
// field: files[k] lists (projection position, file top-level column).
type fileColumns struct {
	file  *fileread.File
	pos   []int
	cols  []int
	names []string
	// types are the dataset schema's types of the fields (the file's may
	// order or lack struct children otherwise: see conform)
	types []arrow.DataType
	// relabel are the file's types with struct children renamed as the
	// dataset names their ids (nil: none renamed; schema_ids.go)
	relabel []arrow.DataType
}

// conformed returns column j of fc as the dataset schema types it (a new
// reference).
func (ds *Dataset) conformed(fc *fileColumns, j int, a arrow.Array) (arrow.Array, error) {
	b, err := conformRelabelled(ds.allocator(), a, fc.relabel[j], fc.types[j], fc.names[j])
	if err != nil {
		return nil, fmt.Errorf("lance: %s: %w", fc.file.URL(), err)
	}
	return b, nil
}

// columnsOf opens the data files of fragment m that hold projected fields.
// Fields stored in no file are left out (they read as nulls).
func (ds *Dataset) columnsOf(ctx context.Context, m *Fragment, fields []int) ([]*fileColumns, error) {
	var out []*fileColumns
	byFile := map[int]*fileColumns{}
	for pos, fi := range fields {
		top := ds.schema.Fields[fi]
		// The first file listing the field holds it: Lance merges the
		// files' columns keeping the first of a name. Files overlap only
		// in datasets of Lance before 0.11, whose add_columns after
		// drop_columns reused field ids (testdata/compat/v0.10.5).
		for k := range m.Files {
			df := &m.Files[k]
			if !holds(df, top) {
				continue
			}
			fc := byFile[k]
			if fc == nil {
				f, err := ds.dataFile(ctx, df)
				if err != nil {
					return nil, err
				}
				fc = &fileColumns{file: f}
				byFile[k] = fc
				out = append(out, fc)
			}
			col := fileField(fc.file, top.ID, top.Name)
			if col < 0 {
				return nil, ds.errf(ds.man.Version, DataDir+"/"+df.Path,
					fmt.Errorf("%w: fragment %d: the data file lists field %d (%q) but does not store it",
						format.ErrCorrupt, m.ID, top.ID, top.Name))
			}
			fc.pos, fc.cols = append(fc.pos, pos), append(fc.cols, col)
			fc.names = append(fc.names, fc.file.Schema().Field(col).Name)
			fc.types = append(fc.types, ds.arrow.Field(fi).Type)
			fc.relabel = append(fc.relabel, relabelByID(fc.file, col, df, top))
			break
		}
	}
	return out, nil
}

// holds reports whether a data file stores top-level field top: it lists
// the field's id or one of its descendants' (2.1+ files list leaves).
func holds(df *DataFile, top *format.Field) bool {
	if slices.Contains(df.Fields, top.ID) {
		return true
	}
	for _, c := range top.Children {
		if holds(df, c) {
			return true
		}
	}
	for _, c := range top.BlobDescriptor {
		if holds(df, c) {
			return true
		}
	}
	return false
}

// fileField returns the top-level field of f with the given id (or, if
// the file's ids differ, name), or -1.
func fileField(f *fileread.File, id int32, name string) int {
	for i, fld := range f.Metadata().Schema.Fields {
		if fld.ID == id {
			return i
		}
	}
	for i, fld := range f.Metadata().Schema.Fields {
		if fld.Name == name {
			return i
		}
	}
	return -1
}

// readFragment reads the rows (physical offsets, in the order of ranges)
// of fragment i: the projected fields, nulls for fields in no data file,
// then the row id columns. Takes warm the pages they touch first.
func (ds *Dataset) readFragment(ctx context.Context, i int, p *dsProjection, ranges []fileread.RowRange) (arrow.RecordBatch, error) {
	m, err := ds.fragment(i)
	if err != nil {
		return nil, err
	}
	var n uint64
	for _, r := range ranges {
		if r.To > m.PhysicalRows || r.From > r.To {
			return nil, fmt.Errorf("%w: rows [%d, %d) of fragment %d of %d rows", ErrInvalidArgument, r.From, r.To, m.ID, m.PhysicalRows)
		}
		n += r.To - r.From
	}
	files, err := ds.columnsOf(ctx, m, p.fields)
	if err != nil {
		return nil, err
	}
	cols := make([]arrow.Array, len(p.schema.Fields()))
	defer releaseAll(cols)
	err = fileread.FanOut(ctx, len(files), func(ctx context.Context, k int) error {
		fc := files[k]
		got := make([]arrow.Array, len(fc.cols))
		if err := fileread.TakeFields(ctx, fc.file, fc.cols, ranges, n, got); err != nil {
			releaseAll(got)
			return err
		}
		defer releaseAll(got)
		for j, a := range got {
			b, err := ds.conformed(fc, j, a)
			if err != nil {
				return err
			}
			cols[fc.pos[j]] = b
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := ds.fillRest(ctx, i, m, p, cols, ranges, n); err != nil {
		return nil, err
	}
	return ds.newBatch(p, cols, n), nil
}

// newBatch wraps cols as a record batch (taking their references).
func (ds *Dataset) newBatch(p *dsProjection, cols []arrow.Array, n uint64) arrow.RecordBatch {
	rec := array.NewRecordBatch(p.schema, cols, int64(n))
	return rec
}

// fillRest fills the null columns of fields stored in no file and the row
// id columns for the rows of ranges.
func (ds *Dataset) fillRest(ctx context.Context, i int, m *Fragment, p *dsProjection, cols []arrow.Array, ranges []fileread.RowRange, n uint64) error {
	for j := range p.dataFieldsCount {
		if cols[j] == nil {
			cols[j] = array.MakeArrayOfNull(ds.allocator(), p.schema.Field(j).Type, int(n))
		}
	}
	k := p.dataFieldsCount
	if p.rowID {
		ids, err := ds.rowIDs(ctx, i)
		if err != nil {
			return err
		}
		b := array.NewUint64Builder(ds.allocator())
		b.Reserve(int(n))
		for _, r := range ranges {
			for row := r.From; row < r.To; row++ {
				if ids != nil {
					b.UnsafeAppend(ids.Get(row))
				} else {
					b.UnsafeAppend(m.ID<<32 | row)
				}
			}
		}
		cols[k] = b.NewArray()
		b.Release()
		k++
	}
	if p.rowAddr {
		b := array.NewUint64Builder(ds.allocator())
		b.Reserve(int(n))
		for _, r := range ranges {
			for row := r.From; row < r.To; row++ {
				b.UnsafeAppend(m.ID<<32 | row)
			}
		}
		cols[k] = b.NewArray()
		b.Release()
		k++
	}
	if p.rowOffset {
		a, err := ds.rowOffsets(ctx, i, ranges, n)
		if err != nil {
			return err
		}
		cols[k] = a
	}
	return nil
}

// rowOffsets returns the _rowoffset column of the rows of ranges of
// fragment i: each row's position among the version's live rows (a
// deleted row gets that of the next live row; reads drop it).
func (ds *Dataset) rowOffsets(ctx context.Context, i int, ranges []fileread.RowRange, n uint64) (arrow.Array, error) {
	cum, err := ds.offsets(ctx)
	if err != nil {
		return nil, err
	}
	del, err := ds.deletions(ctx, i)
	if err != nil {
		return nil, err
	}
	if del != nil && del.IsEmpty() {
		del = nil
	}
	b := array.NewUint64Builder(ds.allocator())
	defer b.Release()
	b.Reserve(int(n))
	for _, r := range ranges {
		var d uint64 // deleted rows before row
		if del != nil && r.From > 0 {
			d = del.Rank(uint32(r.From - 1))
		}
		for row := r.From; row < r.To; row++ {
			b.UnsafeAppend(cum[i] + row - d)
			if del != nil && del.Contains(uint32(row)) {
				d++
			}
		}
	}
	return b.NewArray(), nil
}

func releaseAll(as []arrow.Array) {
	for i, a := range as {
		if a != nil {
			a.Release()
			as[i] = nil
		}
	}
}

// rowLoc is one requested row: its fragment and physical offset.
type rowLoc struct {
	frag int
	row  uint64
}

// locate maps dataset offsets (positions among live rows, in manifest
// order) to fragments and physical rows.
func (ds *Dataset) locate(ctx context.Context, offsets []uint64) ([]rowLoc, error) {
	cum, err := ds.offsets(ctx)
	if err != nil {
		return nil, err
	}
	total := cum[len(cum)-1]
	out := make([]rowLoc, len(offsets))
	for k, off := range offsets {
		if off >= total {
			return nil, fmt.Errorf("%w: offset %d of dataset %s version %d of %d rows", ErrInvalidArgument, off, ds.url, ds.man.Version, total)
		}
		i := sort.Search(len(ds.frags), func(i int) bool { return cum[i+1] > off })
		del, err := ds.deletions(ctx, i)
		if err != nil {
			return nil, err
		}
		out[k] = rowLoc{i, physicalRow(del, off-cum[i])}
	}
	return out, nil
}

// physicalRow returns the physical offset of the k-th live row of a
// fragment whose deleted rows are del.
func physicalRow(del *Deletions, k uint64) uint64 {
	if del == nil || del.IsEmpty() {
		return k
	}
	// smallest p with p+1 - deleted(<= p) > k, i.e. live rows in [0, p] > k
	lo, hi := k, k+del.GetCardinality()
	for lo < hi {
		mid := lo + (hi-lo)/2
		if mid+1-del.Rank(uint32(mid)) > k {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// Take returns the rows at the given offsets (positions among the
// dataset's live rows, fragments in manifest order), in the order asked,
// duplicates allowed. The rows of all fragments are read together: their
// data files' requests go to the shared scheduler at once.
func (ds *Dataset) Take(ctx context.Context, offsets []uint64, o ReadOptions) (arrow.RecordBatch, error) {
	p, err := ds.project(o)
	if err != nil {
		return nil, err
	}
	if err := ds.prepareTake(ctx, p, offsets); err != nil {
		return nil, err
	}
	locs, err := ds.locate(ctx, offsets)
	if err != nil {
		return nil, err
	}
	return ds.takeLocs(ctx, p, locs)
}

// TakeRowIDs returns the rows with the given row ids, in the order asked.
// Without stable row ids a row id is the row address
// (fragment id << 32 | offset). A row id that is not in the version (never
// existed, or deleted) is an error.
func (ds *Dataset) TakeRowIDs(ctx context.Context, ids []uint64, o ReadOptions) (arrow.RecordBatch, error) {
	p, err := ds.project(o)
	if err != nil {
		return nil, err
	}
	if err := ds.prepareRowIDs(ctx, p, ids); err != nil {
		return nil, err
	}
	locs := make([]rowLoc, len(ids))
	for k, id := range ids {
		loc, err := ds.findRowID(ctx, id)
		if err != nil {
			return nil, err
		}
		locs[k] = loc
	}
	return ds.takeLocs(ctx, p, locs)
}

// findRowID locates a row id.
func (ds *Dataset) findRowID(ctx context.Context, id uint64) (rowLoc, error) {
	missing := fmt.Errorf("%w: row id %d is not in dataset %s version %d", ErrInvalidArgument, id, ds.url, ds.man.Version)
	if ds.man.ReaderFlags&FlagStableRowIDs == 0 {
		i, ok := ds.byID[id>>32]
		if !ok || id&(1<<32-1) >= ds.frags[i].ref.PhysicalRows {
			return rowLoc{}, missing
		}
		return ds.liveLoc(ctx, i, id&(1<<32-1), missing)
	}
	for i := range ds.frags {
		ids, err := ds.rowIDs(ctx, i)
		if err != nil {
			return rowLoc{}, err
		}
		if row, ok := ids.Find(id); ok {
			if loc, err := ds.liveLoc(ctx, i, row, missing); err == nil {
				return loc, nil
			}
		}
	}
	return rowLoc{}, missing
}

// liveLoc returns row of fragment i unless it is deleted.
func (ds *Dataset) liveLoc(ctx context.Context, i int, row uint64, missing error) (rowLoc, error) {
	del, err := ds.deletions(ctx, i)
	if err != nil {
		return rowLoc{}, err
	}
	if del != nil && del.Contains(uint32(row)) {
		return rowLoc{}, missing
	}
	return rowLoc{i, row}, nil
}

// takeLocs reads the located rows: each fragment's rows in one read, all
// fragments concurrently, then puts the rows in the order asked.
func (ds *Dataset) takeLocs(ctx context.Context, p *dsProjection, locs []rowLoc) (arrow.RecordBatch, error) {
	ctx = fileread.WithTakeBudget(ctx) // one whole-page budget for all its data files
	slot := map[int]int{}              // fragment -> position in frags
	var frags []int
	var rows [][]uint64
	at := make([]int64, len(locs)) // each requested row's index in the concatenation
	for k, l := range locs {
		s, ok := slot[l.frag]
		if !ok {
			s = len(frags)
			slot[l.frag] = s
			frags, rows = append(frags, l.frag), append(rows, nil)
		}
		at[k] = int64(len(rows[s]))
		rows[s] = append(rows[s], l.row)
	}
	parts := make([]arrow.RecordBatch, len(frags))
	defer func() {
		for _, r := range parts {
			if r != nil {
				r.Release()
			}
		}
	}()
	err := fileread.FanOut(ctx, len(frags), func(ctx context.Context, s int) error {
		rec, err := ds.readFragment(ctx, frags[s], p, rowRanges(rows[s]))
		parts[s] = rec
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		cols := emptyColumns(ds, p)
		defer releaseAll(cols)
		return ds.newBatch(p, cols, 0), nil
	}
	if len(parts) == 1 {
		parts[0].Retain()
		return parts[0], nil
	}
	base := make([]int64, len(parts))
	for s := 1; s < len(parts); s++ {
		base[s] = base[s-1] + parts[s-1].NumRows()
	}
	for k, l := range locs {
		at[k] += base[slot[l.frag]]
	}
	return permute(ctx, ds, p, parts, at)
}

// rowRanges turns rows (in the order asked) into ranges, merging runs of
// consecutive ascending rows.
func rowRanges(rows []uint64) []fileread.RowRange {
	var out []fileread.RowRange
	for _, r := range rows {
		if n := len(out); n > 0 && out[n-1].To == r {
			out[n-1].To++
			continue
		}
		out = append(out, fileread.RowRange{From: r, To: r + 1})
	}
	return out
}

func emptyColumns(ds *Dataset, p *dsProjection) []arrow.Array {
	cols := make([]arrow.Array, len(p.schema.Fields()))
	for j, f := range p.schema.Fields() {
		cols[j] = array.MakeArrayOfNull(ds.allocator(), f.Type, 0)
	}
	return cols
}

// permute concatenates parts and picks the rows at indices at.
func permute(ctx context.Context, ds *Dataset, p *dsProjection, parts []arrow.RecordBatch, at []int64) (arrow.RecordBatch, error) {
	idx := array.NewInt64Builder(ds.allocator())
	idx.AppendValues(at, nil)
	indices := idx.NewArray()
	idx.Release()
	defer indices.Release()
	cctx := compute.WithAllocator(ctx, ds.allocator())
	cols := make([]arrow.Array, len(p.schema.Fields()))
	for j := range cols {
		pieces := make([]arrow.Array, len(parts))
		for s, r := range parts {
			pieces[s] = r.Column(j)
		}
		all, err := array.Concatenate(pieces, ds.allocator())
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols[j], err = compute.TakeArray(cctx, all, indices)
		all.Release()
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
	}
	defer releaseAll(cols)
	return ds.newBatch(p, cols, uint64(len(at))), nil
}
