package dataset

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/internal/bufpool"
	"github.com/lancego/lancego/internal/fileread"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/scheduler"
	"github.com/lancego/lancego/searchcache"
)

// manifestTail is what the first read of a manifest file fetches: most
// manifests are read whole in that one request.
const manifestTail = 64 << 10

// Dataset is one version of a Lance dataset (a table): a directory or
// object-store prefix of versioned manifests listing fragments of data
// files. It is safe for concurrent use. Every read of any of its data
// files goes through one scheduler, one search cache and one request
// budget.
type Dataset struct {
	url    string // root URL as given, without trailing slash
	store  *lanceio.Store
	shared *storeRef // our reference to store, shared with the datasets of later writes
	cfg    fileread.Config
	sched  *scheduler.Scheduler
	owned  bool // the scheduler was created here
	man    *Manifest
	manKey string // key of the manifest file in store
	schema *format.Schema
	arrow  *arrow.Schema
	frags  []*dsFragment
	byID   map[uint64]int
	mu     sync.Mutex
	files  map[string]*dsFile
	cumMu  sync.Mutex
	cum    []uint64 // cum[i] = live rows before fragment i, once known
}

// dsFile is a data file opened once, on first use.
type dsFile struct {
	once  sync.Once
	f     *fileread.File
	err   error
	ready atomic.Pointer[fileread.File] // f, once opened (for Stats)
}

// dsFragment is a fragment whose full metadata is decoded on first use.
type dsFragment struct {
	ref  FragmentRef
	once sync.Once
	meta *Fragment
	err  error
}

// WithVersion makes OpenDataset open version v instead of the latest.
// Opening a given version lists nothing: it reads the manifest directly.
func WithVersion(v uint64) fileread.Option { return func(c *fileread.Config) { c.Version = v } }

// OpenDataset opens the Lance dataset rooted at url: a local path, file://,
// s3://, gs://, azblob:// or mem:// URL of the directory holding
// _versions/. It reads the latest version unless WithVersion says
// otherwise: one listing of _versions/ and one read of the manifest (two
// requests on an object store; with WithVersion, one). Options are those of
// Open; they apply to every data file of the dataset.
func OpenDataset(ctx context.Context, url string, opts ...fileread.Option) (*Dataset, error) {
	cfg := datasetConfig(opts)
	url = strings.TrimSuffix(url, "/")
	store, err := lanceio.OpenStore(ctx, url, cfg.IO)
	if err != nil {
		return nil, fmt.Errorf("lance: open dataset %s: %w", url, err)
	}
	return openDatasetOn(ctx, url, newSharedStore(store).ref(), cfg)
}

// datasetConfig applies opts to the defaults of a dataset.
func datasetConfig(opts []fileread.Option) fileread.Config {
	cfg := fileread.DefaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.IO.Stats == nil {
		cfg.IO.Stats = lanceio.NewStats()
	}
	if cfg.Mem == nil {
		cfg.Mem = bufpool.New(fileread.DefaultBufferPoolBytes)
	}
	if cfg.Cache == nil {
		cfg.Cache = searchcache.New(searchcache.Config{})
	}
	return cfg
}

// openDatasetOn opens the dataset at url through the store ref refers
// to, taking over ref (released if the open fails).
func openDatasetOn(ctx context.Context, url string, ref *storeRef, cfg fileread.Config) (*Dataset, error) {
	ds := &Dataset{url: url, store: ref.store(), shared: ref, cfg: cfg, files: map[string]*dsFile{}}
	if err := ds.open(ctx); err != nil {
		_ = ref.release()
		return nil, err
	}
	ds.sched = cfg.Sched
	if ds.sched == nil {
		sc := scheduler.ObjectStoreConfig(cfg.Limiter)
		if fileread.IsLocalURL(url) {
			sc = scheduler.LocalConfig(cfg.Limiter)
		}
		if cfg.SchedCfg != nil {
			sc = *cfg.SchedCfg
		}
		if b, ok := cfg.Mem.(scheduler.BufferAllocator); ok && sc.Buffers == nil {
			sc.Buffers = b
		}
		ds.sched, ds.owned = scheduler.New(sc), true
	}
	ds.cfg.Sched = ds.sched
	if err := ds.fixPhysicalRows(ctx); err != nil {
		_ = ds.Close()
		return nil, err
	}
	return ds, nil
}

