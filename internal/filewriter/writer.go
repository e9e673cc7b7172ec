// Package filewriter is lancego's Lance file writer: Create and File
// (lance.Writer: argument checks, destination, zone seeds; create.go) over
// the encoding engine Writer, which turns buffered Arrow arrays into pages
// (rep/def shredding, structural layout and codec choice, page assembly)
// and writes them and the metadata region through a Dest. The root package
// re-exports Create, File (as Writer) and the options.
package filewriter

import (
	"context"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/format/pb/filepb"
	"github.com/lancego/lancego/internal/lerr"
)

// Config holds the engine's settings (from the root package's options).
type Config struct {
	// Version is the file version written (2.1, 2.2 or 2.3).
	Version format.Version
	// PageBudget is the number of bytes of Arrow input buffered per
	// top-level column before its pages are encoded and written.
	PageBudget int64
	// Env looks up LANCE_ENCODING_DICT_* and LANCE_MINIBLOCK_MAX_VALUES
	// (nil: os.Getenv).
	Env func(string) string
}

// writerConfig is the part of Config the page encoders read.
type writerConfig struct {
	version format.Version
}

// Stats summarizes what a Writer wrote.
type Stats struct {
	Rows  uint64
	Bytes uint64
	Pages int
	// Encodings counts pages by structural layout and value codec.
	Encodings map[string]int
	// PeakBufferedBytes is the most Arrow input the Writer held at once
	// (every column's buffered batches, just before a flush): bounded by
	// about the page budget per top-level column plus one batch.
	PeakBufferedBytes int64
}

// Writer encodes and writes one file. New prepares it from the schema,
// Open gives it its destination; it is not safe for concurrent use. An
// error from any method leaves the Writer to be aborted by its caller.
type Writer struct {
	cfg     writerConfig
	budget  int64
	schema  *arrow.Schema
	fields  []*filepb.Field
	tops    [][]*wleaf // physical columns of each top-level field
	sink    *sink
	pools   *writerPools    // reusable encoding temporaries (nil once done)
	pending [][]arrow.Array // buffered input per top-level field
	pendLen []int64         // buffered bytes per top-level field
	written []uint64        // rows already paged per top-level field
	cols    []*file2pb.ColumnMetadata
	globals [][2]uint64 // (position, size) of global buffers 1..n
	meta    map[string]string
	rows    uint64
	stats   Stats
	done    bool
}

// New checks the schema and builds its field protobufs and leaf columns;
// nothing is written until Open.
func New(schema *arrow.Schema, cfg Config) (*Writer, error) {
	fields, tops, err := buildSchemaProto(schema, cfg.Version, cfg.Env)
	if err != nil {
		return nil, err
	}
	n := len(schema.Fields())
	w := &Writer{cfg: writerConfig{version: cfg.Version}, budget: cfg.PageBudget, schema: schema, fields: fields,
		tops: tops, pools: &writerPools{}, pending: make([][]arrow.Array, n), pendLen: make([]int64, n),
		written: make([]uint64, n), meta: map[string]string{}, stats: Stats{Encodings: map[string]int{}}}
	for _, leaves := range tops {
		for range leaves {
			w.cols = append(w.cols, &file2pb.ColumnMetadata{Encoding: columnEncoding()})
		}
	}
	return w, nil
}

// Open sets the destination the file is written to.
func (w *Writer) Open(d Dest) { w.sink = newSink(d) }

// Done reports that the Writer was closed or aborted.
func (w *Writer) Done() bool { return w.done }

// HasPools reports that the Writer still holds its pooled temporaries
// (for tests: Close and Abort must let go of them).
func (w *Writer) HasPools() bool { return w.pools != nil }

