package zonestats

import (
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
)

// Stats summarizes one column over a run of rows: one zone of a seed, or a
// merge of zones (a file, a fragment, several files). Counts are exact; the
// bounds are conservative (they may be wider than the values, never
// narrower) and may be unknown. Stats values are immutable once built.
//
// The zero Stats describes no rows and has no type; use the Stats of a
// Seed or Merge to get typed ones.
type Stats struct {
	// ZoneLength is the number of physical rows summarized.
	ZoneLength uint64
	// NullCount is the number of null rows.
	NullCount uint64
	// NaNCount is the number of NaN rows of either sign (floats only).
	NaNCount uint64
	// NegativeNaNCount is the number of NaN rows with the sign bit set. It
	// is meaningful only when NaNSignKnown is true.
	NegativeNaNCount uint64
	// NaNSignKnown is false for version 0 statistics (and merges that
	// include them) with NaNs: then both NaN signs are possible.
	NaNSignKnown bool

	info           *typeInfo
	min, max       value
	hasMin, hasMax bool
}

// Type returns the column's Arrow type, or nil for the zero Stats.
func (s *Stats) Type() arrow.DataType {
	if s.info == nil {
		return nil
	}
	return s.info.dt
}

// HasBounds reports whether both bounds are known.
func (s *Stats) HasBounds() bool { return s.hasMin && s.hasMax }

// OrdinaryCount returns the number of rows that are neither null nor NaN.
// The counts of a validated seed never make this negative.
func (s *Stats) OrdinaryCount() uint64 {
	return s.ZoneLength - s.NullCount - s.NaNCount
}

// mayNegNaN reports whether a NaN with the sign bit set may be present.
func (s *Stats) mayNegNaN() bool {
	if !s.NaNSignKnown {
		return s.NaNCount > 0
	}
	return s.NegativeNaNCount > 0
}

// mayPosNaN reports whether a NaN without the sign bit may be present.
func (s *Stats) mayPosNaN() bool {
	if !s.NaNSignKnown {
		return s.NaNCount > 0
	}
	return s.NaNCount > s.NegativeNaNCount
}

// Merge returns the statistics of the concatenation of a and b. Both must
// describe the same column type (or one may be the zero Stats). Bounds of
// the result are known only when each input's bounds are known or the
// input has no ordinary values (rule B3), so unknown stays unknown.
func Merge(a, b Stats) (Stats, error) {
	if a.info == nil {
		return b, nil
	}
	if b.info == nil {
		return a, nil
	}
	if !arrow.TypeEqual(a.info.dt, b.info.dt) {
		return Stats{}, fmt.Errorf("%w: merging stats of %s and %s", ErrMismatch, a.info.dt, b.info.dt)
	}
	out, err := mergeCounts(a, b)
	if err != nil {
		return Stats{}, err
	}
	out.info = a.info
	mergeBounds(&out, &a, &b)
	return out, nil
}

// mergeCounts adds the counts of a and b, failing on 64-bit overflow.
func mergeCounts(a, b Stats) (Stats, error) {
	var out Stats
	var c [4]uint64
	out.ZoneLength, c[0] = bits.Add64(a.ZoneLength, b.ZoneLength, 0)
	out.NullCount, c[1] = bits.Add64(a.NullCount, b.NullCount, 0)
	out.NaNCount, c[2] = bits.Add64(a.NaNCount, b.NaNCount, 0)
	out.NegativeNaNCount, c[3] = bits.Add64(a.NegativeNaNCount, b.NegativeNaNCount, 0)
	if c[0]|c[1]|c[2]|c[3] != 0 {
		return Stats{}, fmt.Errorf("%w: merged counts exceed 2^64-1", ErrOverflow)
	}
	out.NaNSignKnown = (a.NaNSignKnown || a.NaNCount == 0) && (b.NaNSignKnown || b.NaNCount == 0)
	return out, nil
}

// mergeBounds sets the bounds of out from a and b.
func mergeBounds(out, a, b *Stats) {
	if !out.info.bounded() {
		return
	}
	cmpf := compareFunc(out.info.dom)
	out.min, out.hasMin = mergeBound(a, b, a.min, a.hasMin, b.min, b.hasMin, func(x, y *value) bool { return cmpf(x, y) <= 0 })
	out.max, out.hasMax = mergeBound(a, b, a.max, a.hasMax, b.max, b.hasMax, func(x, y *value) bool { return cmpf(x, y) >= 0 })
}

// mergeBound picks the wider of two bounds; better(x, y) reports whether x
// is at least as wide as y. A side without ordinary values does not count.
func mergeBound(a, b *Stats, av value, aok bool, bv value, bok bool, better func(x, y *value) bool) (value, bool) {
	aEmpty, bEmpty := a.OrdinaryCount() == 0, b.OrdinaryCount() == 0
	switch {
	case aEmpty && bEmpty:
		return value{}, false
	case aEmpty:
		return bv, bok
	case bEmpty:
		return av, aok
	case !aok || !bok:
		return value{}, false
	case better(&av, &bv):
		return av, true
	}
	return bv, true
}

// MergeAll merges any number of statistics in order (see Merge).
func MergeAll(stats ...Stats) (Stats, error) {
	var out Stats
	for _, s := range stats {
		var err error
		if out, err = Merge(out, s); err != nil {
			return Stats{}, err
		}
	}
	return out, nil
}
