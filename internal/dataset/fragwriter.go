package dataset

import (
	"context"
	"os"
	"runtime"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/tablepb"
	"github.com/lancego/lancego/internal/filewriter"
	lanceio "github.com/lancego/lancego/io"
)

// fragReadAhead bounds the Arrow bytes handed to data file writers but
// not yet encoded: the reader runs this far ahead of the encoders, so
// that the next data file fills while earlier ones encode and close.
const fragReadAhead = 128 << 20

// fragWriter splits a stream of batches into data files of at most
// maxRows rows / about maxBytes bytes, one fragment each. Each data file
// is written by its own goroutine from a queue of batches (at most
// max(2, GOMAXPROCS) files at once, fragReadAhead bytes queued in all),
// so data files encode in parallel; fragments keep the input's order.
// With a byte limit below the default, each batch is written before the
// next is queued (the split then depends only on the input), and only
// closes overlap the next file.
type fragWriter struct {
	ctx     context.Context // canceled when a data file or the feed fails
	cancel  context.CancelFunc
	files   *errgroup.Group
	queued  *semaphore.Weighted
	store   *lanceio.Store
	c       *dsWriteConfig
	schema  *arrow.Schema
	version format.Version
	leaves  []int32
	cur     *fragFile
	total   uint64
	frags   []*tablepb.DataFragment
	keys    []string
	opened  []*filewriter.File // every data file writer, aborted by cleanup
}

// fragFile is one data file being written by its goroutine.
type fragFile struct {
	w     *filewriter.File
	name  string
	rows  int64
	queue chan queuedBatch
	acks  chan error    // with a byte limit: one answer per queued batch
	bytes atomic.Uint64 // sent to storage so far, for maxBytes
}

// countingWriter counts the bytes sent to an ObjectWriter.
type countingWriter struct {
	filewriter.ObjectWriter
	n *atomic.Uint64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.ObjectWriter.Write(p)
	c.n.Add(uint64(n))
	return n, err
}

type queuedBatch struct {
	rec    arrow.RecordBatch
	weight int64
}

func newFragWriter(ctx context.Context, store *lanceio.Store, c *dsWriteConfig, schema *arrow.Schema, fv format.Version, leaves []int32) *fragWriter {
	ctx, cancel := context.WithCancel(ctx)
	files, gctx := errgroup.WithContext(ctx)
	files.SetLimit(max(2, runtime.GOMAXPROCS(0)))
	return &fragWriter{ctx: gctx, cancel: cancel, files: files, queued: semaphore.NewWeighted(fragReadAhead),
		store: store, c: c, schema: schema, version: fv, leaves: leaves}
}

// run writes every batch of rdr and joins the data files. When the feed
// fails by itself (the reader, a file name), the files being written are
// canceled and the feed's error returned; otherwise the first failure of
// a file (the others are its cancellation).
func (w *fragWriter) run(rdr arrowReader) error {
	defer w.cancel()
	err := w.feed(rdr)
	own := err != nil && w.ctx.Err() == nil
	if own {
		w.cancel()
	}
	if w.cur != nil { // feed failed with a file open
		close(w.cur.queue)
		w.cur = nil
	}
	ferr := w.files.Wait()
	if own {
		return err
	}
	if ferr != nil {
		return ferr
	}
	if err != nil {
		return err
	}
	kept := w.frags[:0]
	for _, f := range w.frags {
		if f.PhysicalRows > 0 {
			kept = append(kept, f)
		}
	}
	w.frags = kept
	return w.syncDataDir()
}

