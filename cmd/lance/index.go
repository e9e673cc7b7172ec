package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	lance "github.com/lancego/lancego"
)

// indexReport is one index as `lance index list --json` prints it.
type indexReport struct {
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	Columns     []string        `json:"columns"`
	Fields      []int32         `json:"fields"`
	RowsIndexed uint64          `json:"rows_indexed"`
	Fragments   []uint32        `json:"fragments"`
	Segments    []segmentReport `json:"segments"`
}

type segmentReport struct {
	UUID           string   `json:"uuid"`
	Fragments      []uint32 `json:"fragments"`
	RowsIndexed    uint64   `json:"rows_indexed"`
	DatasetVersion uint64   `json:"dataset_version"`
	IndexVersion   int32    `json:"index_version"`
	TypeURL        string   `json:"type_url"`
	CreatedAt      string   `json:"created_at,omitempty"`
	Files          []string `json:"files,omitempty"`
}

const indexUsage = `usage: lance index list DATASET [--json] [--version V]
       lance index create DATASET --column C --type btree|bitmap|label_list|zonemap|ngram|bloomfilter [--name N] [--no-replace] [--batch-size N] [--stats]
       lance index create DATASET --column C --type ivf_flat|ivf_pq|ivf_sq [--metric l2|cosine|dot] [--num-partitions N] [--num-sub-vectors N] [--num-bits 8|4] [--max-iters N] [--sample-rate N] [--seed S] [--name N] [--no-replace] [--stats]
       lance index drop DATASET NAME
       lance index optimize DATASET`

func runIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "create":
			return runIndexCreate(ctx, args[1:], stdout, stderr)
		case "drop":
			return runIndexDrop(ctx, args[1:], stdout, stderr)
		case "optimize":
			return runIndexOptimize(ctx, args[1:], stdout, stderr)
		}
	}
	if len(args) == 0 || args[0] != "list" {
		return fmt.Errorf("%s", indexUsage)
	}
	fs := flag.NewFlagSet("index list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	version := fs.Uint64("version", 0, "dataset version to read (default the latest)")
	if err := fs.Parse(splitArgs(args[1:], map[string]bool{"json": true})); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("index list takes one DATASET")
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
	reps, err := indexReports(ctx, ds)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(reps)
	}
	printIndices(stdout, reps)
	return nil
}

// indexReports describes the dataset's indices.
func indexReports(ctx context.Context, ds *lance.Dataset) ([]indexReport, error) {
	idx, err := ds.Indices(ctx)
	if err != nil {
		return nil, err
	}
	reps := make([]indexReport, 0, len(idx))
	for i := range idx {
		x := &idx[i]
		r := indexReport{Name: x.Name, Type: string(x.Type), Columns: x.Columns, Fields: x.Fields,
			RowsIndexed: x.RowsIndexed(), Fragments: nonNil(x.Fragments())}
		for _, s := range x.Segments {
			sr := segmentReport{UUID: s.UUIDString(), Fragments: nonNil(s.Fragments()), RowsIndexed: s.RowsIndexed,
				DatasetVersion: s.DatasetVersion, IndexVersion: s.IndexVersion, TypeURL: s.DetailsTypeURL}
			if s.CreatedAtMillis != 0 {
				sr.CreatedAt = time.UnixMilli(int64(s.CreatedAtMillis)).UTC().Format(time.RFC3339Nano)
			}
			for _, f := range s.Files {
				sr.Files = append(sr.Files, f.Path)
			}
			r.Segments = append(r.Segments, sr)
		}
		reps = append(reps, r)
	}
	return reps, nil
}

func nonNil(s []uint32) []uint32 {
	if s == nil {
		return []uint32{}
	}
	return s
}

// printIndices prints one line per index and one per segment.
func printIndices(out io.Writer, reps []indexReport) {
	for _, r := range reps {
		fmt.Fprintf(out, "index %s: %s on %s, %d rows indexed, fragments %v, %d segment(s)\n",
			r.Name, r.Type, strings.Join(r.Columns, ","), r.RowsIndexed, r.Fragments, len(r.Segments))
		for _, s := range r.Segments {
			fmt.Fprintf(out, "  segment %s: fragments %v, %d rows, dataset version %d, index version %d\n",
				s.UUID, s.Fragments, s.RowsIndexed, s.DatasetVersion, s.IndexVersion)
		}
	}
}

