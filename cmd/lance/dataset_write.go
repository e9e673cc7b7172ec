package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	lance "github.com/lancego/lancego"
)

// datasetFlags are the flags of `lance convert --dataset`.
type datasetFlags struct {
	dataset  *bool
	mode     *string
	maxRows  *int64
	maxBytes *uint64
}

func addDatasetFlags(fs *flag.FlagSet) datasetFlags {
	return datasetFlags{
		dataset: fs.Bool("dataset", false, "write a Lance dataset (a new version) at DST instead of a file"),
		mode:    fs.String("mode", "create", "with --dataset: create, append or overwrite"),
		maxRows: fs.Int64("max-rows-per-file", lance.DefaultMaxRowsPerFile, "with --dataset: rows per data file (fragment)"),
		maxBytes: fs.Uint64("max-bytes-per-file", lance.DefaultMaxBytesPerFile,
			"with --dataset: start a new data file once one has this many bytes (soft: checked after each batch)"),
	}
}

// convertDataset writes the batches of in as a new version of the
// dataset at dst.
func convertDataset(ctx context.Context, in *batchSource, dst string, f datasetFlags, fileOpts []lance.WriterOption,
	stdout, stderr io.Writer, start time.Time) error {
	prog := newProgress(stderr)
	defer prog.done()
	rdr := array.ReaderFromIter(in.schema, func(yield func(arrow.RecordBatch, error) bool) {
		for {
			rec, err := in.next(ctx)
			if err != nil {
				yield(nil, err)
				return
			}
			if rec == nil {
				return
			}
			if !yield(rec, nil) { // the reader owns rec now (it releases it on Next)
				return
			}
		}
	})
	defer rdr.Release()
	opts := []lance.DatasetWriteOption{
		lance.WithFileOptions(fileOpts...), lance.WithMaxRowsPerFile(*f.maxRows),
		lance.WithMaxBytesPerFile(*f.maxBytes),
		lance.WithWriteProgress(func(rows uint64) { prog.update(int64(rows)) }),
	}
	var ds *lance.Dataset
	var err error
	switch *f.mode {
	case "create":
		ds, err = lance.CreateDataset(ctx, dst, rdr, opts...)
	case "append", "overwrite":
		var cur *lance.Dataset
		if cur, err = lance.OpenDataset(ctx, dst); err != nil {
			return err
		}
		defer cur.Close()
		if *f.mode == "append" {
			ds, err = cur.Append(ctx, rdr, opts...)
		} else {
			ds, err = cur.Overwrite(ctx, rdr, opts...)
		}
	default:
		return fmt.Errorf("convert: --mode %q (want create, append or overwrite)", *f.mode)
	}
	if err != nil {
		return err
	}
	defer ds.Close()
	rows, err := ds.CountRows(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s version %d: %d rows in %d fragments in %.2fs\n", dst, ds.Version(), rows, ds.NumFragments(), time.Since(start).Seconds())
	return nil
}

// runDelete implements `lance delete DATASET --filter EXPR`.
func runDelete(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("delete", flag.ContinueOnError)
	fs.SetOutput(stderr)
	filter := fs.String("filter", "", "rows to delete: a SQL filter as Lance accepts it, e.g. \"id % 5 = 0 AND s = 'a'\"")
	if err := fs.Parse(splitArgs(args, nil)); err != nil {
		return err
	}
	if fs.NArg() != 1 || *filter == "" {
		return fmt.Errorf("delete needs DATASET and --filter EXPR")
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	defer ds.Close()
	before, err := ds.CountRows(ctx)
	if err != nil {
		return err
	}
	out, err := ds.Delete(ctx, *filter)
	if err != nil {
		return err
	}
	if out == ds {
		fmt.Fprintf(stdout, "no row matches; version %d unchanged\n", ds.Version())
		return nil
	}
	defer out.Close()
	after, err := out.CountRows(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "deleted %d rows: version %d has %d rows\n", before-after, out.Version(), after)
	return nil
}

// runCount implements `lance count DATASET [--version N] [--filter EXPR]`:
// it prints the number of live rows the filter selects (all without one),
// reading only the filter's columns.
func runCount(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("count", flag.ContinueOnError)
	fs.SetOutput(stderr)
	filter := fs.String("filter", "", "count only the rows a SQL filter as Lance accepts it selects, e.g. \"id % 5 = 0\"")
	version := fs.Uint64("version", 0, "dataset version to read (default the latest)")
	if err := fs.Parse(splitArgs(args, nil)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("count takes one DATASET")
	}
	e, err := parseCatFilter(*filter)
	if err != nil {
		return err
	}
	var opts []lance.Option
	if *version != 0 {
		opts = append(opts, lance.WithVersion(*version))
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0), opts...)
	if err != nil {
		return err
	}
	defer ds.Close()
	n, err := ds.CountRowsWhere(ctx, e)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, n)
	return nil
}
