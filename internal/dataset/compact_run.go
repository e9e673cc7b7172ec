package dataset

import (
	"context"
	"fmt"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/tablepb"
)

// Compact rewrites small fragments, and fragments with many deleted
// rows, into fewer larger ones and commits the result, as pylance's
// optimize.compact_files does: the plan is Lance's (runs of adjacent
// candidates, a lone small fragment left alone, runs split to at least
// TargetRowsPerFragment rows), deleted rows are dropped, stable row ids
// and row versions are kept. As Lance does, one ReserveFragments commit
// takes the new fragments' ids, then one Rewrite commit replaces the
// old fragments (two versions). Fragments covered
// by indices leave their coverage (write_indices.go withoutRewritten). With nothing to do nothing
// is committed and ds itself is returned.
func (ds *Dataset) Compact(ctx context.Context, o CompactOptions, opts ...DatasetWriteOption) (*Dataset, CompactStats, error) {
	var st CompactStats
	fail := func(err error) (*Dataset, CompactStats, error) {
		return nil, st, fmt.Errorf("lance: compact %s: %w", ds.url, err)
	}
	if o.TargetRowsPerFragment == 0 {
		o.TargetRowsPerFragment = DefaultMaxRowsPerFile
	}
	if o.MaterializeDeletionsThreshold == 0 {
		o.MaterializeDeletionsThreshold = 0.1
	}
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, st, err
	}
	if !ds.store.CanPutIfAbsent() && c.lock == nil {
		return fail(fmt.Errorf("%w: the store cannot write conditionally; pass WithCommitLock", ErrUnsupported))
	}
	tasks, err := ds.planCompaction(ctx, o)
	if err != nil {
		return fail(err)
	}
	if len(tasks) == 0 {
		return ds, st, nil
	}
	op := &writeOp{kind: opRewrite, readVersion: ds.man.Version, fields: ds.man.Fields}
	if err := ds.resolveFileVersion(c, op); err != nil {
		return fail(err)
	}
	stable := ds.man.ReaderFlags&FlagStableRowIDs != 0
	op.reserved = true
	var written []string
	cleanup := func() { removeKeys(ctx, ds.store, written) }
	for _, t := range tasks {
		g, keys, err := ds.rewriteTask(ctx, c, t, stable)
		written = append(written, keys...)
		if err != nil {
			cleanup()
			return fail(err)
		}
		op.groups = append(op.groups, g)
		st.FragmentsRemoved += len(g.old)
		st.FragmentsAdded += len(g.new)
		for _, f := range g.old {
			st.FilesRemoved += len(f.GetFiles())
			if f.GetDeletionFile() != nil {
				st.FilesRemoved++
			}
		}
		for _, f := range g.new {
			st.FilesAdded += len(f.GetFiles())
		}
	}
	// the new fragments' ids first, in one ReserveFragments commit, as
	// Lance reserves them (for the indices' fragment bitmaps)
	rop := &writeOp{kind: opReserve, reserve: uint32(st.FragmentsAdded)}
	if _, err := commit(ctx, ds.store, c, rop); err != nil {
		cleanup()
		return nil, st, fmt.Errorf("lance: commit %s: %w", ds.url, err)
	}
	id := rop.reservedMax + 1 - uint64(st.FragmentsAdded)
	for _, g := range op.groups {
		for _, f := range g.new {
			f.Id = id
			id++
		}
	}
	v, err := commit(ctx, ds.store, c, op)
	if err != nil {
		cleanup()
		return nil, st, fmt.Errorf("lance: commit %s: %w", ds.url, err)
	}
	out, err := ds.reopen(ctx, v)
	return out, st, err
}

