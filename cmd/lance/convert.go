package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/csv"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	lance "github.com/lancego/lancego"
	lanceio "github.com/lancego/lancego/io"
)

// convertUsage is the usage text of `lance convert`.
const convertUsage = `  lance convert SRC DST [--version 2.1|2.2|2.3] [--from lance|ipc|parquet|csv] [--batch N]
                [--zone-seeds [--rows-per-zone N]]
                [--dataset [--mode create|append|overwrite] [--max-rows-per-file N] [--max-bytes-per-file N]]
      convert a Lance, Arrow IPC (file or stream), Parquet or CSV file into a
      Lance file (default version 2.2; 2.3 is unstable); prints a summary. --zone-seeds stores
      per-zone statistics of every column (docs/zone-seeds.md); --dataset writes
      (creates, appends to or overwrites) a Lance dataset at DST instead; an append
      or overwrite without --version writes the dataset's own version, as pylance
      does (refused for 2.0 and legacy datasets, which lance reads but does not write)
`

// readOnlyVersion reports the file versions lance reads but never writes:
// 2.0 (also called 0.3) and the legacy v1 format (0.1, "legacy").
func readOnlyVersion(v string) bool {
	switch v {
	case "2.0", "0.3", "0.1", "0.2", "legacy":
		return true
	}
	return false
}

// errUnknownFormat reports a source whose format cannot be detected.
var errUnknownFormat = errors.New("cannot detect the source format (use --from)")

// batchSource yields the record batches of a source file.
type batchSource struct {
	schema *arrow.Schema
	next   func(ctx context.Context) (arrow.RecordBatch, error) // nil batch at the end
	close  func()
}

// runConvert implements `lance convert`.
func runConvert(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", lance.DefaultWriteVersion, "Lance file version to write (2.1, 2.2 or 2.3, unstable); without it, --dataset --mode append|overwrite writes the dataset's own")
	from := fs.String("from", "", "source format: lance, ipc, parquet or csv (default: detect)")
	batch := fs.Int("batch", 64<<10, "rows per batch read from the source")
	seeds := fs.Bool("zone-seeds", false, "write zone seeds (per-zone statistics) for every column")
	rpz := fs.Uint64("rows-per-zone", 8192, "rows per zone of --zone-seeds")
	dsFlags := addDatasetFlags(fs)
	if err := fs.Parse(splitArgs(args, map[string]bool{"zone-seeds": true, "dataset": true})); err != nil {
		return err
	}
	if readOnlyVersion(*version) {
		return fmt.Errorf("convert: Lance %s files are read, not written: use --version 2.1, 2.2 or 2.3", *version)
	}
	opts := []lance.WriterOption{lance.WithObjectCreator(createObject)}
	if versionGiven(fs) || !*dsFlags.dataset || *dsFlags.mode == "create" {
		// Appends and overwrites without --version write the dataset's
		// version (Dataset.Append), as pylance does.
		opts = append(opts, lance.WithFileVersion(*version))
	}
	if o, err := zoneSeedOption(fs, *seeds, *rpz); err != nil {
		return err
	} else if o != nil {
		opts = append(opts, o)
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("convert needs SRC and DST\n%s", convertUsage)
	}
	src, dst := fs.Arg(0), fs.Arg(1)
	start := time.Now()
	in, err := openSource(ctx, src, *from, *batch)
	if err != nil {
		return err
	}
	defer in.close()
	if *dsFlags.dataset {
		return convertDataset(ctx, in, dst, dsFlags, opts[:len(opts):len(opts)], stdout, stderr, start)
	}
	w, err := lance.Create(ctx, dst, in.schema, opts...)
	if err != nil {
		return err
	}
	prog := newProgress(stderr)
	rows, err := copyBatches(ctx, in, w, prog)
	prog.done()
	if err != nil {
		w.Abort()
		return err
	}
	if err := w.Close(ctx); err != nil {
		return err
	}
	printSummary(stdout, dst, rows, w.Stats(), time.Since(start))
	return nil
}

// versionGiven reports whether the command line set --version.
func versionGiven(fs *flag.FlagSet) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "version" })
	return given
}

// createObject writes non-local URLs through package io.
func createObject(ctx context.Context, url string) (lance.ObjectWriter, error) {
	return lanceio.Create(ctx, url, lanceio.Config{})
}

// copyBatches writes every batch of in to w.
func copyBatches(ctx context.Context, in *batchSource, w *lance.Writer, prog *progress) (int64, error) {
	var rows int64
	for {
		rec, err := in.next(ctx)
		if err != nil || rec == nil {
			return rows, err
		}
		err = w.Write(ctx, rec)
		rows += rec.NumRows()
		rec.Release()
		if err != nil {
			return rows, err
		}
		prog.update(rows)
	}
}

// printSummary prints rows, bytes, seconds and the encodings chosen.
func printSummary(out io.Writer, dst string, rows int64, st lance.WriteStats, d time.Duration) {
	fmt.Fprintf(out, "wrote %s: %d rows, %d bytes, %d pages in %.2fs\n", dst, rows, st.Bytes, st.Pages, d.Seconds())
	keys := make([]string, 0, len(st.Encodings))
	for k := range st.Encodings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(out, "  %-40s %d page(s)\n", k, st.Encodings[k])
	}
}

// openSource opens src in format (detected when empty).
func openSource(ctx context.Context, src, format string, batch int) (*batchSource, error) {
	if format == "" {
		var err error
		if format, err = detectFormat(src); err != nil {
			return nil, err
		}
	}
	switch format {
	case "lance":
		return openLance(ctx, src, batch)
	case "ipc":
		return openIPC(src)
	case "parquet":
		return openParquet(ctx, src, batch)
	case "csv":
		return openCSV(src, batch)
	}
	return nil, fmt.Errorf("unknown source format %q", format)
}

