package dataset

import (
	"context"
	"github.com/lancego/lancego/internal/fileread"
	"sort"
)

// prepareTake reads at once what a take of the rows at offsets needs
// before its data: the deletion file of each fragment it touches (to
// find the physical rows) and the data files holding the projection
// (their tail reads). Which fragments hold the offsets follows from the
// manifest's deletion counts, so on an object store both reads are one
// round trip together instead of the deletion file's and then the data
// files'. Offsets out of range are left for locate to report. Errors
// are the ones the take would meet.
func (ds *Dataset) prepareTake(ctx context.Context, p *dsProjection, offsets []uint64) error {
	cum, err := ds.offsets(ctx)
	if err != nil {
		return err
	}
	total := cum[len(cum)-1]
	seen := map[int]bool{}
	var frags []int
	for _, off := range offsets {
		if off >= total {
			continue
		}
		i := sort.Search(len(ds.frags), func(i int) bool { return cum[i+1] > off })
		if !seen[i] {
			seen[i] = true
			frags = append(frags, i)
		}
	}
	return ds.prepareFragments(ctx, p.fields, true, frags)
}

// prepareRowIDs is prepareTake for a take by row ids, when they are row
// addresses (no stable row ids): the fragment is the id's upper half.
// With stable row ids the fragments are known only from their row id
// sequences, and nothing is prepared.
func (ds *Dataset) prepareRowIDs(ctx context.Context, p *dsProjection, ids []uint64) error {
	if ds.man.ReaderFlags&FlagStableRowIDs != 0 {
		return nil
	}
	seen := map[int]bool{}
	var frags []int
	for _, id := range ids {
		if i, ok := ds.byID[id>>32]; ok && !seen[i] {
			seen[i] = true
			frags = append(frags, i)
		}
	}
	return ds.prepareFragments(ctx, p.fields, true, frags)
}

// prepareFragments opens the data files of frags holding fields and,
// with dels, reads their deletion files, all concurrently. It reads
// nothing twice: deletion files sit in the search cache and open data
// files in the dataset, for the read that follows.
func (ds *Dataset) prepareFragments(ctx context.Context, fields []int, dels bool, frags []int) error {
	if len(frags) == 0 {
		return nil
	}
	errs := make([]error, 2*len(frags))
	_ = fileread.FanOut(ctx, len(errs), func(ctx context.Context, k int) error {
		i := frags[k/2]
		if k%2 == 0 {
			if dels {
				_, errs[k] = ds.deletions(ctx, i)
			}
			return nil
		}
		m, err := ds.fragment(i)
		if err == nil {
			_, err = ds.columnsOf(ctx, m, fields)
		}
		errs[k] = err
		return nil
	})
	for _, err := range errs { // the first in fragment order, a deletion file before data files
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}
