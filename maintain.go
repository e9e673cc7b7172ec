package lance

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/internal/dataset"
)

// WhenMatched is what MergeInsert does to a dataset row whose keys a
// source row has.
type WhenMatched uint8

const (
	MatchedUpdateAll WhenMatched = iota // replace the row by the source row (upsert; the default)
	MatchedDoNothing                    // keep the dataset row (insert-if-not-exists)
	MatchedDelete                       // delete the dataset row
	MatchedFail                         // fail the merge-insert
)

// WhenNotMatched is what MergeInsert does to a source row no dataset row
// matches.
type WhenNotMatched uint8

const (
	NotMatchedInsertAll WhenNotMatched = iota // insert it (the default)
	NotMatchedDoNothing                       // drop it
)

// WhenNotMatchedBySource is what MergeInsert does to a dataset row no
// source row matches.
type WhenNotMatchedBySource uint8

const (
	NotMatchedBySourceKeep   WhenNotMatchedBySource = iota // keep it (the default)
	NotMatchedBySourceDelete                               // delete it
)

// MergeInsertOptions says how MergeInsert joins the source to the
// dataset (On: the key columns, at least one) and what it does with each
// kind of row. The zero value of the rest is an upsert: update-all,
// insert-all, keep — pylance's merge_insert(on).when_matched_update_all()
// .when_not_matched_insert_all().
type MergeInsertOptions struct {
	On                     []string
	WhenMatched            WhenMatched
	WhenNotMatched         WhenNotMatched
	WhenNotMatchedBySource WhenNotMatchedBySource
}

// MergeInsertStats counts what MergeInsert did, as pylance's
// num_inserted_rows, num_updated_rows and num_deleted_rows.
type MergeInsertStats struct {
	Inserted, Updated, Deleted uint64
}

// MergeInsert merges the rows of src (which has the dataset's schema)
// into the dataset, joined on the key columns o.On, and commits the next
// version as Lance does: dataset rows replaced or deleted get deletion
// files, source rows written go to new fragments, in one commit with an
// Update transaction. Rows with a NULL key match nothing. Several source
// rows matching one dataset row is an error, as in pylance. The source
// is held in memory; the dataset is scanned once, reading only its key
// columns. With nothing to change nothing is committed and ds itself is
// returned.
func (ds *Dataset) MergeInsert(ctx context.Context, src array.RecordReader, o MergeInsertOptions, opts ...DatasetWriteOption) (*Dataset, MergeInsertStats, error) {
	d, st, err := ds.d.MergeInsert(ctx, src, dataset.MergeInsertOptions{On: o.On, WhenMatched: dataset.WhenMatched(o.WhenMatched),
		WhenNotMatched: dataset.WhenNotMatched(o.WhenNotMatched), WhenNotMatchedBySource: dataset.WhenNotMatchedBySource(o.WhenNotMatchedBySource)},
		dsWriteOpts(opts)...)
	out, err := ds.next(d, err)
	return out, MergeInsertStats{Inserted: st.Inserted, Updated: st.Updated, Deleted: st.Deleted}, err
}

// CompactOptions are the options of Compact; zero fields take pylance's
// defaults.
type CompactOptions struct {
	// TargetRowsPerFragment: fragments with fewer rows are merged with
	// their neighbours into runs of at least this many rows. Zero means
	// 1,048,576.
	TargetRowsPerFragment uint64
	// MaterializeDeletionsThreshold: a fragment whose deleted share is
	// above it is rewritten without its deleted rows. Zero means 0.1; 1
	// or more turns this off.
	MaterializeDeletionsThreshold float32
}

// CompactStats are pylance's CompactionMetrics: fragments and files
// removed and added.
type CompactStats struct {
	FragmentsRemoved, FragmentsAdded, FilesRemoved, FilesAdded int
}

// Compact rewrites small fragments, and fragments with many deleted
// rows, into fewer larger ones, as pylance's optimize.compact_files
// does: Lance's plan (runs of adjacent candidates, a lone small fragment
// left alone), deleted rows dropped, stable row ids and row versions
// kept; one ReserveFragments commit takes the new fragments' ids and one
// Rewrite commit replaces the old fragments, so the result is two
// versions on, as with pylance. Fragments covered by indices are
// compacted in runs covered by the same indices (Lance's plan); the
// rewritten fragments leave every index's coverage (Lance remaps the
// indices instead), so their rows are searched unindexed until
// OptimizeIndices rebuilds the indices over every fragment.
// With nothing to do nothing is committed and ds itself is returned.
func (ds *Dataset) Compact(ctx context.Context, o CompactOptions, opts ...DatasetWriteOption) (*Dataset, CompactStats, error) {
	d, st, err := ds.d.Compact(ctx, dataset.CompactOptions{TargetRowsPerFragment: o.TargetRowsPerFragment,
		MaterializeDeletionsThreshold: o.MaterializeDeletionsThreshold}, dsWriteOpts(opts)...)
	out, err := ds.next(d, err)
	return out, CompactStats{FragmentsRemoved: st.FragmentsRemoved, FragmentsAdded: st.FragmentsAdded,
		FilesRemoved: st.FilesRemoved, FilesAdded: st.FilesAdded}, err
}