// fixPhysicalRows counts the rows of fragments whose manifest row count
// cannot be trusted, Lance's rule: none recorded (before 0.8), or a
// manifest without a writer version (0.8.0 filled the count in with the
// live rows). It reads the first data file's metadata of each such
// fragment; datasets written since read nothing here.
func (ds *Dataset) fixPhysicalRows(ctx context.Context) error {
	trusted := ds.man.WriterLibrary != "" || ds.man.WriterVersion != ""
	for i, fr := range ds.frags {
		if trusted && fr.ref.PhysicalRows != 0 {
			continue
		}
		m, err := ds.fragment(i)
		if err != nil {
			return err
		}
		if len(m.Files) == 0 {
			continue
		}
		f, err := ds.dataFile(ctx, &m.Files[0])
		if err != nil {
			return err
		}
		n := f.NumRows()
		if n > MaxFragmentRows {
			return ds.errf(ds.man.Version, ds.manKey, fmt.Errorf("%w: fragment %d has %d rows", format.ErrCorrupt, m.ID, n))
		}
		fr.ref.PhysicalRows, m.PhysicalRows = n, n
	}
	return nil
}

// open finds and reads the manifest and builds the schema.
func (ds *Dataset) open(ctx context.Context) error {
	if err := ds.resolveTag(ctx); err != nil { // tags.go
		return err
	}
	key, v, err := ds.findManifest(ctx, ds.cfg.Version)
	if err != nil {
		return err
	}
	man, key, err := ds.readManifest(ctx, key)
	if err != nil {
		return ds.errf(v, key, err)
	}
	if man.Version != v {
		return ds.errf(v, key, fmt.Errorf("%w: manifest says version %d", format.ErrCorrupt, man.Version))
	}
	schema, err := format.BuildSchema(&filepb.Schema{Fields: man.Fields, Metadata: man.SchemaMetadata}, format.V2_1)
	if err != nil {
		return ds.errf(v, key, fmt.Errorf("schema: %w", err))
	}
	ds.man, ds.manKey, ds.schema, ds.arrow = man, key, schema, schema.ArrowSchema()
	ds.frags = make([]*dsFragment, len(man.Fragments))
	ds.byID = make(map[uint64]int, len(man.Fragments))
	for i, r := range man.Fragments {
		ds.frags[i] = &dsFragment{ref: r}
		if _, dup := ds.byID[r.ID]; !dup { // a repeated id (Lance 0.16) finds the first
			ds.byID[r.ID] = i
		}
	}
	return nil
}

// errf wraps err with the dataset, version and path it concerns.
func (ds *Dataset) errf(v uint64, key string, err error) error {
	if v == 0 {
		return fmt.Errorf("lance: dataset %s: %s: %w", ds.url, key, err)
	}
	return fmt.Errorf("lance: dataset %s version %d: %s: %w", ds.url, v, key, err)
}

// VersionInfo is one version of a dataset.
type VersionInfo struct {
	Version uint64 `json:"version"`
	// Manifest is the manifest's key under the dataset root.
	Manifest string `json:"manifest"`
	Size     int64  `json:"manifest_bytes"`
}

// listVersions lists _versions/ (one request on object stores).
func listVersions(ctx context.Context, store *lanceio.Store) ([]VersionInfo, error) {
	ents, err := store.List(ctx, VersionsDir)
	if err != nil {
		return nil, err
	}
	out := make([]VersionInfo, 0, len(ents))
	for _, e := range ents {
		v, _, ok := ParseManifestName(path.Base(e.Key))
		if ok {
			out = append(out, VersionInfo{Version: v, Manifest: e.Key, Size: e.Size})
		}
	}
	return out, nil
}

// findManifest returns the manifest key of version v (0: the latest).
func (ds *Dataset) findManifest(ctx context.Context, v uint64) (string, uint64, error) {
	if v != 0 {
		return VersionsDir + "/" + ManifestName(v, NamingV2), v, nil
	}
	vs, err := listVersions(ctx, ds.store)
	if err != nil {
		return "", 0, fmt.Errorf("lance: dataset %s: list %s: %w", ds.url, VersionsDir, err)
	}
	if len(vs) == 0 {
		return "", 0, fmt.Errorf("lance: %s: %w (no manifest under %s/)", ds.url, ErrNotDataset, VersionsDir)
	}
	best := vs[0]
	for _, x := range vs[1:] {
		if x.Version > best.Version {
			best = x
		}
	}
	return best.Manifest, best.Version, nil
}

