package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/apache/arrow-go/v18/arrow"
	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/internal/plainjson"
	"github.com/lancego/lancego/internal/valuejson"
)

// plainWriter prints rows as ordinary JSON (internal/plainjson).
type plainWriter struct{ w *plainjson.Writer }

func (p *plainWriter) Write(rec arrow.RecordBatch) error             { return p.w.Write(rec) }
func (p *plainWriter) Empty(func() (arrow.RecordBatch, error)) error { return nil }
func (p *plainWriter) Close() error                                  { return p.w.Close() }

type catOptions struct {
	columns, rows, take, format string
	filter                      string // a SQL filter (zones.go: parseCatFilter)
	batch                       int
	// datasets only (dataset.go)
	version                uint64
	rowIDs                 string
	withRowID, withRowAddr bool
}

func runCat(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("cat", flag.ContinueOnError)
	var o catOptions
	fs.StringVar(&o.columns, "columns", "", "comma-separated top-level columns (default all)")
	fs.StringVar(&o.rows, "rows", "", "row range START:END (either side may be empty)")
	fs.StringVar(&o.take, "take", "", "comma-separated row indices, returned in that order")
	fs.StringVar(&o.format, "format", "table", "output format: table, csv, json (one array of row objects), jsonl (one object per line) or exact-json (exact bit patterns: floats as hex, 64-bit integers as strings)")
	fs.StringVar(&o.filter, "filter", "", "keep only the rows a SQL filter as Lance accepts it selects, e.g. \"x > 5 AND s = 'a'\"")
	fs.IntVar(&o.batch, "batch-size", lance.DefaultBatchSize, "rows per batch while scanning")
	fs.Uint64Var(&o.version, "version", 0, "dataset version to read (default the latest)")
	fs.StringVar(&o.rowIDs, "row-ids", "", "dataset: comma-separated row ids, returned in that order")
	fs.BoolVar(&o.withRowID, "with-row-id", false, "dataset: append the _rowid column")
	fs.BoolVar(&o.withRowAddr, "with-row-address", false, "dataset: append the _rowaddr column")
	stats := fs.Bool("stats", false, "write I/O statistics to stderr as one JSON object")
	width := fs.Int("max-width", defaultTableWidth, "table: cut longer values to this many characters, ending in …  (0: print them whole)")
	bools := map[string]bool{"stats": true, "with-row-id": true, "with-row-address": true}
	if err := fs.Parse(splitArgs(args, bools)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("cat takes one URL")
	}
	if (o.take != "" || o.rowIDs != "") && o.rows != "" {
		return fmt.Errorf("--take and --row-ids cannot be combined with --rows")
	}
	if o.take != "" && o.rowIDs != "" {
		return fmt.Errorf("--take cannot be combined with --row-ids")
	}
	var opts []lance.Option
	if o.version != 0 {
		opts = append(opts, lance.WithVersion(o.version))
	}
	t, err := openTarget(ctx, fs.Arg(0), opts...)
	if err != nil {
		return err
	}
	defer t.Close()
	w, err := newRowWriter(o.format, out)
	if err != nil {
		return err
	}
	if tw, ok := w.(*textWriter); ok && tw.tw != nil {
		tw.maxWidth = max(*width, 0)
	}
	if t.ds != nil {
		if *stats {
			defer writeDatasetStats(t.ds, errOut(ctx))
		}
		if err := catDataset(ctx, t.ds, o, w); err != nil {
			return err
		}
		return w.Close()
	}
	if o.version != 0 || o.rowIDs != "" || o.withRowID || o.withRowAddr {
		return fmt.Errorf("--version, --row-ids, --with-row-id and --with-row-address apply to datasets; %s is a Lance file", fs.Arg(0))
	}
	f := t.file
	if *stats {
		defer writeStats(f, errOut(ctx))
	}
	if err := readInto(ctx, f, o, w); err != nil {
		return err
	}
	return w.Close()
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func readInto(ctx context.Context, f *lance.File, o catOptions, w rowWriter) error {
	cols := splitList(o.columns)
	if o.take != "" && o.filter != "" {
		return fmt.Errorf("--take cannot be combined with --filter on a Lance file (it can on a dataset)")
	}
	if o.take != "" {
		var rows []uint64
		for _, s := range splitList(o.take) {
			r, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
			if err != nil {
				return fmt.Errorf("--take: %q is not a row index", s)
			}
			rows = append(rows, r)
		}
		rec, err := f.Take(ctx, rows, cols)
		if err != nil {
			return err
		}
		defer rec.Release()
		return w.Write(rec)
	}
	from, to, err := parseRows(o.rows, f.NumRows())
	if err != nil {
		return err
	}
	filter, err := parseCatFilter(o.filter)
	if err != nil {
		return err
	}
	wrote := 0
	for rec, err := range f.Batches(ctx, lance.ScanOptions{Columns: cols, From: from, To: to, BatchSize: o.batch, Filter: filter}) {
		if err != nil {
			return err
		}
		err = w.Write(rec)
		rec.Release()
		if err != nil {
			return err
		}
		wrote++
	}
	if wrote == 0 {
		return w.Empty(func() (arrow.RecordBatch, error) { return f.Take(context.Background(), nil, cols) })
	}
	return nil
}

func parseRows(s string, n uint64) (uint64, uint64, error) {
	if s == "" {
		return 0, n, nil
	}
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return 0, 0, fmt.Errorf("--rows wants START:END, got %q", s)
	}
	from, to := uint64(0), n
	var err error
	if a != "" {
		if from, err = strconv.ParseUint(a, 10, 64); err != nil {
			return 0, 0, fmt.Errorf("--rows: bad start %q", a)
		}
	}
	if b != "" {
		if to, err = strconv.ParseUint(b, 10, 64); err != nil {
			return 0, 0, fmt.Errorf("--rows: bad end %q", b)
		}
	}
	to = min(to, n)
	if from > to {
		from = to
	}
	return from, to, nil
}

