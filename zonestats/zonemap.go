package zonestats

import (
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lancego/lancego/internal/valuejson"
)

// ZoneEntry is one zone of a ZoneMap.
type ZoneEntry struct {
	// Source is the index of the seed (in BuildZoneMap's arguments).
	Source int
	// Zone is the zone's index within its seed.
	Zone int
	// Offset is the global row offset of the zone's first row: seeds are
	// placed one after another in argument order.
	Offset uint64
	// Stats are the zone's statistics.
	Stats Stats
}

// ZoneMap is a zone-map style index of one column built from seeds,
// without re-reading the column.
type ZoneMap struct {
	// Entries holds every zone of every seed in row order.
	Entries []ZoneEntry
	// Rows is the total number of rows covered.
	Rows uint64
}

// BuildZoneMap concatenates the zones of seeds of one column (for example
// the data files of a fragment, or of several fragments in order) into a
// ZoneMap with global row offsets. All seeds must have the same type.
func BuildZoneMap(seeds ...*Seed) (*ZoneMap, error) {
	m := &ZoneMap{}
	for si, s := range seeds {
		if si > 0 && !arrow.TypeEqual(s.info.dt, seeds[0].info.dt) {
			return nil, fmt.Errorf("%w: seed %d has type %s, seed 0 has %s", ErrMismatch, si, s.info.dt, seeds[0].info.dt)
		}
		for zi, z := range s.Zones {
			m.Entries = append(m.Entries, ZoneEntry{Source: si, Zone: zi, Offset: m.Rows, Stats: z})
			var carry uint64
			if m.Rows, carry = bits.Add64(m.Rows, z.ZoneLength, 0); carry != 0 {
				return nil, fmt.Errorf("%w: zone map rows exceed 2^64-1", ErrOverflow)
			}
		}
	}
	return m, nil
}

// Summary merges all entries into one Stats.
func (m *ZoneMap) Summary() (Stats, error) {
	var out Stats
	for _, e := range m.Entries {
		var err error
		if out, err = Merge(out, e.Stats); err != nil {
			return Stats{}, err
		}
	}
	return out, nil
}

// Stats returns the statistics of each entry, in row order. A filter of
// package expr tells whether entry i may hold a matching row with
// p.MayMatchStats(map[string]zonestats.Stats{column: m.Stats()[i]}),
// column being the map's column (other referenced columns are unknown).
func (m *ZoneMap) Stats() []Stats {
	out := make([]Stats, len(m.Entries))
	for i, e := range m.Entries {
		out[i] = e.Stats
	}
	return out
}

// SeedJSON is a JSON-able view of a seed for tools such as the CLI.
type SeedJSON struct {
	Version     int        `json:"version"`
	RowsPerZone uint64     `json:"rows_per_zone"`
	Zones       []ZoneJSON `json:"zones"`
}

// ZoneJSON is a JSON-able view of one zone. Min and Max follow the corpus
// value conventions (internal/valuejson); nil means unknown or empty.
// NegativeNaNCount is nil for version 0 statistics.
type ZoneJSON struct {
	Min              any     `json:"min"`
	Max              any     `json:"max"`
	NullCount        uint64  `json:"null_count"`
	NaNCount         uint64  `json:"nan_count"`
	NegativeNaNCount *uint64 `json:"negative_nan_count,omitempty"`
	ZoneLength       uint64  `json:"zone_length"`
}

// JSON returns the JSON-able view of s. A version 0 NaN max marker is shown
// as null: it bounds nothing.
func (s *Seed) JSON() (SeedJSON, error) {
	out := SeedJSON{Version: s.Version, RowsPerZone: s.RowsPerZone, Zones: make([]ZoneJSON, len(s.Zones))}
	for i := range s.Zones {
		z, err := s.Zones[i].JSON()
		if err != nil {
			return SeedJSON{}, err
		}
		out.Zones[i] = z
	}
	return out, nil
}

// JSON returns the JSON-able view of one Stats.
func (s *Stats) JSON() (ZoneJSON, error) {
	lo, hi, err := s.Bounds()
	if err != nil {
		return ZoneJSON{}, err
	}
	z := ZoneJSON{Min: lo, Max: hi, NullCount: s.NullCount, NaNCount: s.NaNCount, ZoneLength: s.ZoneLength}
	if s.NaNSignKnown {
		neg := s.NegativeNaNCount
		z.NegativeNaNCount = &neg
	}
	return z, nil
}

// Bounds returns the bounds in the corpus value conventions, nil where
// unknown.
func (s *Stats) Bounds() (lo, hi any, err error) {
	if s.info == nil || !s.info.bounded() {
		return nil, nil, nil
	}
	b := array.NewBuilder(memory.NewGoAllocator(), s.info.vt)
	defer b.Release()
	for _, v := range []struct {
		v  value
		ok bool
	}{{s.min, s.hasMin}, {s.max, s.hasMax}} {
		if v.ok {
			appendValue(b, s.info, &v.v)
		} else {
			b.AppendNull()
		}
	}
	arr := b.NewArray()
	defer arr.Release()
	if lo, err = valuejson.Value(arr, 0); err != nil {
		return nil, nil, err
	}
	hi, err = valuejson.Value(arr, 1)
	return lo, hi, err
}
