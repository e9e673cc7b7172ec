package dataset

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/fileread"
	"github.com/lancego/lancego/internal/filewriter"
	lanceio "github.com/lancego/lancego/io"
)

// CommitLock is an external lock serializing commits for stores that
// cannot write conditionally (mem://, or an S3-compatible store without
// If-None-Match). Lock must exclude every other writer of the dataset
// until the returned unlock is called.
type CommitLock interface {
	Lock(ctx context.Context, version uint64) (unlock func() error, err error)
}

// Defaults of dataset writes (Lance's max_rows_per_file and
// max_bytes_per_file defaults).
const (
	DefaultMaxRowsPerFile  = 1024 * 1024
	DefaultMaxBytesPerFile = 90 << 30
	DefaultCommitRetries   = 20
)

// DatasetWriteOption configures CreateDataset, Append, Overwrite and Delete.
type DatasetWriteOption func(*dsWriteConfig) error

type dsWriteConfig struct {
	maxRows  int64
	maxBytes uint64
	file     []filewriter.Option
	open     []fileread.Option
	lock     CommitLock
	retries  int
	progress func(rows uint64)
	stable   bool
	// seedsFlag: the commit sets FlagZoneWriteSeeds (WithZoneSeedsFlag).
	seedsFlag bool
}

// WithStableRowIDs makes CreateDataset enable stable row ids (pylance's
// enable_stable_row_ids): every fragment gets a row id sequence, and
// later writes keep assigning them. Other writes follow the dataset.
func WithStableRowIDs() DatasetWriteOption {
	return func(c *dsWriteConfig) error {
		c.stable = true
		return nil
	}
}

// WithMaxRowsPerFile caps the rows of one data file (and so of one fragment).
func WithMaxRowsPerFile(n int64) DatasetWriteOption {
	return func(c *dsWriteConfig) error {
		if n <= 0 || n > MaxFragmentRows {
			return fmt.Errorf("%w: max rows per file %d", ErrInvalidArgument, n)
		}
		c.maxRows = n
		return nil
	}
}

// WithMaxBytesPerFile starts a new data file once one has sent this many
// bytes to storage (checked after each batch; the file writer sends in
// pieces of up to 1 MiB, so a file may exceed it by a piece and a batch).
func WithMaxBytesPerFile(n uint64) DatasetWriteOption {
	return func(c *dsWriteConfig) error {
		if n == 0 {
			return fmt.Errorf("%w: max bytes per file 0", ErrInvalidArgument)
		}
		c.maxBytes = n
		return nil
	}
}

// WithFileOptions passes options to the writer of every data file
// (WithFileVersion, WithZoneSeeds, WithPageBudget ...). The default file
// version is DefaultWriteVersion, what pylance 14.0.2 writes by default.
func WithFileOptions(opts ...filewriter.Option) DatasetWriteOption {
	return func(c *dsWriteConfig) error {
		c.file = append(c.file, opts...)
		return nil
	}
}

// WithOpenOptions passes options (I/O configuration, credentials) used to
// open the dataset's store and the dataset a write returns.
func WithOpenOptions(opts ...fileread.Option) DatasetWriteOption {
	return func(c *dsWriteConfig) error {
		c.open = append(c.open, opts...)
		return nil
	}
}

// WithCommitLock makes commits take lock; required on stores without
// conditional writes, optional elsewhere.
func WithCommitLock(lock CommitLock) DatasetWriteOption {
	return func(c *dsWriteConfig) error {
		c.lock = lock
		return nil
	}
}

// WithCommitRetries bounds how often a commit that lost a race is retried
// (default DefaultCommitRetries).
func WithCommitRetries(n int) DatasetWriteOption {
	return func(c *dsWriteConfig) error {
		if n < 0 {
			return fmt.Errorf("%w: commit retries %d", ErrInvalidArgument, n)
		}
		c.retries = n
		return nil
	}
}

