package lance

import (
	"context"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/format/pb/filepb"
)

// Writer writes one Lance 2.1/2.2 file. Create it with Create, call Write
// any number of times, then Close to commit (or Abort to discard). An error
// from any method aborts the file: nothing is left behind. A Writer is not
// safe for concurrent use.
type Writer struct {
	cfg     writerConfig
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
	stats   WriteStats
	done    bool
	zones   *zoneWriter // zone seed collectors (WithZoneSeeds), or nil
}

// WriteStats summarizes what a Writer wrote.
type WriteStats struct {
	Rows  uint64
	Bytes uint64
	Pages int
	// Encodings counts pages by structural layout and value codec.
	Encodings map[string]int
}

// Create starts writing a Lance file at url with the given Arrow schema.
// Local paths and file:// URLs are written to a temporary name in the same
// folder, fsynced and renamed into place by Close; object-store URLs
// (s3://, gs://, azblob://, mem://) are uploaded with lanceio.Create and
// become visible only when Close succeeds (or use WithObjectCreator).
func Create(ctx context.Context, url string, schema *arrow.Schema, opts ...WriterOption) (*Writer, error) {
	cfg := writerConfig{pageBudget: DefaultPageBudget}
	if err := WithFileVersion(DefaultWriteVersion)(&cfg); err != nil {
		return nil, err
	}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	fields, tops, err := buildSchemaProto(schema, cfg.version, cfg.env)
	if err != nil {
		return nil, fmt.Errorf("lance: create %s: %w", url, err)
	}
	zones, err := newZoneWriter(schema, cfg.zoneSeeds)
	if err != nil {
		return nil, fmt.Errorf("lance: create %s: %w", url, err)
	}
	s, err := newSink(ctx, url, cfg.create)
	if err != nil {
		return nil, fmt.Errorf("lance: create %s: %w", url, err)
	}
	n := len(schema.Fields())
	w := &Writer{cfg: cfg, schema: schema, fields: fields, tops: tops, sink: s, pools: &writerPools{},
		pending: make([][]arrow.Array, n), pendLen: make([]int64, n), written: make([]uint64, n),
		meta: map[string]string{}, stats: WriteStats{Encodings: map[string]int{}}, zones: zones}
	for _, leaves := range tops {
		for range leaves {
			w.cols = append(w.cols, &file2pb.ColumnMetadata{Encoding: columnEncoding()})
		}
	}
	return w, nil
}

// Write buffers a record batch; pages are encoded and written once a
// top-level column has buffered the page budget. The batch's columns must
// have the writer schema's types.
func (w *Writer) Write(ctx context.Context, rec arrow.RecordBatch) error {
	if w.done {
		return ErrWriterClosed
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
	if err := w.zones.append(rec); err != nil {
		w.Abort()
		return err
	}
	var full []int
	for i, col := range rec.Columns() {
		col.Retain()
		w.pending[i] = append(w.pending[i], col)
		w.pendLen[i] += arraySize(col)
		if w.pendLen[i] >= w.cfg.pageBudget {
			full = append(full, i)
		}
	}
	if err := w.flushTops(ctx, full); err != nil {
		w.Abort()
		return err
	}
	w.rows += uint64(rec.NumRows())
	return nil
}

// checkBatch verifies the batch's column types against the schema.
func (w *Writer) checkBatch(rec arrow.RecordBatch) error {
	fs := w.schema.Fields()
	if int(rec.NumCols()) != len(fs) {
		return fmt.Errorf("%w: %d columns, want %d", ErrSchemaMismatch, rec.NumCols(), len(fs))
	}
	for i, f := range fs {
		if !arrow.TypeEqual(rec.Column(i).DataType(), f.Type) {
			return fmt.Errorf("%w: column %q is %s, want %s", ErrSchemaMismatch, f.Name, rec.Column(i).DataType(), f.Type)
		}
	}
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
func (w *Writer) AddGlobalBuffer(ctx context.Context, data []byte) (uint32, error) {
	if w.done {
		return 0, ErrWriterClosed
	}
	if err := ctx.Err(); err != nil {
		w.Abort()
		return 0, err
	}
	pos, err := w.sink.writeAligned(data)
	if err != nil {
		w.Abort()
		return 0, err
	}
	w.globals = append(w.globals, [2]uint64{pos, uint64(len(data))})
	return uint32(len(w.globals)), nil
}

// AddSchemaMetadata adds a schema-level metadata entry stored in the file.
func (w *Writer) AddSchemaMetadata(key, value string) { w.meta[key] = value }

// Stats returns what has been written so far (complete after Close).
func (w *Writer) Stats() WriteStats { return w.stats }

// Abort discards the file and releases buffered data. It is safe to call
// more than once and after Close.
func (w *Writer) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.release()
	w.sink.abort()
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

// Close writes the remaining pages, the schema, column metadata, offset
// tables and footer, and commits the file.
func (w *Writer) Close(ctx context.Context) error {
	if w.done {
		return ErrWriterClosed
	}
	err := w.finish(ctx)
	if err != nil {
		w.Abort()
		return err
	}
	w.done = true
	w.dropPools()
	return nil
}

// finish flushes every column and writes the metadata region.
func (w *Writer) finish(ctx context.Context) error {
	all := make([]int, len(w.pending))
	for i := range all {
		all[i] = i
	}
	if err := w.flushTops(ctx, all); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := w.writeZoneSeeds(ctx); err != nil {
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
	return w.sink.commit()
}

// writePage writes a page's buffers and records it in its column.
func (w *Writer) writePage(col int, p *encodedPage, firstRow uint64) error {
	enc, err := pageEncoding(p.layout)
	if err != nil {
		return err
	}
	pg := &file2pb.ColumnMetadata_Page{Length: p.numRows, Encoding: enc, Priority: firstRow}
	for i, b := range p.buffers {
		parts := [][]byte{b}
		if i < len(p.split) && p.split[i] != nil {
			parts = p.split[i]
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
	w.stats.Encodings[p.desc]++
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