// readManifest reads and parses a manifest file: one request when it is
// at most manifestTail bytes. A V2-named manifest that does not exist is
// looked for under its V1 name; the key returned is the one read (later
// reads of the manifest, such as its index section, use it).
func (ds *Dataset) readManifest(ctx context.Context, key string) (*Manifest, string, error) {
	obj, tail, err := ds.store.OpenTail(ctx, key, manifestTail)
	if errors.Is(err, lanceio.ErrNotFound) {
		v, n, ok := ParseManifestName(path.Base(key))
		if ok && n == NamingV2 {
			key = VersionsDir + "/" + ManifestName(v, NamingV1)
			obj, tail, err = ds.store.OpenTail(ctx, key, manifestTail)
		}
		if errors.Is(err, lanceio.ErrNotFound) {
			return nil, key, versionNotFound{err}
		}
	}
	if err != nil {
		return nil, key, err
	}
	defer obj.Close()
	size := obj.Size()
	pos, err := ManifestStart(size, tail)
	if err != nil {
		return nil, key, err
	}
	if have := size - int64(len(tail)); pos < have {
		head := make([]byte, have-pos)
		if err := obj.ReadAt(ctx, head, pos); err != nil {
			return nil, key, err
		}
		tail = append(head, tail...)
	}
	man, err := ParseManifestFile(size, tail)
	return man, key, err
}

// Versions lists the versions of the dataset, oldest first (one request
// per 1,000 versions on object stores).
func (ds *Dataset) Versions(ctx context.Context) ([]VersionInfo, error) {
	vs, err := listVersions(ctx, ds.store)
	if err != nil {
		return nil, fmt.Errorf("lance: dataset %s: list %s: %w", ds.url, VersionsDir, err)
	}
	for i := 1; i < len(vs); i++ { // insertion sort by version: names sort otherwise
		for j := i; j > 0 && vs[j].Version < vs[j-1].Version; j-- {
			vs[j], vs[j-1] = vs[j-1], vs[j]
		}
	}
	return vs, nil
}

// Close releases the dataset's files, scheduler and store.
func (ds *Dataset) Close() error {
	ds.mu.Lock()
	files := ds.files
	ds.files = map[string]*dsFile{}
	ds.mu.Unlock()
	var errs []error
	for _, e := range files {
		e.once.Do(func() { e.err = ErrClosed })
		if e.f != nil {
			errs = append(errs, e.f.Close())
		}
	}
	if ds.owned {
		errs = append(errs, ds.sched.Close())
	}
	errs = append(errs, ds.shared.release())
	return errors.Join(errs...)
}

// URL returns the dataset root.
func (ds *Dataset) URL() string { return ds.url }

// Version returns the version that was opened.
func (ds *Dataset) Version() uint64 { return ds.man.Version }

// Schema returns the dataset's Arrow schema (with Lance field metadata).
func (ds *Dataset) Schema() *arrow.Schema { return ds.arrow }

// LanceSchema returns the dataset's Lance schema (field ids, tree).
func (ds *Dataset) LanceSchema() *format.Schema { return ds.schema }

// allocator returns the allocator of output buffers.
func (ds *Dataset) allocator() memory.Allocator { return ds.cfg.Mem }

// FragmentInfo describes one fragment of the opened version.
type FragmentInfo struct {
	ID           uint64         `json:"id"`
	PhysicalRows uint64         `json:"physical_rows"`
	DeletedRows  uint64         `json:"deleted_rows"`
	DataFiles    []DataFileInfo `json:"data_files"`
	// DeletionFile is the deletion file's path under the root, if any.
	DeletionFile string `json:"deletion_file,omitempty"`
}

// DataFileInfo describes one data file of a fragment.
type DataFileInfo struct {
	Path    string  `json:"path"`
	Version string  `json:"version"` // data file format version, e.g. "2.1"
	Fields  []int32 `json:"fields"`
	Size    uint64  `json:"size_bytes,omitempty"`
}