// WithZoneSeedsFlag makes the commit set FLAG_ZONE_WRITE_SEEDS (bit 16)
// in the manifest's reader and writer feature flags, as the zone write
// seeds proposal asks of the first commit referencing version 1 seeds;
// later commits keep it (restore and clone too), even after indices are
// dropped. Clients that do not know the flag refuse the dataset:
// pylance 14.0.2 among them, so it is never set without this option,
// even when the data files carry seeds (WithZoneSeeds).
func WithZoneSeedsFlag() DatasetWriteOption {
	return func(c *dsWriteConfig) error {
		c.seedsFlag = true
		return nil
	}
}

// WithWriteProgress calls fn with the rows written so far: after each
// batch of a write, an update's or merge-insert's rewrite and each of a
// compaction's groups (whose counts start again per group), and after
// each fragment of AddColumns/AddColumnsFrom (its physical rows).
func WithWriteProgress(fn func(rows uint64)) DatasetWriteOption {
	return func(c *dsWriteConfig) error {
		c.progress = fn
		return nil
	}
}

func newWriteConfig(opts []DatasetWriteOption) (*dsWriteConfig, error) {
	c := &dsWriteConfig{maxRows: DefaultMaxRowsPerFile, maxBytes: DefaultMaxBytesPerFile, retries: DefaultCommitRetries}
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// fileVersion is the data file version the options select.
func (c *dsWriteConfig) fileVersion() (format.Version, error) {
	return filewriter.VersionOf(c.file...)
}

// openWriteStore opens the store of the dataset at url with the dataset
// configuration of c's open options, and checks that it can commit
// safely: with put-if-absent, or with a commit lock.
func openWriteStore(ctx context.Context, url string, c *dsWriteConfig) (*lanceio.Store, fileread.Config, error) {
	cfg := datasetConfig(c.open)
	store, err := lanceio.OpenStore(ctx, url, cfg.IO)
	if err != nil {
		return nil, cfg, err
	}
	if !store.CanPutIfAbsent() && c.lock == nil {
		_ = store.Close()
		return nil, cfg, fmt.Errorf("%w: %s cannot write conditionally; pass WithCommitLock to write it", ErrUnsupported, url)
	}
	return store, cfg, nil
}

// CreateDataset writes the batches of rdr as version 1 of a new dataset at
// url. It fails with ErrCommitConflict if a dataset exists there.
func CreateDataset(ctx context.Context, url string, rdr array.RecordReader, opts ...DatasetWriteOption) (*Dataset, error) {
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, err
	}
	url = strings.TrimSuffix(url, "/")
	store, cfg, err := openWriteStore(ctx, url, c)
	if err != nil {
		return nil, fmt.Errorf("lance: create dataset %s: %w", url, err)
	}
	// The returned dataset reads through the store the commit went to.
	ref := newSharedStore(store).ref()
	defer ref.release()
	if vs, err := listVersions(ctx, store); err != nil {
		return nil, fmt.Errorf("lance: create dataset %s: %w", url, err)
	} else if len(vs) > 0 {
		return nil, fmt.Errorf("lance: create dataset %s: %w: a dataset exists (version %d)", url, ErrCommitConflict, vs[len(vs)-1].Version)
	}
	v, err := writeAndCommit(ctx, store, url, c, rdr, &writeOp{kind: opCreate, stableRowIDs: c.stable})
	if err != nil {
		return nil, err
	}
	cfg.Version = v
	return openDatasetOn(ctx, url, ref.share(), cfg)
}

// Append writes the batches of rdr as new fragments and commits the next
// version. Appends never conflict: losing a race re-reads the latest
// version and retries. rdr's schema must be the dataset's (names and
// types); otherwise the result wraps ErrSchemaMismatch and nothing is
// written. The returned Dataset is the committed version; ds is unchanged.
func (ds *Dataset) Append(ctx context.Context, rdr array.RecordReader, opts ...DatasetWriteOption) (*Dataset, error) {
	if err := sameSchema(rdr.Schema(), ds.arrow); err != nil {
		return nil, fmt.Errorf("lance: append to %s: %w", ds.url, err)
	}
	return ds.write(ctx, rdr, &writeOp{kind: opAppend}, opts)
}

// Overwrite writes the batches of rdr as the whole content (and schema)
// of the next version; older versions stay readable.
func (ds *Dataset) Overwrite(ctx context.Context, rdr array.RecordReader, opts ...DatasetWriteOption) (*Dataset, error) {
	return ds.write(ctx, rdr, &writeOp{kind: opOverwrite}, opts)
}

