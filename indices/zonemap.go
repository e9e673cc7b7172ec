package indices

// ZONEMAP scalar index (spec indices.md §2.4): zonemap.lance has one row
// per zone (min, max of the non-null non-NaN values, null_count, nan_count,
// fragment_id, zone_start, zone_length); global buffer "null_bitmap" holds
// the null rows. Comparisons give whole zones (AtMost: recheck); IS NULL is
// exact from the null bitmap.

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/encoding/protowire"

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

// ZONEMAP details and defaults as pylance 14.0.2 writes them.
const (
	ZoneMapDetailsTypeURL = "/lance.table.ZoneMapIndexDetails"
	// DefaultRowsPerZone is Lance's zone size.
	DefaultRowsPerZone = 8192
)

// ZoneMapDetails is the ZoneMapIndexDetails message pylance 14.0.2
// writes: rows_per_zone (1), use_seeds = false (2), has_null_bitmap =
// true (3).
func ZoneMapDetails(rowsPerZone uint64) []byte {
	var b []byte
	b = protowire.AppendVarint(protowire.AppendTag(b, 1, protowire.VarintType), rowsPerZone)
	b = protowire.AppendVarint(protowire.AppendTag(b, 2, protowire.VarintType), 0)
	return protowire.AppendVarint(protowire.AppendTag(b, 3, protowire.VarintType), 1)
}

// ZoneMapBuild is the input of BuildZoneMap: the zones in order, their
// bounds (one row per zone; NULL when the zone holds no non-null value)
// and the addresses of the NULL rows.
type ZoneMapBuild struct {
	Zones    []Zone
	Min, Max arrow.Array
	// Nulls are the row addresses of NULL rows, ascending.
	Nulls []uint64
}

// BuildZoneMap writes a ZONEMAP segment through sink: zonemap.lance with
// one row per zone (min, max, null_count, nan_count, fragment_id,
// zone_start, zone_length as uint64, as 14.0.2 writes it), schema
// metadata rows_per_zone and null_bitmap = "1", and global buffer 1 the
// RowAddrTreeMap of the NULL rows.
func BuildZoneMap(ctx context.Context, sink FileSink, b ZoneMapBuild, rowsPerZone uint64, mem memory.Allocator) ([]IndexFile, error) {
	n := len(b.Zones)
	if b.Min == nil || b.Max == nil || b.Min.Len() != n || b.Max.Len() != n {
		return nil, fmt.Errorf("%w: zone map of %d zones without one bound per zone", ErrInvalidQuery, n)
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	nulls, err := AppendRowAddrTreeMap(nil, b.Nulls)
	if err != nil {
		return nil, err
	}
	nc, nn := make([]uint32, n), make([]uint32, n)
	fr, st, ln := make([]uint64, n), make([]uint64, n), make([]uint64, n)
	for i, z := range b.Zones {
		nc[i], nn[i], fr[i], st[i], ln[i] = z.NullCount, z.NaNCount, z.Fragment, z.Start, z.Length
	}
	typ := b.Min.DataType()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "min", Type: typ, Nullable: true},
		{Name: "max", Type: typ, Nullable: true},
		{Name: "null_count", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "nan_count", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "fragment_id", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "zone_start", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "zone_length", Type: arrow.PrimitiveTypes.Uint64},
	}, metadataOf("rows_per_zone", strconv.FormatUint(rowsPerZone, 10), "null_bitmap", "1"))
	b.Min.Retain()
	b.Max.Retain()
	f, err := writeOneBatch(ctx, sink, ZoneMapFile, schema, []arrow.Array{b.Min, b.Max,
		uint32Array(mem, nc), uint32Array(mem, nn), uint64Array(mem, fr), uint64Array(mem, st), uint64Array(mem, ln)},
		[][]byte{nulls})
	if err != nil {
		return nil, err
	}
	return []IndexFile{f}, nil
}

// ColumnZones computes the zones of in (row addresses for ids, ascending)
// as Lance's zone map trainer does: runs of up to rowsPerZone live rows
// of one fragment; zone_start is the first row's offset and zone_length
// the span to the last one (deleted rows inside count); min and max are
// the least and greatest non-null values, floats ordered as pylance's
// min/max aggregates order them (numbers in IEEE total order, so -0
// below +0, and a NaN of either sign above every number: max is NaN when
// the zone has one); the NULL rows' addresses are listed.
func ColumnZones(ctx context.Context, in ScalarBuild, rowsPerZone uint64) (ZoneMapBuild, error) {
	if err := in.check(); err != nil {
		return ZoneMapBuild{}, err
	}
	if rowsPerZone == 0 {
		rowsPerZone = DefaultRowsPerZone
	}
	a, ids, mem := in.Values, in.IDs, in.mem()
	keyOf, fixed, _ := fixedKeys(a)
	val, isBytes := bytesValues(a)
	if !fixed && !isBytes {
		return ZoneMapBuild{}, fmt.Errorf("%w: zone map of a %s column", ErrUnsupported, a.DataType())
	}
	key := func(i int) uint64 { // NaN of either sign above every number
		if isNaNAt(a, i) {
			return math.MaxUint64
		}
		return keyOf(i)
	}
	var nanZones []int // zones whose max is NaN
	less := func(i, j int) bool {
		if fixed {
			return key(i) < key(j)
		}
		return bytes.Compare(val(i), val(j)) < 0
	}
	var out ZoneMapBuild
	var mins, maxs []int32
	zones, spans, err := zoneSpans(ids, rowsPerZone)
	if err != nil {
		return ZoneMapBuild{}, err
	}
	for zi, z := range zones {
		lo, hi := spans[zi][0], spans[zi][1]
		mn, mx := int32(-1), int32(-1)
		for i := lo; i < hi; i++ {
			if a.IsNull(i) {
				z.NullCount++
				out.Nulls = append(out.Nulls, ids[i])
				continue
			}
			if fixed && isNaNAt(a, i) {
				z.NaNCount++
			}
			if mn < 0 || less(i, int(mn)) {
				mn = int32(i)
			}
			if mx < 0 || less(int(mx), i) {
				mx = int32(i)
			}
		}
		if z.NaNCount > 0 {
			nanZones = append(nanZones, len(out.Zones))
		}
		out.Zones, mins, maxs = append(out.Zones, z), append(mins, mn), append(maxs, mx)
	}
	if out.Min, err = takeRows(ctx, mem, a, mins); err != nil {
		return ZoneMapBuild{}, err
	}
	if out.Max, err = takeRows(ctx, mem, a, maxs); err != nil {
		out.Min.Release()
		return ZoneMapBuild{}, err
	}
	if len(nanZones) > 0 {
		out.Min = withCanonicalNaN(mem, out.Min, nanZones, true)
		out.Max = withCanonicalNaN(mem, out.Max, nanZones, false)
	}
	return out, nil
}

