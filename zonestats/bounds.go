package zonestats

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Accessors for pruners outside this package (the expr package's
// MayMatch): the bounds as Arrow values, the possible NaN signs, and a
// seed's statistics regrouped to a requested zone size.

// BoundArrays returns the bounds of s as two one-row arrays of the
// column's value type (the value type of a dictionary column). A bound
// that is unknown (rule B2), or absent because the rows hold no ordinary
// value (rule B3: check OrdinaryCount), is a NULL row. ok is false, and
// lo and hi nil, for the zero Stats and for types without bounds. The
// caller releases both arrays. mem may be nil.
//
// Bounds cover every non-null, non-NaN value in IEEE-754 totalOrder for
// floats (so -0.0 sorts below +0.0) and bytewise for strings and binary.
func (s *Stats) BoundArrays(mem memory.Allocator) (lo, hi arrow.Array, ok bool) {
	if s.info == nil || !s.info.bounded() {
		return nil, nil, false
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	lo = oneBoundArray(mem, s.info, s.min, s.hasMin)
	hi = oneBoundArray(mem, s.info, s.max, s.hasMax)
	return lo, hi, true
}

// oneBoundArray builds the one-row array of one bound.
func oneBoundArray(mem memory.Allocator, t *typeInfo, v value, known bool) arrow.Array {
	b := array.NewBuilder(mem, t.vt)
	defer b.Release()
	if known {
		appendValue(b, t, &v)
	} else {
		b.AppendNull()
	}
	return b.NewArray()
}

// MayHaveNegNaN reports whether a NaN with the sign bit set may be among
// the rows: version 0 statistics with NaNs do not know the signs, so both
// are possible.
func (s *Stats) MayHaveNegNaN() bool { return s.mayNegNaN() }

// MayHavePosNaN reports whether a NaN without the sign bit may be among
// the rows (see MayHaveNegNaN).
func (s *Stats) MayHavePosNaN() bool { return s.mayPosNaN() }

// ZonesOf returns the statistics of s for zones of rowsPerZone rows of a
// data file of rows rows: the seed's own zones when the sizes agree, else
// for each requested zone the merge of every seed zone overlapping its
// rows (wider, never narrower, so still conservative). A seed that does
// not cover exactly rows rows gives ErrMismatch; rowsPerZone 0 gives
// ErrInvalidConfig. The result must not be modified.
func (s *Seed) ZonesOf(rowsPerZone, rows uint64) ([]Stats, error) {
	if rowsPerZone == 0 {
		return nil, fmt.Errorf("%w: rowsPerZone is 0", ErrInvalidConfig)
	}
	if got := s.Rows(); got != rows {
		return nil, fmt.Errorf("%w: seed covers %d rows, not %d", ErrMismatch, got, rows)
	}
	if s.RowsPerZone == rowsPerZone {
		return s.Zones, nil
	}
	return mergeZonesTo(s.Zones, rowsPerZone, rows)
}

// mergeZonesTo merges zones into groups of rowsPerZone rows: each output
// zone merges every input zone that overlaps its row range.
func mergeZonesTo(zones []Stats, rowsPerZone, rows uint64) ([]Stats, error) {
	out := make([]Stats, 0, rows/rowsPerZone+1)
	var zStart uint64 // first row of zones[j]
	j := 0
	for start := uint64(0); start < rows; {
		end := start + min(rowsPerZone, rows-start)
		for j < len(zones) && zStart+zones[j].ZoneLength <= start {
			zStart += zones[j].ZoneLength
			j++
		}
		var acc Stats
		for k, ks := j, zStart; k < len(zones) && ks < end; ks, k = ks+zones[k].ZoneLength, k+1 {
			var err error
			if acc, err = Merge(acc, zones[k]); err != nil {
				return nil, err
			}
		}
		out = append(out, acc)
		start = end
	}
	return out, nil
}
