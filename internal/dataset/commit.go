package dataset

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/format/pb/tablepb"
	"github.com/lancego/lancego/internal/fileread"
	lanceio "github.com/lancego/lancego/io"
)

// writerLibrary is what our manifests name as their writer. Lance applies
// its version-specific fixes only to manifests written by "lance".
const (
	writerLibrary = "lancego"
	writerVersion = "0.1.0"
)

type opKind uint8

const (
	opCreate opKind = iota
	opAppend
	opOverwrite
	opDelete
	opUpdate  // rewritten rows: deletions plus new fragments (update.go)
	opRestore // a new version equal to an older one (restore.go)
	opProject // schema-only change: drop or rename columns (schema_evolve.go)
	opMerge   // new columns: data files added to every fragment (schema_evolve.go)
	opReserve // fragment ids reserved for a compaction task (compact.go)
	opRewrite // compacted fragments replacing old ones (compact.go)
	opIndex   // an index created, replaced or dropped (create_index.go)
)

func (k opKind) String() string {
	return [...]string{"create", "append", "overwrite", "delete", "update", "restore", "project", "merge", "reserve-fragments", "compaction", "index commit"}[k]
}

// writeOp is one dataset write waiting to be committed: what it adds and
// changes, applied to whatever version is latest when it commits.
type writeOp struct {
	kind        opKind
	frags       []*tablepb.DataFragment // new fragments (ids assigned at commit)
	fields      []*filepb.Field
	schemaMeta  map[string][]byte
	dataVersion string
	// Delete: the version read, the fragments changed as they were read
	// (serialized), and their new state (nil: dropped).
	readVersion uint64
	predicate   string
	changed     map[uint64][]byte
	updated     map[uint64]*tablepb.DataFragment
	// added are op.frags with the ids of the last build.
	added []*tablepb.DataFragment
	// stableRowIDs: a create enables stable row ids.
	stableRowIDs bool
	// modified: an update's SET columns (field ids), which Lance records
	// as fields_for_preserving_frag_bitmap.
	modified []uint32
	// Compaction: the groups a rewrite replaces; reserved says their new
	// fragments carry ids reserved before; reserve is the number of ids a
	// ReserveFragments commit reserves, reservedMax the max_fragment_id
	// it committed.
	groups      []rewriteGroup
	reserved    bool
	reserve     uint32
	reservedMax uint64
	// storage is the data storage version of the dataset written to, which
	// an append records in manifests that have none (Lance does).
	storage string
	// restore is the version a Restore commits again (restore.go).
	restore *restoreSource
	// Merge (add_columns.go): each fragment's new data file by fragment
	// id, and the fragments of the last build.
	newFiles map[uint64]*tablepb.DataFile
	merged   []*tablepb.DataFragment
	// Index (create_index.go): the segments added, and the name whose
	// segments they replace (or a drop removes).
	index *indexChange
}

// latest is the newest committed version of a dataset.
type latest struct {
	version uint64
	naming  Naming
	man     *tablepb.Manifest // nil when there is none
	// indices are the entries of its index section, as read.
	indices []indexEntry
}

// readLatest lists _versions/ and reads the newest manifest in full.
func readLatest(ctx context.Context, store *lanceio.Store) (*latest, error) {
	vs, err := listVersions(ctx, store)
	if err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return &latest{naming: NamingV2}, nil
	}
	best := vs[0]
	for _, x := range vs[1:] {
		if x.Version > best.Version {
			best = x
		}
	}
	_, naming, _ := ParseManifestName(path.Base(best.Manifest))
	obj, err := store.Open(ctx, best.Manifest)
	if err != nil {
		return nil, err
	}
	defer closeObject(obj)
	if obj.Size() > MaxManifestSize {
		return nil, fmt.Errorf("%w: manifest %s of %d bytes", format.ErrCorrupt, best.Manifest, obj.Size())
	}
	b, err := lanceio.ReadTail(ctx, obj, obj.Size())
	if err != nil {
		return nil, err
	}
	m, err := DecodeManifestProto(int64(len(b)), b)
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", best.Manifest, err)
	}
	if m.GetVersion() != best.Version {
		return nil, fmt.Errorf("%w: manifest %s says version %d", format.ErrCorrupt, best.Manifest, m.GetVersion())
	}
	idx, err := readIndexEntries(b, m)
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", best.Manifest, err)
	}
	return &latest{version: best.Version, naming: naming, man: m, indices: idx}, nil
}