// runIndexCreate implements `lance index create`: it builds the index
// and commits it, then prints it as `index list` does.
func runIndexCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("index create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	column := fs.String("column", "", "column to index (top-level)")
	typ := fs.String("type", "", "index type: btree, bitmap, label_list (list columns), zonemap (from zone seeds where the data files carry them), ngram (strings) or bloomfilter; vectors (fixed-size lists of float32): ivf_flat, ivf_pq or ivf_sq")
	name := fs.String("name", "", "index name (default COLUMN_idx)")
	noReplace := fs.Bool("no-replace", false, "fail if an index of that name exists (default: replace it, as pylance)")
	batch := fs.Int("batch-size", 0, "BTREE rows per page (default 4096)")
	stats := fs.Bool("stats", false, "print the requests and bytes the build read")
	metric := fs.String("metric", "", "vector indices: distance l2 (default), cosine or dot")
	parts := fs.Int("num-partitions", 0, "vector indices: IVF partitions (default rows/4096 for ivf_flat, rows/8192 otherwise)")
	subVectors := fs.Int("num-sub-vectors", 0, "ivf_pq: sub-vectors, dividing the dimension (required)")
	bits := fs.Int("num-bits", 0, "ivf_pq: bits per code, 8 (default) or 4")
	iters := fs.Int("max-iters", 0, "vector indices: k-means iterations at most (default 50)")
	sampleRate := fs.Int("sample-rate", 0, "vector indices: training rows per centroid (default 256)")
	seed := fs.Uint64("seed", 0, "vector indices: seed of the training sample and k-means")
	if err := fs.Parse(splitArgs(args, map[string]bool{"no-replace": true, "stats": true})); err != nil {
		return err
	}
	if fs.NArg() != 1 || *column == "" || *typ == "" {
		return fmt.Errorf("index create needs DATASET, --column C and --type T\n%s", indexUsage)
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	defer ds.Close()
	start := time.Now()
	out, err := ds.CreateIndex(ctx, *column, lance.IndexType(strings.ToUpper(*typ)),
		lance.IndexParams{Name: *name, FailIfExists: *noReplace, BTreeBatchSize: *batch,
			Metric: *metric, NumPartitions: *parts, NumSubVectors: *subVectors, NumBits: *bits,
			MaxIters: *iters, SampleRate: *sampleRate, Seed: *seed})
	if err != nil {
		return err
	}
	defer out.Close()
	reps, err := indexReports(ctx, out)
	if err != nil {
		return err
	}
	idxName := *name
	if idxName == "" {
		idxName = *column + "_idx"
	}
	fmt.Fprintf(stdout, "created index %s in %.2fs: version %d\n", idxName, time.Since(start).Seconds(), out.Version())
	if *stats {
		st := ds.Stats()
		fmt.Fprintf(stdout, "read %d requests, %d bytes\n", st.Requests, st.BytesRead)
	}
	for _, r := range reps {
		if r.Name == idxName {
			printIndices(stdout, []indexReport{r})
		}
	}
	return nil
}

// runIndexDrop implements `lance index drop DATASET NAME`.
func runIndexDrop(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("index drop", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(splitArgs(args, nil)); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("index drop needs DATASET and NAME\n%s", indexUsage)
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	defer ds.Close()
	out, err := ds.DropIndex(ctx, fs.Arg(1))
	if err != nil {
		return err
	}
	defer out.Close()
	fmt.Fprintf(stdout, "dropped index %s: version %d\n", fs.Arg(1), out.Version())
	return nil
}

// runIndexOptimize implements `lance index optimize DATASET`: indices
// that miss fragments are rebuilt over all of them.
func runIndexOptimize(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("index optimize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(splitArgs(args, nil)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("index optimize needs DATASET\n%s", indexUsage)
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	defer ds.Close()
	out, reps, err := ds.OptimizeIndices(ctx)
	if err != nil {
		return err
	}
	if out != ds {
		defer out.Close()
	}
	for _, r := range reps {
		if r.Skipped != "" {
			fmt.Fprintf(stdout, "index %s (%s): left as it is: %s\n", r.Name, r.Type, r.Skipped)
		} else {
			fmt.Fprintf(stdout, "index %s (%s): rebuilt, now also covering fragments %v\n", r.Name, r.Type, r.Added)
		}
	}
	fmt.Fprintf(stdout, "version %d\n", out.Version())
	return nil
}
