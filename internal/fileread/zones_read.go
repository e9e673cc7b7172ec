package fileread

import (
	"context"
	"fmt"
	"sort"

	"github.com/lancego/lancego/format"
	"github.com/lancego/lancego/searchcache"
	"github.com/lancego/lancego/zonestats"
)

// zoneSeedSet is the parsed zone seeds of a file, cached per file.
type zoneSeedSet struct {
	seeds    map[string]*zonestats.Seed
	problems map[string]error
}

// seedEntry is one located seed before its buffer is read.
type seedEntry struct {
	column string
	loc    zonestats.Locator
	rng    format.Range
}

// ZoneSeeds reads and validates the zone seeds of the file (see package
// zonestats): every schema metadata entry "lance.seed.<column>" locates a
// global buffer holding the seed of a top-level column. All seed buffers
// are read with one request (the scheduler coalesces them; seeds written
// before the metadata are often already in the tail read at Open). The
// result is cached per file.
//
// seeds holds the valid seeds by column name. problems holds, by column
// name, why a seed failed validation (the error names the rule of the
// specification); such a seed is never used to prune. err is only set
// when the buffers cannot be read. The maps must not be modified.
func (f *File) ZoneSeeds(ctx context.Context) (seeds map[string]*zonestats.Seed, problems map[string]error, err error) {
	key := searchcache.Key{File: f.src.Key(), Column: -1, Kind: "zoneseeds"}
	set, err := searchcache.GetOrLoad(ctx, f.cache, key, func(ctx context.Context) (*zoneSeedSet, int64, error) {
		set, size, err := f.loadZoneSeeds(ctx)
		return set, size + 1024, err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("lance: %s: zone seeds: %w", f.url, err)
	}
	return set.seeds, set.problems, nil
}

// loadZoneSeeds locates, fetches and parses every seed. It returns the
// number of seed bytes read, as a cache size estimate.
func (f *File) loadZoneSeeds(ctx context.Context) (*zoneSeedSet, int64, error) {
	set := &zoneSeedSet{seeds: map[string]*zonestats.Seed{}, problems: map[string]error{}}
	entries := f.locateSeeds(set.problems)
	ranges := make([]format.Range, len(entries))
	var size int64
	for i, e := range entries {
		ranges[i] = e.rng
		size += int64(e.rng.Length)
	}
	got, err := f.fetch(ctx, ranges, 0)
	if err != nil {
		return nil, 0, err
	}
	for i, e := range entries {
		dt := f.schema.Field(f.schema.FieldIndices(e.column)[0]).Type
		s, err := zonestats.ParseSeed(got[i], dt, e.loc.RowsPerZone, f.NumRows(), f.cfg.Mem)
		if err != nil {
			set.problems[e.column] = err
			continue
		}
		set.seeds[e.column] = s
	}
	return set, size, nil
}

// locateSeeds parses the seed locators of the schema metadata, in key
// order. Locators that are malformed, point at a missing buffer or name
// no unique top-level column are recorded in problems.
func (f *File) locateSeeds(problems map[string]error) []seedEntry {
	keys := make([]string, 0, len(f.meta.SchemaMetadata))
	for k := range f.meta.SchemaMetadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []seedEntry
	for _, k := range keys {
		col, ok := zonestats.ColumnOfSeedKey(k)
		if !ok {
			continue
		}
		e, err := f.locateSeed(col, f.meta.SchemaMetadata[k])
		if err != nil {
			problems[col] = err
			continue
		}
		out = append(out, e)
	}
	return out
}

// locateSeed checks one locator (rules L1 and L2's buffer index).
func (f *File) locateSeed(col, value string) (seedEntry, error) {
	loc, err := zonestats.ParseLocator(value)
	if err != nil {
		return seedEntry{}, err
	}
	if err := loc.CheckBuffer(uint64(len(f.meta.GlobalBuffers))); err != nil {
		return seedEntry{}, err
	}
	if n := len(f.schema.FieldIndices(col)); n != 1 {
		return seedEntry{}, fmt.Errorf("%w: L1: %d top-level columns named %q", zonestats.ErrInvalidSeed, n, col)
	}
	rng := f.meta.GlobalBuffers[loc.BufferIndex]
	if end, ok := rng.End(); !ok || end > f.meta.FileSize {
		return seedEntry{}, fmt.Errorf("%w: L2: global buffer %d %v lies outside the file", zonestats.ErrInvalidSeed, loc.BufferIndex, rng)
	}
	return seedEntry{column: col, loc: loc, rng: rng}, nil
}

// ZoneSummary returns the statistics of the whole file for column, merged
// from the zones of its seed (zonestats.Seed.Summary): bounds over every
// zone and summed counts. Use Predicate.MayMatchStats on summaries of
// several columns to skip a whole file; for several files, combine their
// summaries with zonestats.MergeAll, or their seeds with
// zonestats.BuildZoneMap (see docs/zone-seeds.md). A column without a
// valid seed gives an error wrapping ErrNoZoneSeed (and the validation
// error, if any).
func (f *File) ZoneSummary(ctx context.Context, column string) (zonestats.Stats, error) {
	seeds, problems, err := f.ZoneSeeds(ctx)
	if err != nil {
		return zonestats.Stats{}, err
	}
	s, ok := seeds[column]
	if !ok {
		if p := problems[column]; p != nil {
			return zonestats.Stats{}, fmt.Errorf("%w for column %q: %w", ErrNoZoneSeed, column, p)
		}
		return zonestats.Stats{}, fmt.Errorf("%w for column %q", ErrNoZoneSeed, column)
	}
	return s.Summary()
}