// closeObject closes an Object that has a Close method.
func closeObject(o lanceio.Object) {
	if c, ok := o.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}

// commit makes op the next version: it builds the manifest on the latest
// version and writes it with put-if-absent (or under the commit lock);
// losing the race re-reads and retries, with backoff, while op stays
// compatible.
func commit(ctx context.Context, store *lanceio.Store, c *dsWriteConfig, op *writeOp) (uint64, error) {
	for attempt := 0; ; attempt++ {
		cur, err := readLatest(ctx, store)
		if err != nil {
			return 0, err
		}
		if err := op.checkConcurrent(ctx, store, cur); err != nil { // schema_evolve.go
			return 0, err
		}
		next, idx, err := op.build(cur)
		if err != nil {
			return 0, err
		}
		if c.seedsFlag {
			next.ReaderFeatureFlags |= FlagZoneWriteSeeds
			next.WriterFeatureFlags |= FlagZoneWriteSeeds
		}
		txnKey, txn, err := writeTransaction(ctx, store, op, cur.version, next)
		if err != nil {
			return 0, err
		}
		data, err := encodeManifestSections(next, idx, txn)
		if err != nil {
			return 0, err
		}
		key := VersionsDir + "/" + ManifestName(next.GetVersion(), cur.naming)
		err = putManifest(ctx, store, c, next.GetVersion(), key, data)
		if err != nil && committedByUs(ctx, store, key, next.GetTransactionFile()) {
			err = nil // the put succeeded but its answer was lost (or retried into a 412)
		}
		if err == nil {
			writeHint(ctx, store, next.GetVersion())
			autoCleanup(ctx, store, next, cur.version) // cleanup.go
			return next.GetVersion(), nil
		}
		removeKeys(ctx, store, []string{txnKey})
		if !errors.Is(err, lanceio.ErrExists) && !errors.Is(err, lanceio.ErrTransient) && !errors.Is(err, lanceio.ErrThrottled) {
			return 0, err
		}
		if attempt >= c.retries && errors.Is(err, lanceio.ErrExists) {
			return 0, fmt.Errorf("%w: %s lost the race for version %d %d times", ErrCommitConflict, op.kind, next.GetVersion(), attempt+1)
		}
		if attempt >= c.retries {
			return 0, fmt.Errorf("%s of version %d not committed (commit attempts: %d): %w", op.kind, next.GetVersion(), attempt+1, err)
		}
		if err := sleepBackoff(ctx, attempt); err != nil {
			return 0, err
		}
	}
}

// committedByUs reports whether the manifest at key exists and names
// txn, the transaction file of this attempt: a conditional put whose
// response was lost, or that the SDK retried after it had succeeded, looks
// failed but committed. Treating it as lost would commit the op twice.
func committedByUs(ctx context.Context, store *lanceio.Store, key, txn string) bool {
	ctx = context.WithoutCancel(ctx)
	obj, err := store.Open(ctx, key)
	if err != nil {
		return false
	}
	defer closeObject(obj)
	if obj.Size() > MaxManifestSize {
		return false
	}
	b, err := lanceio.ReadTail(ctx, obj, obj.Size())
	if err != nil {
		return false
	}
	m, err := DecodeManifestProto(int64(len(b)), b)
	return err == nil && txn != "" && m.GetTransactionFile() == txn
}

// putManifest writes the manifest of version v create-only.
func putManifest(ctx context.Context, store *lanceio.Store, c *dsWriteConfig, v uint64, key string, data []byte) error {
	if c.lock == nil {
		return store.PutIfAbsent(ctx, key, data)
	}
	unlock, err := c.lock.Lock(ctx, v)
	if err != nil {
		return fmt.Errorf("commit lock: %w", err)
	}
	defer func() { _ = unlock() }()
	if obj, err := store.Open(ctx, key); err == nil {
		closeObject(obj)
		return fmt.Errorf("%w: %s", lanceio.ErrExists, key)
	} else if !errors.Is(err, lanceio.ErrNotFound) {
		return err
	}
	return putFile(ctx, store, key, data)
}

