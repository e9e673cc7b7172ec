package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/format/pb/file2pb"
	"github.com/lancego/lancego/layouts"
	"github.com/lancego/lancego/layouts/v20"
)

// inspectReport is what `lance inspect --json` prints.
type inspectReport struct {
	URL            string            `json:"url"`
	Version        string            `json:"version"`
	Unstable       bool              `json:"unstable,omitempty"` // 2.3: no compatibility promise yet
	FileSize       uint64            `json:"file_size"`
	NumRows        uint64            `json:"num_rows"`
	NumColumns     int               `json:"num_columns"`
	GlobalBuffers  []format.Range    `json:"global_buffers"`
	MetadataBytes  uint64            `json:"metadata_bytes"`
	SchemaMetadata map[string]string `json:"schema_metadata,omitempty"`
	Fields         []fieldReport     `json:"fields"`
	Columns        []columnReport    `json:"columns"`
	Legacy         *legacyReport     `json:"legacy,omitempty"` // legacy v1 files only
}

// legacyReport is where a legacy v1 file keeps its metadata and batches.
type legacyReport struct {
	MetadataPosition  uint64   `json:"metadata_position"`
	PageTablePosition uint64   `json:"page_table_position"`
	ManifestPosition  uint64   `json:"manifest_position,omitempty"`
	BatchStarts       []uint64 `json:"batch_starts"`
}

type fieldReport struct {
	Name        string            `json:"name"`
	ID          int32             `json:"id"`
	ParentID    int32             `json:"parent_id"`
	LogicalType string            `json:"logical_type"`
	Nullable    bool              `json:"nullable"`
	Column      int               `json:"column"`
	Metadata    map[string]string `json:"metadata,omitempty"`
	Depth       int               `json:"depth"`
}

type columnReport struct {
	Column  int          `json:"column"`
	Field   string       `json:"field"`
	FieldID *int32       `json:"field_id,omitempty"` // legacy: the page table's field id
	Pages   []pageReport `json:"pages"`
}

type pageReport struct {
	Position    *uint64           `json:"position,omitempty"` // legacy: where the page starts
	Rows        uint64            `json:"rows"`
	FirstRow    uint64            `json:"first_row"`
	BufferSizes []uint64          `json:"buffer_sizes"`
	Bytes       uint64            `json:"bytes"`
	Layout      *layouts.PageInfo `json:"layout,omitempty"`
	Error       string            `json:"error,omitempty"`
}

func runInspect(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object")
	stats := fs.Bool("stats", false, "write I/O statistics to stderr as one JSON object")
	zones := fs.Bool("zones", false, "print the zone seeds of each column (zones.go)")
	versions := fs.Bool("versions", false, "dataset: also list its versions")
	version := fs.Uint64("version", 0, "dataset version to inspect (default the latest)")
	if err := fs.Parse(splitArgs(args, map[string]bool{"json": true, "stats": true, "zones": true, "versions": true})); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("inspect takes one URL")
	}
	var opts []lance.Option
	if *version != 0 {
		opts = append(opts, lance.WithVersion(*version))
	}
	t, err := openTarget(ctx, fs.Arg(0), opts...)
	if err != nil {
		return err
	}
	defer t.Close()
	if t.ds != nil {
		if *stats {
			defer writeDatasetStats(t.ds, errOut(ctx))
		}
		return inspectDataset(ctx, t.ds, *asJSON, *versions, out)
	}
	f := t.file
	if *stats {
		defer writeStats(f, errOut(ctx))
	}
	if *zones {
		return inspectZones(ctx, f, *asJSON, out)
	}
	rep := buildReport(f)
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	printReport(out, rep)
	return nil
}

func buildReport(f *lance.File) inspectReport {
	m := f.Metadata()
	rep := inspectReport{URL: f.URL(), Version: m.Version.String(), FileSize: m.FileSize, NumRows: m.NumRows,
		NumColumns: m.NumColumns(), GlobalBuffers: m.GlobalBuffers, MetadataBytes: m.MetadataRange().Length,
		SchemaMetadata: m.SchemaMetadata, Unstable: m.Version >= format.V2_3}
	depth := 0
	var walk func(fl *format.Field)
	walk = func(fl *format.Field) {
		rep.Fields = append(rep.Fields, fieldReport{Name: fl.Name, ID: fl.ID, ParentID: fl.ParentID,
			LogicalType: fl.LogicalType, Nullable: fl.Nullable, Column: fl.Column, Metadata: fl.Metadata, Depth: depth})
		depth++
		for _, c := range fl.Children {
			walk(c)
		}
		depth--
	}
	for _, fl := range m.Schema.Fields {
		walk(fl)
	}
	if l := f.Legacy(); l != nil {
		addLegacy(&rep, l)
		return rep
	}
	for c, col := range m.Columns {
		cr := columnReport{Column: c}
		if fl := m.Schema.ColumnField(c); fl != nil {
			cr.Field = fl.Name
		}
		for _, pg := range col.GetPages() {
			cr.Pages = append(cr.Pages, pageReportOf(pg))
		}
		rep.Columns = append(rep.Columns, cr)
	}
	return rep
}

