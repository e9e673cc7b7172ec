package zonestats

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
)

// seedFields returns the field names of a seed version's schema.
func seedFields(version int) []string {
	if version == 0 {
		return []string{fieldMin, fieldMax, fieldNullCount, fieldNaNCount, fieldZoneLength}
	}
	return []string{fieldMin, fieldMax, fieldNullCount, fieldNaNCount, fieldNegNaNCount, fieldZoneLength}
}

// checkSchema checks the version (L3), the field list (L2) and the field
// types (L4), and sets s.Version.
func (s *Seed) checkSchema(schema *arrow.Schema, meta map[string]string) error {
	switch v, ok := meta[MetaVersion]; {
	case !ok:
		s.Version = 0
	case v == "1":
		s.Version = 1
	default:
		return fmt.Errorf("%w: L3: version %q", ErrUnsupportedVersion, v)
	}
	names := seedFields(s.Version)
	if schema.NumFields() != len(names) {
		return fmt.Errorf("%w: L2: version %d seed has %d fields, want %v", ErrInvalidSeed, s.Version, schema.NumFields(), names)
	}
	for i, f := range schema.Fields() {
		if f.Name != names[i] {
			return fmt.Errorf("%w: L2: field %d is %q, want %q", ErrInvalidSeed, i, f.Name, names[i])
		}
		if err := s.checkFieldType(f, i < 2); err != nil {
			return err
		}
	}
	return nil
}

// checkFieldType checks one field's type and nullability (L4, C4).
func (s *Seed) checkFieldType(f arrow.Field, isBound bool) error {
	if isBound {
		if arrow.TypeEqual(f.Type, s.info.dt) || (s.info.vt != s.info.dt && arrow.TypeEqual(f.Type, s.info.vt)) {
			return nil
		}
		return fmt.Errorf("%w: L4: %s has type %s, column has %s", ErrInvalidSeed, f.Name, f.Type, s.info.dt)
	}
	want := arrow.DataType(arrow.PrimitiveTypes.Uint32)
	if f.Name == fieldZoneLength {
		want = arrow.PrimitiveTypes.Uint64
	}
	if !arrow.TypeEqual(f.Type, want) {
		rule := "L4"
		if arrow.IsInteger(f.Type.ID()) {
			rule = "C4/L4" // a count declared with another integer type
		}
		return fmt.Errorf("%w: %s: %s has type %s, want %s", ErrInvalidSeed, rule, f.Name, f.Type, want)
	}
	if f.Nullable {
		return fmt.Errorf("%w: L4: count column %s is nullable", ErrInvalidSeed, f.Name)
	}
	return nil
}

// boundReader reads one bound column.
type boundReader struct {
	isNull nullFunc
	get    getter
}

// boundReader returns the reader of a min or max array.
func (s *Seed) boundReader(arr arrow.Array) (boundReader, error) {
	isNull, get := accessor(arr)
	if s.info.bounded() && get == nil {
		return boundReader{}, fmt.Errorf("%w: L4: bound array of type %s cannot be read", ErrInvalidSeed, arr.DataType())
	}
	return boundReader{isNull, get}, nil
}

// readBound reads row i of a bound column (B1, B5).
func (s *Seed) readBound(b boundReader, i int, name string) (value, bool, error) {
	if b.isNull(i) {
		return value{}, false, nil
	}
	if !s.info.bounded() {
		return value{}, false, fmt.Errorf("%w: B5: %s is not null for type %s without bounds", ErrInvalidSeed, name, s.info.dt)
	}
	v := b.get(i)
	v.b = append([]byte(nil), v.b...)
	if s.info.isFloat() {
		if nan, _ := layoutFor(s.info.floatBits).isNaN(v.u); nan {
			if s.Version == 0 {
				return value{}, false, nil // v0 NaN marker: bound unknown
			}
			return value{}, false, fmt.Errorf("%w: B1: %s is NaN in a version 1 seed", ErrInvalidSeed, name)
		}
	}
	return v, true, nil
}

