package filewriter

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/internal/lerr"
	lanceio "github.com/lancego/lancego/io"
)

// File writes one Lance 2.1/2.2/2.3 file (lance.Writer). Create it with
// Create, call Write any number of times, then Close to commit (or Abort to
// discard). An error from any method aborts the file: nothing is left
// behind. A File is not safe for concurrent use.
//
// The encoding engine (shredding, layout and codec choice, page assembly)
// is Writer; File checks arguments, collects zone seeds and hands batches
// on.
type File struct {
	fw     *Writer
	schema *arrow.Schema
	zones  *ZoneSeeds // zone seed collectors (WithZoneSeeds), or nil
}

// WriteStats summarizes what a File wrote.
type WriteStats struct {
	Rows  uint64
	Bytes uint64
	Pages int
	// Encodings counts pages by structural layout and value codec.
	Encodings map[string]int
	// PeakBufferedBytes is the most Arrow input the writer held at once
	// (every column's buffered batches, just before a flush): bounded by
	// about the page budget per top-level column plus one batch.
	PeakBufferedBytes int64
}

// ObjectWriter is the destination of a file being written: bytes are
// published atomically by Close and discarded by Abort. The writers of
// package io (lanceio.Create) satisfy it.
type ObjectWriter interface {
	io.Writer
	Close() error
	Abort() error
}

// ObjectCreator opens an ObjectWriter for a URL that is not a local path.
type ObjectCreator func(ctx context.Context, url string) (ObjectWriter, error)

// WithObjectCreator routes non-local URLs (s3://, gs://, ...) to create.
// Without it they are written with lanceio.Create (multipart or streaming
// uploads that become visible only on Close).
func WithObjectCreator(create ObjectCreator) Option {
	return func(c *createConfig) error {
		c.create = create
		return nil
	}
}

// Create starts writing a Lance file at url with the given Arrow schema.
// Local paths and file:// URLs are written to a temporary name in the same
// folder, fsynced and renamed into place by Close (the folder fsynced too;
// WithSync(false) skips both fsyncs); object-store URLs
// (s3://, gs://, azblob://, mem://) are uploaded with lanceio.Create and
// become visible only when Close succeeds (or use WithObjectCreator).
func Create(ctx context.Context, url string, schema *arrow.Schema, opts ...Option) (*File, error) {
	cfg := createConfig{pageBudget: DefaultPageBudget}
	if err := WithFileVersion(DefaultWriteVersion)(&cfg); err != nil {
		return nil, err
	}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	fw, err := New(schema, Config{Version: cfg.version, PageBudget: cfg.pageBudget, Env: cfg.env})
	if err != nil {
		return nil, fmt.Errorf("lance: create %s: %w", url, err)
	}
	zones, err := NewZoneSeeds(schema, cfg.zoneSeeds)
	if err != nil {
		return nil, fmt.Errorf("lance: create %s: %w", url, err)
	}
	dst, err := openDest(ctx, url, cfg.create, cfg.createAll, cfg.noSync)
	if err != nil {
		return nil, fmt.Errorf("lance: create %s: %w", url, err)
	}
	fw.Open(dst)
	return &File{fw: fw, schema: schema, zones: zones}, nil
}

// openDest creates the destination: a temporary file in the target folder
// for local paths (lanceio.CreateLocalFile), or an ObjectWriter from create
// or lanceio.Create.
func openDest(ctx context.Context, url string, create ObjectCreator, createAll, noSync bool) (ObjectWriter, error) {
	if path, local := LocalPath(url); local && !(createAll && create != nil) {
		if noSync {
			return createUnsynced(path)
		}
		return lanceio.CreateLocalFile(path)
	}
	if create != nil {
		return create(ctx, url)
	}
	return lanceio.Create(ctx, url, lanceio.Config{})
}

// LocalPath returns the file path of a local path or file:// URL.
func LocalPath(url string) (string, bool) {
	if p, ok := strings.CutPrefix(url, "file://"); ok {
		return p, true
	}
	return url, !strings.Contains(url, "://")
}

