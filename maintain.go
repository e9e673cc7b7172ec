package lance

import (
	"context"

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
// versions on, as with pylance. Fragments covered by an index are not
// compacted yet: when the plan needs them it fails with ErrUnsupported.
// With nothing to do nothing is committed and ds itself is returned.
func (ds *Dataset) Compact(ctx context.Context, o CompactOptions, opts ...DatasetWriteOption) (*Dataset, CompactStats, error) {
	d, st, err := ds.d.Compact(ctx, dataset.CompactOptions{TargetRowsPerFragment: o.TargetRowsPerFragment,
		MaterializeDeletionsThreshold: o.MaterializeDeletionsThreshold}, dsWriteOpts(opts)...)
	out, err := ds.next(d, err)
	return out, CompactStats{FragmentsRemoved: st.FragmentsRemoved, FragmentsAdded: st.FragmentsAdded,
		FilesRemoved: st.FilesRemoved, FilesAdded: st.FilesAdded}, err
}
