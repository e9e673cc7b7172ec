// Command lance inspects and reads Lance files and datasets.
//
//	lance inspect URL [--json] [--zones]
//	lance cat URL [--columns a,b] [--rows START:END] [--take 5,1,9] [--filter EXPR] [--format json|table|csv]
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	lance "github.com/lancego/lancego"
)

const usage = `usage:
  lance inspect URL [--json]
      version, rows, schema, and every page of every column with its layout,
      codecs, rows and byte sizes; --zones prints the zone seeds of each column
      instead ({"zones": {...}} with --json)
  lance cat URL [--columns a,b] [--rows START:END] [--take 5,1,9] [--filter EXPR] [--format json|table|csv]
      print rows; json prints {"num_rows": N, "columns": {...}} in the corpus
      value conventions; --filter "x > 5 AND s = 'a'" (a SQL filter as Lance accepts it)
      keeps matching rows, skipping zones the file's zone seeds prove empty
  lance inspect DATASET [--json] [--versions] [--version N]
      a dataset (directory or prefix with _versions/): version, rows after deletions,
      schema, fragments with data files and deleted rows; --versions lists versions
  lance cat DATASET [--version N] [--columns a,b] [--filter EXPR] [--rows START:END]
            [--take 5,1,9] [--row-ids 4294967296,7] [--with-row-id] [--with-row-address]
      rows of a dataset version; --take are dataset offsets, --row-ids row ids; _rowid
      and _rowaddr (uint64) come after the data columns; --filter may reference _rowid,
      _rowaddr and _rowoffset, and with --take or --row-ids keeps the taken rows it selects
  lance count DATASET [--version N] [--filter EXPR]
  lance index list DATASET [--json] [--version N]
      print the number of rows (after deletions) EXPR selects, all without --filter
  lance stats DATASET [--version N] [--json]
      statistics for planning: rows per fragment (physical, deleted, live), bytes on disk
      per field (pylance's data_stats), per-fragment min/max/null counts from zone seeds
  lance search DATASET --column vec --vector '[...]' --k K [--metric l2|cosine|dot|hamming]
               [--nprobes N] [--refine-factor R] [--ef E] [--filter EXPR] [--postfilter] [--no-index]
               [--columns a,b] [--with-row-id] [--format json|table] [--stats]
      the K rows nearest to the vector: the columns, then _distance (float32), ordered by
      distance then row id as pylance; the filter applies before ranking (--postfilter:
      after, pylance's default); --stats says whether an index was used
  lance convert SRC DST [--version 2.1|2.2|2.3] [--from lance|ipc|parquet|csv] [--zone-seeds [--rows-per-zone N]]
                [--dataset [--mode create|append|overwrite] [--max-rows-per-file N] [--max-bytes-per-file N]]
      write a Lance file, or with --dataset a new version of a Lance dataset (an append or
      overwrite without --version writes the dataset's own file version, as pylance does)
  lance delete DATASET --filter EXPR
      delete the rows EXPR (a SQL filter as Lance accepts it) selects and commit a new version
  lance tag create|update DATASET NAME [--version V]   lance tag list DATASET [--json]
  lance tag delete DATASET NAME
      tags as pylance keeps them (_refs/tags/NAME.json); V defaults to the latest version
  lance restore DATASET --version V | --tag T
      commit a new version equal to version V (or the tagged one)
  lance cleanup DATASET [--older-than 14d] [--retain-versions N] [--delete-unverified] [--ignore-tagged] [--json]
      remove versions older than the age (Go duration, or 7d, 2w; 0: all but the latest) and
      the files only they reference, as pylance's cleanup_old_versions; never the latest or a
      tagged version (a tagged old version fails the cleanup unless --ignore-tagged)
  lance add-columns DATASET --expr "z = x + id[, w = upper(s)]" | --null "z:int[,...]" | --from FILE
      add columns from SQL expressions (a data file per fragment), all-null ones (no data) or
      a file whose rows line up with the live rows, as pylance's add_columns
  lance drop-columns DATASET --columns a[,st.b]
      drop columns (or struct fields) as pylance's drop_columns: no data rewritten
  lance alter-columns DATASET [--rename old:new[,...]] [--nullable a[,...]] [--not-null a[,...]]
      rename columns and change their nullability as pylance's alter_columns
  lance update DATASET --set "x = x * 2, s = 'u'" [--where EXPR]
      set columns to SQL expressions in the rows EXPR selects (all without --where) and
      commit a new version (rows rewritten to new fragments, as Lance does)
  lance merge-insert DATASET SRC --on KEY[,KEY] [--when-matched update-all|delete|fail|do-nothing]
                     [--when-not-matched insert-all|do-nothing] [--when-not-matched-by-source keep|delete]
      upsert the rows of SRC (a Lance, Arrow IPC, Parquet or CSV file with the dataset's schema)
  lance compact DATASET [--target-rows-per-fragment N] [--materialize-deletions-threshold F]
      merge small fragments and drop deleted rows, as pylance's optimize.compact_files
  lance bench-datasets [--only-append] [--append-rows N] [--rows N] [--rows-per-fragment N] [--reps N] [--rounds N] [--ops scan,filter] [--cold]
                       [--s3 [--latency 20ms] [--bandwidth-mbps 200] | --url URL --storage-options JSON]
      dataset reads against pylance (LANCE_PY): open, scan, takes of 100 and 10,000
      random rows over every fragment, a cold 1-row take, filtered scans; --s3 reads
      through the S3 proxy, which counts both readers' requests
  lance demo
      write a sample Lance file into a temporary folder, then inspect and read it
  lance bench [--quick] [--json] [--out DIR] [--data DIR] [--no-s3] [--no-mmap] [--no-signed-reads]
      benchmark against real Lance (pylance) and Parquet; see docs/benchmarks.md

URL is a local path, a file:// URL, or an object-store URL:
  s3://bucket/key.lance?endpoint=http://127.0.0.1:7070&use_path_style=true&region=us-east-1
  gs://bucket/key.lance   azblob://container/key.lance   (credentials from the usual
  environment variables of each cloud)
--stats (inspect, cat) writes requests, bytes_read, round_trips (the longest chains of
requests that waited for another's answer, summed over the open and the reads),
operations, retries, cache_hits, cache_misses and link_bandwidth (bytes/s the object-store
reads measured, 0 if none filled the link) to stderr as one JSON object.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		// library errors carry their own "lance: " prefix; print one
		fmt.Fprintln(os.Stderr, "lance:", strings.TrimPrefix(err.Error(), "lance: "))
		os.Exit(1)
	}
}

// errKey carries the stderr writer of one run in its context.
type errKey struct{}

// errOut returns the run's stderr.
func errOut(ctx context.Context) io.Writer {
	if w, ok := ctx.Value(errKey{}).(io.Writer); ok {
		return w
	}
	return os.Stderr
}

// writeStats prints a file's I/O statistics as one JSON object.
func writeStats(f *lance.File, w io.Writer) {
	b, err := json.Marshal(f.Stats())
	if err == nil {
		fmt.Fprintln(w, string(b))
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	ctx = context.WithValue(ctx, errKey{}, stderr)
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return nil
	}
	switch args[0] {
	case "inspect":
		return runInspect(ctx, args[1:], stdout)
	case "cat":
		return runCat(ctx, args[1:], stdout)
	case "demo":
		return runDemo(ctx, args[1:], stdout)
	case "convert":
		return runConvert(ctx, args[1:], stdout, stderr)
	case "delete":
		return runDelete(ctx, args[1:], stdout, stderr)
	case "tag":
		return runTag(ctx, args[1:], stdout, stderr)
	case "restore":
		return runRestore(ctx, args[1:], stdout, stderr)
	case "add-columns":
		return runAddColumns(ctx, args[1:], stdout, stderr)
	case "drop-columns":
		return runDropColumns(ctx, args[1:], stdout, stderr)
	case "alter-columns":
		return runAlterColumns(ctx, args[1:], stdout, stderr)
	case "cleanup":
		return runCleanup(ctx, args[1:], stdout, stderr)
	case "update":
		return runUpdate(ctx, args[1:], stdout, stderr)
	case "merge-insert":
		return runMergeInsert(ctx, args[1:], stdout, stderr)
	case "compact":
		return runCompact(ctx, args[1:], stdout, stderr)
	case "count":
		return runCount(ctx, args[1:], stdout, stderr)
	case "search":
		return runSearch(ctx, args[1:], stdout, stderr)
	case "stats":
		return runTableStats(ctx, args[1:], stdout)
	case "index":
		return runIndex(ctx, args[1:], stdout, stderr)
	case "bench":
		return runBench(ctx, args[1:], stdout, stderr)
	case "bench-datasets":
		return runBenchDatasets(ctx, args[1:], stdout, stderr)
	case "bench-proxy": // internal: the S3 proxy of `lance bench`, in its own process
		return runBenchProxy(args[1:], os.Stdin, stdout)
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}

// splitArgs moves flags (and their values) before positional arguments so
// that `lance cat URL --columns a` parses like `lance cat --columns a URL`.
// boolFlags names the flags that take no value.
func splitArgs(args []string, boolFlags map[string]bool) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if !strings.Contains(name, "=") && !boolFlags[name] && i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	return append(flags, pos...)
}