// writeHint updates latest_version_hint.json, best effort: readers never
// trust it (Lance writes it the same way).
func writeHint(ctx context.Context, store *lanceio.Store, v uint64) {
	b, _ := json.Marshal(map[string]uint64{"version": v})
	_ = putFile(context.WithoutCancel(ctx), store, VersionsDir+"/"+HintFile, b)
}

// build returns the manifest of the version after cur with op applied,
// and the entries of its index section (indicesAfter).
func (op *writeOp) build(cur *latest) (*tablepb.Manifest, []indexEntry, error) {
	m, err := op.buildManifest(cur)
	if err != nil {
		return nil, nil, err
	}
	idx, err := op.indicesAfter(cur)
	if err != nil {
		return nil, nil, err
	}
	return m, idx, nil
}

func (op *writeOp) buildManifest(cur *latest) (*tablepb.Manifest, error) {
	if op.kind == opCreate {
		if cur.man != nil {
			return nil, fmt.Errorf("%w: a dataset was created concurrently (version %d)", ErrCommitConflict, cur.version)
		}
		m := &tablepb.Manifest{
			Fields: op.fields, SchemaMetadata: op.schemaMeta,
			DataFormat: &tablepb.Manifest_DataStorageFormat{FileFormat: "lance", Version: op.dataVersion},
		}
		if op.stableRowIDs {
			m.ReaderFeatureFlags |= FlagStableRowIDs
			m.WriterFeatureFlags |= FlagStableRowIDs
		}
		return op.finish(m, 0, 0), nil
	}
	if cur.man == nil {
		return nil, fmt.Errorf("%w: the dataset has no version", ErrNotDataset)
	}
	if err := checkWriterFlags(cur.man); err != nil {
		return nil, err
	}
	if op.kind == opRestore {
		return op.restoreManifest(cur) // restore.go
	}
	m := proto.Clone(cur.man).(*tablepb.Manifest)
	nextID := nextFragmentID(m)
	switch op.kind {
	case opAppend:
		if err := sameFields(m.GetFields(), op.fields); err != nil {
			return nil, err
		}
		if m.DataFormat == nil && op.storage != "" {
			m.DataFormat = &tablepb.Manifest_DataStorageFormat{FileFormat: "lance", Version: op.storage}
		}
	case opOverwrite:
		m.Fields, m.SchemaMetadata, m.Fragments, m.IndexSection = op.fields, op.schemaMeta, nil, nil
		m.DataFormat = &tablepb.Manifest_DataStorageFormat{FileFormat: "lance", Version: op.dataVersion}
	case opDelete:
		if err := op.applyDelete(m); err != nil {
			return nil, err
		}
	case opUpdate:
		if err := sameFields(m.GetFields(), op.fields); err != nil {
			return nil, err
		}
		if err := op.applyDelete(m); err != nil {
			return nil, err
		}
	case opProject:
		op.applySchemaOp(m) // schema_evolve.go
	case opMerge:
		if err := op.applyMerge(m); err != nil { // add_columns.go
			return nil, err
		}
	case opReserve:
		nextID += uint64(op.reserve)
		op.reservedMax = nextID - 1
		if len(m.Fragments) == 0 && m.MaxFragmentId == nil && nextID > 0 {
			mx := uint32(nextID - 1)
			m.MaxFragmentId = &mx
		}
	case opRewrite:
		if err := op.applyRewrite(m, &nextID); err != nil {
			return nil, err
		}
	case opIndex:
		if err := op.index.check(cur); err != nil { // create_index.go
			return nil, err
		}
	}
	return op.finish(m, cur.version, nextID), nil
}

// finish appends op's new fragments from id nextID on and sets the
// version, writer, timestamp and the fields a commit always rewrites.
func (op *writeOp) finish(m *tablepb.Manifest, version, nextID uint64) *tablepb.Manifest {
	op.added = op.added[:0]
	stable := m.GetReaderFeatureFlags()&FlagStableRowIDs != 0
	for _, f := range op.frags {
		f = proto.Clone(f).(*tablepb.DataFragment)
		f.Id = nextID
		nextID++
		switch {
		case stable && f.RowIdSequence != nil: // rows an update moved keep their ids
			f.LastUpdatedAtVersionSequence = &tablepb.DataFragment_InlineLastUpdatedAtVersions{
				InlineLastUpdatedAtVersions: EncodeVersionRun(f.GetPhysicalRows(), version+1)}
		case stable:
			assignRowIDs(m, f, version+1)
		}
		m.Fragments = append(m.Fragments, f)
		op.added = append(op.added, f)
	}
	m.Version = version + 1
	m.WriterVersion = &tablepb.Manifest_WriterVersion{Library: writerLibrary, Version: writerVersion}
	m.Timestamp = timestamppb.New(time.Now())
	m.TransactionFile, m.TransactionSection, m.VersionAuxData = "", nil, 0
	if nextID > 0 {
		mx := uint32(nextID - 1)
		if len(m.Fragments) == 0 && m.MaxFragmentId != nil && *m.MaxFragmentId > mx {
			mx = *m.MaxFragmentId
		}
		m.MaxFragmentId = &mx
	}
	markMixedVersions(m) // dataset_storage.go
	return m
}

