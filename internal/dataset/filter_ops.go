package dataset

import (
	"context"
	"fmt"
	"iter"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/fileread"
)

// filteredBatches scans every fragment with filter f (not nil), reading
// the projection p for the matching rows.
func (ds *Dataset) filteredBatches(ctx context.Context, f *dsFilter, p *dsProjection) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		ranges := make([]fragRange, len(ds.frags))
		for i, fr := range ds.frags {
			ranges[i] = fragRange{i, 0, fr.ref.PhysicalRows}
		}
		ds.scanProjected(ctx, ranges, p, f, DatasetScanOptions{}, yield)
	}
}

// CountRowsWhere returns the number of live rows filter selects (all of
// them when filter is nil: CountRows). It reads only the filter's columns
// for the rows the zone seeds leave, and materializes nothing else.
func (ds *Dataset) CountRowsWhere(ctx context.Context, filter expr.Expr) (uint64, error) {
	if filter == nil {
		return ds.CountRows(ctx)
	}
	f, err := ds.bindFilter(fileread.FilterArgs{Filter: filter})
	if err != nil {
		return 0, err
	}
	var n uint64
	for rec, err := range ds.filteredBatches(ctx, f, ds.newProjection(nil, false, false, false)) {
		if err != nil {
			return 0, err
		}
		n += uint64(rec.NumRows())
		rec.Release()
	}
	return n, nil
}

// TakeWhere is Take keeping only the rows filter selects: the rows at
// offsets are taken (in the order asked, duplicates included), then
// those the filter does not select are dropped, the others keeping their
// order. The filter's columns are read with the projection, in the same
// take. The filter may reference _rowid, _rowaddr and _rowoffset (the
// offset asked for). A nil filter is Take. (pylance 14.0.2's take has no
// filter; this is its take followed by the filter.)
func (ds *Dataset) TakeWhere(ctx context.Context, offsets []uint64, filter expr.Expr, o ReadOptions) (arrow.RecordBatch, error) {
	return ds.takeWhere(ctx, filter, o, func(p *dsProjection) ([]rowLoc, error) {
		if err := ds.prepareTake(ctx, p, offsets); err != nil {
			return nil, err
		}
		return ds.locate(ctx, offsets)
	})
}

// TakeRowIDsWhere is TakeRowIDs keeping only the rows filter selects, as
// TakeWhere does.
func (ds *Dataset) TakeRowIDsWhere(ctx context.Context, ids []uint64, filter expr.Expr, o ReadOptions) (arrow.RecordBatch, error) {
	return ds.takeWhere(ctx, filter, o, func(p *dsProjection) ([]rowLoc, error) {
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
		return locs, nil
	})
}

// takeWhere takes the rows locate finds for the read p of o and the
// filter's columns, then keeps those the filter selects.
func (ds *Dataset) takeWhere(ctx context.Context, filter expr.Expr, o ReadOptions, locate func(p *dsProjection) ([]rowLoc, error)) (arrow.RecordBatch, error) {
	p, err := ds.project(o)
	if err != nil {
		return nil, err
	}
	var f *dsFilter
	if filter != nil {
		if f, err = ds.bindFilter(fileread.FilterArgs{Filter: filter}); err != nil {
			return nil, err
		}
	}
	read := p
	if f != nil {
		read = f.with(ds, p)
		read = ds.newProjection(read.fields, p.rowID || f.rowID, p.rowAddr || f.rowAddr, f.rowOffset)
	}
	locs, err := locate(read)
	if err != nil {
		return nil, err
	}
	rec, err := ds.takeLocs(ctx, read, locs)
	if err != nil || f == nil {
		return rec, err
	}
	defer rec.Release()
	keep, err := f.pred.Evaluate(rec)
	if err != nil {
		return nil, fmt.Errorf("lance: dataset %s: filter %s: %w", ds.url, f.pred, err)
	}
	runs := fileread.KeptRuns(keep)
	var n uint64
	for _, r := range runs {
		n += r.To - r.From
	}
	cols := make([]arrow.Array, len(p.schema.Fields()))
	defer releaseAll(cols)
	for j, fld := range p.schema.Fields() {
		src := -1
		if j < p.dataFieldsCount {
			src = slices.Index(read.fields, p.fields[j])
		} else if idx := read.schema.FieldIndices(fld.Name); len(idx) > 0 {
			src = idx[len(idx)-1] // the row id columns follow the data fields
		}
		if src < 0 {
			return nil, fmt.Errorf("lance: dataset %s: column %q missing from a filtered take", ds.url, fld.Name)
		}
		if len(runs) == 0 {
			cols[j] = array.NewSlice(rec.Column(src), 0, 0)
		} else if cols[j], err = fileread.TakeRuns(ds.allocator(), rec.Column(src), runs); err != nil {
			return nil, err
		}
	}
	return ds.newBatch(p, cols, n), nil
}
