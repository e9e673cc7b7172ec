package lance

import (
	"context"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/internal/fileread"
	"github.com/lancego/lancego/zonestats"
)

// Default values of reader options.
const (
	// DefaultTailSize is the size of the speculative read at the end of the
	// file that fetches the footer and metadata in one request (64 KiB).
	DefaultTailSize = fileread.DefaultTailSize
	// DefaultBatchSize is the number of rows per scan batch (8,192).
	DefaultBatchSize = fileread.DefaultBatchSize
)

// File is an open Lance file (versions 2.0 to 2.3, and legacy v1 data
// files). Read it with Scan or Batches (the rows of a projection and row
// range, optionally filtered, skipping the zones its zone seeds prove
// empty) or Take (rows by index, in the order asked). All reads go through
// the file's I/O scheduler, which coalesces nearby byte ranges and bounds
// the requests in flight; Stats counts what they cost. A File is safe for
// concurrent use; Close it when done.
type File struct{ f *fileread.File }

func wrapFile(f *fileread.File) *File {
	if f == nil {
		return nil
	}
	return &File{f: f}
}

// Open opens the Lance file at url: a local path or file:// URL, or an
// object-store URL (s3://, gs://, azblob://, mem://; see package io).
// Versions 2.0 to 2.3 are read, and legacy v1 data files with the schema
// their writer embedded (see OpenLegacy to use the dataset's
// instead). It reads the footer and metadata with one speculative tail
// read, and one more only when the metadata is larger than the tail
// (WithTailSize). A missing object fails with an error wrapping
// lanceio.ErrNotFound; bytes that are not a valid Lance file with one
// wrapping ErrCorrupt.
func Open(ctx context.Context, url string, opts ...Option) (*File, error) {
	f, err := fileread.Open(ctx, url, readOpts(opts)...)
	return wrapFile(f), err
}

// OpenLegacy opens a legacy Lance data file (the v1 format, footer 0.1 or
// 0.2, e.g. written by pylance with data_storage_version="legacy"). The
// dataset's manifest holds the schema of such a file: fields are the
// dataset's schema fields this file stores (lance.file.Field, in the
// manifest's pre-order, with their ids). With nil fields the schema the
// writer embedded in the file is used (what Open does for legacy files):
// right for a file read on its own, but it predates any later schema
// evolution of the dataset. Scan and Take then read it like any
// other File, with Lance's legacy semantics: fixed-width values, lists and
// structs have no nulls (null values were stored as zeros, empty lists or
// zero-filled structs) and an empty string or binary of a nullable field
// reads as null.
func OpenLegacy(ctx context.Context, url string, fields []*filepb.Field, opts ...Option) (*File, error) {
	f, err := fileread.OpenLegacy(ctx, url, fields, readOpts(opts)...)
	return wrapFile(f), err
}

// Scan returns a RecordReader over the file's rows for opts: the
// projected columns (all when opts.Columns is empty), rows [From, To),
// BatchSize rows per batch, and only the rows the filter selects when
// opts has one. The reader uses ctx for all its reads; Release it when
// done, and Release or keep (Retain) each batch as Arrow requires.
func (f *File) Scan(ctx context.Context, opts ScanOptions) (array.RecordReader, error) {
	return f.f.Scan(ctx, opts.internal())
}

// Batches scans the file like Scan and yields the record batches in row
// order, or one error that ends the scan. The caller must Release each
// batch.
//
//	for rec, err := range f.Batches(ctx, lance.ScanOptions{Columns: []string{"id"}}) {
//		if err != nil {
//			return err
//		}
//		use(rec)
//		rec.Release()
//	}
func (f *File) Batches(ctx context.Context, opts ScanOptions) iter.Seq2[arrow.RecordBatch, error] {
	return f.f.Batches(ctx, opts.internal())
}

// PlanFilter binds the filter of opts to the file schema and returns its
// top-level conjuncts, each with whether a scan with opts applies it (see
// Conjunct and ScanOptions.PartialFilter); nil without a filter. It reads
// nothing.
func (f *File) PlanFilter(opts ScanOptions) ([]Conjunct, error) {
	cs, err := f.f.PlanFilter(opts.internal())
	return conjuncts(cs), err
}

// Take returns the rows with the given indices (0 ≤ row < NumRows), in the
// order asked, duplicates allowed, for the named top-level columns (all if
// empty). A row out of range is an error wrapping ErrInvalidArgument.
//
// With the metadata of the pages it touches cached, a take issues all its
// data requests in one wave (one round trip, see Stats.RoundTrips); else
// the missing metadata of every column first, in one wave, then the data;
// on an object store, pages small by the cost model are read whole in the
// first wave instead (one wave in all).
func (f *File) Take(ctx context.Context, rows []uint64, columns []string) (arrow.RecordBatch, error) {
	return f.f.Take(ctx, rows, columns)
}

// Schema returns the Arrow schema of the file (with Lance field metadata).
func (f *File) Schema() *arrow.Schema { return f.f.Schema() }

// NumRows returns the number of rows in the file.
func (f *File) NumRows() uint64 { return f.f.NumRows() }

// URL returns the location the file was opened from.
func (f *File) URL() string { return f.f.URL() }

// Metadata returns the parsed file metadata: footer, version, offset
// tables, column metadata and the Lance schema (see package format). It
// may be shared with other Files opened on the same object version
// (through the search cache), so callers must treat it as read-only.
func (f *File) Metadata() *format.FileMetadata { return f.f.Metadata() }

// Stats returns the file's I/O and cache counters. Requests and bytes are
// those of the file's storage statistics (shared if WithIOConfig passed a
// shared lanceio.Stats), and scheduler figures those of its scheduler.
func (f *File) Stats() Stats { return statsOf(f.f.Stats()) }

// Legacy describes a legacy v1 file's layout, or returns nil for a v2 file.
func (f *File) Legacy() *LegacyLayout { return legacyLayout(f.f.Legacy()) }

// ZoneSeeds reads and validates the zone seeds of the file (see package
// zonestats and WithZoneSeeds): every schema metadata entry
// "lance.seed.<column>" locates a global buffer holding the seed of a
// top-level column. All seed buffers are read with one request. The result
// is cached per file.
//
// seeds holds the valid seeds by column name. problems holds, by column
// name, why a seed failed validation (the error names the rule of the
// specification); such a seed is never used to prune. err is only set
// when the buffers cannot be read. The maps must not be modified.
func (f *File) ZoneSeeds(ctx context.Context) (seeds map[string]*zonestats.Seed, problems map[string]error, err error) {
	return f.f.ZoneSeeds(ctx)
}

// ZoneSummary returns the statistics of the whole file for column, merged
// from the zones of its seed (zonestats.Seed.Summary): bounds over every
// zone and summed counts. Use expr's Predicate.MayMatchStats on summaries
// of several columns to skip a whole file; for several files, combine
// their summaries with zonestats.MergeAll, or their seeds with
// zonestats.BuildZoneMap (see docs/zone-seeds.md). A column without a
// valid seed gives an error wrapping ErrNoZoneSeed (and the validation
// error, if any).
func (f *File) ZoneSummary(ctx context.Context, column string) (zonestats.Stats, error) {
	return f.f.ZoneSummary(ctx, column)
}

// Close releases the file's resources (its own scheduler and cache; shared
// ones given with WithScheduler or WithCache stay open). The File must not
// be used after Close.
func (f *File) Close() error { return f.f.Close() }
