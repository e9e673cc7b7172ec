package dataset

// Bringing indices up to date (issue #37 item 5): an index whose
// segments miss fragments of the current version is built again over
// every fragment as one segment replacing them, which is what pylance's
// optimize_indices() leaves by default (one merged segment covering all
// fragments, the dataset version of the first kept).

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lancego/lancego/indices"
)

// IndexOptimization is what OptimizeIndices did to one index.
type IndexOptimization struct {
	Name string
	Type indices.IndexType
	// Added are the fragments the index covers now and did not before.
	Added []uint32
	// Skipped says why the index was left as it was ("" when rebuilt).
	Skipped string
}

// OptimizeIndices indexes the fragments added since each index was
// built: every index of a type CreateIndex builds whose segments do not
// cover every fragment is rebuilt over all of them as one segment (a
// CreateIndex transaction replacing its segments, each index its own
// commit). Lance merges the new fragments' rows into the old segment;
// the rebuild reads the whole column instead, and leaves the same rows
// in the same format. Indices of other types (INVERTED, vector) are
// reported as skipped; system indices are left alone. It returns the
// latest version (ds itself when nothing was committed).
func (ds *Dataset) OptimizeIndices(ctx context.Context, opts ...DatasetWriteOption) (*Dataset, []IndexOptimization, error) {
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, nil, err
	}
	ms, err := ds.IndexMetadata(ctx)
	if err != nil {
		return nil, nil, err
	}
	var names []string
	for _, m := range ms {
		if !m.IsSystem() && !slices.Contains(names, m.Name) {
			names = append(names, m.Name)
		}
	}
	cur, report := ds, []IndexOptimization{}
	for _, name := range names {
		next, rep, err := cur.optimizeIndex(ctx, c, name)
		if err != nil {
			if cur != ds {
				cur.Close()
			}
			return nil, report, fmt.Errorf("optimize index %q: %w", name, err)
		}
		report = append(report, rep)
		if next != nil {
			if cur != ds {
				cur.Close()
			}
			cur = next
		}
	}
	return cur, report, nil
}

// optimizeIndex rebuilds index name when its segments miss fragments
// (nil Dataset: nothing committed).
func (ds *Dataset) optimizeIndex(ctx context.Context, c *dsWriteConfig, name string) (*Dataset, IndexOptimization, error) {
	change, err := ds.indexChangeFor(ctx, name, true)
	if err != nil {
		return nil, IndexOptimization{}, err
	}
	first := change.read[0]
	rep := IndexOptimization{Name: name, Type: first.Type()}
	covered := roaring.New()
	for _, m := range change.read {
		if m.FragmentBitmap != nil {
			covered.Or(m.FragmentBitmap)
		}
	}
	for _, f := range ds.man.Fragments {
		if !covered.Contains(uint32(f.ID)) {
			rep.Added = append(rep.Added, uint32(f.ID))
		}
	}
	if len(rep.Added) == 0 {
		rep.Skipped = "covers every fragment"
		return nil, rep, nil
	}
	if !slices.Contains(buildableIndexTypes, rep.Type) {
		rep.Skipped = fmt.Sprintf("lancego does not build %s indices (pylance's optimize_indices does)", rep.Type)
		return nil, rep, nil
	}
	column, ok := fieldPaths(ds.man.Fields)[first.Fields[0]]
	if len(first.Fields) != 1 || !ok || strings.Contains(column, ".") {
		rep.Skipped = fmt.Sprintf("index on fields %v: not a top-level column", first.Fields)
		return nil, rep, nil
	}
	change.drop = false
	meta := &indices.IndexMetadata{Name: name, Fields: first.Fields, DatasetVersion: first.DatasetVersion}
	out, err := ds.buildAndCommit(ctx, c, change, meta, column, rep.Type, IndexParams{})
	return out, rep, err
}