// Buffer buffers a checked, non-empty record batch; pages are encoded and
// written once a top-level column has buffered the page budget.
func (w *Writer) Buffer(ctx context.Context, rec arrow.RecordBatch) error {
	var full []int
	var held int64
	for i, col := range rec.Columns() {
		col.Retain()
		w.pending[i] = append(w.pending[i], col)
		w.pendLen[i] += arraySize(col)
		if w.pendLen[i] >= w.budget {
			full = append(full, i)
		}
	}
	for _, n := range w.pendLen {
		held += n
	}
	w.stats.PeakBufferedBytes = max(w.stats.PeakBufferedBytes, held)
	if err := w.flushTops(ctx, full); err != nil {
		return err
	}
	w.rows += uint64(rec.NumRows())
	return nil
}

// arraySize is the number of bytes of Arrow buffers an array references.
func arraySize(a arrow.Array) int64 {
	var n int64
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
	}
	walk(a.Data())
	return n
}

// AddGlobalBuffer writes a global buffer and returns its index (1, 2, ...).
func (w *Writer) AddGlobalBuffer(data []byte) (uint32, error) {
	pos, err := w.sink.writeAligned(data)
	if err != nil {
		return 0, err
	}
	w.globals = append(w.globals, [2]uint64{pos, uint64(len(data))})
	return uint32(len(w.globals)), nil
}

// AddSchemaMetadata adds a schema-level metadata entry stored in the file.
func (w *Writer) AddSchemaMetadata(key, value string) { w.meta[key] = value }

// Stats returns what has been written so far (complete after Close).
func (w *Writer) Stats() Stats { return w.stats }

// Abort discards the file and releases buffered data. It is safe to call
// more than once and after Close.
func (w *Writer) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.release()
	if w.sink != nil {
		w.sink.abort()
	}
}

// release drops buffered arrays and the pooled temporaries.
func (w *Writer) release() {
	for i, arrs := range w.pending {
		for _, a := range arrs {
			a.Release()
		}
		w.pending[i] = nil
	}
	w.dropPools()
}

// dropPools lets go of the pooled temporaries (no flush is under way).
func (w *Writer) dropPools() {
	w.pools.clear()
	w.pools = nil
}

// Flush encodes and writes every buffered row.
func (w *Writer) Flush(ctx context.Context) error {
	all := make([]int, len(w.pending))
	for i := range all {
		all[i] = i
	}
	return w.flushTops(ctx, all)
}

// Close writes the remaining pages, the schema, column metadata, offset
// tables and footer, and commits the file. On error the caller aborts.
func (w *Writer) Close(ctx context.Context) error {
	if w.done {
		return lerr.ErrWriterClosed
	}
	if err := w.Flush(ctx); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	gb0, err := w.fileDescriptor()
	if err != nil {
		return err
	}
	meta, err := marshalColumns(w.cols)
	if err != nil {
		return err
	}
	tail := appendMetadataRegion(w.sink.pos, gb0, meta, w.globals, w.cfg.version)
	if err := w.sink.write(tail); err != nil {
		return err
	}
	w.stats.Rows, w.stats.Bytes = w.rows, w.sink.pos
	if err := w.sink.commit(); err != nil {
		return err
	}
	w.done = true
	w.dropPools()
	return nil
}

// writePage writes a page's buffers and records it in its column.
func (w *Writer) writePage(col int, p *encodedPage, firstRow uint64) error {
	enc, err := pageEncoding(p)
	if err != nil {
		return err
	}
	pg := &file2pb.ColumnMetadata_Page{Length: p.NumRows, Encoding: enc, Priority: firstRow}
	for i, b := range p.Buffers {
		parts := [][]byte{b}
		if i < len(p.Split) && p.Split[i] != nil {
			parts = p.Split[i]
		}
		pos, size, err := w.sink.writeAlignedParts(parts)
		if err != nil {
			return err
		}
		pg.BufferOffsets = append(pg.BufferOffsets, pos)
		pg.BufferSizes = append(pg.BufferSizes, size)
	}
	w.cols[col].Pages = append(w.cols[col].Pages, pg)
	w.stats.Pages++
	w.stats.Encodings[p.Desc]++
	return nil
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
