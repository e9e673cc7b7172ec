package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	lance "github.com/lancego/lancego"
	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/zonestats"
)

// zonesReport is what `lance inspect --zones --json` prints: the valid
// seeds by column, and why invalid ones were rejected.
type zonesReport struct {
	Zones   map[string]zonestats.SeedJSON `json:"zones"`
	Invalid map[string]string             `json:"invalid,omitempty"`
}

// buildZonesReport reads and validates the file's zone seeds.
func buildZonesReport(ctx context.Context, f *lance.File) (zonesReport, error) {
	seeds, problems, err := f.ZoneSeeds(ctx)
	if err != nil {
		return zonesReport{}, err
	}
	rep := zonesReport{Zones: map[string]zonestats.SeedJSON{}}
	for col, s := range seeds {
		js, err := s.JSON()
		if err != nil {
			return zonesReport{}, fmt.Errorf("zone seed of column %q: %w", col, err)
		}
		rep.Zones[col] = js
	}
	for col, p := range problems {
		if rep.Invalid == nil {
			rep.Invalid = map[string]string{}
		}
		rep.Invalid[col] = p.Error()
	}
	return rep, nil
}

// inspectZones prints the zones of every seeded column.
func inspectZones(ctx context.Context, f *lance.File, asJSON bool, out io.Writer) error {
	rep, err := buildZonesReport(ctx, f)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	printZones(out, f, rep)
	return nil
}

// printZones prints the zones report as text, columns in schema order.
func printZones(out io.Writer, f *lance.File, rep zonesReport) {
	if len(rep.Zones)+len(rep.Invalid) == 0 {
		fmt.Fprintf(out, "%s: no zone seeds\n", f.URL())
		return
	}
	for _, fl := range f.Schema().Fields() {
		if msg, ok := rep.Invalid[fl.Name]; ok {
			fmt.Fprintf(out, "column %s: invalid seed (not used): %s\n", fl.Name, msg)
		}
		s, ok := rep.Zones[fl.Name]
		if !ok {
			continue
		}
		fmt.Fprintf(out, "column %s: seed v%d, %d rows per zone, %d zone(s)\n", fl.Name, s.Version, s.RowsPerZone, len(s.Zones))
		row := uint64(0)
		for i, z := range s.Zones {
			fmt.Fprintf(out, "  zone %d: rows %d-%d  min %s  max %s  nulls %d  nans %d%s\n", i, row, row+z.ZoneLength,
				jsonText(z.Min), jsonText(z.Max), z.NullCount, z.NaNCount, negNaNText(z.NegativeNaNCount))
			row += z.ZoneLength
		}
	}
}

// jsonText renders a bound as compact JSON.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// negNaNText renders the negative NaN count when known.
func negNaNText(n *uint64) string {
	if n == nil {
		return ""
	}
	return fmt.Sprintf(" (negative %d)", *n)
}

// zoneSeedOption returns the writer option for `convert --zone-seeds
// [--rows-per-zone N]`, or nil when seeds are not asked for.
func zoneSeedOption(fs *flag.FlagSet, on bool, rowsPerZone uint64) (lance.WriterOption, error) {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "rows-per-zone" })
	if !on {
		if set {
			return nil, fmt.Errorf("--rows-per-zone needs --zone-seeds")
		}
		return nil, nil
	}
	if rowsPerZone == 0 || rowsPerZone > zonestats.MaxRowsPerZone {
		return nil, fmt.Errorf("--rows-per-zone must be in 1..%d", uint64(zonestats.MaxRowsPerZone))
	}
	return lance.WithZoneSeeds(rowsPerZone), nil
}

// parseCatFilter parses `--filter` (a SQL filter as Lance accepts it:
// expr.Parse); nil when empty.
func parseCatFilter(s string) (expr.Expr, error) {
	if s == "" {
		return nil, nil
	}
	e, err := expr.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("--filter: %w", err)
	}
	return e, nil
}
