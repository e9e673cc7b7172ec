package indices

// ZONEMAP scalar index (spec indices.md §2.4): zonemap.lance has one row
// per zone (min, max of the non-null non-NaN values, null_count, nan_count,
// fragment_id, zone_start, zone_length); global buffer "null_bitmap" holds
// the null rows. Comparisons give whole zones (AtMost: recheck); IS NULL is
// exact from the null bitmap.

import (
	"context"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lancego/lancego/internal/fileread"
)

// ZoneMapFile is the file name of a ZONEMAP index.
const ZoneMapFile = "zonemap.lance"

// maxZones bounds the zones a zonemap file may hold.
const maxZones = 1 << 26

// Zone is one zone of a zone map.
type Zone struct {
	Fragment, Start, Length uint64
	NullCount, NaNCount     uint32
}

// ZoneMap is an opened ZONEMAP segment (all zones in memory).
type ZoneMap struct {
	url      string
	zones    []Zone
	min, max arrow.Array
	recs     []arrow.RecordBatch
	file     indexFile
}

// OpenZoneMap opens the ZONEMAP segment in directory dir.
func OpenZoneMap(ctx context.Context, dir string, opts ...fileread.Option) (*ZoneMap, error) {
	return OpenZoneMapWith(ctx, pathOpener{opts}, dir)
}

// OpenZoneMapWith opens the ZONEMAP segment in directory dir relative to
// op; it reads every zone.
func OpenZoneMapWith(ctx context.Context, op Opener, dir string) (*ZoneMap, error) {
	f, err := openIndexFile(ctx, op, dir, ZoneMapFile)
	if err != nil {
		return nil, err
	}
	z := &ZoneMap{url: f.name, file: f}
	if f.f.NumRows() > maxZones {
		z.Close()
		return nil, fmt.Errorf("%w: %s: %d zones", ErrCorrupt, z.url, f.f.NumRows())
	}
	if err := z.load(ctx); err != nil {
		z.Close()
		return nil, err
	}
	return z, nil
}

func (z *ZoneMap) load(ctx context.Context) error {
	cols := []string{"min", "max", "null_count", "nan_count", "fragment_id", "zone_start", "zone_length"}
	recs, err := readWhole(ctx, z.file.f, cols)
	if err != nil {
		return err
	}
	z.recs = recs
	var mins, maxs []arrow.Array
	for _, r := range recs {
		mins, maxs = append(mins, r.Column(0)), append(maxs, r.Column(1))
		nc, ok1 := r.Column(2).(*array.Uint32)
		nn, ok2 := r.Column(3).(*array.Uint32)
		fr, ok3 := r.Column(4).(*array.Uint64)
		st, ok4 := r.Column(5).(*array.Uint64)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return fmt.Errorf("%w: %s: zone columns of unexpected types", ErrCorrupt, z.url)
		}
		lens, err := uintValues(r.Column(6))
		if err != nil {
			return fmt.Errorf("%w: %s: zone_length: %v", ErrCorrupt, z.url, err)
		}
		for i := 0; i < int(r.NumRows()); i++ {
			zn := Zone{Fragment: fr.Value(i), Start: st.Value(i), Length: lens[i], NullCount: nc.Value(i), NaNCount: nn.Value(i)}
			if zn.Fragment > 0xFFFFFFFF || zn.Start > 0xFFFFFFFF || zn.Length > 0xFFFFFFFF-zn.Start {
				return fmt.Errorf("%w: %s: zone %d (fragment %d, rows %d+%d) out of range", ErrCorrupt, z.url, len(z.zones), zn.Fragment, zn.Start, zn.Length)
			}
			z.zones = append(z.zones, zn)
		}
	}
	if len(mins) == 0 {
		return nil
	}
	if z.min, err = concat(mins); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, z.url, err)
	}
	if z.max, err = concat(maxs); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, z.url, err)
	}
	return nil
}

// uintValues reads a uint32 or uint64 column (zone_length is uint64 in
// 14.0.2 files, uint32 in the docs).
func uintValues(a arrow.Array) ([]uint64, error) {
	switch c := a.(type) {
	case *array.Uint64:
		return c.Uint64Values(), nil
	case *array.Uint32:
		out := make([]uint64, c.Len())
		for i, v := range c.Uint32Values() {
			out[i] = uint64(v)
		}
		return out, nil
	}
	return nil, fmt.Errorf("type %s", a.DataType())
}

// Close releases the segment.
func (z *ZoneMap) Close() error {
	releaseAll(z.recs)
	z.recs = nil
	for _, a := range []arrow.Array{z.min, z.max} {
		if a != nil {
			a.Release()
		}
	}
	z.min, z.max = nil, nil
	return z.file.close()
}

// Zones returns the zones (not to be modified).
func (z *ZoneMap) Zones() []Zone { return z.zones }

// Range returns the addresses of the zones that may hold a value within
// the bounds (AtMost: the caller rechecks). Zones with NaNs are kept, as
// Lance keeps them, since NaN is above every number.
func (z *ZoneMap) Range(_ context.Context, lo, hi Bound) (*roaring64.Bitmap, error) {
	out := roaring64.New()
	for i, zn := range z.zones {
		keep := zn.NaNCount > 0
		if !keep && !z.min.IsNull(i) && !z.max.IsNull(i) {
			ok, err := z.overlaps(i, lo, hi)
			if err != nil {
				return nil, err
			}
			keep = ok
		}
		if keep {
			base := zn.Fragment<<32 | zn.Start
			out.AddRange(base, base+zn.Length)
		}
	}
	return out, nil
}

// Equal returns the candidate addresses for value = k.
func (z *ZoneMap) Equal(ctx context.Context, k Key) (*roaring64.Bitmap, error) {
	b := Bound{Key: k, Inclusive: true}
	return z.Range(ctx, b, b)
}

// In returns the candidate addresses for value IN keys.
func (z *ZoneMap) In(ctx context.Context, keys []Key) (*roaring64.Bitmap, error) {
	out := roaring64.New()
	for _, k := range keys {
		r, err := z.Equal(ctx, k)
		if err != nil {
			return nil, err
		}
		out.Or(r)
	}
	return out, nil
}

// IsNull returns the null rows: exact from the null bitmap; without one
// (older indices) every zone with nulls (AtMost).
func (z *ZoneMap) IsNull(ctx context.Context) (rows *roaring64.Bitmap, exact bool, err error) {
	rows, ok, err := nullBitmapBuffer(ctx, z.file, "null_bitmap")
	if err != nil || ok {
		return rows, ok, err
	}
	out := roaring64.New()
	for _, zn := range z.zones {
		if zn.NullCount > 0 {
			base := zn.Fragment<<32 | zn.Start
			out.AddRange(base, base+zn.Length)
		}
	}
	return out, false, nil
}

// overlaps reports whether zone i's [min, max] meets the bounds.
func (z *ZoneMap) overlaps(i int, lo, hi Bound) (bool, error) {
	if !lo.Unbounded {
		c, err := compareAt(z.max, i, lo.Key)
		if err != nil || c < 0 || (c == 0 && !lo.Inclusive) {
			return false, err
		}
	}
	if !hi.Unbounded {
		c, err := compareAt(z.min, i, hi.Key)
		if err != nil || c > 0 || (c == 0 && !hi.Inclusive) {
			return false, err
		}
	}
	return true, nil
}