// Fragments describes every fragment, in manifest order. It decodes each
// fragment's metadata, and reads the deletion files whose manifest entry
// does not record how many rows they delete.
func (ds *Dataset) Fragments(ctx context.Context) ([]FragmentInfo, error) {
	out := make([]FragmentInfo, len(ds.frags))
	for i := range ds.frags {
		m, err := ds.fragment(i)
		if err != nil {
			return nil, err
		}
		n, err := ds.deletedRows(ctx, i)
		if err != nil {
			return nil, err
		}
		fi := FragmentInfo{ID: m.ID, PhysicalRows: m.PhysicalRows, DeletedRows: n}
		for _, df := range m.Files {
			fi.DataFiles = append(fi.DataFiles, DataFileInfo{Path: df.Path, Fields: df.Fields, Size: df.Size,
				Version: fmt.Sprintf("%d.%d", df.Major, df.Minor)})
		}
		if m.Deletion != nil {
			fi.DeletionFile = DeletionName(m.ID, *m.Deletion)
		}
		out[i] = fi
	}
	return out, nil
}

// NumFragments returns the number of fragments of the opened version.
func (ds *Dataset) NumFragments() int { return len(ds.frags) }

// CountRows returns the number of rows of the opened version, deleted
// rows excluded. It reads only deletion files whose manifest entry does
// not record their row count (old datasets).
func (ds *Dataset) CountRows(ctx context.Context) (uint64, error) {
	cum, err := ds.offsets(ctx)
	if err != nil {
		return 0, err
	}
	return cum[len(cum)-1], nil
}

// offsets returns the live rows before each fragment, plus the total.
// A failed computation (a canceled read) is retried by the next call.
func (ds *Dataset) offsets(ctx context.Context) ([]uint64, error) {
	ds.cumMu.Lock()
	defer ds.cumMu.Unlock()
	if ds.cum != nil {
		return ds.cum, nil
	}
	cum := make([]uint64, len(ds.frags)+1)
	for i := range ds.frags {
		n, err := ds.deletedRows(ctx, i)
		if err != nil {
			return nil, err
		}
		cum[i+1] = cum[i] + ds.frags[i].ref.PhysicalRows - n
	}
	ds.cum = cum
	return cum, nil
}

// deletedRows returns how many rows fragment i has deleted.
func (ds *Dataset) deletedRows(ctx context.Context, i int) (uint64, error) {
	r := ds.frags[i].ref
	if !r.HasDeletions || r.NumDeleted != 0 {
		return r.NumDeleted, nil
	}
	del, err := ds.deletions(ctx, i)
	if err != nil {
		return 0, err
	}
	return del.GetCardinality(), nil
}

// fragment returns the full metadata of fragment i.
func (ds *Dataset) fragment(i int) (*Fragment, error) {
	fr := ds.frags[i]
	fr.once.Do(func() {
		fr.meta, fr.err = fr.ref.Decode()
		if fr.err == nil && fr.meta.ID != fr.ref.ID {
			fr.err = fmt.Errorf("%w: fragment id %d decoded as %d", format.ErrCorrupt, fr.ref.ID, fr.meta.ID)
		}
		if fr.err != nil {
			fr.err = ds.errf(ds.man.Version, ds.manKey, fr.err)
		}
	})
	return fr.meta, fr.err
}

// deletions returns the deleted rows of fragment i (nil: none), read once
// and kept in the search cache.
func (ds *Dataset) deletions(ctx context.Context, i int) (*Deletions, error) {
	m, err := ds.fragment(i)
	if err != nil || m.Deletion == nil {
		return nil, err
	}
	key := DeletionName(m.ID, *m.Deletion)
	ck := searchcache.Key{File: ds.url + "/" + key, Column: -1, Page: -1, Kind: "deletions"}
	del, err := searchcache.GetOrLoad(ctx, ds.cfg.Cache, ck, func(ctx context.Context) (*Deletions, int64, error) {
		b, err := ds.readWhole(ctx, m.Deletion.HasBase, m.Deletion.BaseID, key, MaxDeletionFileSize)
		if err != nil {
			return nil, 0, err
		}
		d, err := DecodeDeletions(b, m.Deletion.Bitmap, m.PhysicalRows)
		if err != nil {
			return nil, 0, err
		}
		return d, int64(d.GetSizeInBytes()) + 256, nil
	})
	if err != nil {
		return nil, ds.errf(ds.man.Version, key, fmt.Errorf("fragment %d: %w", m.ID, err))
	}
	if m.Deletion.NumDeleted != 0 && del.GetCardinality() != m.Deletion.NumDeleted {
		return nil, ds.errf(ds.man.Version, key, fmt.Errorf("%w: fragment %d: deletion file deletes %d rows, manifest says %d",
			format.ErrCorrupt, m.ID, del.GetCardinality(), m.Deletion.NumDeleted))
	}
	return del, nil
}

