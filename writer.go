package lance

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/internal/filewriter"
)

// Writer writes one Lance 2.1/2.2/2.3 file. Create it with Create, call
// Write any number of times, then Close to commit (or Abort to discard).
// An error from any method aborts the file: nothing is left behind. A
// Writer is not safe for concurrent use.
type Writer struct{ w *filewriter.File }

// Create starts writing a Lance file at url with the given Arrow schema.
// Local paths and file:// URLs are written to a temporary name in the same
// folder and renamed into place by Close (fsynced unless WithSync(false));
// object-store URLs (s3://, gs://, azblob://, mem://) are uploaded with
// lanceio.Create and become visible only when Close succeeds (or use
// WithObjectCreator). A schema field of a type the chosen file version
// cannot store fails with ErrUnsupportedType.
func Create(ctx context.Context, url string, schema *arrow.Schema, opts ...WriterOption) (*Writer, error) {
	w, err := filewriter.Create(ctx, url, schema, writeOpts(opts)...)
	if w == nil {
		return nil, err
	}
	return &Writer{w: w}, err
}

// Write buffers a record batch; pages are encoded and written once a
// top-level column has buffered the page budget (WithPageBudget). The
// batch's columns must have the writer schema's types, else the error
// wraps ErrSchemaMismatch. After Close or Abort it fails with
// ErrWriterClosed.
func (w *Writer) Write(ctx context.Context, rec arrow.RecordBatch) error {
	return w.w.Write(ctx, rec)
}

// AddGlobalBuffer writes a global buffer (application bytes stored in the
// file, read back through File.Metadata) and returns its index (1, 2, ...).
func (w *Writer) AddGlobalBuffer(ctx context.Context, data []byte) (uint32, error) {
	return w.w.AddGlobalBuffer(ctx, data)
}

// AddSchemaMetadata adds a schema-level metadata entry stored in the file
// (read back as metadata of File.Schema).
func (w *Writer) AddSchemaMetadata(key, value string) { w.w.AddSchemaMetadata(key, value) }

// Stats returns what has been written so far (complete after Close).
func (w *Writer) Stats() WriteStats { return writeStatsOf(w.w.Stats()) }

func writeStatsOf(s filewriter.WriteStats) WriteStats {
	return WriteStats{Rows: s.Rows, Bytes: s.Bytes, Pages: s.Pages, Encodings: s.Encodings, PeakBufferedBytes: s.PeakBufferedBytes}
}

// Abort discards the file and releases buffered data. It is safe to call
// more than once and after Close.
func (w *Writer) Abort() { w.w.Abort() }

// Close writes the remaining pages, the zone seeds, the schema, column
// metadata, offset tables and footer, and commits the file: only then is
// it visible at its URL.
func (w *Writer) Close(ctx context.Context) error { return w.w.Close(ctx) }

// WriteStats summarizes what a Writer wrote (Writer.Stats).
type WriteStats struct {
	// Rows and Bytes are the rows and file bytes written; Pages the pages.
	Rows  uint64
	Bytes uint64
	Pages int
	// Encodings counts pages by structural layout and value codec.
	Encodings map[string]int
	// PeakBufferedBytes is the most Arrow input the Writer held at once
	// (every column's buffered batches, just before a page flush): about
	// the page budget (WithPageBudget) per top-level column plus one
	// batch, however long the stream. Encoding a page needs about as much
	// again while it runs.
	PeakBufferedBytes int64
}

// ObjectWriter is the destination of a file being written: bytes are
// published atomically by Close and discarded by Abort. The writers of
// package io (lanceio.Create) satisfy it.
type ObjectWriter interface {
	io.Writer
	// Close publishes the bytes written.
	Close() error
	// Abort discards them.
	Abort() error
}

// ObjectCreator opens an ObjectWriter for a URL that is not a local path
// (see WithObjectCreator).
type ObjectCreator func(ctx context.Context, url string) (ObjectWriter, error)

// WithObjectCreator routes non-local URLs (s3://, gs://, ...) to create.
// Without it they are written with lanceio.Create (multipart or streaming
// uploads that become visible only on Close).
func WithObjectCreator(create ObjectCreator) WriterOption {
	if create == nil {
		return writeOpt(filewriter.WithObjectCreator(nil))
	}
	return writeOpt(filewriter.WithObjectCreator(func(ctx context.Context, url string) (filewriter.ObjectWriter, error) {
		w, err := create(ctx, url)
		if w == nil {
			return nil, err
		}
		return w, err
	}))
}
