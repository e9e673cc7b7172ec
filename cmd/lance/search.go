package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	lance "github.com/lancego/lancego"
)

const searchUsage = `usage: lance search DATASET --column vec --vector '[...]' --k K [--metric l2|cosine|dot|hamming]
         [--nprobes N] [--refine-factor R] [--ef E] [--fast-search] [--filter EXPR] [--postfilter] [--no-index]
         [--columns a,b] [--with-row-id] [--format json|table] [--stats] [--version N]
       lance search DATASET --text 'words or "a phrase"' [--text-columns a,b] --k K [--fast-search]
         [--filter EXPR] [--postfilter] [--columns a,b] [--with-row-id] [--format json|table] [--stats] [--version N]`

// searchArgs are the flags of lance search.
type searchArgs struct {
	column, vector, metric, filter, columns, format string
	text, textColumns                               string
	k, nprobes, refine, ef                          int
	version                                         int64
	postfilter, noIndex, withRowID, stats, fast     bool
}

// runSearch is `lance search`: a nearest-neighbour query (prefiltered by
// default, unlike pylance; --postfilter for pylance's default).
func runSearch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var a searchArgs
	fs.StringVar(&a.column, "column", "", "vector column")
	fs.StringVar(&a.vector, "vector", "", "query vector as a JSON array")
	fs.IntVar(&a.k, "k", 10, "rows to return")
	fs.StringVar(&a.metric, "metric", "l2", "l2, cosine, dot or hamming")
	fs.IntVar(&a.nprobes, "nprobes", 0, "IVF partitions to search (indexed search)")
	fs.IntVar(&a.refine, "refine-factor", 0, "re-rank k*R index candidates exactly")
	fs.IntVar(&a.ef, "ef", 0, "HNSW search breadth")
	fs.StringVar(&a.filter, "filter", "", "SQL filter")
	fs.BoolVar(&a.postfilter, "postfilter", false, "filter after ranking (pylance's default)")
	fs.BoolVar(&a.noIndex, "no-index", false, "search exactly even with a vector index")
	fs.StringVar(&a.columns, "columns", "", "columns to print before _distance (default all)")
	fs.BoolVar(&a.withRowID, "with-row-id", false, "append _rowid")
	fs.StringVar(&a.format, "format", "table", "json or table")
	fs.BoolVar(&a.stats, "stats", false, "print how the query was answered to stderr")
	fs.Int64Var(&a.version, "version", 0, "dataset version (default latest)")
	fs.BoolVar(&a.fast, "fast-search", false, "search indexed fragments only (pylance's fast_search)")
	fs.StringVar(&a.text, "text", "", "full-text query (BM25 over INVERTED indices; \"...\" is a phrase)")
	fs.StringVar(&a.textColumns, "text-columns", "", "columns --text searches (default every indexed one)")
	bools := map[string]bool{"postfilter": true, "no-index": true, "with-row-id": true, "stats": true, "fast-search": true}
	if err := fs.Parse(splitArgs(args, bools)); err != nil {
		return err
	}
	if a.format != "json" && a.format != "table" {
		return fmt.Errorf("--format must be json or table, not %q", a.format)
	}
	switch {
	case fs.NArg() != 1:
		return fmt.Errorf("%s", searchUsage)
	case a.text != "":
		if a.column != "" || a.vector != "" {
			return fmt.Errorf("--text searches text; --column and --vector search vectors: give one or the other")
		}
		return runTextSearch(ctx, fs.Arg(0), &a, stdout, stderr)
	case a.column == "" || a.vector == "":
		return fmt.Errorf("%s", searchUsage)
	}
	q, err := a.query()
	if err != nil {
		return err
	}
	var opts []lance.Option
	if a.version > 0 {
		opts = append(opts, lance.WithVersion(uint64(a.version)))
	}
	ds, err := lance.OpenDataset(ctx, fs.Arg(0), opts...)
	if err != nil {
		return err
	}
	defer ds.Close()
	var st lance.NearestStats
	rec, err := ds.Nearest(ctx, q, lance.WithNearestStats(&st))
	if err != nil {
		return err
	}
	defer rec.Release()
	w, err := newRowWriter(a.format, stdout)
	if err != nil {
		return err
	}
	if err := w.Write(rec); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if a.stats {
		return printSearchStats(ds, st, stderr)
	}
	return nil
}

// query builds the VectorQuery the flags describe.
func (a *searchArgs) query() (lance.VectorQuery, error) {
	var vec []float64
	if err := json.Unmarshal([]byte(a.vector), &vec); err != nil {
		return lance.VectorQuery{}, fmt.Errorf("--vector must be a JSON array of numbers: %v", err)
	}
	m, err := lance.ParseMetric(a.metric)
	if err != nil {
		return lance.VectorQuery{}, err
	}
	q := lance.VectorQuery{Column: a.column, Vector: vec, K: a.k, Metric: m, Nprobes: a.nprobes,
		RefineFactor: a.refine, Ef: a.ef, Filter: a.filter, Prefilter: !a.postfilter,
		NoIndex: a.noIndex, WithRowID: a.withRowID, FastSearch: a.fast}
	if a.nprobes > 0 {
		q.MinNprobes, q.MaxNprobes = a.nprobes, a.nprobes
	}
	if a.columns != "" {
		q.Columns = strings.Split(a.columns, ",")
	}
	return q, nil
}

// printSearchStats writes the query's answer path and the dataset's I/O
// statistics as one JSON object.
func printSearchStats(ds *lance.Dataset, st lance.NearestStats, w io.Writer) error {
	out := map[string]any{"rows_scanned": st.RowsScanned, "index_used": st.IndexUsed, "note": st.Note, "io": ds.Stats()}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}

// runTextSearch is `lance search --text`: a full-text query, scored with
// BM25 as pylance scores it, printed with _score.
func runTextSearch(ctx context.Context, url string, a *searchArgs, stdout, stderr io.Writer) error {
	var opts []lance.Option
	if a.version > 0 {
		opts = append(opts, lance.WithVersion(uint64(a.version)))
	}
	ds, err := lance.OpenDataset(ctx, url, opts...)
	if err != nil {
		return err
	}
	defer ds.Close()
	q := lance.FullTextQuery{Text: a.text, K: a.k, Filter: a.filter, Prefilter: !a.postfilter,
		FastSearch: a.fast, WithRowID: a.withRowID}
	if a.textColumns != "" {
		q.SearchColumns = strings.Split(a.textColumns, ",")
	}
	if a.columns != "" {
		q.Columns = strings.Split(a.columns, ",")
	}
	var st lance.FullTextStats
	rec, err := ds.FullTextSearch(ctx, q, lance.WithFullTextStats(&st))
	if err != nil {
		return err
	}
	defer rec.Release()
	w, err := newRowWriter(a.format, stdout)
	if err != nil {
		return err
	}
	if err := w.Write(rec); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if !a.stats {
		return nil
	}
	b, err := json.Marshal(map[string]any{"segments": st.Segments, "indexed_hits": st.IndexedHits,
		"flat_rows": st.FlatRows, "io": ds.Stats()})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stderr, string(b))
	return err
}