// addLegacy reports a legacy file's batches and page table: one column
// per field id, one page per batch.
func addLegacy(rep *inspectReport, l *lance.LegacyLayout) {
	column := map[int32]int{}
	for c, col := range l.Columns {
		column[col.FieldID] = c
	}
	for i, fr := range rep.Fields { // the page table's columns, not v2 leaf numbers
		rep.Fields[i].Column = -1
		if c, ok := column[fr.ID]; ok {
			rep.Fields[i].Column = c
		}
	}
	rep.Legacy = &legacyReport{MetadataPosition: l.MetadataPosition, PageTablePosition: l.PageTablePosition,
		ManifestPosition: l.ManifestPosition, BatchStarts: l.BatchStarts}
	for c, col := range l.Columns {
		cr := columnReport{Column: c, Field: col.Field, FieldID: &col.FieldID}
		for b, pg := range col.Pages {
			pr := pageReport{Position: &pg.Position, Bytes: col.PageBytes[b]}
			if b+1 < len(l.BatchStarts) {
				pr.FirstRow, pr.Rows = l.BatchStarts[b], l.BatchStarts[b+1]-l.BatchStarts[b]
			}
			enc := col.Encoding
			if enc == "" {
				enc = "unknown"
			}
			details := append([]string{fmt.Sprintf("length=%d", pg.Length)}, col.Details...)
			pr.Layout = &layouts.PageInfo{Layout: "legacy", Values: enc, Details: details}
			cr.Pages = append(cr.Pages, pr)
		}
		rep.Columns = append(rep.Columns, cr)
	}
}

func pageReportOf(pg *file2pb.ColumnMetadata_Page) pageReport {
	pr := pageReport{Rows: pg.GetLength(), FirstRow: pg.GetPriority(), BufferSizes: pg.GetBufferSizes()}
	for _, s := range pr.BufferSizes {
		pr.Bytes += s
	}
	enc, err := format.DecodePageEncoding(pg)
	enc20, err20 := format.DecodeArrayEncoding(pg)
	switch {
	case err != nil && err20 == nil:
		pr.Layout = &layouts.PageInfo{Layout: "v2.0", Values: v20.Describe(enc20)} // a 2.0 page
	case err != nil:
		pr.Error = err.Error()
	case enc.Planar != nil:
		info := layouts.DescribePlanar(enc.Planar)
		pr.Layout = &info
	default:
		info := layouts.DescribePage(enc.Layout)
		pr.Layout = &info
	}
	return pr
}

func printReport(out io.Writer, r inspectReport) {
	version := r.Version
	if r.Unstable {
		version += " (unstable)"
	}
	fmt.Fprintf(out, "%s\n  version %s, %d rows, %d columns, %d bytes (metadata %d bytes, %d global buffers)\n",
		r.URL, version, r.NumRows, r.NumColumns, r.FileSize, r.MetadataBytes, len(r.GlobalBuffers))
	fmt.Fprintln(out, "schema:")
	for _, f := range r.Fields {
		null := ""
		if f.Nullable {
			null = " nullable"
		}
		col := ""
		if f.Column >= 0 {
			col = fmt.Sprintf("  [column %d]", f.Column)
		}
		md := ""
		if len(f.Metadata) > 0 {
			b, _ := json.Marshal(f.Metadata)
			md = " " + string(b)
		}
		fmt.Fprintf(out, "  %s%s: %s%s%s%s\n", strings.Repeat("  ", f.Depth), f.Name, f.LogicalType, null, md, col)
	}
	if l := r.Legacy; l != nil {
		fmt.Fprintf(out, "legacy: %d batch(es) starting at rows %v; page table at %d, metadata at %d, embedded schema at %d\n",
			max(len(l.BatchStarts)-1, 0), l.BatchStarts, l.PageTablePosition, l.MetadataPosition, l.ManifestPosition)
	}
	for _, c := range r.Columns {
		id := ""
		if c.FieldID != nil {
			id = fmt.Sprintf(", field id %d", *c.FieldID)
		}
		fmt.Fprintf(out, "column %d (%s%s): %d page(s)\n", c.Column, c.Field, id, len(c.Pages))
		for i, p := range c.Pages {
			desc := p.Error
			if p.Layout != nil {
				desc = p.Layout.String()
			}
			at := fmt.Sprintf(" %v", p.BufferSizes)
			if p.Position != nil {
				at = fmt.Sprintf(" at %d", *p.Position)
			}
			fmt.Fprintf(out, "  page %d: rows %d (from %d), %d bytes%s\n    %s\n", i, p.Rows, p.FirstRow, p.Bytes, at, desc)
		}
	}
}