// CanonicalNaN is the NaN pylance's zone maps store as a bound (positive,
// quiet, no payload: 0x7ff8000000000000), whatever NaN the zone holds; a
// negative NaN there would order below every number and exclude the zone.
var CanonicalNaN = math.Float64frombits(0x7ff8000000000000)

// withCanonicalNaN returns bounds (released) with the bound of each zone
// of nanZones that is NaN set to CanonicalNaN: every max of those zones,
// and a min only when the zone holds nothing but NaNs and NULLs.
func withCanonicalNaN(mem memory.Allocator, bounds arrow.Array, nanZones []int, isMin bool) arrow.Array {
	defer bounds.Release()
	set := make(map[int]bool, len(nanZones))
	for _, z := range nanZones {
		set[z] = true
	}
	switch b := bounds.(type) {
	case *array.Float64:
		bl := array.NewFloat64Builder(mem)
		defer bl.Release()
		for i := 0; i < b.Len(); i++ {
			switch {
			case b.IsNull(i):
				bl.AppendNull()
			case set[i] && (!isMin || math.IsNaN(b.Value(i))):
				bl.Append(CanonicalNaN)
			default:
				bl.Append(b.Value(i))
			}
		}
		return bl.NewArray()
	case *array.Float32:
		bl := array.NewFloat32Builder(mem)
		defer bl.Release()
		for i := 0; i < b.Len(); i++ {
			switch {
			case b.IsNull(i):
				bl.AppendNull()
			case set[i] && (!isMin || math.IsNaN(float64(b.Value(i)))):
				bl.Append(math.Float32frombits(0x7fc00000))
			default:
				bl.Append(b.Value(i))
			}
		}
		return bl.NewArray()
	}
	bounds.Retain()
	return bounds
}

// zoneSpans cuts rows with addresses ids (ascending) into Lance's zones:
// runs of up to rowsPerZone rows of one fragment, zone_start the first
// row's offset and zone_length the span to the last. spans are the rows'
// positions [lo, hi) in ids.
func zoneSpans(ids []uint64, rowsPerZone uint64) ([]Zone, [][2]int, error) {
	var zones []Zone
	var spans [][2]int
	for lo := 0; lo < len(ids); {
		frag := ids[lo] >> 32
		hi := lo
		for hi < len(ids) && uint64(hi-lo) < rowsPerZone && ids[hi]>>32 == frag {
			if hi > lo && ids[hi] <= ids[hi-1] {
				return nil, nil, fmt.Errorf("%w: zone rows not in address order at %d", ErrInvalidQuery, hi)
			}
			hi++
		}
		start := uint64(uint32(ids[lo]))
		zones = append(zones, Zone{Fragment: frag, Start: start, Length: uint64(uint32(ids[hi-1])) + 1 - start})
		spans = append(spans, [2]int{lo, hi})
		lo = hi
	}
	return zones, spans, nil
}

// isNaNAt reports whether the float a[i] is a NaN.
func isNaNAt(a arrow.Array, i int) bool {
	switch a := a.(type) {
	case *array.Float64:
		return math.IsNaN(a.Value(i))
	case *array.Float32:
		return math.IsNaN(float64(a.Value(i)))
	}
	return false
}

// ConcatZoneMaps joins the zone maps of parts (in fragment order) into
// one; the parts' bound arrays are released.
func ConcatZoneMaps(mem memory.Allocator, parts []ZoneMapBuild) (ZoneMapBuild, error) {
	var out ZoneMapBuild
	var mins, maxs []arrow.Array
	defer func() {
		for _, a := range append(mins, maxs...) {
			a.Release()
		}
	}()
	for _, p := range parts {
		out.Zones = append(out.Zones, p.Zones...)
		out.Nulls = append(out.Nulls, p.Nulls...)
		mins, maxs = append(mins, p.Min), append(maxs, p.Max)
	}
	if len(parts) == 0 {
		return out, fmt.Errorf("%w: a zone map of no parts", ErrInvalidQuery)
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	var err error
	if out.Min, err = array.Concatenate(mins, mem); err != nil {
		return ZoneMapBuild{}, err
	}
	if out.Max, err = array.Concatenate(maxs, mem); err != nil {
		out.Min.Release()
		return ZoneMapBuild{}, err
	}
	return out, nil
}
