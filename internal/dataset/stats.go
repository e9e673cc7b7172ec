package dataset

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"golang.org/x/sync/errgroup"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/internal/fileread"
	"github.com/lancego/lancego/zonestats"
)

// TableStats is what a query engine plans a read of one dataset version
// with: the rows of every fragment after deletions, the bytes each field
// takes on disk, and, where the data files carry zone seeds, each
// fragment's per-column bounds and null counts. Dataset.TableStats
// computes it.
type TableStats struct {
	// Version is the dataset version described.
	Version uint64
	// LiveRows is the number of rows after deletions (CountRows).
	LiveRows uint64
	// DeletedRows is the number of deleted rows of every fragment (pylance's
	// stats.dataset_stats()["num_deleted_rows"]).
	DeletedRows uint64
	// Fragments describes each fragment, in manifest order.
	Fragments []FragmentStats
	// Fields describes every field of the schema, nested ones included, in
	// Lance's pre-order (a parent before its children), the order of
	// pylance's stats.data_stats().fields.
	Fields []FieldStats
}

// FragmentStats describes one fragment of a dataset version.
type FragmentStats struct {
	// ID is the fragment id.
	ID uint64
	// PhysicalRows is the number of rows the fragment's data files store,
	// deleted ones included.
	PhysicalRows uint64
	// DeletedRows is the number of rows its deletion file deletes.
	DeletedRows uint64
	// LiveRows is PhysicalRows - DeletedRows, the rows a scan returns.
	LiveRows uint64
	// DataBytes is the fragment's share of the fields' DataBytes: the page
	// buffer bytes of its data files' columns that belong to a field of
	// the schema (0 in a legacy dataset). Over all fragments it sums to
	// the fields' total.
	DataBytes uint64
	// Columns holds, for each top-level column whose data file carries a
	// valid zone seed for it, the statistics merged from the seed, in
	// schema order. Columns without a seed (pylance 14.0.2 writes none),
	// with a seed that fails validation, or whose file stores another type
	// than the dataset schema's are absent: nil when no column has one.
	Columns []ColumnStats
}

// ColumnStats is the zone-seed statistics of one top-level column over
// the physical rows of one fragment. Seeds are written with the data and
// know nothing of later deletions: counts and bounds describe every
// physical row, deleted ones included. So NullCount is exact for the live
// rows only when the fragment has none deleted (else it is an upper
// bound), and Min and Max always bound the live rows (they may be wider,
// never narrower).
type ColumnStats struct {
	// Column is the top-level column's name in the dataset schema.
	Column string
	// Rows is the number of physical rows the statistics cover.
	Rows uint64
	// NullCount is the number of null rows.
	NullCount uint64
	// NaNCount is the number of NaN rows (floats; 0 otherwise).
	NaNCount uint64
	// Min and Max bound every non-null, non-NaN value (IEEE-754 totalOrder
	// for floats, bytewise for strings and binary), as scalars of the
	// column's value type. Both are nil when the bounds are unknown, when
	// every row is null or NaN, and for types without an order (lists,
	// structs).
	Min, Max scalar.Scalar
	// Stats is the merged seed statistics, for pruning with
	// expr.Predicate.MayMatchStats.
	Stats zonestats.Stats
}

// FieldStats is the storage of one field across the data files of a
// dataset version, as Lance computes data_stats.
type FieldStats struct {
	// ID is the field id; ParentID the parent's (-1 for a top-level field).
	ID, ParentID int32
	// Path is the field's name, prefixed by its ancestors' and dots.
	Path string
	// DataBytes is the sum of the sizes of the page buffers of the columns
	// attributed to the field in every data file (pylance's
	// FieldStatistics.bytes_on_disk): a file's column belongs to the field
	// the data file entry maps to it, or, without one, to the field of the
	// previous column (the rest of a field spanning several columns).
	// Column-level buffers and metadata are not counted. In 2.1+ files
	// only leaves (and packed structs, blobs) have columns, so a struct or
	// list parent has 0 there; every field has 0 in a legacy (0.1)
	// dataset, as in Lance.
	DataBytes uint64
}

// statsParallelism bounds how many fragments TableStats works on at once
// (each needs its data files opened: one read each on an object store).
const statsParallelism = 16

