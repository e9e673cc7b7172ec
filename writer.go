package lance

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/internal/filewriter"
)

// Writer writes one Lance 2.1/2.2/2.3 file. Create it with Create, call
// Write any number of times, then Close to commit (or Abort to discard). An
// error from any method aborts the file: nothing is left behind. A Writer
// is not safe for concurrent use. Its methods (Write, AddGlobalBuffer,
// AddSchemaMetadata, Stats, Abort, Close) are documented on
// filewriter.File; the encoding engine (shredding, layout and codec
// choice, page assembly) is internal/filewriter.
type Writer = filewriter.File

// WriteStats summarizes what a Writer wrote: rows, bytes, pages, and pages
// by structural layout and value codec.
type WriteStats = filewriter.WriteStats

// ObjectWriter is the destination of a file being written: bytes are
// published atomically by Close and discarded by Abort. The writers of
// package io (lanceio.Create) satisfy it.
type ObjectWriter = filewriter.ObjectWriter

// ObjectCreator opens an ObjectWriter for a URL that is not a local path.
type ObjectCreator = filewriter.ObjectCreator

// Create starts writing a Lance file at url with the given Arrow schema.
// Local paths and file:// URLs are written to a temporary name in the same
// folder, fsynced and renamed into place by Close; object-store URLs
// (s3://, gs://, azblob://, mem://) are uploaded with lanceio.Create and
// become visible only when Close succeeds (or use WithObjectCreator).
func Create(ctx context.Context, url string, schema *arrow.Schema, opts ...WriterOption) (*Writer, error) {
	return filewriter.Create(ctx, url, schema, opts...)
}

// WithObjectCreator routes non-local URLs (s3://, gs://, ...) to create.
// Without it they are written with lanceio.Create (multipart or streaming
// uploads that become visible only on Close).
func WithObjectCreator(create ObjectCreator) WriterOption {
	return filewriter.WithObjectCreator(create)
}