// nextFragmentID is one more than the largest fragment id ever used.
func nextFragmentID(m *tablepb.Manifest) uint64 {
	var next uint64
	if m.MaxFragmentId != nil {
		next = uint64(*m.MaxFragmentId) + 1
	}
	for _, f := range m.GetFragments() {
		next = max(next, f.GetId()+1)
	}
	return next
}

// sameFields checks that an append's fields match the dataset's (a
// concurrent overwrite may have changed them since the append started).
func sameFields(have, ours []*filepb.Field) error {
	if len(have) != len(ours) {
		return fmt.Errorf("%w: the dataset has %d fields, the data %d", ErrSchemaMismatch, len(have), len(ours))
	}
	for i, h := range have {
		o := ours[i]
		if h.GetName() != o.GetName() || h.GetId() != o.GetId() || h.GetParentId() != o.GetParentId() || h.GetLogicalType() != o.GetLogicalType() {
			return fmt.Errorf("%w: field %d is %q (%s), the data has %q (%s)", ErrSchemaMismatch, i, h.GetName(), h.GetLogicalType(), o.GetName(), o.GetLogicalType())
		}
	}
	return nil
}

// applyDelete replaces the fragments the delete changed, after checking
// that no concurrent commit changed or removed them.
func (op *writeOp) applyDelete(m *tablepb.Manifest) error {
	var out []*tablepb.DataFragment
	seen := 0
	for _, f := range m.GetFragments() {
		was, changed := op.changed[f.GetId()]
		if !changed {
			out = append(out, f)
			continue
		}
		seen++
		now, err := proto.MarshalOptions{Deterministic: true}.Marshal(f)
		if err != nil {
			return err
		}
		if !bytes.Equal(now, was) && !sameFragment(f, was) {
			return fmt.Errorf("%w: fragment %d, which this %s changes, was changed by a concurrent commit after version %d", ErrCommitConflict, f.GetId(), op.kind, op.readVersion)
		}
		if u := op.updated[f.GetId()]; u != nil {
			out = append(out, u)
		}
	}
	if seen != len(op.changed) {
		return fmt.Errorf("%w: a fragment this %s changes was removed after version %d", ErrCommitConflict, op.kind, op.readVersion)
	}
	m.Fragments = out
	m.ReaderFeatureFlags |= FlagDeletionFiles
	m.WriterFeatureFlags |= FlagDeletionFiles
	return nil
}

// sameFragment compares a fragment with its serialized form as read.
func sameFragment(f *tablepb.DataFragment, was []byte) bool {
	var w tablepb.DataFragment
	return proto.Unmarshal(was, &w) == nil && proto.Equal(f, &w)
}