// setBounds sets the bounds of zone z from row i (B1, B4, B5).
func (s *Seed) setBounds(z *Stats, minB, maxB boundReader, i int) error {
	var err error
	if z.min, z.hasMin, err = s.readBound(minB, i, fieldMin); err != nil {
		return err
	}
	if z.max, z.hasMax, err = s.readBound(maxB, i, fieldMax); err != nil {
		return err
	}
	if z.hasMin && z.hasMax && compareFunc(s.info.dom)(&z.min, &z.max) > 0 {
		return fmt.Errorf("%w: B4: min > max", ErrInvalidSeed)
	}
	return nil
}

// validate checks the counts of every zone (C1–C3) and the zone layout
// against the data file's rows (L5).
func (s *Seed) validate(rows uint64) error {
	for i := range s.Zones {
		if err := s.checkCounts(&s.Zones[i]); err != nil {
			return fmt.Errorf("zone %d: %w", i, err)
		}
	}
	return s.checkLayout(rows)
}

// checkCounts checks C1–C3 for one zone. Counts are u32 and zone_length
// u64, so the sums below cannot overflow.
func (s *Seed) checkCounts(z *Stats) error {
	if z.NullCount+z.NaNCount > z.ZoneLength {
		return fmt.Errorf("%w: C1: null_count %d + nan_count %d > zone_length %d", ErrInvalidSeed, z.NullCount, z.NaNCount, z.ZoneLength)
	}
	if !s.info.isFloat() && (z.NaNCount != 0 || z.NegativeNaNCount != 0) {
		return fmt.Errorf("%w: C3: NaN counts %d/%d for non-float type %s", ErrInvalidSeed, z.NaNCount, z.NegativeNaNCount, s.info.dt)
	}
	if s.Version == 1 && z.NegativeNaNCount > z.NaNCount {
		return fmt.Errorf("%w: C2: negative_nan_count %d > nan_count %d", ErrInvalidSeed, z.NegativeNaNCount, z.NaNCount)
	}
	return nil
}

// checkLayout checks L5: ⌈rows/rows_per_zone⌉ zones, all full but the
// last, which holds 1..=rows_per_zone rows, summing to rows.
func (s *Seed) checkLayout(rows uint64) error {
	rpz := s.RowsPerZone
	want := rows / rpz
	if rows%rpz != 0 {
		want++
	}
	if uint64(len(s.Zones)) != want {
		return fmt.Errorf("%w: L5: %d zones, want %d for %d rows of %d", ErrInvalidSeed, len(s.Zones), want, rows, rpz)
	}
	var sum, carry uint64
	for i := range s.Zones {
		zl := s.Zones[i].ZoneLength
		last := i == len(s.Zones)-1
		if (!last && zl != rpz) || (last && (zl == 0 || zl > rpz)) {
			return fmt.Errorf("%w: L5: zone %d has zone_length %d with rows_per_zone %d", ErrInvalidSeed, i, zl, rpz)
		}
		if sum, carry = bits.Add64(sum, zl, 0); carry != 0 {
			return fmt.Errorf("%w: L5: zone lengths overflow", ErrInvalidSeed)
		}
	}
	if sum != rows {
		return fmt.Errorf("%w: L5: zone lengths sum to %d, data file covers %d rows", ErrInvalidSeed, sum, rows)
	}
	return nil
}

// checkBitmapCounts checks the second half of N4: per zone, the number of
// bitmap members in the zone's row range equals its null_count.
func (s *Seed) checkBitmapCounts() error {
	var start uint64
	for i := range s.Zones {
		end := start + s.Zones[i].ZoneLength // ≤ rows, no overflow (L5)
		got := rankBelow(s, end) - rankBelow(s, start)
		if got != s.Zones[i].NullCount {
			return fmt.Errorf("%w: N4: zone %d has %d null bitmap members, null_count %d", ErrInvalidSeed, i, got, s.Zones[i].NullCount)
		}
		start = end
	}
	return nil
}

// rankBelow returns the number of bitmap members < x.
func rankBelow(s *Seed, x uint64) uint64 {
	if x == 0 {
		return 0
	}
	if x > math.MaxUint32 {
		return s.NullBitmap.GetCardinality()
	}
	return s.NullBitmap.Rank(uint32(x - 1))
}