func (ds *Dataset) write(ctx context.Context, rdr array.RecordReader, op *writeOp, opts []DatasetWriteOption) (*Dataset, error) {
	c, err := newWriteConfig(opts)
	if err != nil {
		return nil, err
	}
	if !ds.store.CanPutIfAbsent() && c.lock == nil {
		return nil, fmt.Errorf("lance: write %s: %w: the store cannot write conditionally; pass WithCommitLock", ds.url, ErrUnsupported)
	}
	if err := ds.resolveFileVersion(c, op); err != nil { // dataset_storage.go
		return nil, fmt.Errorf("lance: write %s: %w", ds.url, err)
	}
	v, err := writeAndCommit(ctx, ds.store, ds.url, c, rdr, op)
	if err != nil {
		return nil, err
	}
	return ds.reopen(ctx, v)
}

// reopen opens version v of the dataset with ds's options, through ds's
// store (the one the write committed to).
func (ds *Dataset) reopen(ctx context.Context, v uint64) (*Dataset, error) {
	cfg := ds.cfg
	if ds.owned {
		cfg.Sched = nil
	}
	cfg.Version = v
	return openDatasetOn(ctx, ds.url, ds.shared.share(), cfg)
}

// sameSchema checks that got has want's top-level names and types.
func sameSchema(got, want *arrow.Schema) error {
	if got.NumFields() != want.NumFields() {
		return fmt.Errorf("%w: %d columns, the dataset has %d", ErrSchemaMismatch, got.NumFields(), want.NumFields())
	}
	for i, f := range want.Fields() {
		g := got.Field(i)
		if g.Name != f.Name || !arrow.TypeEqual(g.Type, f.Type) {
			return fmt.Errorf("%w: column %d is %q %s, the dataset has %q %s", ErrSchemaMismatch, i, g.Name, g.Type, f.Name, f.Type)
		}
	}
	return nil
}

// writeAndCommit writes rdr's data files, then commits op; on failure the
// data files written are removed (best effort: unreferenced, they are
// garbage in any case).
func writeAndCommit(ctx context.Context, store *lanceio.Store, url string, c *dsWriteConfig, rdr array.RecordReader, op *writeOp) (uint64, error) {
	fv, err := c.fileVersion()
	if err != nil {
		return 0, err
	}
	fields, leaves, err := filewriter.SchemaFields(rdr.Schema(), fv, nil)
	if err != nil {
		return 0, fmt.Errorf("lance: write %s: %w", url, err)
	}
	op.fields, op.schemaMeta, op.dataVersion = fields, schemaMetadata(rdr.Schema()), fv.String()
	fw := newFragWriter(ctx, store, c, rdr.Schema(), fv, leaves)
	if err := fw.run(rdr); err != nil {
		fw.cleanup()
		return 0, fmt.Errorf("lance: write %s: %w", url, err)
	}
	op.frags = fw.frags
	v, err := commit(ctx, store, c, op)
	if err != nil {
		fw.cleanup()
		return 0, fmt.Errorf("lance: commit %s: %w", url, err)
	}
	return v, nil
}

// schemaMetadata converts Arrow schema metadata to the manifest form.
func schemaMetadata(s *arrow.Schema) map[string][]byte {
	md := s.Metadata()
	if md.Len() == 0 {
		return nil
	}
	out := make(map[string][]byte, md.Len())
	for i, k := range md.Keys() {
		out[k] = []byte(md.Values()[i])
	}
	return out
}

// putFile writes a whole object through a Writer (visible on Close).
func putFile(ctx context.Context, store *lanceio.Store, key string, data []byte) error {
	w, err := store.Create(ctx, key)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		_ = w.Abort()
		return err
	}
	return w.Close()
}

// sleepBackoff waits before commit attempt n (jittered exponential,
// 10 ms doubling up to 1 s).
func sleepBackoff(ctx context.Context, n int) error {
	d := 10 * time.Millisecond << min(n, 7)
	d = min(d, time.Second)
	d = d/2 + rand.N(d/2+1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