// writeTransaction writes the transaction file of the commit of next (on
// version readVersion) and names it in next; Lance's conflict resolution
// reads it when it races with this commit. It returns the file's key and
// bytes (which the manifest also carries inline, as pylance's do).
func writeTransaction(ctx context.Context, store *lanceio.Store, op *writeOp, readVersion uint64, next *tablepb.Manifest) (string, []byte, error) {
	id, err := NewUUID()
	if err != nil {
		return "", nil, err
	}
	t := &Transaction{ReadVersion: readVersion, UUID: id, Op: TxnAppend, Fragments: op.added}
	switch op.kind {
	case opCreate, opOverwrite:
		t.Op, t.Schema, t.SchemaMetadata = TxnOverwrite, op.fields, op.schemaMeta
	case opDelete:
		t.Op, t.Predicate, t.ReadVersion = TxnDelete, op.predicate, op.readVersion
		t.Fragments = nil
		for id, f := range op.updated {
			if f == nil {
				t.DeletedIDs = append(t.DeletedIDs, id)
			} else {
				t.Fragments = append(t.Fragments, f)
			}
		}
	case opReserve:
		t.Op, t.Fragments, t.Reserve = TxnReserveFragments, nil, op.reserve
	case opRestore:
		t.Op, t.Fragments, t.RestoreVersion = TxnRestore, nil, op.restore.version
	case opProject:
		t.Op, t.Fragments, t.Schema, t.ReadVersion = TxnProject, nil, op.fields, op.readVersion
	case opMerge:
		t.Op, t.Fragments, t.Schema, t.ReadVersion = TxnMerge, op.merged, op.fields, op.readVersion
		t.SchemaMetadata = op.schemaMeta
	case opRewrite:
		t.Op, t.ReadVersion, t.Fragments, t.Groups = TxnRewrite, op.readVersion, nil, op.groups
	case opIndex:
		t.Op, t.ReadVersion, t.Fragments = TxnCreateIndex, op.readVersion, nil
		t.NewIndices, t.RemovedIndices = op.index.added(), op.index.removedRaw
	case opUpdate:
		t.Op, t.ReadVersion, t.Modified = TxnUpdate, op.readVersion, op.modified
		t.Fragments, t.NewFragments = nil, op.added
		for id, f := range op.updated {
			if f == nil {
				t.DeletedIDs = append(t.DeletedIDs, id)
			} else {
				t.Fragments = append(t.Fragments, f)
			}
		}
		slices.Sort(t.DeletedIDs)
		slices.SortFunc(t.Fragments, func(a, b *tablepb.DataFragment) int { return cmp.Compare(a.GetId(), b.GetId()) })
	}
	data, err := t.Encode()
	if err != nil {
		return "", nil, err
	}
	key := TransactionsDir + "/" + t.TransactionName()
	if err := putFile(ctx, store, key, data); err != nil {
		return "", nil, err
	}
	next.TransactionFile = t.TransactionName()
	return key, data, nil
}

// assignRowIDs gives a new fragment the next stable row ids of m (one
// range, advancing next_row_id) and the created-at / last-updated-at
// version sequences Lance writes with them.
func assignRowIDs(m *tablepb.Manifest, f *tablepb.DataFragment, version uint64) {
	start := m.GetNextRowId()
	end := start + f.GetPhysicalRows()
	f.RowIdSequence = &tablepb.DataFragment_InlineRowIds{InlineRowIds: EncodeRowIDRange(start, end)}
	runs := EncodeVersionRun(f.GetPhysicalRows(), version)
	f.CreatedAtVersionSequence = &tablepb.DataFragment_InlineCreatedAtVersions{InlineCreatedAtVersions: runs}
	f.LastUpdatedAtVersionSequence = &tablepb.DataFragment_InlineLastUpdatedAtVersions{InlineLastUpdatedAtVersions: runs}
	m.NextRowId = end
}

// Delete deletes the rows filter selects (a SQL filter as Lance accepts
// it: expr.Parse; it may reference _rowid, _rowaddr and _rowoffset, as in
// a scan) and commits the next version: deletion files for fragments that keep
// rows, fragments that lose every row dropped. Fragments whose zone seeds
// prove the filter false are not read. A concurrent delete or removal of
// a fragment this delete changes makes it re-run (below), then fail with
// ErrCommitConflict; concurrent appends are kept. With no matching row nothing is committed
// and ds is returned.
//
// As in Lance, a delete that loses to a concurrent commit changing its
// fragments runs again on the latest version (WithCommitRetries times).
func (ds *Dataset) Delete(ctx context.Context, filter string, opts ...DatasetWriteOption) (*Dataset, error) {
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, err
	}
	out, _, err := retryOnConflict(ctx, ds, c.retries, func(cur *Dataset) (*Dataset, struct{}, error) {
		d, err := cur.deleteOnce(ctx, c, filter)
		return d, struct{}{}, err
	})
	return out, err
}

