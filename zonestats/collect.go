package zonestats

import (
	"fmt"
	"math"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
)

// Collector computes version 1 zone statistics of one column from its
// values, batch by batch, and serializes them as a seed. A writer creates
// one Collector per seeded column, calls Append with each batch's array of
// that column, and at Close calls Finish to get the bytes of the global
// buffer (see FormatLocator for the schema metadata entry).
//
// Bounds follow Arrow Rust ordering (IEEE totalOrder for floats, so -0.0 <
// +0.0; bytewise for strings and binary; dictionaries by value) over the
// non-null, non-NaN values. Types without an order (lists, structs, maps,
// ...) get null bounds and counts of the outer column.
//
// A Collector is not safe for concurrent use.
type Collector struct {
	cfg    Config
	info   *typeInfo
	cmp    func(a, b *value) int
	layout floatLayout
	zones  []Stats
	cur    Stats
	rows   uint64
	nulls  *roaring.Bitmap
	done   bool
}

// NewCollector returns a Collector for a column of type dt.
func NewCollector(dt arrow.DataType, cfg Config) (*Collector, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	info := newTypeInfo(dt)
	c := &Collector{cfg: cfg, info: info, cmp: compareFunc(info.dom)}
	if info.isFloat() {
		c.layout = layoutFor(info.floatBits)
	}
	if cfg.NullBitmap {
		c.nulls = roaring.New()
	}
	c.resetZone()
	return c, nil
}

// resetZone starts a new, empty zone.
func (c *Collector) resetZone() {
	c.cur = Stats{info: c.info, NaNSignKnown: true}
}

// Rows returns the number of rows appended so far.
func (c *Collector) Rows() uint64 { return c.rows }

// Zones returns the statistics of the zones so far, the last one possibly
// partial. The result is a copy.
func (c *Collector) Zones() []Stats {
	out := append([]Stats(nil), c.zones...)
	if c.cur.ZoneLength > 0 {
		out = append(out, c.cur)
	}
	return out
}

// Append adds the rows of arr, whose type must equal the column type.
// Zones are cut every RowsPerZone rows regardless of batch boundaries.
func (c *Collector) Append(arr arrow.Array) error {
	if c.done {
		return ErrClosed
	}
	if !arrow.TypeEqual(arr.DataType(), c.info.dt) {
		return fmt.Errorf("%w: array of type %s appended to a %s seed", ErrMismatch, arr.DataType(), c.info.dt)
	}
	isNull, get := accessor(arr)
	for from, n := 0, arr.Len(); from < n; {
		room := c.cfg.RowsPerZone - c.cur.ZoneLength
		to := n
		if uint64(n-from) > room {
			to = from + int(room)
		}
		c.scan(isNull, get, from, to)
		if c.cur.ZoneLength == c.cfg.RowsPerZone {
			c.zones = append(c.zones, c.cur)
			c.resetZone()
		}
		from = to
	}
	return nil
}

// scan adds rows [from, to) of the current array to the current zone.
func (c *Collector) scan(isNull nullFunc, get getter, from, to int) {
	z := &c.cur
	for i := from; i < to; i++ {
		if isNull(i) {
			z.NullCount++
			c.addNull(c.rows + uint64(i-from))
			continue
		}
		if get == nil {
			continue
		}
		v := get(i)
		if c.info.isFloat() {
			if nan, neg := c.layout.isNaN(v.u); nan {
				z.NaNCount++
				if neg {
					z.NegativeNaNCount++
				}
				continue
			}
		}
		c.update(&v)
	}
	z.ZoneLength += uint64(to - from)
	c.rows += uint64(to - from)
}

// update widens the current zone's bounds to include v, copying bytes.
func (c *Collector) update(v *value) {
	z := &c.cur
	if !z.hasMin || c.cmp(v, &z.min) < 0 {
		z.min = value{i: v.i, u: v.u, w: v.w, b: append(z.min.b[:0], v.b...)}
		z.hasMin = true
	}
	if !z.hasMax || c.cmp(v, &z.max) > 0 {
		z.max = value{i: v.i, u: v.u, w: v.w, b: append(z.max.b[:0], v.b...)}
		z.hasMax = true
	}
}

// addNull records a null at offset off in the null bitmap, dropping the
// bitmap when the offset does not fit in 32 bits.
func (c *Collector) addNull(off uint64) {
	if c.nulls == nil {
		return
	}
	if off > math.MaxUint32 {
		c.nulls = nil
		return
	}
	c.nulls.Add(uint32(off))
}

// Finish returns the serialized seed: an Arrow IPC file with the version 1
// schema holding one record per zone. The Collector cannot be used
// afterwards. A column with no rows gives a seed with no records.
func (c *Collector) Finish() ([]byte, error) {
	if c.done {
		return nil, ErrClosed
	}
	c.done = true
	zones := c.Zones()
	var bitmap *roaring.Bitmap
	if c.nulls != nil {
		bitmap = c.nulls
	}
	return writeSeed(c.cfg.Allocator, c.info, zones, bitmap)
}
