package dataset

// The ZONEMAP builder (issue #37 item 3): a fragment whose data file
// carries a zone seed of the column gets its zones from the seed alone
// (the file's global buffer; no column page is read); other fragments
// are read once and zoned as Lance's trainer zones them.

import (
	"context"
	"math"
	"runtime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"golang.org/x/sync/errgroup"

	"github.com/lancego/lancego/indices"
)

// zoneMapInput returns the zones of column (top-level position pos) over
// every fragment, in fragment order.
func (ds *Dataset) zoneMapInput(ctx context.Context, column string, pos int, rowsPerZone uint64) (indices.ZoneMapBuild, error) {
	if len(ds.frags) == 0 {
		in, err := ds.indexInput(ctx, column, false, nil)
		if err != nil {
			return indices.ZoneMapBuild{}, err
		}
		defer in.Values.Release()
		return indices.ColumnZones(ctx, in, rowsPerZone)
	}
	// fragments are zoned concurrently (opening a data file and reading
	// its seeds is a round trip or two each), into their places
	parts := make([]indices.ZoneMapBuild, len(ds.frags))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(4, 2*runtime.GOMAXPROCS(0)))
	for i := range ds.frags {
		g.Go(func() error {
			part, ok, err := ds.zonesFromSeed(gctx, i, pos, rowsPerZone)
			if err != nil || ok {
				parts[i] = part
				return err
			}
			in, err := ds.indexInput(gctx, column, false, []int{i})
			if err != nil {
				return err
			}
			defer in.Values.Release()
			parts[i], err = indices.ColumnZones(gctx, in, rowsPerZone)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		for _, p := range parts {
			if p.Min != nil {
				p.Min.Release()
				p.Max.Release()
			}
		}
		return indices.ZoneMapBuild{}, err
	}
	return indices.ConcatZoneMaps(ds.allocator(), parts)
}

// zonesFromSeed makes fragment i's zones of the field at pos from the zone
// seed of the data file holding it: the seed's zones (regrouped to
// rowsPerZone when that is a multiple of the seed's zone size) over the
// file's physical rows, deleted ones included (the deletion files mask
// them at query time), bounds from the seed, a NaN max where the counts
// show NaNs (as pylance's bounds have it), NULL rows from
// the seed's null bitmap. ok is false when the file has no usable seed:
// none, invalid, of another type, bounds unknown for a zone that holds
// values, or null positions unknown for a zone partly NULL.
func (ds *Dataset) zonesFromSeed(ctx context.Context, i, pos int, rowsPerZone uint64) (indices.ZoneMapBuild, bool, error) {
	m, err := ds.fragment(i)
	if err != nil {
		return indices.ZoneMapBuild{}, false, err
	}
	files, err := ds.columnsOf(ctx, m, []int{pos})
	if err != nil {
		return indices.ZoneMapBuild{}, false, err
	}
	if len(files) != 1 || !hasSeedKeys(files[0].file) {
		return indices.ZoneMapBuild{}, false, nil
	}
	fc := files[0]
	seeds, _, err := fc.file.ZoneSeeds(ctx)
	if err != nil {
		return indices.ZoneMapBuild{}, false, err
	}
	s := seeds[fc.names[0]]
	if s == nil || !arrow.TypeEqual(s.Type(), fc.types[0]) || s.Rows() != fc.file.NumRows() {
		return indices.ZoneMapBuild{}, false, nil
	}
	zones := s.Zones
	if rowsPerZone%s.RowsPerZone == 0 {
		if zones, err = s.ZonesOf(rowsPerZone, s.Rows()); err != nil {
			return indices.ZoneMapBuild{}, false, nil
		}
	}
	id := ds.man.Fragments[i].ID
	var out indices.ZoneMapBuild
	var mins, maxs []arrow.Array
	defer func() {
		for _, a := range append(mins, maxs...) {
			a.Release()
		}
	}()
	var start uint64
	for _, z := range zones {
		lo, hi, ok := z.BoundArrays(ds.allocator())
		if !ok {
			return indices.ZoneMapBuild{}, false, nil
		}
		ordinary := z.OrdinaryCount() > 0
		if lo.IsNull(0) && ordinary || z.NullCount > 0 && z.NullCount < z.ZoneLength && s.NullBitmap == nil {
			lo.Release()
			hi.Release()
			return indices.ZoneMapBuild{}, false, nil
		}
		// pylance's bounds order a NaN of either sign above every number:
		// max is NaN when the zone has one, min only when it has nothing
		// else (indices.ColumnZones)
		minNaN, maxNaN := 0, 0
		if z.NaNCount > 0 {
			maxNaN = 1
			if !ordinary {
				minNaN = 1
			}
		}
		mins, maxs = append(mins, nanBound(ds, lo, minNaN)), append(maxs, nanBound(ds, hi, maxNaN))
		if z.NullCount == z.ZoneLength && s.NullBitmap == nil {
			for r := start; r < start+z.ZoneLength; r++ {
				out.Nulls = append(out.Nulls, id<<32|r)
			}
		}
		out.Zones = append(out.Zones, indices.Zone{Fragment: id, Start: start, Length: z.ZoneLength,
			NullCount: uint32(z.NullCount), NaNCount: uint32(z.NaNCount)})
		start += z.ZoneLength
	}
	if s.NullBitmap != nil {
		it := s.NullBitmap.Iterator()
		for it.HasNext() {
			out.Nulls = append(out.Nulls, id<<32|uint64(it.Next()))
		}
	}
	if out.Min, err = array.Concatenate(mins, ds.allocator()); err != nil {
		return indices.ZoneMapBuild{}, false, err
	}
	if out.Max, err = array.Concatenate(maxs, ds.allocator()); err != nil {
		out.Min.Release()
		return indices.ZoneMapBuild{}, false, err
	}
	return out, true, nil
}

// nanBound returns the one-row float bound was (nan 0), or in its place
// (releasing it) a one-row array of its type holding a NaN of nan's sign.
func nanBound(ds *Dataset, was arrow.Array, nan int) arrow.Array {
	if nan == 0 {
		return was
	}
	v := indices.CanonicalNaN
	if nan < 0 {
		v = math.Copysign(v, -1)
	}
	var out arrow.Array
	switch was.DataType().ID() {
	case arrow.FLOAT32:
		b := array.NewFloat32Builder(ds.allocator())
		b.Append(math.Float32frombits(0x7fc00000 | math.Float32bits(float32(v))&0x80000000))
		out = b.NewArray()
		b.Release()
	case arrow.FLOAT64:
		b := array.NewFloat64Builder(ds.allocator())
		b.Append(v)
		out = b.NewArray()
		b.Release()
	default:
		return was
	}
	was.Release()
	return out
}
