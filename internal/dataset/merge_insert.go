package dataset

import (
	"context"
	"fmt"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/format/pb/tablepb"
)

// WhenMatched is what a merge-insert does to a target row whose keys a
// source row has.
type WhenMatched uint8

const (
	MatchedUpdateAll WhenMatched = iota // replace the row by the source row (upsert)
	MatchedDoNothing                    // keep the target row (insert-if-not-exists)
	MatchedDelete                       // delete the target row
	MatchedFail                         // fail the merge-insert
)

// WhenNotMatched is what a merge-insert does to a source row no target
// row matches.
type WhenNotMatched uint8

const (
	NotMatchedInsertAll WhenNotMatched = iota // insert it
	NotMatchedDoNothing                       // drop it
)

// WhenNotMatchedBySource is what a merge-insert does to a target row no
// source row matches.
type WhenNotMatchedBySource uint8

const (
	NotMatchedBySourceKeep   WhenNotMatchedBySource = iota // keep it
	NotMatchedBySourceDelete                               // delete it
)

// MergeInsertOptions says how a merge-insert joins the source to the
// dataset and what it does with each kind of row. The zero value is an
// upsert (update-all, insert-all, keep) on no keys, which is refused:
// On must name at least one column.
type MergeInsertOptions struct {
	On                     []string
	WhenMatched            WhenMatched
	WhenNotMatched         WhenNotMatched
	WhenNotMatchedBySource WhenNotMatchedBySource
}

// MergeInsertStats counts what a merge-insert did, as pylance reports
// it.
type MergeInsertStats struct {
	Inserted, Updated, Deleted uint64
}

// MergeInsert merges the rows of src (the dataset's schema) into the
// dataset, joined on the key columns o.On, and commits the next version
// as Lance does (an Update transaction: target rows replaced or deleted
// get deletion files, source rows written go to new fragments). Rows
// with a NULL key match nothing. Several source rows matching one target
// row is an error, as in pylance. The source is held in memory (the
// dataset is scanned once, reading only the key columns). With nothing
// to change nothing is committed and ds itself is returned. Like Lance's,
// a merge-insert that loses to a concurrent commit changing its
// fragments runs again on the latest version (WithCommitRetries times).
func (ds *Dataset) MergeInsert(ctx context.Context, src array.RecordReader, o MergeInsertOptions, opts ...DatasetWriteOption) (*Dataset, MergeInsertStats, error) {
	var st MergeInsertStats
	fail := func(err error) (*Dataset, MergeInsertStats, error) {
		return nil, st, fmt.Errorf("lance: merge-insert into %s: %w", ds.url, err)
	}
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, st, err
	}
	if !ds.store.CanPutIfAbsent() && c.lock == nil {
		return fail(fmt.Errorf("%w: the store cannot write conditionally; pass WithCommitLock", ErrUnsupported))
	}
	if len(o.On) == 0 {
		return fail(fmt.Errorf("%w: no key columns (On)", ErrInvalidArgument))
	}
	if err := sameSchema(src.Schema(), ds.arrow); err != nil {
		return fail(fmt.Errorf("source: %w", err))
	}
	for _, k := range o.On {
		if len(ds.arrow.FieldIndices(k)) != 1 {
			return fail(fmt.Errorf("%w: key column %q does not exist in the dataset", ErrInvalidArgument, k))
		}
	}
	source, err := readSource(src)
	defer func() {
		for _, r := range source {
			r.Release()
		}
	}()
	if err != nil {
		return fail(fmt.Errorf("source: %w", err))
	}
	return retryOnConflict(ctx, ds, c.retries, func(cur *Dataset) (*Dataset, MergeInsertStats, error) {
		return cur.mergeOnce(ctx, c, source, o)
	})
}

