package zonestats

import (
	"fmt"
	"strconv"
	"strings"
)

// SeedKeyPrefix prefixes the data file schema metadata key that locates a
// column's seed: the key is SeedKeyPrefix + column name.
const SeedKeyPrefix = "lance.seed."

// Locator is the value of a seed's schema metadata entry: which global
// buffer of the data file holds the seed, and the zone size.
type Locator struct {
	// BufferIndex is the global buffer index (>= 1; 0 is the schema).
	BufferIndex uint64
	// RowsPerZone is the zone size (> 0).
	RowsPerZone uint64
}

// SeedKey returns the schema metadata key of column's seed.
func SeedKey(column string) string { return SeedKeyPrefix + column }

// ColumnOfSeedKey returns the column name of a seed metadata key, and
// whether key is one (rule L1: the prefix must match exactly).
func ColumnOfSeedKey(key string) (string, bool) {
	return strings.CutPrefix(key, SeedKeyPrefix)
}

// FormatLocator returns the metadata value "<buffer_index>:<rows_per_zone>".
func FormatLocator(l Locator) string {
	return strconv.FormatUint(l.BufferIndex, 10) + ":" + strconv.FormatUint(l.RowsPerZone, 10)
}

// ParseLocator parses a metadata value written by FormatLocator (rule L1):
// exactly one ':' between two base-10 unsigned integers (digits only),
// rows_per_zone > 0. Buffer index 0 is rejected because global buffer 0
// always holds the file's schema.
func ParseLocator(s string) (Locator, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok || strings.Contains(b, ":") {
		return Locator{}, fmt.Errorf("%w: L1: locator %q is not <buffer_index>:<rows_per_zone>", ErrInvalidSeed, s)
	}
	idx, err1 := parseDecimal(a)
	rpz, err2 := parseDecimal(b)
	if err1 != nil || err2 != nil {
		return Locator{}, fmt.Errorf("%w: L1: locator %q does not hold two unsigned decimal integers", ErrInvalidSeed, s)
	}
	if rpz == 0 {
		return Locator{}, fmt.Errorf("%w: L1: locator %q has rows_per_zone 0", ErrInvalidSeed, s)
	}
	if idx == 0 {
		return Locator{}, fmt.Errorf("%w: L1: locator %q points at global buffer 0 (the schema)", ErrInvalidSeed, s)
	}
	return Locator{BufferIndex: idx, RowsPerZone: rpz}, nil
}

// parseDecimal parses a non-empty string of ASCII digits as a uint64.
func parseDecimal(s string) (uint64, error) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseUint(s, 10, 64)
}

// CheckBuffer checks rule L2's first half: the buffer index exists among
// numGlobalBuffers global buffers.
func (l Locator) CheckBuffer(numGlobalBuffers uint64) error {
	if l.BufferIndex >= numGlobalBuffers {
		return fmt.Errorf("%w: L2: buffer index %d not below %d global buffers", ErrInvalidSeed, l.BufferIndex, numGlobalBuffers)
	}
	return nil
}
