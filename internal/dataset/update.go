package dataset

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/tablepb"
	"github.com/lancego/lancego/internal/fileread"
	"github.com/lancego/lancego/internal/filewriter"
)

// Update sets columns of the rows where selects (every row when where is
// empty) to SQL expressions over the row (set: column → expression, as
// pylance's update takes them; "x * 2", "'u'", "lower(s)"), and commits
// the next version as Lance does ("rewrite rows"): the new rows go to new
// fragments, the old ones are deleted (deletion files, or the fragment
// dropped when none is left). With stable row ids the rewritten rows keep
// their row ids and creation versions. It returns the new version and
// the number of rows updated; with no matching row nothing is committed
// and ds itself is returned. A concurrent delete or update of a fragment
// it changes makes it fail with ErrCommitConflict; concurrent appends are
// kept.
//
// As in Lance, an update that loses to a concurrent commit changing its
// fragments runs again on the latest version (up to WithCommitRetries
// times; Lance retries 10).
func (ds *Dataset) Update(ctx context.Context, set map[string]string, where string, opts ...DatasetWriteOption) (*Dataset, uint64, error) {
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, 0, err
	}
	return retryOnConflict(ctx, ds, c.retries, func(cur *Dataset) (*Dataset, uint64, error) {
		return cur.updateOnce(ctx, set, where, opts)
	})
}

// retryOnConflict runs op on ds and, while it fails with
// ErrCommitConflict, again on the latest version (up to retries more
// times, with backoff), as Lance's execute_with_retry re-runs updates,
// deletes and merge-inserts. Versions it opened along the way are
// closed, except the one returned.
func retryOnConflict[T any](ctx context.Context, ds *Dataset, retries int, op func(*Dataset) (*Dataset, T, error)) (*Dataset, T, error) {
	cur := ds
	for attempt := 0; ; attempt++ {
		out, v, err := op(cur)
		if err == nil || !errors.Is(err, ErrCommitConflict) || attempt >= retries {
			if cur != ds && out != cur {
				cur.Close()
			}
			return out, v, err
		}
		latest, lerr := ds.reopen(ctx, 0)
		if cur != ds {
			cur.Close()
		}
		if lerr != nil {
			var zero T
			return nil, zero, lerr
		}
		cur = latest
		if err := sleepBackoff(ctx, attempt); err != nil {
			var zero T
			return nil, zero, err
		}
	}
}

func (ds *Dataset) updateOnce(ctx context.Context, set map[string]string, where string, opts []DatasetWriteOption) (*Dataset, uint64, error) {
	fail := func(err error) (*Dataset, uint64, error) {
		return nil, 0, fmt.Errorf("lance: update %s: %w", ds.url, err)
	}
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, 0, err
	}
	if !ds.store.CanPutIfAbsent() && c.lock == nil {
		return fail(fmt.Errorf("%w: the store cannot write conditionally; pass WithCommitLock", ErrUnsupported))
	}
	sets, err := ds.compileSets(set)
	if err != nil {
		return fail(err)
	}
	var f *dsFilter
	if strings.TrimSpace(where) != "" {
		e, err := expr.Parse(where)
		if err != nil {
			return fail(fmt.Errorf("where %q: %w", where, err))
		}
		if f, err = ds.bindFilter(fileread.FilterArgs{Filter: e}); err != nil {
			return fail(fmt.Errorf("where %q: %w", where, err))
		}
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
	stable := ds.man.ReaderFlags&FlagStableRowIDs != 0
	all := make([]int, ds.arrow.NumFields())
	for i := range all {
		all[i] = i
	}
	src := &updateReader{ds: ds, sets: sets, hits: map[uint64]*roaring.Bitmap{}, stable: stable}
	src.next, src.stop = iter.Pull2(ds.filteredBatches(ctx, f, ds.newProjection(all, stable, true, false)))
	fw := newFragWriter(ctx, ds.store, c, ds.arrow, fv, leaves)
	err = fw.run(src)
	src.close()
	if err != nil {
		fw.cleanup()
		return fail(err)
	}
	if src.rows == 0 {
		fw.cleanup()
		return ds, 0, nil
	}
	written, err := ds.prepareUpdate(ctx, op, fw.frags, src)
	if err != nil {
		fw.cleanup()
		removeKeys(ctx, ds.store, written)
		return fail(err)
	}
	v, err := commit(ctx, ds.store, c, op)
	if err != nil {
		fw.cleanup()
		removeKeys(ctx, ds.store, written)
		return nil, 0, fmt.Errorf("lance: commit %s: %w", ds.url, err)
	}
	out, err := ds.reopen(ctx, v)
	return out, src.rows, err
}

