package lance

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lancego/lancego/zonestats"
)

// zoneSeedConfig is the WithZoneSeeds request of a writer.
type zoneSeedConfig struct {
	rowsPerZone uint64
	columns     []string // nil: every top-level column
}

// WithZoneSeeds makes the writer store a zone seed (version 1 per-zone
// min/max/null/NaN statistics, see package zonestats and
// docs/zone-seeds.md) for each named top-level column, or for every
// top-level column when none is named. rowsPerZone is the zone size; 0
// means zonestats.DefaultRowsPerZone (8,192). Each seed is an Arrow IPC
// file in a global buffer, located by the schema metadata entry
// "lance.seed.<column>" = "<buffer_index>:<rows_per_zone>". Nested columns
// get null bounds with counts of the outer column. Seeds are opt-in: no
// seed is written without this option, and no table feature flag is set
// (a data file has none; see zonestats.FlagZoneWriteSeeds).
func WithZoneSeeds(rowsPerZone uint64, columns ...string) WriterOption {
	return func(c *writerConfig) error {
		if rowsPerZone > zonestats.MaxRowsPerZone {
			return fmt.Errorf("%w: rows per zone %d exceeds %d", ErrInvalidArgument, rowsPerZone, uint64(zonestats.MaxRowsPerZone))
		}
		if rowsPerZone == 0 {
			rowsPerZone = zonestats.DefaultRowsPerZone
		}
		c.zoneSeeds = &zoneSeedConfig{rowsPerZone: rowsPerZone, columns: append([]string(nil), columns...)}
		return nil
	}
}

// zoneWriter collects the seeds of a Writer's seeded columns.
type zoneWriter struct {
	rowsPerZone uint64
	cols        []int // top-level field indices
	collectors  []*zonestats.Collector
}

// newZoneWriter prepares collectors for the configured columns; nil cfg
// gives a nil zoneWriter (no seeds). Naming an unknown or ambiguous column
// is an error; with no names, columns whose name is not unique are skipped
// because their seed key would be ambiguous.
func newZoneWriter(schema *arrow.Schema, cfg *zoneSeedConfig) (*zoneWriter, error) {
	if cfg == nil {
		return nil, nil
	}
	z := &zoneWriter{rowsPerZone: cfg.rowsPerZone}
	names := cfg.columns
	explicit := len(names) > 0
	if !explicit {
		for _, f := range schema.Fields() {
			names = append(names, f.Name)
		}
	}
	seen := map[int]bool{}
	for _, name := range names {
		idx := schema.FieldIndices(name)
		if len(idx) != 1 {
			if explicit {
				return nil, fmt.Errorf("%w: zone seeds: %d top-level columns named %q", ErrInvalidArgument, len(idx), name)
			}
			continue
		}
		if seen[idx[0]] {
			continue
		}
		seen[idx[0]] = true
		if err := z.add(idx[0], schema.Field(idx[0]).Type); err != nil {
			return nil, err
		}
	}
	return z, nil
}

// add creates the collector of top-level field i.
func (z *zoneWriter) add(i int, dt arrow.DataType) error {
	c, err := zonestats.NewCollector(dt, zonestats.Config{RowsPerZone: z.rowsPerZone})
	if err != nil {
		return fmt.Errorf("%w: zone seeds: %v", ErrInvalidArgument, err)
	}
	z.cols = append(z.cols, i)
	z.collectors = append(z.collectors, c)
	return nil
}

// append feeds a (type-checked) batch to the collectors. A nil zoneWriter
// does nothing.
func (z *zoneWriter) append(rec arrow.RecordBatch) error {
	if z == nil {
		return nil
	}
	for k, i := range z.cols {
		if err := z.collectors[k].Append(rec.Column(i)); err != nil {
			return fmt.Errorf("lance: zone seed of column %q: %w", rec.Schema().Field(i).Name, err)
		}
	}
	return nil
}

// writeZoneSeeds writes each collected seed as a global buffer and records
// its locator in the schema metadata. It runs in Close, after the pages.
func (w *Writer) writeZoneSeeds(ctx context.Context) error {
	z := w.zones
	if z == nil {
		return nil
	}
	for k, i := range z.cols {
		name := w.schema.Field(i).Name
		data, err := z.collectors[k].Finish()
		if err != nil {
			return fmt.Errorf("lance: zone seed of column %q: %w", name, err)
		}
		idx, err := w.AddGlobalBuffer(ctx, data)
		if err != nil {
			return err
		}
		loc := zonestats.Locator{BufferIndex: uint64(idx), RowsPerZone: z.rowsPerZone}
		w.AddSchemaMetadata(zonestats.SeedKey(name), zonestats.FormatLocator(loc))
	}
	return nil
}