// rowIDs returns the stable row ids of fragment i, or nil when the
// dataset has none (row id = row address).
func (ds *Dataset) rowIDs(ctx context.Context, i int) (*RowIDs, error) {
	if ds.man.ReaderFlags&FlagStableRowIDs == 0 {
		return nil, nil
	}
	m, err := ds.fragment(i)
	if err != nil {
		return nil, err
	}
	ck := searchcache.Key{File: fmt.Sprintf("%s@%d", ds.url, ds.man.Version), Column: int(m.ID), Page: -1, Kind: "rowids"}
	ids, err := searchcache.GetOrLoad(ctx, ds.cfg.Cache, ck, func(ctx context.Context) (*RowIDs, int64, error) {
		raw := m.RowIDs
		if x := m.RowIDFile; x != nil {
			b, err := ds.readRange(ctx, x.Path, x.Offset, x.Size)
			if err != nil {
				return nil, 0, err
			}
			raw = b
		} else if raw == nil {
			return nil, 0, fmt.Errorf("%w: the dataset has stable row ids but fragment %d has none", format.ErrCorrupt, m.ID)
		}
		r, err := DecodeRowIDs(raw, m.PhysicalRows)
		return r, int64(len(raw))*4 + 256, err
	})
	if err != nil {
		return nil, ds.errf(ds.man.Version, ds.manKey, fmt.Errorf("fragment %d row ids: %w", m.ID, err))
	}
	return ids, nil
}

// readWhole reads a whole object under the root (or a base path), in
// one request when it is at most manifestTail bytes (a suffix read that
// also reports the size).
func (ds *Dataset) readWhole(ctx context.Context, hasBase bool, base uint32, key string, limit int64) ([]byte, error) {
	url, err := ds.fileURL(hasBase, base, key)
	if err != nil {
		return nil, err
	}
	var obj lanceio.Object
	var tail []byte
	if url == "" {
		obj, tail, err = ds.store.OpenTail(ctx, key, manifestTail)
	} else {
		obj, tail, err = lanceio.OpenTail(ctx, url, manifestTail, ds.cfg.IO)
	}
	if err != nil {
		return nil, err
	}
	defer obj.Close()
	size := obj.Size()
	if size > limit {
		return nil, fmt.Errorf("%w: %s is %d bytes, more than %d", format.ErrCorrupt, key, size, limit)
	}
	if int64(len(tail)) == size {
		return tail, nil
	}
	b := make([]byte, size-int64(len(tail)), size)
	if err := obj.ReadAt(ctx, b, 0); err != nil {
		return nil, err
	}
	return append(b, tail...), nil
}

// readRange reads size bytes at off of an object under the root.
func (ds *Dataset) readRange(ctx context.Context, key string, off, size uint64) ([]byte, error) {
	obj, err := ds.store.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer obj.Close()
	if off > uint64(obj.Size()) || size > uint64(obj.Size())-off {
		return nil, fmt.Errorf("%w: range [%d, +%d) outside %s of %d bytes", format.ErrCorrupt, off, size, key, obj.Size())
	}
	b := make([]byte, size)
	return b, obj.ReadAt(ctx, b, int64(off))
}

// fileURL returns the URL of key under base path base, or "" when the
// file is under the dataset root (read through ds.store).
func (ds *Dataset) fileURL(hasBase bool, base uint32, key string) (string, error) {
	if !hasBase {
		return "", nil
	}
	bp := ds.man.BasePaths[base]
	if bp == nil {
		return "", fmt.Errorf("%w: base path id %d is not in the manifest", format.ErrCorrupt, base)
	}
	return strings.TrimSuffix(bp.GetPath(), "/") + "/" + key, nil
}

// versionNotFound is a version whose manifest does not exist: said as
// "no such version" (the caller names the dataset, version and key), it
// matches ErrVersionNotFound and the store's not-found error.
type versionNotFound struct{ err error }

func (e versionNotFound) Error() string   { return ErrVersionNotFound.Error() }
func (e versionNotFound) Unwrap() []error { return []error{ErrVersionNotFound, e.err} }
