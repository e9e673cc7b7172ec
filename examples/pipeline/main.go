// Command pipeline ingests and maintains a Lance table with lancego: it
// creates a dataset from a generated stream of record batches
// (lance.CreateDataset with an array.RecordReader), appends more batches
// as new versions, deletes rows with a SQL filter, lists the versions the
// writes committed (Dataset.Versions), and reads the table back, the
// latest version and the first one (time travel with lance.WithVersion).
//
//	go run ./examples/pipeline -dir /tmp/pipeline -rows 1000 -batches 3 -appends 2 -delete 'id % 7 = 0'
//
// Every write returns the version it committed and leaves the Dataset it
// was called on as it was, so a pipeline holds the newest Dataset and
// closes the ones it replaces. The dataset is an ordinary Lance table:
// pylance reads it (lance.dataset(path).to_table()).
//
// Merge-insert (upsert) and compaction are not implemented by lancego yet,
// so this pipeline does not show them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	lance "github.com/lancego/lancego"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pipeline:", err)
		os.Exit(1)
	}
}

// config is the pipeline's command line.
type config struct {
	dir          string // folder that receives the dataset
	rows         int    // rows per generated batch
	batches      int    // batches of the create step
	appends      int    // append steps, one batch each
	deleteFilter string // SQL filter of the delete step ("" skips it)
	rowsPerFile  int64  // rows per data file (and fragment)
}

// parseFlags reads the command line into a config.
func parseFlags(args []string, out io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("pipeline", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&c.dir, "dir", "", "folder that receives the dataset pipeline.lance (default: a temporary folder, removed at the end)")
	fs.IntVar(&c.rows, "rows", 1000, "rows per generated batch")
	fs.IntVar(&c.batches, "batches", 3, "batches written by the create step")
	fs.IntVar(&c.appends, "appends", 2, "append steps, one batch each")
	fs.StringVar(&c.deleteFilter, "delete", "id % 7 = 0", "SQL filter of the rows the delete step removes (empty: no delete)")
	fs.Int64Var(&c.rowsPerFile, "rows-per-file", 0, "rows per data file, so per fragment (0: lance.DefaultMaxRowsPerFile)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if c.rows < 1 || c.batches < 1 || c.appends < 0 {
		return c, errors.New("-rows and -batches must be at least 1, -appends at least 0")
	}
	return c, nil
}

// run runs the pipeline the arguments describe and prints each step to
// out.
func run(ctx context.Context, args []string, out io.Writer) (err error) {
	c, err := parseFlags(args, out)
	if err != nil {
		return err
	}
	if c.dir == "" {
		tmp, err := os.MkdirTemp("", "lance-pipeline-")
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, os.RemoveAll(tmp)) }()
		c.dir = tmp
	}
	return pipeline(ctx, c, filepath.Join(c.dir, "pipeline.lance"), out)
}

// pipeline creates the dataset at url, appends, deletes, lists the
// versions and reads the table back.
func pipeline(ctx context.Context, c config, url string, out io.Writer) (err error) {
	var writeOpts []lance.DatasetWriteOption
	if c.rowsPerFile > 0 {
		writeOpts = append(writeOpts, lance.WithMaxRowsPerFile(c.rowsPerFile))
	}
	mem := memory.NewGoAllocator()
	next := int64(0) // the id of the next generated row

	// 1. create: version 1 from a stream of generated batches.
	rdr := array.ReaderFromIter(schema, generate(ctx, mem, next, c.rows, c.batches))
	ds, err := lance.CreateDataset(ctx, url, rdr, writeOpts...)
	rdr.Release()
	if err != nil {
		return fmt.Errorf("create %s: %w", url, err)
	}
	defer func() { err = errors.Join(err, ds.Close()) }()
	next += int64(c.rows * c.batches)
	if err := report(ctx, out, "create", ds); err != nil {
		return err
	}

	// 2. append: each step commits one more version.
	for i := 0; i < c.appends; i++ {
		rdr := array.ReaderFromIter(schema, generate(ctx, mem, next, c.rows, 1))
		appended, err := ds.Append(ctx, rdr, writeOpts...)
		rdr.Release()
		if err != nil {
			return fmt.Errorf("append %d: %w", i+1, err)
		}
		next += int64(c.rows)
		if ds, err = replace(ds, appended); err != nil {
			return err
		}
		if err := report(ctx, out, "append", ds); err != nil {
			return err
		}
	}

	// 3. delete: rows by SQL filter (no new version when nothing matches).
	if c.deleteFilter != "" {
		deleted, err := ds.Delete(ctx, c.deleteFilter)
		if err != nil {
			return fmt.Errorf("delete where %s: %w", c.deleteFilter, err)
		}
		if ds, err = replace(ds, deleted); err != nil {
			return err
		}
		if err := report(ctx, out, "delete", ds); err != nil {
			return err
		}
	}

	// 4. versions, and 5. read back the latest and the first version.
	if err := printVersions(ctx, out, ds); err != nil {
		return err
	}
	if err := readBack(ctx, out, "latest", ds); err != nil {
		return err
	}
	first, err := lance.OpenDataset(ctx, url, lance.WithVersion(1))
	if err != nil {
		return fmt.Errorf("open version 1: %w", err)
	}
	defer func() { err = errors.Join(err, first.Close()) }()
	return readBack(ctx, out, "version 1", first)
}

