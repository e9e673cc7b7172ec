package dataset

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format/pb/tablepb"
	"github.com/lancego/lancego/indices"
)

// CompactOptions are the options of Compact, with pylance's defaults.
type CompactOptions struct {
	// TargetRowsPerFragment: fragments with fewer rows are merged with
	// their neighbours, and new fragments hold up to this many rows.
	// Zero means 1,048,576 (pylance's default).
	TargetRowsPerFragment uint64
	// MaterializeDeletionsThreshold: a fragment whose deleted share is
	// above it is rewritten without its deleted rows. Zero means 0.1;
	// 1 or more turns materializing off.
	MaterializeDeletionsThreshold float32
}

// CompactStats are pylance's CompactionMetrics.
type CompactStats struct {
	FragmentsRemoved, FragmentsAdded, FilesRemoved, FilesAdded int
}

// compactTask is one group of adjacent fragments (positions in ds.frags)
// rewritten together.
type compactTask struct {
	frags []int
}

// planCompaction chooses the groups to rewrite as Lance's
// plan_compaction does: runs of adjacent candidates (too small, or with
// too many deletions) covered by the same indices, a single small
// fragment left alone, runs split to at least target rows each.
func (ds *Dataset) planCompaction(ctx context.Context, o CompactOptions) ([]compactTask, error) {
	type bin struct {
		frags   []int
		itself  []bool
		rows    []uint64
		indices string
	}
	metas, err := ds.IndexMetadata(ctx)
	if err != nil {
		return nil, err
	}
	var bins []*bin
	var cur *bin
	for i := range ds.frags {
		m, err := ds.fragment(i)
		if err != nil {
			return nil, err
		}
		del, err := ds.deletedRows(ctx, i)
		if err != nil {
			return nil, err
		}
		var share float32
		if m.PhysicalRows > 0 {
			share = float32(del) / float32(m.PhysicalRows)
		}
		itself := o.MaterializeDeletionsThreshold < 1 && share > o.MaterializeDeletionsThreshold
		candidate := itself || m.PhysicalRows < o.TargetRowsPerFragment
		if !candidate {
			if cur != nil {
				bins, cur = append(bins, cur), nil
			}
			continue
		}
		idx := indicesCovering(metas, m.ID)
		if cur != nil && cur.indices != idx {
			bins, cur = append(bins, cur), nil
		}
		if cur == nil {
			cur = &bin{indices: idx}
		}
		cur.frags, cur.itself, cur.rows = append(cur.frags, i), append(cur.itself, itself), append(cur.rows, m.PhysicalRows-del)
	}
	if cur != nil {
		bins = append(bins, cur)
	}
	var tasks []compactTask
	for _, b := range bins {
		if len(b.frags) == 1 && !b.itself[0] {
			continue
		}
		frags, rows := b.frags, b.rows
		for {
			n, sum := 0, uint64(0)
			for sum < o.TargetRowsPerFragment && n < len(rows) {
				sum += rows[n]
				n++
			}
			var rest uint64
			for _, r := range rows[n:] {
				rest += r
			}
			if rest >= o.TargetRowsPerFragment {
				tasks = append(tasks, compactTask{frags: frags[:n]})
				frags, rows = frags[n:], rows[n:]
				continue
			}
			tasks = append(tasks, compactTask{frags: frags})
			break
		}
	}
	return tasks, nil
}

// indicesCovering names the non-system indices whose fragment bitmap
// holds fragment id ("" for none).
func indicesCovering(metas []indices.IndexMetadata, id uint64) string {
	var b bytes.Buffer
	for i := range metas {
		m := &metas[i]
		if !isSystemIndex(m) && m.FragmentBitmap != nil && m.FragmentBitmap.Contains(uint32(id)) {
			fmt.Fprintf(&b, "%s;", m.UUIDString())
		}
	}
	return b.String()
}

// rewriteGroup is one compaction task done: the fragments it replaces
// (as read) and the new ones.
type rewriteGroup struct {
	old    []*tablepb.DataFragment
	oldRaw [][]byte
	new    []*tablepb.DataFragment
}

// applyRewrite replaces each group's old fragments by its new ones in
// m, after checking that no concurrent commit changed or removed them,
// giving new fragments without a reserved id the next ids; fragments end
// sorted by id, as Lance sorts them.
func (op *writeOp) applyRewrite(m *tablepb.Manifest, nextID *uint64) error {
	pos := map[uint64]int{}
	for i, f := range m.GetFragments() {
		pos[f.GetId()] = i
	}
	drop := map[uint64]bool{}
	for _, g := range op.groups {
		for k, f := range g.old {
			i, ok := pos[f.GetId()]
			if !ok {
				return fmt.Errorf("%w: fragment %d, which this compaction rewrites, was removed after version %d", ErrCommitConflict, f.GetId(), op.readVersion)
			}
			now, err := proto.MarshalOptions{Deterministic: true}.Marshal(m.Fragments[i])
			if err != nil {
				return err
			}
			if !bytes.Equal(now, g.oldRaw[k]) && !sameFragment(m.Fragments[i], g.oldRaw[k]) {
				return fmt.Errorf("%w: fragment %d, which this compaction rewrites, was changed by a concurrent commit after version %d", ErrCommitConflict, f.GetId(), op.readVersion)
			}
			drop[f.GetId()] = true
		}
	}
	out := m.Fragments[:0:0]
	for _, f := range m.GetFragments() {
		if !drop[f.GetId()] {
			out = append(out, f)
		}
	}
	op.added = op.added[:0]
	for _, g := range op.groups {
		for k, f := range g.new {
			f = proto.Clone(f).(*tablepb.DataFragment)
			if !op.reserved {
				f.Id = *nextID
				*nextID++
			}
			g.new[k] = f // the transaction names the ids given
			out = append(out, f)
			op.added = append(op.added, f)
		}
	}
	slices.SortStableFunc(out, func(a, b *tablepb.DataFragment) int {
		switch {
		case a.GetId() < b.GetId():
			return -1
		case a.GetId() > b.GetId():
			return 1
		}
		return 0
	})
	m.Fragments = out
	return nil
}
