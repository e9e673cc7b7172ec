package lance

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow/scalar"

	"github.com/lancego/lancego/internal/dataset"
	"github.com/lancego/lancego/zonestats"
)

// TableStats is what a query engine plans a read of one dataset version
// with (Dataset.TableStats): the rows of every fragment after deletions,
// the bytes each field takes on disk (pylance's stats.data_stats()), and,
// where the data files carry zone seeds, each fragment's per-column
// bounds and null counts.
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
	// valid zone seed for it (WithZoneSeeds), the statistics merged from
	// the seed, in schema order. Columns without a seed (pylance 14.0.2
	// writes none), with a seed that fails validation, or whose file
	// stores another type than the dataset schema's are absent: nil when
	// no column has one.
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
	// Lance attributes to the field in every data file (pylance's
	// FieldStatistics.bytes_on_disk, equal to it byte for byte): a file's
	// column belongs to the field its data file entry maps to it, or,
	// without one, to the field of the previous column. Column-level
	// buffers and metadata are not counted. In 2.1+ files only leaves
	// (and packed structs, blobs) have columns, so a struct or list parent
	// has 0 there; every field has 0 in a legacy (0.1) dataset, as in
	// Lance.
	DataBytes uint64
}

// TableStats computes the statistics of the opened version. It opens the
// data files of every fragment (the column metadata is in the tail the
// open reads; files stay open for later reads) and reads the zone seed
// buffers of the files that locate any, in one request per file (none in
// a file without seeds); deletion files are read only when the manifest
// does not record how many rows they delete. A legacy (0.1) dataset's
// files are not opened. Unlike Stats (the I/O counters), it describes the
// data.
func (ds *Dataset) TableStats(ctx context.Context) (TableStats, error) {
	st, err := ds.d.TableStats(ctx)
	if err != nil {
		return TableStats{}, err
	}
	return tableStatsOf(st), nil
}

// tableStatsOf converts the engine's statistics. FieldStats and
// ColumnStats convert directly, so a field added to the engine's types
// and not here fails to compile.
func tableStatsOf(st dataset.TableStats) TableStats {
	out := TableStats{Version: st.Version, LiveRows: st.LiveRows, DeletedRows: st.DeletedRows}
	if st.Fields != nil {
		out.Fields = make([]FieldStats, len(st.Fields))
		for i, f := range st.Fields {
			out.Fields[i] = FieldStats(f)
		}
	}
	if st.Fragments != nil {
		out.Fragments = make([]FragmentStats, len(st.Fragments))
		for i, f := range st.Fragments {
			fs := FragmentStats{ID: f.ID, PhysicalRows: f.PhysicalRows, DeletedRows: f.DeletedRows, LiveRows: f.LiveRows, DataBytes: f.DataBytes}
			if f.Columns != nil {
				fs.Columns = make([]ColumnStats, len(f.Columns))
				for j, c := range f.Columns {
					fs.Columns[j] = ColumnStats(c)
				}
			}
			out.Fragments[i] = fs
		}
	}
	return out
}