// replace closes old when a write returned another Dataset and returns the
// new one. (A delete that matches nothing returns its receiver.)
func replace(old, next *lance.Dataset) (*lance.Dataset, error) {
	if next == old {
		return next, nil
	}
	if err := old.Close(); err != nil {
		_ = next.Close()
		return nil, err
	}
	return next, nil
}

// report prints a step's version, fragments and live rows.
func report(ctx context.Context, out io.Writer, step string, ds *lance.Dataset) error {
	n, err := ds.CountRows(ctx)
	if err != nil {
		return fmt.Errorf("%s: count rows: %w", step, err)
	}
	_, err = fmt.Fprintf(out, "%-8s version %d: %d rows in %d fragments\n", step, ds.Version(), n, ds.NumFragments())
	return err
}

// printVersions lists the dataset's versions.
func printVersions(ctx context.Context, out io.Writer, ds *lance.Dataset) error {
	vs, err := ds.Versions(ctx)
	if err != nil {
		return fmt.Errorf("list versions: %w", err)
	}
	fmt.Fprintf(out, "versions:")
	for _, v := range vs {
		fmt.Fprintf(out, " %d", v.Version)
	}
	_, err = fmt.Fprintln(out)
	return err
}

// readBack scans the id and amount columns of ds and prints the rows, the
// smallest and largest id and the sum of the amounts.
func readBack(ctx context.Context, out io.Writer, name string, ds *lance.Dataset) error {
	o := lance.DatasetScanOptions{ReadOptions: lance.ReadOptions{Columns: []string{"id", "amount"}}}
	var rows, minID, maxID int64
	var sum float64
	for rec, err := range ds.Batches(ctx, o) {
		if err != nil {
			return fmt.Errorf("read back %s: %w", name, err)
		}
		ids := rec.Column(0).(*array.Int64)
		amounts := rec.Column(1).(*array.Float64)
		for i := 0; i < ids.Len(); i++ {
			id := ids.Value(i)
			if rows == 0 || id < minID {
				minID = id
			}
			if rows == 0 || id > maxID {
				maxID = id
			}
			rows++
			sum += amounts.Value(i)
		}
		rec.Release()
	}
	_, err := fmt.Fprintf(out, "read %s (version %d): %d rows, ids %d..%d, amount sum %.2f\n",
		name, ds.Version(), rows, minID, maxID, sum)
	return err
}

// schema is the generated table: an id, a category and an amount.
var schema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "category", Type: arrow.BinaryTypes.String},
	{Name: "amount", Type: arrow.PrimitiveTypes.Float64},
}, nil)

// categories are the values of the category column, by id modulo 3.
var categories = [...]string{"books", "games", "music"}

// generate yields n batches of rows rows each, ids from first on: the
// stream an ingest job would read from a queue or a file. The consumer
// owns (and releases) each batch.
func generate(ctx context.Context, mem memory.Allocator, first int64, rows, n int) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		for b := 0; b < n; b++ {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			if !yield(batch(mem, first+int64(b*rows), rows), nil) {
				return
			}
		}
	}
}

// batch builds rows rows with ids from first on: category by id modulo 3,
// amount id / 4.
func batch(mem memory.Allocator, first int64, rows int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	ids := b.Field(0).(*array.Int64Builder)
	cats := b.Field(1).(*array.StringBuilder)
	amounts := b.Field(2).(*array.Float64Builder)
	for i := int64(0); i < int64(rows); i++ {
		id := first + i
		ids.Append(id)
		cats.Append(categories[id%3])
		amounts.Append(float64(id) / 4)
	}
	return b.NewRecordBatch()
}
