package dataset

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/tablepb"
	lanceio "github.com/lancego/lancego/io"
)

// restoreSource is the version a Restore commits again: its manifest and
// the entries of its index section, as read.
type restoreSource struct {
	version uint64
	man     *tablepb.Manifest
	indices []indexEntry
}

// Restore commits a new version whose content is the version ds opened:
// its fragments, schema, indices, configuration and feature flags, with a
// Restore transaction, as pylance's restore() does. The new version's
// max_fragment_id and next_row_id never go backwards (the larger of the
// latest and the restored version's), so fragment and row ids stay
// unique. A restore never conflicts: losing the race for the next version
// retries on the new latest one. The returned Dataset is the new latest
// version; ds is unchanged.
func (ds *Dataset) Restore(ctx context.Context, opts ...DatasetWriteOption) (*Dataset, error) {
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, err
	}
	if !ds.store.CanPutIfAbsent() && c.lock == nil {
		return nil, fmt.Errorf("lance: restore %s: %w: the store cannot write conditionally; pass WithCommitLock", ds.url, ErrUnsupported)
	}
	src, err := readManifestAt(ctx, ds.store, ds.manKey, ds.man.Version)
	if err != nil {
		return nil, fmt.Errorf("lance: restore %s version %d: %w", ds.url, ds.man.Version, err)
	}
	if err := checkWriterFlags(src.man); err != nil {
		return nil, fmt.Errorf("lance: restore %s version %d: %w", ds.url, ds.man.Version, err)
	}
	if len(src.indices) > 0 {
		if err := checkIndexBitmaps(&latest{version: src.version, man: src.man, indices: src.indices}); err != nil {
			return nil, fmt.Errorf("lance: restore %s version %d: %w", ds.url, ds.man.Version, err)
		}
	}
	v, err := commit(ctx, ds.store, c, &writeOp{kind: opRestore, restore: src})
	if err != nil {
		return nil, fmt.Errorf("lance: commit %s: %w", ds.url, err)
	}
	return ds.reopen(ctx, v)
}

// readManifestAt reads the whole manifest file key (of version v) and its
// index section.
func readManifestAt(ctx context.Context, store *lanceio.Store, key string, v uint64) (*restoreSource, error) {
	b, err := readSmall(ctx, store, key, MaxManifestSize)
	if err != nil {
		return nil, err
	}
	m, err := DecodeManifestProto(int64(len(b)), b)
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", key, err)
	}
	if m.GetVersion() != v {
		return nil, fmt.Errorf("%w: manifest %s says version %d", format.ErrCorrupt, key, m.GetVersion())
	}
	idx, err := readIndexEntries(b, m)
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", key, err)
	}
	return &restoreSource{version: v, man: m, indices: idx}, nil
}

// restoreManifest is the manifest of the version after cur that restores
// op.restore: Lance's restore_old_manifest (the old manifest with a new
// version, timestamp and transaction), with the id counters of the latest
// version kept when they are ahead, as pylance 14.0.2 keeps them.
func (op *writeOp) restoreManifest(cur *latest) (*tablepb.Manifest, error) {
	m := proto.Clone(op.restore.man).(*tablepb.Manifest)
	next := max(nextFragmentID(m), nextFragmentID(cur.man))
	if next > 0 {
		mx := uint32(next - 1)
		m.MaxFragmentId = &mx
	}
	m.NextRowId = max(m.GetNextRowId(), cur.man.GetNextRowId())
	return op.finish(m, cur.version, next), nil
}