// prepareUpdate fills op: the new fragments (with the moved rows' stable
// row ids and creation versions), and the deletions of the old rows (the
// deletion files written, whose keys it returns).
func (ds *Dataset) prepareUpdate(ctx context.Context, op *writeOp, frags []*tablepb.DataFragment, src *updateReader) ([]string, error) {
	op.fields = ds.man.Fields
	op.frags = frags
	for _, fi := range src.fieldIDs() {
		op.modified = append(op.modified, uint32(fi))
	}
	if src.stable {
		created, err := ds.createdAtVersions(ctx, src.addrs)
		if err != nil {
			return nil, err
		}
		var at uint64
		for _, fr := range frags {
			n := fr.GetPhysicalRows()
			fr.RowIdSequence = &tablepb.DataFragment_InlineRowIds{InlineRowIds: EncodeRowIDSequence(src.ids[at : at+n])}
			fr.CreatedAtVersionSequence = &tablepb.DataFragment_InlineCreatedAtVersions{InlineCreatedAtVersions: EncodeVersionRuns(created[at : at+n])}
			at += n
		}
		if at != uint64(len(src.ids)) {
			return nil, fmt.Errorf("update wrote %d rows for the %d it read", at, len(src.ids))
		}
	}
	var written []string
	ids := make([]uint64, 0, len(src.hits))
	for id := range src.hits {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		key, err := ds.deleteFromFragment(ctx, op, id, src.hits[id])
		if err != nil {
			return written, err
		}
		if key != "" {
			written = append(written, key)
		}
	}
	return written, nil
}

// setColumn is one compiled SET: the column's position and the value,
// typed as the column.
type setColumn struct {
	col   int
	value *expr.Compiled
}

// compileSets binds the SET expressions to the dataset's schema, each
// cast to its column's type as Lance casts it.
func (ds *Dataset) compileSets(set map[string]string) ([]setColumn, error) {
	if len(set) == 0 {
		return nil, fmt.Errorf("%w: nothing to set", ErrInvalidArgument)
	}
	names := make([]string, 0, len(set))
	for k := range set {
		names = append(names, k)
	}
	slices.Sort(names)
	schema := withRowColumns(ds.arrow)
	opts := expr.Options{Now: time.Now()}
	var out []setColumn
	for _, name := range names {
		if strings.Contains(name, ".") {
			return nil, fmt.Errorf("%w: column %q: nested columns cannot be set (Lance refuses them too)", ErrUnsupported, name)
		}
		idx := ds.arrow.FieldIndices(name)
		if len(idx) != 1 {
			return nil, fmt.Errorf("%w: column %q does not exist in the dataset", ErrInvalidArgument, name)
		}
		field := ds.arrow.Field(idx[0])
		e, err := expr.Parse(set[name])
		if err != nil {
			return nil, fmt.Errorf("set %s = %q: %w", name, set[name], err)
		}
		v, err := expr.BindValue(e, schema, opts)
		if err == nil && !arrow.TypeEqual(v.Type(), field.Type) {
			v, err = expr.BindValue(&expr.Cast{X: e, Type: field.Type, At: -1}, schema, opts)
		}
		if err != nil {
			return nil, fmt.Errorf("set %s = %q: %w", name, set[name], err)
		}
		out = append(out, setColumn{col: idx[0], value: v})
	}
	return out, nil
}

