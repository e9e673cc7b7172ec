package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/internal/valuejson"
	lanceio "github.com/lancego/lancego/io"
)

// target is what a URL names: a Lance file or a Lance dataset.
type target struct {
	file *lance.File
	ds   *lance.Dataset
}

func (t *target) Close() error {
	if t.ds != nil {
		return t.ds.Close()
	}
	return t.file.Close()
}

// openTarget opens url as a dataset root (a directory or prefix with
// _versions/) or as a file. A local directory is a dataset; an
// object-store URL ending in ".lance" is tried as a file first (a dataset
// named so then costs one failed request more), any other as a dataset
// first.
func openTarget(ctx context.Context, url string, opts ...lance.Option) (*target, error) {
	if isLocalDir(url) {
		ds, err := lance.OpenDataset(ctx, url, opts...)
		if err != nil {
			return nil, err
		}
		return &target{ds: ds}, nil
	}
	fileFirst := strings.Contains(url, "://") && !strings.HasPrefix(url, "file://") && strings.HasSuffix(pathOf(url), ".lance")
	if !strings.Contains(url, "://") || strings.HasPrefix(url, "file://") {
		fileFirst = true // a local path that is not a directory
	}
	if fileFirst {
		f, err := lance.Open(ctx, url, fileOptions(opts)...)
		if err == nil {
			return &target{file: f}, nil
		}
		if !errors.Is(err, lanceio.ErrNotFound) {
			return nil, err
		}
		ds, derr := lance.OpenDataset(ctx, url, opts...)
		if derr != nil {
			if errors.Is(derr, lance.ErrNotDataset) {
				return nil, err
			}
			return nil, derr
		}
		return &target{ds: ds}, nil
	}
	ds, err := lance.OpenDataset(ctx, url, opts...)
	if err == nil {
		return &target{ds: ds}, nil
	}
	if !errors.Is(err, lance.ErrNotDataset) {
		return nil, err
	}
	f, ferr := lance.Open(ctx, url, fileOptions(opts)...)
	if ferr != nil {
		if errors.Is(ferr, lanceio.ErrNotFound) {
			return nil, err
		}
		return nil, ferr
	}
	return &target{file: f}, nil
}

// fileOptions drops dataset-only options (WithVersion) for a file.
func fileOptions(opts []lance.Option) []lance.Option {
	if len(opts) > 0 {
		return nil // only WithVersion is passed here
	}
	return opts
}

func isLocalDir(url string) bool {
	if strings.Contains(url, "://") && !strings.HasPrefix(url, "file://") {
		return false
	}
	st, err := os.Stat(strings.TrimPrefix(url, "file://"))
	return err == nil && st.IsDir()
}

// pathOf returns the path of a URL without query and trailing slash.
func pathOf(url string) string {
	p, _, _ := strings.Cut(url, "?")
	return strings.TrimSuffix(p, "/")
}

// datasetReport is what `lance inspect DATASET --json` prints.
type datasetReport struct {
	URL       string               `json:"url"`
	Version   uint64               `json:"version"`
	NumRows   uint64               `json:"num_rows"`
	Schema    []any                `json:"schema"`
	Fragments []lance.FragmentInfo `json:"fragments"`
	Versions  []lance.VersionInfo  `json:"versions,omitempty"`
	Indices   []indexReport        `json:"indices,omitempty"`
}

func inspectDataset(ctx context.Context, ds *lance.Dataset, asJSON, versions bool, out io.Writer) error {
	n, err := ds.CountRows(ctx)
	if err != nil {
		return err
	}
	frags, err := ds.Fragments(ctx)
	if err != nil {
		return err
	}
	rep := datasetReport{URL: ds.URL(), Version: ds.Version(), NumRows: n, Schema: valuejson.SchemaJSON(ds.Schema()), Fragments: frags}
	if rep.Indices, err = indexReports(ctx, ds); err != nil {
		return err
	}
	if versions {
		if rep.Versions, err = ds.Versions(ctx); err != nil {
			return err
		}
	}
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	fmt.Fprintf(out, "%s\n  dataset version %d, %d rows, %d fragments\nschema:\n", rep.URL, rep.Version, rep.NumRows, len(frags))
	for _, f := range ds.Schema().Fields() {
		fmt.Fprintf(out, "  %s: %s\n", f.Name, f.Type)
	}
	for _, f := range frags {
		fmt.Fprintf(out, "fragment %d: %d rows (%d deleted)", f.ID, f.PhysicalRows, f.DeletedRows)
		if f.DeletionFile != "" {
			fmt.Fprintf(out, ", deletions %s", f.DeletionFile)
		}
		fmt.Fprintln(out)
		for _, d := range f.DataFiles {
			fmt.Fprintf(out, "  data/%s  version %s, fields %v, %d bytes\n", d.Path, d.Version, d.Fields, d.Size)
		}
	}
	printIndices(out, rep.Indices)
	if versions {
		fmt.Fprintln(out, "versions:")
		for _, v := range rep.Versions {
			fmt.Fprintf(out, "  %d  %s\n", v.Version, v.Manifest)
		}
	}
	return nil
}

// writeDatasetStats prints a dataset's I/O statistics as one JSON object.
func writeDatasetStats(ds *lance.Dataset, w io.Writer) {
	b, err := json.Marshal(ds.Stats())
	if err == nil {
		fmt.Fprintln(w, string(b))
	}
}

// parseUints parses a comma-separated list of unsigned integers.
func parseUints(flag, s string) ([]uint64, error) {
	var out []uint64
	for _, x := range splitList(s) {
		v, err := strconv.ParseUint(strings.TrimSpace(x), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not an unsigned integer", flag, x)
		}
		out = append(out, v)
	}
	return out, nil
}

// catDataset prints the rows of a dataset that o selects.
func catDataset(ctx context.Context, ds *lance.Dataset, o catOptions, w rowWriter) error {
	ro := lance.ReadOptions{Columns: splitList(o.columns), WithRowID: o.withRowID, WithRowAddress: o.withRowAddr}
	filter, err := parseCatFilter(o.filter)
	if err != nil {
		return err
	}
	if o.take != "" || o.rowIDs != "" { // with a filter: the rows taken, then filtered
		var rec arrow.RecordBatch
		if o.take != "" {
			offs, err := parseUints("--take", o.take)
			if err != nil {
				return err
			}
			rec, err = ds.TakeWhere(ctx, offs, filter, ro)
			if err != nil {
				return err
			}
		} else {
			ids, err := parseUints("--row-ids", o.rowIDs)
			if err != nil {
				return err
			}
			rec, err = ds.TakeRowIDsWhere(ctx, ids, filter, ro)
			if err != nil {
				return err
			}
		}
		defer rec.Release()
		return w.Write(rec)
	}
	n, err := ds.CountRows(ctx)
	if err != nil {
		return err
	}
	from, to, err := parseRows(o.rows, n)
	if err != nil {
		return err
	}
	so := lance.DatasetScanOptions{ReadOptions: ro, BatchSize: o.batch, Filter: filter, Offset: from, Limit: to - from}
	if o.rows == "" {
		so.Limit = 0
	} else if to == from {
		return w.Empty(func() (arrow.RecordBatch, error) { return ds.Take(ctx, nil, ro) })
	}
	wrote := 0
	for rec, err := range ds.Batches(ctx, so) {
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
		return w.Empty(func() (arrow.RecordBatch, error) { return ds.Take(ctx, nil, ro) })
	}
	return nil
}