// TableStats computes the statistics of the opened version. It opens the
// data files of every fragment (the column metadata is in the tail the
// open reads; files stay open for later reads) and reads the zone seed
// buffers of the files that locate any, in one request per file (none in
// a file without seeds); deletion files are read only when the manifest
// does not record how many rows they delete. A legacy (0.1) dataset's
// files are not opened: Lance reports no bytes for them and they have no
// seeds.
func (ds *Dataset) TableStats(ctx context.Context) (TableStats, error) {
	fields, byID, err := preOrderFields(ds.man.Fields)
	if err != nil {
		return TableStats{}, ds.errf(ds.man.Version, ds.manKey, err)
	}
	sv, err := ds.storageVersion()
	if err != nil {
		return TableStats{}, err
	}
	out := TableStats{Version: ds.man.Version, Fields: fields, Fragments: make([]FragmentStats, len(ds.frags))}
	perFrag := make([][]uint64, len(ds.frags))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(statsParallelism)
	for i := range ds.frags {
		g.Go(func() error {
			fs, sizes, err := ds.fragmentStats(gctx, i, byID, len(fields), !sv.legacy)
			out.Fragments[i], perFrag[i] = fs, sizes
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return TableStats{}, err
	}
	var total uint64
	for i := range out.Fragments {
		fs := &out.Fragments[i]
		out.LiveRows += fs.LiveRows
		out.DeletedRows += fs.DeletedRows
		for k, n := range perFrag[i] {
			var c1, c2, c3 uint64
			out.Fields[k].DataBytes, c1 = bits.Add64(out.Fields[k].DataBytes, n, 0)
			fs.DataBytes, c2 = bits.Add64(fs.DataBytes, n, 0)
			total, c3 = bits.Add64(total, n, 0)
			if c1|c2|c3 != 0 {
				return TableStats{}, ds.errf(ds.man.Version, ds.manKey, fmt.Errorf("%w: the data files hold more than 2^64-1 bytes", format.ErrCorrupt))
			}
		}
	}
	return out, nil
}

// fragmentStats computes the statistics of fragment i and the bytes of
// each field (indexed as byID says) in its data files. Without files
// (a legacy dataset) it reads no data file.
func (ds *Dataset) fragmentStats(ctx context.Context, i int, byID map[int32]int, nfields int, files bool) (FragmentStats, []uint64, error) {
	m, err := ds.fragment(i)
	if err != nil {
		return FragmentStats{}, nil, err
	}
	del, err := ds.deletedRows(ctx, i)
	if err != nil {
		return FragmentStats{}, nil, err
	}
	if del > m.PhysicalRows {
		return FragmentStats{}, nil, ds.errf(ds.man.Version, ds.manKey, fmt.Errorf("%w: fragment %d deletes %d of %d rows", format.ErrCorrupt, m.ID, del, m.PhysicalRows))
	}
	fs := FragmentStats{ID: m.ID, PhysicalRows: m.PhysicalRows, DeletedRows: del, LiveRows: m.PhysicalRows - del}
	if !files {
		return fs, nil, nil
	}
	sizes := make([]uint64, nfields)
	for k := range m.Files {
		df := &m.Files[k]
		if !storesAny(df, byID) { // Lance opens no reader for it
			continue
		}
		f, err := ds.dataFile(ctx, df)
		if err != nil {
			return FragmentStats{}, nil, err
		}
		if err := addFileBytes(sizes, byID, df, f.Metadata()); err != nil {
			return FragmentStats{}, nil, ds.errf(ds.man.Version, DataDir+"/"+df.Path, fmt.Errorf("fragment %d: %w", m.ID, err))
		}
	}
	if fs.Columns, err = ds.seedStats(ctx, m); err != nil {
		return FragmentStats{}, nil, err
	}
	return fs, sizes, nil
}

// storesAny reports whether a data file lists any field of the schema.
func storesAny(df *DataFile, byID map[int32]int) bool {
	for _, id := range df.Fields {
		if _, ok := byID[id]; ok {
			return true
		}
	}
	return false
}

// addFileBytes adds the page buffer bytes of each column of a data file to
// the field Lance attributes it to (see FieldStats.DataBytes): the data
// file entry maps field ids to columns (negative: none; for a repeated
// field its last non-negative entry counts, and of fields sharing a column the largest
// id); a column no entry maps continues the previous column's field (field
// 0 before any). Columns of fields the schema no longer has count nowhere.
func addFileBytes(sizes []uint64, byID map[int32]int, df *DataFile, meta *format.FileMetadata) error {
	toCol := map[int32]int32{}
	for k := 0; k < len(df.Fields) && k < len(df.ColumnIndices); k++ {
		if c := df.ColumnIndices[k]; c >= 0 {
			toCol[df.Fields[k]] = c
		}
	}
	owner := make(map[int32]int32, len(toCol))
	for id, c := range toCol {
		if prev, ok := owner[c]; !ok || id > prev {
			owner[c] = id
		}
	}
	current := int32(0)
	for c, cm := range meta.Columns {
		if id, ok := owner[int32(c)]; ok {
			current = id
		}
		k, ok := byID[current]
		if !ok {
			continue
		}
		for _, pg := range cm.GetPages() {
			for _, n := range pg.GetBufferSizes() {
				var carry uint64
				if sizes[k], carry = bits.Add64(sizes[k], n, 0); carry != 0 {
					return fmt.Errorf("%w: column %d: page buffer sizes exceed 2^64-1 bytes", format.ErrCorrupt, c)
				}
			}
		}
	}
	return nil
}

// seedStats returns the zone-seed statistics of every top-level column of
// fragment m whose data file holds a valid seed of the dataset's type.
func (ds *Dataset) seedStats(ctx context.Context, m *Fragment) ([]ColumnStats, error) {
	top := make([]int, len(ds.schema.Fields))
	for k := range top {
		top[k] = k
	}
	files, err := ds.columnsOf(ctx, m, top)
	if err != nil {
		return nil, err
	}
	byPos := make([]*ColumnStats, len(top))
	for _, fc := range files {
		if !hasSeedKeys(fc.file) {
			continue
		}
		seeds, _, err := fc.file.ZoneSeeds(ctx)
		if err != nil {
			return nil, err
		}
		for j, pos := range fc.pos {
			s := seeds[fc.names[j]]
			if s == nil || !arrow.TypeEqual(s.Type(), fc.types[j]) {
				continue
			}
			cs, err := columnStats(ds.schema.Fields[pos].Name, s)
			if err != nil {
				return nil, fmt.Errorf("lance: %s: zone seed of column %q: %w", fc.file.URL(), fc.names[j], err)
			}
			byPos[pos] = &cs
		}
	}
	var out []ColumnStats
	for _, cs := range byPos {
		if cs != nil {
			out = append(out, *cs)
		}
	}
	return out, nil
}

// hasSeedKeys reports whether the file's schema metadata locates any zone
// seed (so that files without seeds are asked for nothing).
func hasSeedKeys(f *fileread.File) bool {
	for k := range f.Metadata().SchemaMetadata {
		if _, ok := zonestats.ColumnOfSeedKey(k); ok {
			return true
		}
	}
	return false
}

// columnStats merges a seed into the statistics of one column.
func columnStats(name string, s *zonestats.Seed) (ColumnStats, error) {
	sum, err := s.Summary()
	if err != nil {
		return ColumnStats{}, err
	}
	cs := ColumnStats{Column: name, Rows: sum.ZoneLength, NullCount: sum.NullCount, NaNCount: sum.NaNCount, Stats: sum}
	lo, hi, ok := sum.BoundArrays(memory.DefaultAllocator)
	if !ok {
		return cs, nil
	}
	defer lo.Release()
	defer hi.Release()
	if lo.IsNull(0) || hi.IsNull(0) {
		return cs, nil
	}
	if cs.Min, err = scalar.GetScalar(lo, 0); err != nil {
		return ColumnStats{}, err
	}
	if cs.Max, err = scalar.GetScalar(hi, 0); err != nil {
		return ColumnStats{}, err
	}
	return cs, nil
}

// preOrderFields builds Lance's field tree from the manifest's flat list
// (each field after its parent, children in list order) and lists it in
// pre-order; byID maps a field id to its index in the list.
func preOrderFields(flat []*filepb.Field) ([]FieldStats, map[int32]int, error) {
	children := map[int32][]*filepb.Field{}
	seen := map[int32]bool{}
	var roots []*filepb.Field
	for _, f := range flat {
		id, parent := f.GetId(), f.GetParentId()
		if seen[id] {
			return nil, nil, fmt.Errorf("%w: schema: field id %d appears twice", format.ErrCorrupt, id)
		}
		if parent != -1 && !seen[parent] {
			return nil, nil, fmt.Errorf("%w: schema: field %d (%q) comes before its parent %d", format.ErrCorrupt, id, f.GetName(), parent)
		}
		seen[id] = true
		if parent == -1 {
			roots = append(roots, f)
		} else {
			children[parent] = append(children[parent], f)
		}
	}
	out := make([]FieldStats, 0, len(flat))
	byID := make(map[int32]int, len(flat))
	var walk func(f *filepb.Field, prefix string)
	walk = func(f *filepb.Field, prefix string) {
		byID[f.GetId()] = len(out)
		out = append(out, FieldStats{ID: f.GetId(), ParentID: f.GetParentId(), Path: prefix + f.GetName()})
		for _, c := range children[f.GetId()] {
			walk(c, prefix+f.GetName()+".")
		}
	}
	for _, r := range roots {
		walk(r, "")
	}
	return out, byID, nil
}