// dataFileLeaves returns the field ids a data file written with the
// dataset's Arrow schema holds, column by column: the ids the file
// writer assigns (pre-order from 0) mapped onto the dataset's own.
func (ds *Dataset) dataFileLeaves(fv format.Version) ([]int32, error) {
	fields, leaves, err := filewriter.SchemaFields(ds.arrow, fv, nil)
	if err != nil {
		return nil, err
	}
	have := ds.man.Fields
	if len(have) != len(fields) {
		return nil, fmt.Errorf("%w: the dataset's schema has %d fields, its Arrow form %d", ErrUnsupported, len(have), len(fields))
	}
	ids := make(map[int32]int32, len(fields))
	for i, f := range fields {
		if have[i].GetName() != f.GetName() {
			return nil, fmt.Errorf("%w: the dataset's field %d is %q, its Arrow form %q", ErrUnsupported, i, have[i].GetName(), f.GetName())
		}
		ids[f.GetId()] = have[i].GetId()
	}
	out := make([]int32, len(leaves))
	for i, l := range leaves {
		out[i] = ids[l]
	}
	return out, nil
}

// updateReader is the stream of updated rows the fragment writer writes:
// the scan's batches with the SET columns replaced. It records the row
// address (and stable row id) of every row it passes on.
type updateReader struct {
	ds     *Dataset
	sets   []setColumn
	next   func() (arrow.RecordBatch, error, bool)
	stop   func()
	cur    arrow.RecordBatch
	err    error
	stable bool
	rows   uint64
	hits   map[uint64]*roaring.Bitmap // by fragment id: the row offsets read
	addrs  []uint64                   // row addresses in the order written
	ids    []uint64                   // stable row ids in the order written
}

func (r *updateReader) Next() bool {
	r.release()
	if r.err != nil {
		return false
	}
	rec, err, ok := r.next()
	if !ok {
		return false
	}
	if err != nil {
		r.err = err
		return false
	}
	r.cur, r.err = r.apply(rec)
	rec.Release()
	return r.err == nil
}

func (r *updateReader) RecordBatch() arrow.RecordBatch { return r.cur }
func (r *updateReader) Err() error                     { return r.err }

func (r *updateReader) release() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

func (r *updateReader) close() {
	r.release()
	r.stop()
}

// fieldIDs are the dataset field ids of the columns set.
func (r *updateReader) fieldIDs() []int32 {
	var out []int32
	for _, s := range r.sets {
		name := r.ds.arrow.Field(s.col).Name
		for _, f := range r.ds.man.Fields {
			if f.GetParentId() == -1 && f.GetName() == name {
				out = append(out, f.GetId())
			}
		}
	}
	return out
}

// apply records rec's row addresses and ids and returns the batch of its
// rows with the SET columns computed.
func (r *updateReader) apply(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	nf := r.ds.arrow.NumFields()
	n := int(rec.NumRows())
	addrCol, ok := rec.Column(int(rec.NumCols()) - 1).(*array.Uint64)
	if !ok || int(rec.NumCols()) < nf+1 {
		return nil, corruptf("update scan: row address column missing")
	}
	for _, a := range addrCol.Uint64Values() {
		id := a >> 32
		if r.hits[id] == nil {
			r.hits[id] = roaring.New()
		}
		r.hits[id].Add(uint32(a))
	}
	if r.stable {
		r.addrs = append(r.addrs, addrCol.Uint64Values()...)
		idCol, ok := rec.Column(nf).(*array.Uint64)
		if !ok {
			return nil, corruptf("update scan: row id column missing")
		}
		r.ids = append(r.ids, idCol.Uint64Values()...)
	}
	cols := make([]arrow.Array, nf)
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for _, s := range r.sets {
		v, err := s.value.Eval(rec)
		if err != nil {
			return nil, fmt.Errorf("set %s: %w", r.ds.arrow.Field(s.col).Name, err)
		}
		if v.Len() != n {
			v.Release()
			return nil, fmt.Errorf("set %s: %d values for %d rows", r.ds.arrow.Field(s.col).Name, v.Len(), n)
		}
		if f := r.ds.arrow.Field(s.col); !f.Nullable && v.NullN() > 0 {
			v.Release()
			return nil, fmt.Errorf("%w: set %s: the column is not nullable and %d values are NULL", ErrInvalidArgument, f.Name, v.NullN())
		}
		cols[s.col] = v
	}
	for i := range nf {
		if cols[i] == nil {
			cols[i] = rec.Column(i)
			cols[i].Retain()
		}
	}
	r.rows += uint64(n)
	return array.NewRecordBatch(r.ds.arrow, cols, int64(n)), nil
}