// mergeOnce is one attempt of MergeInsert on ds.
func (ds *Dataset) mergeOnce(ctx context.Context, c *dsWriteConfig, source []arrow.RecordBatch, o MergeInsertOptions) (*Dataset, MergeInsertStats, error) {
	var st MergeInsertStats
	fail := func(err error) (*Dataset, MergeInsertStats, error) {
		return nil, st, fmt.Errorf("lance: merge-insert into %s: %w", ds.url, err)
	}
	if len(source) > 0 { // a concurrent overwrite may have changed the schema
		if err := sameSchema(source[0].Schema(), ds.arrow); err != nil {
			return fail(fmt.Errorf("source: %w", err))
		}
	}
	keyCols := make([]int, len(o.On))
	for i, k := range o.On {
		idx := ds.arrow.FieldIndices(k)
		if len(idx) != 1 {
			return fail(fmt.Errorf("%w: key column %q does not exist in the dataset", ErrInvalidArgument, k))
		}
		keyCols[i] = idx[0]
	}
	keys := map[string]int{} // key → global source row (-1: several)
	var total int
	var kb []byte
	for _, rec := range source {
		for i := range int(rec.NumRows()) {
			if k, ok := rowKey(kb[:0], rec, keyCols, i); ok {
				kb = k
				if _, dup := keys[string(k)]; dup {
					keys[string(k)] = -1
				} else {
					keys[string(k)] = total + i
				}
			}
		}
		total += int(rec.NumRows())
	}
	matched := make([]bool, total)
	hits := map[uint64]*roaring.Bitmap{}
	p := ds.newProjection(keyCols, false, true, false)
	for rec, err := range ds.filteredBatches(ctx, nil, p) {
		if err != nil {
			return fail(err)
		}
		err := mergeTargetBatch(rec, len(keyCols), keys, matched, hits, o, &st)
		rec.Release()
		if err != nil {
			return fail(err)
		}
	}
	keep := make([]bool, total)
	for i := range keep {
		switch {
		case matched[i] && o.WhenMatched == MatchedUpdateAll:
			keep[i] = true
			st.Updated++
		case !matched[i] && o.WhenNotMatched == NotMatchedInsertAll:
			keep[i] = true
			st.Inserted++
		}
	}
	if st.Inserted+st.Updated+st.Deleted == 0 {
		return ds, st, nil
	}
	op := &writeOp{kind: opUpdate, readVersion: ds.man.Version, changed: map[uint64][]byte{}, updated: map[uint64]*tablepb.DataFragment{}}
	if err := ds.resolveFileVersion(c, op); err != nil {
		return fail(err)
	}
	fv, err := c.fileVersion()
	if err != nil {
		return fail(err)
	}
	leaves, err := ds.dataFileLeaves(fv)
	if err != nil {
		return fail(err)
	}
	rows, err := keptRows(ctx, source, keep)
	if err != nil {
		return fail(err)
	}
	fw := newFragWriter(ctx, ds.store, c, ds.arrow, fv, leaves)
	err = fw.run(&sliceReader{recs: rows})
	for _, r := range rows {
		r.Release()
	}
	if err != nil {
		fw.cleanup()
		return fail(err)
	}
	op.fields, op.frags = ds.man.Fields, fw.frags
	var written []string
	for id, rows := range hits {
		key, err := ds.deleteFromFragment(ctx, op, id, rows)
		if err != nil {
			fw.cleanup()
			removeKeys(ctx, ds.store, written)
			return fail(err)
		}
		if key != "" {
			written = append(written, key)
		}
	}
	v, err := commit(ctx, ds.store, c, op)
	if err != nil {
		fw.cleanup()
		removeKeys(ctx, ds.store, written)
		return nil, st, fmt.Errorf("lance: commit %s: %w", ds.url, err)
	}
	out, err := ds.reopen(ctx, v)
	return out, st, err
}