// Write buffers a record batch; pages are encoded and written once a
// top-level column has buffered the page budget. The batch's columns must
// have the writer schema's types.
func (w *File) Write(ctx context.Context, rec arrow.RecordBatch) error {
	if w.fw.Done() {
		return lerr.ErrWriterClosed
	}
	if err := ctx.Err(); err != nil {
		w.Abort()
		return err
	}
	if err := w.checkBatch(rec); err != nil {
		w.Abort()
		return err
	}
	if rec.NumRows() == 0 {
		return nil
	}
	if err := w.zones.Append(rec); err != nil {
		w.Abort()
		return err
	}
	if err := w.fw.Buffer(ctx, rec); err != nil {
		w.Abort()
		return err
	}
	return nil
}

// checkBatch verifies the batch's column types against the schema.
func (w *File) checkBatch(rec arrow.RecordBatch) error {
	fs := w.schema.Fields()
	if int(rec.NumCols()) != len(fs) {
		return fmt.Errorf("%w: %d columns, want %d", lerr.ErrSchemaMismatch, rec.NumCols(), len(fs))
	}
	for i, f := range fs {
		if !arrow.TypeEqual(rec.Column(i).DataType(), f.Type) {
			return fmt.Errorf("%w: column %q is %s, want %s", lerr.ErrSchemaMismatch, f.Name, rec.Column(i).DataType(), f.Type)
		}
	}
	return nil
}

// AddGlobalBuffer writes a global buffer and returns its index (1, 2, ...).
func (w *File) AddGlobalBuffer(ctx context.Context, data []byte) (uint32, error) {
	if w.fw.Done() {
		return 0, lerr.ErrWriterClosed
	}
	if err := ctx.Err(); err != nil {
		w.Abort()
		return 0, err
	}
	idx, err := w.fw.AddGlobalBuffer(data)
	if err != nil {
		w.Abort()
		return 0, err
	}
	return idx, nil
}

// AddSchemaMetadata adds a schema-level metadata entry stored in the file.
func (w *File) AddSchemaMetadata(key, value string) { w.fw.AddSchemaMetadata(key, value) }

// Stats returns what has been written so far (complete after Close).
func (w *File) Stats() WriteStats {
	s := w.fw.Stats()
	return WriteStats(s)
}

// Abort discards the file and releases buffered data. It is safe to call
// more than once and after Close.
func (w *File) Abort() { w.fw.Abort() }

// Close writes the remaining pages, the zone seeds, the schema, column
// metadata, offset tables and footer, and commits the file.
func (w *File) Close(ctx context.Context) error {
	if w.fw.Done() {
		return lerr.ErrWriterClosed
	}
	if err := w.finish(ctx); err != nil {
		w.Abort()
		return err
	}
	return nil
}

// finish flushes every column, writes the zone seeds (global buffers and
// schema metadata, so before the metadata region) and then the rest.
func (w *File) finish(ctx context.Context) error {
	if err := w.fw.Flush(ctx); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	addBuffer := func(data []byte) (uint32, error) { return w.AddGlobalBuffer(ctx, data) }
	if err := w.zones.Write(w.schema, addBuffer, w.AddSchemaMetadata); err != nil {
		return err
	}
	return w.fw.Close(ctx)
}

// WriteAll writes recs to w, then globals as global buffers (in order,
// after the file's own), and closes w; on a failure w is aborted.
func WriteAll(ctx context.Context, w *File, recs []arrow.RecordBatch, globals [][]byte) error {
	err := func() error {
		for _, rec := range recs {
			if err := w.Write(ctx, rec); err != nil {
				return err
			}
		}
		for _, g := range globals {
			if _, err := w.AddGlobalBuffer(ctx, g); err != nil {
				return err
			}
		}
		return w.Close(ctx)
	}()
	if err != nil {
		w.Abort()
	}
	return err
}