// ColumnAlteration is one change AlterColumns makes to an existing column
// (pylance's alter_columns entries): at least one of Rename, Nullable,
// DataType.
type ColumnAlteration struct {
	// Path names the column: "x", or "st.a" for a struct field.
	Path string
	// Rename, when set, is the column's new name (its path keeps the
	// parents: renaming "st.a" to "b" makes "st.b").
	Rename *string
	// Nullable, when set, makes the column nullable (true) or not (false:
	// refused with ErrInvalidArgument when a live row holds a null).
	Nullable *bool
	// DataType, when set, would cast the column to another type; it is
	// refused with ErrUnsupported for now (a cast rewrites the column's
	// data, which this writer does not do yet).
	DataType arrow.DataType
}

// DropColumns removes columns (top-level names or struct field paths
// "st.a"; a struct left without fields goes too) and commits the next
// version, as pylance's drop_columns does: no data is rewritten, data
// files holding only dropped fields leave their fragments, indices over a
// dropped field are removed. Dropping every column, or a column the
// dataset does not have, fails with ErrInvalidArgument and commits
// nothing. Like Lance's Project, it rebases over concurrent appends,
// deletes, updates, compactions and new indices, and fails with
// ErrCommitConflict over concurrent schema changes, overwrites and
// restores.
func (ds *Dataset) DropColumns(ctx context.Context, names []string, opts ...DatasetWriteOption) (*Dataset, error) {
	return ds.next(ds.d.DropColumns(ctx, names, dsWriteOpts(opts)...))
}

// AlterColumns renames columns and changes their nullability, all in one
// new version committed as pylance's alter_columns commits it (a Project:
// field ids, data and indices kept). A name already in use, a missing
// column or a non-nullable column with nulls fails with
// ErrInvalidArgument; concurrency as DropColumns.
func (ds *Dataset) AlterColumns(ctx context.Context, alts []ColumnAlteration, opts ...DatasetWriteOption) (*Dataset, error) {
	in := make([]dataset.ColumnAlteration, len(alts))
	for i, a := range alts {
		in[i] = dataset.ColumnAlteration(a)
	}
	return ds.next(ds.d.AlterColumns(ctx, in, dsWriteOpts(opts)...))
}

// NewColumn is one column AddColumns computes: its name and a SQL
// expression over the dataset's columns (pylance's add_columns({name:
// expr})).
type NewColumn struct {
	Name string
	Expr string
}

// AddColumns adds columns computed from SQL expressions over existing
// columns (the filter dialect's expressions; the column type is the
// expression's) and commits the next version, as pylance's add_columns
// does: one new data file per fragment holding the new columns for every
// row (deleted rows too), one Merge commit; indices kept. A name in use
// (or given twice), or an expression that does not bind, fails with
// ErrInvalidArgument and commits nothing. A Merge fails with
// ErrCommitConflict over any concurrent commit but new indices.
func (ds *Dataset) AddColumns(ctx context.Context, cols []NewColumn, opts ...DatasetWriteOption) (*Dataset, error) {
	in := make([]dataset.NewColumn, len(cols))
	for i, c := range cols {
		in[i] = dataset.NewColumn(c)
	}
	return ds.next(ds.d.AddColumns(ctx, in, dsWriteOpts(opts)...))
}

// AddNullColumns adds nullable, all-null columns of the given names and
// types without writing any data (pylance's add_columns with pyarrow
// fields: a Merge commit of the schema alone). A non-nullable field or a
// name in use fails with ErrInvalidArgument.
func (ds *Dataset) AddNullColumns(ctx context.Context, fields []arrow.Field, opts ...DatasetWriteOption) (*Dataset, error) {
	return ds.next(ds.d.AddNullColumns(ctx, fields, dsWriteOpts(opts)...))
}

// AddColumnsFrom adds the columns of rdr, whose rows line up with the
// dataset's live rows in scan order, as pylance's add_columns(reader)
// does: each fragment gets a data file of its physical rows (deleted rows
// null), read from rdr one fragment's rows at a time; one Merge commit. A
// reader with fewer or more rows than the dataset, or a column name in
// use, fails with ErrInvalidArgument and commits nothing.
func (ds *Dataset) AddColumnsFrom(ctx context.Context, rdr array.RecordReader, opts ...DatasetWriteOption) (*Dataset, error) {
	return ds.next(ds.d.AddColumnsFrom(ctx, rdr, dsWriteOpts(opts)...))
}