// rewriteTask writes the live rows of one task's fragments into new
// fragments (with the rows' stable row ids and versions when the
// dataset has them) and returns the group and the data files written.
func (ds *Dataset) rewriteTask(ctx context.Context, c *dsWriteConfig, t compactTask, stable bool) (rewriteGroup, []string, error) {
	var g rewriteGroup
	fv, err := c.fileVersion()
	if err != nil {
		return g, nil, err
	}
	leaves, err := ds.dataFileLeaves(fv)
	if err != nil {
		return g, nil, err
	}
	ranges := make([]fragRange, len(t.frags))
	for k, i := range t.frags {
		ranges[k] = fragRange{i, 0, ds.frags[i].ref.PhysicalRows}
		raw := ds.frags[i].ref.Raw()
		var f tablepb.DataFragment
		if err := proto.Unmarshal(raw, &f); err != nil {
			return g, nil, corruptf("fragment %d: %v", ds.frags[i].ref.ID, err)
		}
		g.old, g.oldRaw = append(g.old, &f), append(g.oldRaw, raw)
	}
	all := make([]int, ds.arrow.NumFields())
	for i := range all {
		all[i] = i
	}
	p := ds.newProjection(all, stable, true, false)
	src := &compactReader{nf: ds.arrow.NumFields(), schema: ds.arrow, stable: stable}
	src.next, src.stop = iter.Pull2(iter.Seq2[arrow.RecordBatch, error](func(yield func(arrow.RecordBatch, error) bool) {
		ds.scanProjected(ctx, ranges, p, nil, DatasetScanOptions{}, yield)
	}))
	fw := newFragWriter(ctx, ds.store, c, ds.arrow, fv, leaves)
	err = fw.run(src)
	src.close()
	if err != nil {
		fw.cleanup()
		return g, nil, err
	}
	g.new = fw.frags
	if stable {
		created, err := ds.rowVersions(ctx, src.addrs, false)
		if err != nil {
			return g, fw.keys, err
		}
		updated, err := ds.rowVersions(ctx, src.addrs, true)
		if err != nil {
			return g, fw.keys, err
		}
		var at uint64
		for _, fr := range g.new {
			n := fr.GetPhysicalRows()
			if at+n > uint64(len(src.ids)) {
				return g, fw.keys, fmt.Errorf("compaction wrote more rows than it read")
			}
			fr.RowIdSequence = &tablepb.DataFragment_InlineRowIds{InlineRowIds: EncodeRowIDSequence(src.ids[at : at+n])}
			fr.CreatedAtVersionSequence = &tablepb.DataFragment_InlineCreatedAtVersions{InlineCreatedAtVersions: EncodeVersionRuns(created[at : at+n])}
			fr.LastUpdatedAtVersionSequence = &tablepb.DataFragment_InlineLastUpdatedAtVersions{InlineLastUpdatedAtVersions: EncodeVersionRuns(updated[at : at+n])}
			at += n
		}
	}
	return g, fw.keys, nil
}

// compactReader passes a scan's rows on without the row columns,
// recording their row addresses and ids.
type compactReader struct {
	nf     int
	schema *arrow.Schema
	stable bool
	next   func() (arrow.RecordBatch, error, bool)
	stop   func()
	cur    arrow.RecordBatch
	err    error
	addrs  []uint64
	ids    []uint64
}

func (r *compactReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
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
	defer rec.Release()
	addrs, ok := rec.Column(int(rec.NumCols()) - 1).(*array.Uint64)
	if !ok {
		r.err = corruptf("compaction scan: row address column missing")
		return false
	}
	if r.stable {
		ids, ok := rec.Column(r.nf).(*array.Uint64)
		if !ok {
			r.err = corruptf("compaction scan: row id column missing")
			return false
		}
		r.addrs = append(r.addrs, addrs.Uint64Values()...)
		r.ids = append(r.ids, ids.Uint64Values()...)
	}
	r.cur = array.NewRecordBatch(r.schema, rec.Columns()[:r.nf], rec.NumRows())
	return true
}

func (r *compactReader) RecordBatch() arrow.RecordBatch { return r.cur }
func (r *compactReader) Err() error                     { return r.err }

func (r *compactReader) close() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.stop()
}