func (ds *Dataset) deleteOnce(ctx context.Context, c *dsWriteConfig, filter string) (*Dataset, error) {
	if !ds.store.CanPutIfAbsent() && c.lock == nil {
		return nil, fmt.Errorf("lance: delete from %s: %w: the store cannot write conditionally; pass WithCommitLock", ds.url, ErrUnsupported)
	}
	e, err := expr.Parse(filter)
	if err != nil {
		return nil, fmt.Errorf("lance: delete from %s: filter %q: %w", ds.url, filter, err)
	}
	hits, err := ds.matchingRows(ctx, e)
	if err != nil {
		return nil, fmt.Errorf("lance: delete from %s: %w", ds.url, err)
	}
	if len(hits) == 0 {
		return ds, nil
	}
	op := &writeOp{kind: opDelete, readVersion: ds.man.Version, predicate: filter, changed: map[uint64][]byte{}, updated: map[uint64]*tablepb.DataFragment{}}
	var written []string
	for id, rows := range hits {
		key, err := ds.deleteFromFragment(ctx, op, id, rows)
		if err != nil {
			removeKeys(ctx, ds.store, written)
			return nil, fmt.Errorf("lance: delete from %s: %w", ds.url, err)
		}
		if key != "" {
			written = append(written, key)
		}
	}
	v, err := commit(ctx, ds.store, c, op)
	if err != nil {
		removeKeys(ctx, ds.store, written)
		return nil, fmt.Errorf("lance: commit %s: %w", ds.url, err)
	}
	return ds.reopen(ctx, v)
}

func removeKeys(ctx context.Context, store *lanceio.Store, keys []string) {
	ctx = context.WithoutCancel(ctx)
	for _, k := range keys {
		_ = store.Delete(ctx, k)
	}
}

// matchingRows returns, by fragment id, the row offsets filter selects.
func (ds *Dataset) matchingRows(ctx context.Context, e expr.Expr) (map[uint64]*roaring.Bitmap, error) {
	f, err := ds.bindFilter(fileread.FilterArgs{Filter: e})
	if err != nil {
		return nil, err
	}
	hits := map[uint64]*roaring.Bitmap{}
	// Read only the filter's columns: the output is the row addresses.
	for rec, err := range ds.filteredBatches(ctx, f, ds.newProjection(nil, false, true, false)) {
		if err != nil {
			return nil, err
		}
		col, ok := rec.Column(int(rec.NumCols()) - 1).(*array.Uint64)
		if !ok {
			rec.Release()
			return nil, fmt.Errorf("%w: row address column missing", format.ErrCorrupt)
		}
		for _, a := range col.Uint64Values() {
			id := a >> 32
			if hits[id] == nil {
				hits[id] = roaring.New()
			}
			hits[id].Add(uint32(a))
		}
		rec.Release()
	}
	return hits, nil
}

// deleteFromFragment records in op the new state of fragment id with rows
// deleted: a new deletion file (written here, its key returned), or the
// fragment dropped when no row is left.
func (ds *Dataset) deleteFromFragment(ctx context.Context, op *writeOp, id uint64, rows *roaring.Bitmap) (string, error) {
	i, ok := ds.byID[id]
	if !ok {
		return "", fmt.Errorf("%w: row address of unknown fragment %d", format.ErrCorrupt, id)
	}
	old, err := ds.deletions(ctx, i)
	if err != nil {
		return "", err
	}
	if old != nil {
		rows.Or(old)
	}
	ref := ds.frags[i].ref
	op.changed[id] = ref.Raw()
	if rows.GetCardinality() >= ref.PhysicalRows {
		op.updated[id] = nil
		return "", nil
	}
	var frag tablepb.DataFragment
	if err := proto.Unmarshal(ref.Raw(), &frag); err != nil {
		return "", fmt.Errorf("%w: fragment %d: %v", format.ErrCorrupt, id, err)
	}
	data, bitmap, err := EncodeDeletions(rows)
	if err != nil {
		return "", err
	}
	rid, err := RandomID()
	if err != nil {
		return "", err
	}
	df := DeletionFile{Bitmap: bitmap, ReadVersion: ds.man.Version, ID: rid, NumDeleted: rows.GetCardinality()}
	key := DeletionName(id, df)
	if err := putFile(ctx, ds.store, key, data); err != nil {
		return "", err
	}
	typ := tablepb.DeletionFile_ARROW_ARRAY
	if bitmap {
		typ = tablepb.DeletionFile_BITMAP
	}
	frag.DeletionFile = &tablepb.DeletionFile{FileType: typ, ReadVersion: df.ReadVersion, Id: rid, NumDeletedRows: df.NumDeleted}
	op.updated[id] = &frag
	return key, nil
}
