// Package lance reads (and writes) Lance columnar files in pure Go.
//
// Open a file with Open, then read it with Scan (batches of rows for a
// projection and row range) or Take (rows by index, in the order asked).
// Results are Apache Arrow record batches.
package lance

import (
	"context"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/layouts"
)

// Default values of reader options.
const (
	// DefaultTailSize is the size of the speculative read at the end of the
	// file that fetches the footer and metadata in one request.
	DefaultTailSize = 64 << 10
	// DefaultBatchSize is the number of rows per scan batch.
	DefaultBatchSize = 8192
)

// File is an open Lance file. It is safe for concurrent use.
type File struct {
	url    string
	src    source
	meta   *format.FileMetadata
	schema *arrow.Schema
	fields []*layouts.Field
	leaves [][]*layouts.Field // leaf fields of each top-level field
	paths  map[*layouts.Field][]*layouts.Field
	cfg    config

	mu    sync.Mutex
	pages map[[2]int]*pageState
}

// Open opens the Lance file at url (a local path or file:// URL; see
// package io for object stores). It reads the footer and metadata with one
// speculative tail read, and one more only when the metadata is larger.
func Open(ctx context.Context, url string, opts ...Option) (*File, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	src, err := openSource(ctx, url, cfg)
	if err != nil {
		return nil, err
	}
	f, err := newFile(ctx, url, src, cfg)
	if err != nil {
		src.Close()
		return nil, err
	}
	return f, nil
}

func newFile(ctx context.Context, url string, src source, cfg config) (*File, error) {
	meta, err := readMetadata(ctx, src, cfg.tailSize)
	if err != nil {
		return nil, fmt.Errorf("lance: open %s: %w", url, err)
	}
	if !meta.Version.Structural() {
		return nil, fmt.Errorf("lance: open %s: %w: file version %s (only 2.1 and later are read)", url, ErrUnsupported, meta.Version)
	}
	fields, err := decoderFields(meta.Schema)
	if err != nil {
		return nil, fmt.Errorf("lance: open %s: %w", url, err)
	}
	f := &File{url: url, src: src, meta: meta, schema: meta.Schema.ArrowSchema(), fields: fields,
		cfg: cfg, pages: map[[2]int]*pageState{}, paths: map[*layouts.Field][]*layouts.Field{}}
	for _, top := range fields {
		leaves := top.Leaves()
		f.leaves = append(f.leaves, leaves)
		for _, l := range leaves {
			f.paths[l] = top.LeafPath(l)
		}
	}
	return f, nil
}

func readMetadata(ctx context.Context, src source, tailSize uint64) (*format.FileMetadata, error) {
	size := uint64(src.Size())
	var firstErr error
	read := func(r format.Range) ([]byte, error) {
		got, err := src.Fetch(ctx, []format.Range{r}, 0)
		if err != nil {
			firstErr = err
			return nil, err
		}
		return got[0], nil
	}
	m, err := format.ReadMetadata(size, tailSize, read)
	if err != nil && firstErr != nil {
		return nil, firstErr
	}
	return m, err
}

// Close releases the file's resources.
func (f *File) Close() error { return f.src.Close() }

// Schema returns the Arrow schema of the file (with Lance field metadata).
func (f *File) Schema() *arrow.Schema { return f.schema }

// NumRows returns the number of rows in the file.
func (f *File) NumRows() uint64 { return f.meta.NumRows }

// Metadata returns the parsed file metadata: footer, version, offset
// tables, column metadata and the Lance schema.
func (f *File) Metadata() *format.FileMetadata { return f.meta }

// URL returns the location the file was opened from.
func (f *File) URL() string { return f.url }

// fetch reads byte ranges of the file.
func (f *File) fetch(ctx context.Context, ranges []format.Range, priority uint64) ([][]byte, error) {
	return f.src.Fetch(ctx, ranges, priority)
}

// page returns the initialized state of a page, initializing it once.
func (f *File) page(ctx context.Context, col, index int, leaf arrow.DataType) (*pageState, error) {
	key := [2]int{col, index}
	f.mu.Lock()
	st, ok := f.pages[key]
	f.mu.Unlock()
	if ok {
		return st, nil
	}
	st, err := f.initPage(ctx, col, index, leaf)
	if err != nil {
		return nil, fmt.Errorf("lance: %s: column %d (field %q) page %d: %w", f.url, col, f.columnName(col), index, err)
	}
	f.mu.Lock()
	f.pages[key] = st
	f.mu.Unlock()
	return st, nil
}
