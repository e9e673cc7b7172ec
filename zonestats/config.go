package zonestats

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// DefaultRowsPerZone is the zone size used when Config.RowsPerZone is 0:
// Lance's default of 8,192 rows per zone.
const DefaultRowsPerZone = 8192

// MaxRowsPerZone is the largest accepted zone size. The counts of a zone
// are UInt32 columns, so a zone may not hold more rows than they can count.
const MaxRowsPerZone = math.MaxUint32

// DefaultNullBitmap is the default of Config.NullBitmap: no
// seed_null_bitmap is written unless asked for.
const DefaultNullBitmap = false

// Config configures a Collector. The zero value uses the defaults.
type Config struct {
	// RowsPerZone is the number of rows per zone; 0 means
	// DefaultRowsPerZone. It must not exceed MaxRowsPerZone.
	RowsPerZone uint64
	// NullBitmap asks for the optional seed_null_bitmap metadata (the
	// exact null offsets as a portable Roaring bitmap). Offsets are u32, so
	// the bitmap is omitted (which means "null positions unknown", rule N1)
	// when a null lies at row 2^32 or later.
	NullBitmap bool
	// Allocator allocates the Arrow buffers of the serialized seed; nil
	// means memory.DefaultAllocator.
	Allocator memory.Allocator
}

// withDefaults fills in defaults and checks ranges.
func (c Config) withDefaults() (Config, error) {
	if c.RowsPerZone == 0 {
		c.RowsPerZone = DefaultRowsPerZone
	}
	if c.RowsPerZone > MaxRowsPerZone {
		return c, fmt.Errorf("%w: RowsPerZone %d exceeds %d", ErrInvalidConfig, c.RowsPerZone, uint64(MaxRowsPerZone))
	}
	if c.Allocator == nil {
		c.Allocator = memory.DefaultAllocator
	}
	return c, nil
}

// FlagZoneWriteSeeds is the table feature flag FLAG_ZONE_WRITE_SEEDS
// (bit 16, 65536) of a manifest's reader_feature_flags and
// writer_feature_flags. Rules of the specification:
//
//   - F1: the first manifest commit that references any version 1 seed sets
//     the bit in both reader_feature_flags and writer_feature_flags,
//     atomically; clients that do not support it must refuse the dataset.
//   - F2: activation is explicit, never triggered by merely opening a
//     dataset; both bits persist into derived snapshots (clone, restore)
//     even after an index is dropped; historical versions are untouched;
//     version 0 and version 1 seeds may coexist.
//   - F3: until runtime support lands the bit is reserved: a writer must not
//     emit version 1 seeds or set the bit by default.
//
// This package never sets the flag and never writes seeds on its own: a
// Collector only runs when a caller creates one. A writer that stores v1
// seeds must set this bit as F1 says, and only on explicit request.
const FlagZoneWriteSeeds uint64 = 1 << 16
