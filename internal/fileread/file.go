// Package fileread is lancego's Lance file reader (lance.File): opening a
// file (one speculative tail read), the 2.1-2.3 read path (page state in
// the search cache, byte-range planning, fetch through the scheduler,
// decode with layouts and codecs, Arrow assembly), pipelined scans with
// read-ahead, takes, filtered scans pruned by zone seeds, blobs, and the
// 2.0 and legacy (v1) read paths. The root package re-exports File,
// Open, the options and Stats; internal/dataset opens a dataset's data
// files through OpenObject and reads them with TakeFields and
// SurvivingRows.
package fileread

import (
	"context"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/internal/bufpool"
	lanceio "github.com/lancego/lancego/io"
	"github.com/lancego/lancego/layouts"
	"github.com/lancego/lancego/scheduler"
	"github.com/lancego/lancego/searchcache"
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
	cfg    Config
	cache  *searchcache.Cache
	stats  fileCounters
	// v20 is set for 2.0 files, which take their own read path (v20read.go).
	v20 *v20File
	// legacy is set for legacy v1 files (legacy.go, OpenLegacy).
	legacy *legacyFile
	// pieceBufs keeps the piece lists of finished reads (*[]piece) for
	// later ones: a 10,000-row take plans 10,000 pieces (1.3 MB), which
	// otherwise made the collector run every other take.
	pieceBufs sync.Pool
	// gatherRows keeps the row lists of finished takes (*[]uint64): the
	// rows their pieces gather from mini-block chunks (take_gather.go).
	gatherRows sync.Pool
	// takeRanges keeps the row ranges of finished takes (*[]RowRange).
	takeRanges sync.Pool
}

// Open opens the Lance file at url: a local path or file:// URL, or an
// object-store URL (s3://, gs://, azblob://, mem://; see package io).
// Versions 2.0 to 2.3 are read, and legacy v1 data files with the schema
// their writer embedded (see OpenLegacy to use the dataset's instead). It
// reads the footer and metadata with one speculative tail read, and one more
// only when the metadata is larger than the tail.
func Open(ctx context.Context, url string, opts ...Option) (*File, error) {
	ctx, end := scheduler.Track(ctx)
	defer end()
	cfg := DefaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.IO.Stats == nil {
		cfg.IO.Stats = lanceio.NewStats()
	}
	if cfg.Mem == nil { // before the scheduler, which takes read buffers from it
		cfg.Mem = bufpool.New(DefaultBufferPoolBytes)
	}
	src, tail, err := openSource(ctx, url, &cfg)
	if err != nil {
		return nil, err
	}
	f, err := openFromTail(ctx, url, withTail(src, tail), tail, cfg)
	if err != nil {
		src.Close()
		return nil, err
	}
	return f, nil
}

// newFile opens a file from a source without a prefetched tail.
func newFile(ctx context.Context, url string, src source, cfg Config) (*File, error) {
	return newFileFromTail(ctx, url, src, nil, cfg)
}

func newFileFromTail(ctx context.Context, url string, src source, tail []byte, cfg Config) (*File, error) {
	if cfg.Mem == nil {
		cfg.Mem = bufpool.New(DefaultBufferPoolBytes)
	}
	if cfg.Cache == nil {
		cfg.Cache = searchcache.New(searchcache.Config{})
	}
	// The parsed metadata is immutable, so files opened on the same
	// version of an object share it through the search cache.
	key := searchcache.Key{File: src.Key(), Column: -1, Page: -1, Kind: "file"}
	meta, err := searchcache.GetOrLoad(ctx, cfg.Cache, key, func(ctx context.Context) (*format.FileMetadata, int64, error) {
		m, err := readMetadata(ctx, src, tail, cfg.TailSize)
		if err != nil {
			return nil, 0, err
		}
		return m, int64(m.MetadataRange().Length) + 4096, nil
	})
	if err != nil {
		return nil, fmt.Errorf("lance: open %s: %w", url, err)
	}
	var v2 *v20File
	var fields []*layouts.Field
	switch {
	case meta.Version == format.V2_0:
		fields, v2, err = openV20(meta)
	case !meta.Version.Structural():
		return nil, fmt.Errorf("lance: open %s: %w: file version %s", url, ErrUnsupported, meta.Version)
	default:
		fields, err = layouts.FieldsFromSchema(meta.Schema)
	}
	if err != nil {
		return nil, fmt.Errorf("lance: open %s: %w", url, err)
	}
	f := &File{url: url, src: src, meta: meta, schema: meta.Schema.ArrowSchema(), fields: fields,
		cfg: cfg, cache: cfg.Cache, paths: map[*layouts.Field][]*layouts.Field{}, v20: v2}
	for _, top := range fields {
		leaves := top.Leaves()
		f.leaves = append(f.leaves, leaves)
		for _, l := range leaves {
			f.paths[l] = top.LeafPath(l)
		}
	}
	return f, nil
}

// readMetadata parses the metadata from tail (the file's last bytes, if
// already read) plus at most a few more reads of missing prefixes.
func readMetadata(ctx context.Context, src source, tail []byte, tailSize uint64) (*format.FileMetadata, error) {
	size := uint64(src.Size())
	if tail == nil {
		n := min(tailSize, size)
		got, err := src.Fetch(ctx, []format.Range{{Offset: size - n, Length: n}}, 0)
		if err != nil {
			return nil, err
		}
		tail = got[0]
	}
	for range 4 {
		m, need, err := format.ParseTail(size, tail)
		if err != nil || need == nil {
			return m, err
		}
		got, err := src.Fetch(ctx, []format.Range{*need}, 0)
		if err != nil {
			return nil, err
		}
		tail = append(got[0], tail...)
	}
	return nil, fmt.Errorf("%w: metadata not found after 5 reads", format.ErrCorrupt)
}

// Close releases the file's resources.
func (f *File) Close() error { return f.src.Close() }

// Schema returns the Arrow schema of the file (with Lance field metadata).
func (f *File) Schema() *arrow.Schema { return f.schema }

// NumRows returns the number of rows in the file.
func (f *File) NumRows() uint64 { return f.meta.NumRows }

// Metadata returns the parsed file metadata: footer, version, offset
// tables, column metadata and the Lance schema. It may be shared with other
// Files opened on the same object version (through the search cache), so
// callers must treat it as read-only.
func (f *File) Metadata() *format.FileMetadata { return f.meta }

// URL returns the location the file was opened from.
func (f *File) URL() string { return f.url }

// fetch reads byte ranges of the file.
func (f *File) fetch(ctx context.Context, ranges []format.Range, priority uint64) ([][]byte, error) {
	return f.src.Fetch(ctx, ranges, priority)
}

// page returns the initialized state of a page from the search cache,
// initializing it once (concurrent callers share one load).
func (f *File) page(ctx context.Context, col, index int, leaf arrow.DataType) (*pageState, error) {
	key := searchcache.Key{File: f.src.Key(), Column: col, Page: index, Kind: "page"}
	loaded := false
	st, err := searchcache.GetOrLoad(ctx, f.cache, key, func(ctx context.Context) (*pageState, int64, error) {
		loaded = true
		st, err := f.initPage(ctx, col, index, leaf)
		if err != nil {
			return nil, 0, err
		}
		return st, st.size + 1024, nil
	})
	if loaded {
		f.stats.cacheMisses.Add(1)
	} else if err == nil {
		f.stats.cacheHits.Add(1)
	}
	if err != nil {
		return nil, fmt.Errorf("lance: %s: column %d (field %q) page %d: %w", f.url, col, f.columnName(col), index, err)
	}
	return st, nil
}