// rowWriter prints record batches in one output format.
type rowWriter interface {
	Write(rec arrow.RecordBatch) error
	// Empty is called when no batch was written; empty returns a batch of
	// no rows with the schema of the result.
	Empty(empty func() (arrow.RecordBatch, error)) error
	Close() error
}

func newRowWriter(format string, out io.Writer) (rowWriter, error) {
	switch format {
	case "json", "jsonl":
		return &plainWriter{w: plainjson.NewWriter(out, format == "jsonl")}, nil
	case "exact-json":
		return &jsonWriter{out: out}, nil
	case "table":
		return &textWriter{tw: tabwriter.NewWriter(out, 0, 4, 2, ' ', 0), maxWidth: defaultTableWidth}, nil
	case "csv":
		return &textWriter{csv: csv.NewWriter(out)}, nil
	}
	return nil, fmt.Errorf("--format must be table, csv, json, jsonl or exact-json, not %q", format)
}

type jsonWriter struct {
	out io.Writer
	w   *valuejson.Writer
}

func (j *jsonWriter) Write(rec arrow.RecordBatch) error {
	if j.w == nil {
		j.w = valuejson.NewWriter(rec.Schema())
	}
	return j.w.Append(rec)
}

func (j *jsonWriter) Empty(empty func() (arrow.RecordBatch, error)) error {
	if j.w != nil {
		return nil
	}
	rec, err := empty()
	if err != nil {
		return err
	}
	defer rec.Release()
	return j.Write(rec)
}

func (j *jsonWriter) Close() error {
	if j.w == nil {
		return nil
	}
	_, err := j.w.WriteTo(j.out)
	return err
}

type textWriter struct {
	tw     *tabwriter.Writer
	csv    *csv.Writer
	header bool
	// maxWidth cuts table cells to this many characters (0: whole).
	maxWidth int
}

func (t *textWriter) row(cells []string) error {
	if t.csv != nil {
		return t.csv.Write(cells)
	}
	for i, c := range cells {
		cells[i] = tableCell(c, t.maxWidth)
	}
	_, err := fmt.Fprintln(t.tw, strings.Join(cells, "\t"))
	return err
}

func (t *textWriter) Write(rec arrow.RecordBatch) error {
	if !t.header {
		t.header = true
		names := make([]string, rec.NumCols())
		for i, f := range rec.Schema().Fields() {
			names[i] = f.Name
		}
		if err := t.row(names); err != nil {
			return err
		}
	}
	fns := make([]func(int) string, rec.NumCols())
	for i, c := range rec.Columns() {
		fn, err := valuejson.TextFunc(c)
		if err != nil {
			return err
		}
		nulls := c
		fns[i] = func(r int) string {
			if nulls.IsNull(r) {
				return "null"
			}
			return fn(r)
		}
	}
	cells := make([]string, len(fns))
	for r := 0; r < int(rec.NumRows()); r++ {
		for i, fn := range fns {
			cells[i] = fn(r)
		}
		if err := t.row(cells); err != nil {
			return err
		}
	}
	return nil
}

func (t *textWriter) Empty(func() (arrow.RecordBatch, error)) error { return nil }

func (t *textWriter) Close() error {
	if t.csv != nil {
		t.csv.Flush()
		return t.csv.Error()
	}
	return t.tw.Flush()
}