// detectFormat looks at the file's magic bytes and extension.
func detectFormat(src string) (string, error) {
	path := strings.TrimPrefix(src, "file://")
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 8)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	tail := make([]byte, 4)
	if st, err := f.Stat(); err == nil && st.Size() >= 4 {
		_, _ = f.ReadAt(tail, st.Size()-4)
	}
	switch {
	case string(tail) == "LANC":
		return "lance", nil
	case bytes.HasPrefix(head, []byte("ARROW1")), bytes.HasPrefix(head, []byte{0xFF, 0xFF, 0xFF, 0xFF}):
		return "ipc", nil
	case bytes.HasPrefix(head, []byte("PAR1")):
		return "parquet", nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".tsv":
		return "csv", nil
	case ".arrow", ".arrows", ".ipc", ".feather":
		return "ipc", nil
	}
	return "", fmt.Errorf("%s: %w", src, errUnknownFormat)
}

// openLance reads a Lance file with this module's reader.
func openLance(ctx context.Context, src string, batch int) (*batchSource, error) {
	f, err := lance.Open(ctx, src)
	if err != nil {
		return nil, err
	}
	rr, err := f.Scan(ctx, lance.ScanOptions{BatchSize: batch})
	if err != nil {
		f.Close()
		return nil, err
	}
	s := readerSource(rr)
	s.close = func() { rr.Release(); f.Close() }
	return s, nil
}

// readerSource adapts an array.RecordReader.
func readerSource(rr array.RecordReader) *batchSource {
	return &batchSource{schema: rr.Schema(), close: rr.Release,
		next: func(ctx context.Context) (arrow.RecordBatch, error) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if !rr.Next() {
				return nil, rr.Err()
			}
			rec := rr.RecordBatch()
			rec.Retain()
			return rec, nil
		}}
}

// openIPC reads an Arrow IPC file or stream.
func openIPC(src string) (*batchSource, error) {
	f, err := os.Open(strings.TrimPrefix(src, "file://"))
	if err != nil {
		return nil, err
	}
	if fr, err := ipc.NewFileReader(f); err == nil {
		i := 0
		return &batchSource{schema: fr.Schema(), close: func() { fr.Close(); f.Close() },
			next: func(ctx context.Context) (arrow.RecordBatch, error) {
				if i >= fr.NumRecords() {
					return nil, ctx.Err()
				}
				rec, err := fr.RecordBatchAt(i)
				i++
				return rec, err
			}}, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	r, err := ipc.NewReader(bufio.NewReader(f))
	if err != nil {
		f.Close()
		return nil, err
	}
	s := readerSource(r)
	s.close = func() { r.Release(); f.Close() }
	return s, nil
}

// openParquet reads a Parquet file through pqarrow.
func openParquet(ctx context.Context, src string, batch int) (*batchSource, error) {
	pf, err := file.OpenParquetFile(strings.TrimPrefix(src, "file://"), false)
	if err != nil {
		return nil, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(batch)}, memory.DefaultAllocator)
	if err != nil {
		pf.Close()
		return nil, err
	}
	rr, err := fr.GetRecordReader(ctx, nil, nil)
	if err != nil {
		pf.Close()
		return nil, err
	}
	s := readerSource(rr)
	s.close = func() { rr.Release(); pf.Close() }
	return s, nil
}

// openCSV reads a CSV file with a header row, inferring column types.
func openCSV(src string, batch int) (*batchSource, error) {
	f, err := os.Open(strings.TrimPrefix(src, "file://"))
	if err != nil {
		return nil, err
	}
	r := csv.NewInferringReader(f, csv.WithHeader(true), csv.WithChunk(batch), csv.WithNullReader(true, ""))
	if !r.Next() && r.Err() != nil {
		f.Close()
		return nil, r.Err()
	}
	first := r.RecordBatch()
	if first == nil {
		f.Close()
		return nil, fmt.Errorf("%s: empty CSV file", src)
	}
	first.Retain()
	s := readerSource(r)
	pending := first
	inner := s.next
	s.schema = first.Schema()
	s.next = func(ctx context.Context) (arrow.RecordBatch, error) {
		if pending != nil {
			rec := pending
			pending = nil
			return rec, nil
		}
		return inner(ctx)
	}
	s.close = func() { r.Release(); f.Close() }
	return s, nil
}

// progress prints a progress line on stderr when it is a terminal (and
// nothing when stderr is piped or a file): "LABEL: N rows", at most five
// times a second, erased when done.
type progress struct {
	out   io.Writer
	on    bool
	label string
	mu    sync.Mutex
	last  time.Time
	// base and cur: a total that starts again (each compaction task's
	// writer counts its own rows) adds the finished count to base
	base, cur int64
}

// newProgress enables the line only for a TTY stderr.
func newProgress(w io.Writer) *progress { return newLabeledProgress(w, "converting") }

// newLabeledProgress is newProgress with the line's label.
func newLabeledProgress(w io.Writer, label string) *progress {
	f, ok := w.(*os.File)
	on := false
	if ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			on = true
		}
	}
	return &progress{out: w, on: on, label: label}
}

// update reports rows written so far by the current writer.
func (p *progress) update(rows int64) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if rows < p.cur {
		p.base += p.cur
	}
	p.cur = rows
	if time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(p.out, "\r%s: %d rows", p.label, p.base+p.cur)
}

// option reports a dataset write's rows on the line.
func (p *progress) option() lance.DatasetWriteOption {
	return lance.WithWriteProgress(func(rows uint64) { p.update(int64(rows)) })
}

func (p *progress) done() {
	if p.on {
		fmt.Fprint(p.out, "\r\033[K")
	}
}
