package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/internal/plainjson"
)

// tableStatsReport is what `lance stats DATASET --json` prints. Counts
// are plain JSON numbers (exact: encoding/json writes integers digit for
// digit).
type tableStatsReport struct {
	Version      uint64              `json:"version"`
	LiveRows     uint64              `json:"live_rows"`
	DeletedRows  uint64              `json:"deleted_rows"`
	NumFragments int                 `json:"num_fragments"`
	Fragments    []fragmentStatsJSON `json:"fragments"`
	Fields       []fieldStatsJSON    `json:"fields"`
}

// fragmentStatsJSON is one fragment of the report: its rows, its share of
// the fields' bytes on disk, and its columns' zone-seed statistics
// (omitted when its files carry no seeds).
type fragmentStatsJSON struct {
	ID           uint64            `json:"id"`
	PhysicalRows uint64            `json:"physical_rows"`
	DeletedRows  uint64            `json:"deleted_rows"`
	LiveRows     uint64            `json:"live_rows"`
	BytesOnDisk  uint64            `json:"bytes_on_disk"`
	Columns      []columnStatsJSON `json:"columns,omitempty"`
}

// columnStatsJSON is one column's zone-seed statistics over a fragment's
// physical rows. Min and max are values as `lance cat --format json`
// writes them (numbers, strings, ISO dates ...), null when unknown.
type columnStatsJSON struct {
	Column    string          `json:"column"`
	Rows      uint64          `json:"rows"`
	NullCount uint64          `json:"null_count"`
	NaNCount  uint64          `json:"nan_count"`
	Min       json.RawMessage `json:"min"`
	Max       json.RawMessage `json:"max"`
}

// fieldStatsJSON is one field's bytes on disk (pylance's data_stats).
type fieldStatsJSON struct {
	ID          int32  `json:"id"`
	ParentID    int32  `json:"parent_id"`
	Path        string `json:"path"`
	BytesOnDisk uint64 `json:"bytes_on_disk"`
}

// runTableStats implements `lance stats DATASET [--version N] [--json]`.
func runTableStats(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("stats", flag.ContinueOnError)
	fs.SetOutput(errOut(ctx))
	asJSON := fs.Bool("json", false, "print JSON")
	version := fs.Uint64("version", 0, "dataset version to describe (default the latest)")
	if err := fs.Parse(splitArgs(args, map[string]bool{"json": true})); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("stats takes one DATASET")
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
	st, err := ds.TableStats(ctx)
	if err != nil {
		return err
	}
	rep, err := buildTableStatsReport(st)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	return printTableStats(out, fs.Arg(0), rep)
}

// buildTableStatsReport converts the statistics to the report.
func buildTableStatsReport(st lance.TableStats) (tableStatsReport, error) {
	rep := tableStatsReport{Version: st.Version, LiveRows: st.LiveRows, DeletedRows: st.DeletedRows,
		NumFragments: len(st.Fragments), Fragments: []fragmentStatsJSON{}, Fields: []fieldStatsJSON{}}
	for _, f := range st.Fragments {
		fj := fragmentStatsJSON{ID: f.ID, PhysicalRows: f.PhysicalRows, DeletedRows: f.DeletedRows, LiveRows: f.LiveRows, BytesOnDisk: f.DataBytes}
		for _, c := range f.Columns {
			lo, err := scalarJSON(c.Min)
			if err != nil {
				return tableStatsReport{}, fmt.Errorf("fragment %d column %q: min: %w", f.ID, c.Column, err)
			}
			hi, err := scalarJSON(c.Max)
			if err != nil {
				return tableStatsReport{}, fmt.Errorf("fragment %d column %q: max: %w", f.ID, c.Column, err)
			}
			fj.Columns = append(fj.Columns, columnStatsJSON{Column: c.Column, Rows: c.Rows,
				NullCount: c.NullCount, NaNCount: c.NaNCount, Min: lo, Max: hi})
		}
		rep.Fragments = append(rep.Fragments, fj)
	}
	for _, f := range st.Fields {
		rep.Fields = append(rep.Fields, fieldStatsJSON{ID: f.ID, ParentID: f.ParentID, Path: f.Path, BytesOnDisk: f.DataBytes})
	}
	return rep, nil
}

// scalarJSON writes a bound as plainjson writes the value (null for nil).
func scalarJSON(s scalar.Scalar) (json.RawMessage, error) {
	if s == nil {
		return json.RawMessage("null"), nil
	}
	arr, err := scalar.MakeArrayFromScalar(s, 1, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	b, err := plainjson.AppendValue(nil, arr, 0)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(b), nil
}

// printTableStats prints the report as aligned tables: the dataset, its
// fragments, its fields' bytes and the zone statistics (if any).
func printTableStats(out io.Writer, url string, rep tableStatsReport) error {
	fmt.Fprintf(out, "%s version %d: %d live rows, %d deleted, %d fragment(s)\n\n",
		url, rep.Version, rep.LiveRows, rep.DeletedRows, rep.NumFragments)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "fragment\tphysical rows\tdeleted\tlive\tbytes on disk\t")
	for _, f := range rep.Fragments {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t\n", f.ID, f.PhysicalRows, f.DeletedRows, f.LiveRows, f.BytesOnDisk)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out)
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "field\tid\tbytes on disk")
	for _, f := range rep.Fields {
		fmt.Fprintf(tw, "%s\t%d\t%d\n", f.Path, f.ID, f.BytesOnDisk)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out)
	seeded := false
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, f := range rep.Fragments {
		for _, c := range f.Columns {
			if !seeded {
				fmt.Fprintln(out, "zone statistics (physical rows, deleted rows included):")
				fmt.Fprintln(tw, "fragment\tcolumn\trows\tnulls\tNaNs\tmin\tmax")
				seeded = true
			}
			fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%s\t%s\n", f.ID, c.Column, c.Rows, c.NullCount, c.NaNCount, c.Min, c.Max)
		}
	}
	if !seeded {
		fmt.Fprintln(out, "zone statistics: none (no data file carries zone seeds)")
		return nil
	}
	return tw.Flush()
}