// mergeTargetBatch joins one batch of target keys (then the row address)
// to the source keys: it marks the source rows matched and records the
// target rows to delete.
func mergeTargetBatch(rec arrow.RecordBatch, nkeys int, keys map[string]int, matched []bool, hits map[uint64]*roaring.Bitmap,
	o MergeInsertOptions, st *MergeInsertStats) error {
	addrs, ok := rec.Column(nkeys).(*array.Uint64)
	if !ok {
		return corruptf("merge-insert scan: row address column missing")
	}
	cols := make([]int, nkeys)
	for i := range cols {
		cols[i] = i
	}
	var kb []byte
	for i := range int(rec.NumRows()) {
		k, ok := rowKey(kb[:0], rec, cols, i)
		kb = k
		s, found := keys[string(k)]
		if !ok {
			found = false
		}
		del := false
		switch {
		case found && s < 0:
			return fmt.Errorf("%w: ambiguous merge insert: several source rows match the target row with key %s", ErrInvalidArgument, describeKey(rec, cols, i))
		case found && matched[s]:
			// a second target row with the same key: the source row updates both in Lance
			del = o.WhenMatched == MatchedUpdateAll || o.WhenMatched == MatchedDelete
		case found:
			matched[s] = true
			switch o.WhenMatched {
			case MatchedFail:
				return fmt.Errorf("%w: merge insert: source row matches the target row with key %s (when matched: fail)", ErrInvalidArgument, describeKey(rec, cols, i))
			case MatchedUpdateAll, MatchedDelete:
				del = true
			}
			if o.WhenMatched == MatchedDelete {
				st.Deleted++
			}
		case o.WhenNotMatchedBySource == NotMatchedBySourceDelete:
			del = true
			st.Deleted++
		}
		if del {
			a := addrs.Value(i)
			if hits[a>>32] == nil {
				hits[a>>32] = roaring.New()
			}
			hits[a>>32].Add(uint32(a))
		}
	}
	return nil
}

// rowKey appends the key of row i (columns cols) to dst; false when a
// key value is NULL (such a row matches nothing).
func rowKey(dst []byte, rec arrow.RecordBatch, cols []int, i int) ([]byte, bool) {
	for _, c := range cols {
		a := rec.Column(c)
		if a.IsNull(i) {
			return dst, false
		}
		s := a.ValueStr(i)
		dst = fmt.Appendf(dst, "%d:%s", len(s), s)
	}
	return dst, true
}

func describeKey(rec arrow.RecordBatch, cols []int, i int) string {
	parts := make([]string, len(cols))
	for j, c := range cols {
		parts[j] = fmt.Sprintf("%s = %s", rec.Schema().Field(c).Name, rec.Column(c).ValueStr(i))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// readSource reads every batch of src (retained).
func readSource(src array.RecordReader) ([]arrow.RecordBatch, error) {
	var out []arrow.RecordBatch
	for src.Next() {
		r := src.RecordBatch()
		r.Retain()
		out = append(out, r)
	}
	return out, src.Err()
}

// keptRows returns the source rows keep selects, batch by batch.
func keptRows(ctx context.Context, source []arrow.RecordBatch, keep []bool) ([]arrow.RecordBatch, error) {
	var out []arrow.RecordBatch
	at := 0
	ectx := compute.WithAllocator(ctx, memory.DefaultAllocator)
	for _, rec := range source {
		n := int(rec.NumRows())
		b := array.NewBooleanBuilder(memory.DefaultAllocator)
		b.AppendValues(keep[at:at+n], nil)
		mask := b.NewBooleanArray()
		b.Release()
		at += n
		r, err := compute.FilterRecordBatch(ectx, rec, mask, compute.DefaultFilterOptions())
		mask.Release()
		if err != nil {
			for _, o := range out {
				o.Release()
			}
			return nil, err
		}
		if r.NumRows() == 0 {
			r.Release()
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

// sliceReader hands the fragment writer a list of batches.
type sliceReader struct {
	recs []arrow.RecordBatch
	i    int
}

func (s *sliceReader) Next() bool {
	if s.i >= len(s.recs) {
		return false
	}
	s.i++
	return true
}
func (s *sliceReader) RecordBatch() arrow.RecordBatch { return s.recs[s.i-1] }
func (s *sliceReader) Err() error                     { return nil }
