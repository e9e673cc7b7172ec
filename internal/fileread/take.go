package fileread

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/layouts"
)

type layoutsLeafData = layouts.LeafData

func buildArray(mem memory.Allocator, f *layouts.Field, data []layouts.LeafData) (arrow.Array, error) {
	return layouts.BuildArray(mem, f, data)
}

// Take returns the rows with the given indices, in the order asked
// (duplicates allowed), for the named top-level columns (all if empty).
//
// With the metadata of the pages it touches in the search cache, a take
// issues all its data requests in one wave (one round trip, see
// Stats.RoundTrips); else the missing metadata of every column first, in
// one wave, then the data; on an object store, pages small by the cost
// model are read whole in the first wave instead (one wave in all).
func (f *File) Take(ctx context.Context, rows []uint64, columns []string) (arrow.RecordBatch, error) {
	ctx, end := f.track(ctx)
	defer end()
	ctx = WithTakeBudget(ctx)
	cols, schema, err := f.projection(columns)
	if err != nil {
		return nil, err
	}
	rp := f.rangeBuf(takeRangesCap(rows)) // one allocation at most, not append's doublings
	defer f.putRangeBuf(rp)
	ranges := *rp
	for _, r := range rows {
		if r >= f.NumRows() {
			return nil, fmt.Errorf("%w: row %d of a file of %d rows", ErrInvalidArgument, r, f.NumRows())
		}
		if n := len(ranges); n > 0 && ranges[n-1].To == r {
			ranges[n-1].To++
			continue
		}
		ranges = append(ranges, RowRange{r, r + 1})
	}
	*rp = ranges
	ctx, err = f.warmForTake(ctx, cols, ranges)
	if err != nil {
		return nil, err
	}
	return f.readBatch(ctx, cols, schema, ranges, nil)
}

// takeRangesCap is the number of runs of consecutive indices in rows (the
// ranges a take asks for), counted in one pass so the ranges are
// allocated once at their size.
func takeRangesCap(rows []uint64) int {
	n := 0
	for i, r := range rows {
		if i == 0 || rows[i-1]+1 != r {
			n++
		}
	}
	return n
}

// rangeBuf returns an empty range list with room for n, reused from an
// earlier take when one is kept (a 10,000-row take's 160 KB were a third
// of what it allocated).
func (f *File) rangeBuf(n int) *[]RowRange {
	if p, ok := f.takeRanges.Get().(*[]RowRange); ok && cap(*p) >= n {
		*p = (*p)[:0]
		return p
	}
	b := make([]RowRange, 0, n)
	return &b
}

// putRangeBuf keeps a take's range list for a later take; lists of fewer
// than 256 ranges are not worth keeping.
func (f *File) putRangeBuf(p *[]RowRange) {
	if cap(*p) >= 256 {
		f.takeRanges.Put(p)
	}
}
