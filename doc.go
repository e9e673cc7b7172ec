// Package lance reads and writes Lance columnar files and Lance datasets
// in pure Go (no cgo), byte-compatible with pylance 14.0.2. Results are
// Apache Arrow record batches (github.com/apache/arrow-go/v18).
//
// # Overview
//
// A Lance file holds the columns of a table in pages; a Lance dataset is a
// versioned table: a directory (or object-store prefix) of manifests, each
// listing the fragments (data files, deletion files) of one version.
//
//   - Files: Open returns a *File; read it with File.Scan or File.Batches
//     (the rows of a projection and row range, optionally filtered) or
//     File.Take (rows by index, in the order asked). Create returns a
//     *Writer: Write batches, then Close.
//   - Datasets: OpenDataset returns a *Dataset; read it with Dataset.Scan,
//     Dataset.Batches, Dataset.Take (positions among live rows),
//     Dataset.TakeRowIDs, Dataset.CountRows, Dataset.Nearest (vector
//     search), or plan a distributed read with Dataset.Splits, OpenSplit
//     and Dataset.ScanSplit. CreateDataset, Dataset.Append,
//     Dataset.Overwrite and Dataset.Delete commit new versions.
//   - Filters are those of package expr, the SQL dialect Lance accepts
//     ("price < 100 AND name LIKE 'a%'"): give the text in FilterSQL (or
//     VectorQuery.Filter) or an expr.Expr in Filter. Zones of rows that a
//     data file's zone seeds (WithZoneSeeds) prove empty are never read.
//
// A minimal read:
//
//	ds, err := lance.OpenDataset(ctx, "s3://bucket/tables/events.lance")
//	if err != nil {
//		return err
//	}
//	defer ds.Close()
//	for rec, err := range ds.Batches(ctx, lance.DatasetScanOptions{
//		ReadOptions: lance.ReadOptions{Columns: []string{"id", "score"}},
//		FilterSQL:   "score > 0.5",
//	}) {
//		if err != nil {
//			return err
//		}
//		process(rec)
//		rec.Release()
//	}
//
// # Opening URLs
//
// Every function taking a url accepts (see package io, lanceio):
//
//	/abs/path/t.lance, rel/path, file:///abs/path     local files and folders
//	s3://bucket/key?region=...&endpoint=...&use_path_style=true
//	gs://bucket/key                                    (STORAGE_EMULATOR_HOST honoured)
//	azblob://container/key?protocol=http&domain=...
//	mem://key                                          a fresh in-memory bucket
//
// For a file the url names the .lance file; for a dataset the directory
// holding _versions/. Credentials come from each cloud's usual environment
// (the AWS SDK's chain, GOOGLE_APPLICATION_CREDENTIALS,
// AZURE_STORAGE_ACCOUNT/AZURE_STORAGE_KEY); retries, timeouts, an HTTP
// client and shared request statistics are set with WithIOConfig. A mem://
// URL opens a new, empty bucket each time: it serves tests, and the
// Dataset that CreateDataset returns is the way to read what it wrote.
//
// Reads against object stores are planned before they are fetched: the
// footer and metadata come with one speculative tail read (WithTailSize),
// nearby byte ranges are coalesced into one request, small pages are
// fetched whole, and a take issues all its requests in one or two waves.
// File.Stats and Dataset.Stats count requests, bytes and round trips.
//
// # Options
//
// Opening takes Option values: WithTailSize, WithSmallPageSize,
// WithAllocator and NewBufferPool (output buffer reuse), WithIOConfig,
// WithScheduler, WithSchedulerConfig and WithLimiter (one I/O budget shared
// between files), WithCache (page metadata shared between opens) and, for
// datasets, WithVersion. Writing a file takes WriterOption values:
// WithFileVersion ("2.1", "2.2" — the default, DefaultWriteVersion — or
// "2.3"), WithPageBudget, WithZoneSeeds, WithSync, WithObjectCreator,
// WithEnv. Dataset writes take DatasetWriteOption values:
// WithMaxRowsPerFile, WithMaxBytesPerFile, WithFileOptions (the data
// files' WriterOptions), WithOpenOptions, WithStableRowIDs,
// WithCommitLock, WithCommitRetries, WithWriteProgress. Scans take a
// ScanOptions or DatasetScanOptions value, whose zero value reads
// everything; Dataset.Nearest takes a VectorQuery.
//
// # Errors
//
// Errors say what failed with the URL, version, column and position where
// they matter, and wrap a sentinel to test with errors.Is:
//
//	ErrNotFound            no such file, object or dataset
//	ErrNotDataset          the URL holds neither a dataset nor a Lance file
//	ErrVersionNotFound     the dataset has no such version
//	ErrCorrupt             bytes that are not valid Lance data
//	ErrUnsupported         valid Lance data this package does not read (yet)
//	ErrUnsupportedFeature  a dataset needing a reader feature flag not implemented
//	ErrInvalidArgument     a bad argument: unknown column, row out of range, bad query
//	ErrSchemaMismatch      batches whose schema is not the file's or dataset's
//	ErrUnsupportedType     an Arrow type the chosen file version cannot store
//	ErrCommitConflict      a dataset write lost a race it cannot retry
//	ErrWriterClosed        a Writer used after Close or Abort
//	ErrNoZoneSeed          a column without a valid zone seed
//
// Errors of the object store (package io: lanceio.ErrThrottled,
// lanceio.ErrPermission, ...) and context cancellation are wrapped too.
//
// # Concurrency and resources
//
// File and Dataset are safe for concurrent use: many goroutines may scan,
// take and search one of them at once, sharing its scheduler, cache and
// buffer pool. A Writer is used by one goroutine at a time. Every method
// that does I/O takes a context.Context, first; cancelling it stops the
// work and its requests, and no goroutine outlives the call (a Scan's
// RecordReader or a Batches iterator does its reads while it is
// consumed). Arrow batches are reference-counted: Release each batch a
// scan, take or search returns once done with it. Close each File and
// Dataset; Datasets returned by writes are closed on their own.
//
// # Related packages
//
// expr (filters), vector (metrics and distances), indices (index
// metadata and readers), zonestats (zone seeds), format (file metadata),
// io (object stores), scheduler and searchcache (I/O shared between
// files). The engines behind this package are internal
// (internal/fileread, internal/filewriter, internal/dataset); every type
// and method a user calls is declared and documented here.
package lance