// syncDataDir fsyncs the local data folder once all data files are
// renamed into it, so that a committed manifest never names a file whose
// directory entry a crash could lose. Object stores need nothing.
func (w *fragWriter) syncDataDir() error {
	p, local := filewriter.LocalPath(w.store.URL(DataDir))
	if !local || len(w.keys) == 0 {
		return nil
	}
	d, err := os.Open(p)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// arrowReader is the part of array.RecordReader fragWriter uses.
type arrowReader interface {
	Next() bool
	RecordBatch() arrow.RecordBatch
	Err() error
}

func (w *fragWriter) feed(rdr arrowReader) error {
	for rdr.Next() {
		if err := w.write(rdr.RecordBatch()); err != nil {
			return err
		}
		if w.c.progress != nil {
			w.c.progress(w.total)
		}
	}
	if err := rdr.Err(); err != nil {
		return err
	}
	return w.finish()
}

// write queues rec's rows to the current data file, starting a new one
// at maxRows rows or once maxBytes bytes are written.
func (w *fragWriter) write(rec arrow.RecordBatch) error {
	n := rec.NumRows()
	weight := arraySizeOf(rec)
	for off := int64(0); off < n; {
		if w.cur == nil {
			if err := w.start(); err != nil {
				return err
			}
		}
		take := min(n-off, w.c.maxRows-w.cur.rows)
		qb := queuedBatch{weight: max(1, min(fragReadAhead, weight*take/n))}
		if err := w.queued.Acquire(w.ctx, qb.weight); err != nil {
			return err
		}
		qb.rec = rec.NewSlice(off, off+take)
		w.cur.queue <- qb
		if w.cur.acks != nil { // check the bytes of the batch written
			if err := <-w.cur.acks; err != nil {
				return err
			}
		}
		w.cur.rows += take
		w.total += uint64(take)
		off += take
		if w.cur.rows >= w.c.maxRows || w.cur.bytes.Load() >= w.c.maxBytes {
			if err := w.finish(); err != nil {
				return err
			}
		}
	}
	return nil
}

// arraySizeOf is the bytes of Arrow buffers rec references.
func arraySizeOf(rec arrow.RecordBatch) int64 {
	var n int64
	for _, col := range rec.Columns() {
		n += int64(col.Data().SizeInBytes())
	}
	return n
}

// start opens the next data file under data/ and its goroutine (waiting
// for a free slot when enough files are being written).
func (w *fragWriter) start() error {
	name, err := NewDataFileName()
	if err != nil {
		return err
	}
	key := DataDir + "/" + name
	fileURL := w.store.URL(key)
	f := &fragFile{name: name, queue: make(chan queuedBatch, 64)}
	create := func(ctx context.Context, _ string) (filewriter.ObjectWriter, error) {
		ow, err := w.store.Create(ctx, key)
		if err != nil {
			return nil, err
		}
		return &countingWriter{ObjectWriter: ow, n: &f.bytes}, nil
	}
	opts := append(append([]filewriter.Option(nil), w.c.file...), filewriter.WithObjectCreator(create),
		// data files go through the dataset's store (a temporary file
		// fsynced and renamed by Close, no folder fsync: syncDataDir does
		// that once)
		filewriter.WithLocalCreate())
	cur, err := filewriter.Create(w.ctx, fileURL, w.schema, opts...)
	if err != nil {
		return err
	}
	w.keys, w.opened, f.w = append(w.keys, key), append(w.opened, cur), cur
	if w.c.maxBytes < DefaultMaxBytesPerFile {
		f.acks = make(chan error, 1)
	}
	file := w.dataFile(name)
	w.frags = append(w.frags, &tablepb.DataFragment{Files: []*tablepb.DataFile{file}})
	frag := w.frags[len(w.frags)-1]
	w.files.Go(func() error { return w.writeFile(f, frag) }) // frag is not read before files.Wait
	w.cur = f
	return nil
}

// dataFile is the manifest entry of a data file (size set on close).
func (w *fragWriter) dataFile(name string) *tablepb.DataFile {
	cols := make([]int32, len(w.leaves))
	for i := range cols {
		cols[i] = int32(i)
	}
	return &tablepb.DataFile{
		Path: name, Fields: w.leaves, ColumnIndices: cols,
		FileMajorVersion: uint32(w.version.Major()), FileMinorVersion: uint32(w.version.Minor()),
	}
}

// writeFile writes f's queued batches, then closes it into frag. On a
// failure it drains the queue (releasing the batches) and aborts.
func (w *fragWriter) writeFile(f *fragFile, frag *tablepb.DataFragment) error {
	var err error
	var rows int64
	for qb := range f.queue {
		if err == nil {
			if err = f.w.Write(w.ctx, qb.rec); err == nil {
				rows += qb.rec.NumRows()
			}
		}
		qb.rec.Release()
		w.queued.Release(qb.weight)
		if f.acks != nil {
			f.acks <- err
		}
	}
	if err == nil && rows > 0 {
		err = f.w.Close(w.ctx)
	}
	if err != nil || rows == 0 {
		f.w.Abort()
		return err
	}
	frag.PhysicalRows = uint64(rows)
	frag.Files[0].FileSizeBytes = f.w.Stats().Bytes
	return nil
}

// finish ends the current data file: its goroutine closes it once its
// queue is written.
func (w *fragWriter) finish() error {
	if w.cur == nil {
		return nil
	}
	close(w.cur.queue)
	w.cur = nil
	return nil
}

// cleanup aborts the data files and removes those written.
func (w *fragWriter) cleanup() {
	_ = w.files.Wait()
	for _, fw := range w.opened {
		fw.Abort()
	}
	ctx := context.WithoutCancel(w.ctx)
	for _, k := range w.keys {
		_ = w.store.Delete(ctx, k)
	}
}
