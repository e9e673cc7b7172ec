package filewriter

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/lancego/lancego/internal/lerr"
	"github.com/lancego/lancego/zonestats"
)

// ZoneSeedConfig is a Writer's lance.WithZoneSeeds request.
type ZoneSeedConfig struct {
	RowsPerZone uint64
	Columns     []string // nil: every top-level column
}

// ZoneSeeds collects the zone seeds (package zonestats) of a Writer's
// seeded columns.
type ZoneSeeds struct {
	rowsPerZone uint64
	cols        []int // top-level field indices
	collectors  []*zonestats.Collector
}

// NewZoneSeeds prepares collectors for the configured columns; nil cfg
// gives a nil *ZoneSeeds (no seeds). Naming an unknown or ambiguous column
// is an error; with no names, columns whose name is not unique are skipped
// because their seed key would be ambiguous.
func NewZoneSeeds(schema *arrow.Schema, cfg *ZoneSeedConfig) (*ZoneSeeds, error) {
	if cfg == nil {
		return nil, nil
	}
	z := &ZoneSeeds{rowsPerZone: cfg.RowsPerZone}
	names := cfg.Columns
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
				return nil, fmt.Errorf("%w: zone seeds: %d top-level columns named %q", lerr.ErrInvalidArgument, len(idx), name)
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
func (z *ZoneSeeds) add(i int, dt arrow.DataType) error {
	c, err := zonestats.NewCollector(dt, zonestats.Config{RowsPerZone: z.rowsPerZone})
	if err != nil {
		return fmt.Errorf("%w: zone seeds: %v", lerr.ErrInvalidArgument, err)
	}
	z.cols = append(z.cols, i)
	z.collectors = append(z.collectors, c)
	return nil
}

// Append feeds a (type-checked) batch to the collectors. A nil *ZoneSeeds
// does nothing.
func (z *ZoneSeeds) Append(rec arrow.RecordBatch) error {
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

// Write writes each collected seed as a global buffer (addBuffer returns
// its index) and records its locator in the schema metadata (addMeta). It
// runs in Close, after the pages. A nil *ZoneSeeds does nothing.
func (z *ZoneSeeds) Write(schema *arrow.Schema, addBuffer func([]byte) (uint32, error), addMeta func(k, v string)) error {
	if z == nil {
		return nil
	}
	for k, i := range z.cols {
		name := schema.Field(i).Name
		data, err := z.collectors[k].Finish()
		if err != nil {
			return fmt.Errorf("lance: zone seed of column %q: %w", name, err)
		}
		idx, err := addBuffer(data)
		if err != nil {
			return err
		}
		loc := zonestats.Locator{BufferIndex: uint64(idx), RowsPerZone: z.rowsPerZone}
		addMeta(zonestats.SeedKey(name), zonestats.FormatLocator(loc))
	}
	return nil
}
