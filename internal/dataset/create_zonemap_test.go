package dataset

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/indices"
	"github.com/lancego/lancego/internal/filewriter"
)

// TestZoneMapFromSeedsReadsNoPages: on a dataset whose data files carry
// zone seeds, a ZONEMAP build reads what opening the data files and
// reading their seeds reads, no column page (a quarter or less of what
// reading the column for a BTREE reads here); the zones are those of reading it (same bounds, counts,
// starts and lengths; NaN max included).
func TestZoneMapFromSeedsReadsNoPages(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewGoAllocator()
	dir := filepath.Join(t.TempDir(), "seeded.lance")
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	const n = 400_000
	b := array.NewRecordBuilder(mem, schema)
	for k := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(k*7919%n) - 1000)
		if k%5000 == 17 {
			b.Field(1).(*array.Float64Builder).Append(math.NaN())
		} else {
			b.Field(1).(*array.Float64Builder).Append(float64(k%1000) / 8)
		}
	}
	rec := b.NewRecordBatch()
	b.Release()
	rdr, _ := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	ds, err := CreateDataset(ctx, dir, rdr, WithMaxRowsPerFile(250_000), WithFileOptions(filewriter.WithZoneSeeds(4096)))
	rdr.Release()
	rec.Release()
	if err != nil {
		t.Fatal(err)
	}
	ds.Close()
	for _, col := range []string{"i", "f"} {
		seedRead := buildBytes(t, dir, col, indices.TypeZoneMap)
		columnRead := buildBytes(t, dir, col, indices.TypeBTree)
		seedsOnly := seedBytes(t, dir, col)
		t.Logf("%s: zone map from seeds read %d bytes (opening the files and reading their seeds: %d), the BTREE build %d",
			col, seedRead, seedsOnly, columnRead)
		if seedRead < seedsOnly || seedRead-seedsOnly > 16<<10 || seedRead*4 > columnRead { // + the manifest, read to commit
			t.Errorf("%s: zone map from seeds read %d bytes; opening and reading seeds %d, reading the column %d", col, seedRead, seedsOnly, columnRead)
		}
		ds, err := OpenDataset(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		fromSeeds, err := ds.zoneMapInput(ctx, col, ds.arrow.FieldIndices(col)[0], indices.DefaultRowsPerZone)
		if err != nil {
			t.Fatal(err)
		}
		in, err := ds.indexInput(ctx, col, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		fromColumn, err := indices.ColumnZones(ctx, in, indices.DefaultRowsPerZone)
		in.Values.Release()
		if err != nil {
			t.Fatal(err)
		}
		if len(fromSeeds.Zones) != len(fromColumn.Zones) || len(fromSeeds.Zones) != 50 {
			t.Fatalf("%s: %d zones from seeds, %d from the column", col, len(fromSeeds.Zones), len(fromColumn.Zones))
		}
		if !slices.Equal(fromSeeds.Zones, fromColumn.Zones) {
			t.Fatalf("%s: zones from seeds %+v\nfrom the column %+v", col, fromSeeds.Zones, fromColumn.Zones)
		}
		for _, pair := range [][2]arrow.Array{{fromSeeds.Min, fromColumn.Min}, {fromSeeds.Max, fromColumn.Max}} {
			if !array.ApproxEqual(pair[0], pair[1], array.WithNaNsEqual(true)) {
				t.Fatalf("%s: bounds from seeds %v\nfrom the column %v", col, pair[0], pair[1])
			}
		}
		ds.Close()
	}
}

// seedBytes opens the data files holding col and reads their zone seeds,
// and returns the bytes read.
func seedBytes(t *testing.T, dir, col string) int64 {
	t.Helper()
	ctx := context.Background()
	ds := openTestDataset(t, dir)
	defer ds.Close()
	before := ds.Stats().BytesRead
	for i := range ds.frags {
		m, err := ds.fragment(i)
		if err != nil {
			t.Fatal(err)
		}
		files, err := ds.columnsOf(ctx, m, []int{ds.arrow.FieldIndices(col)[0]})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := files[0].file.ZoneSeeds(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return ds.Stats().BytesRead - before
}

// buildBytes builds an index of kind on col of the dataset at dir and
// returns the bytes the build read.
func buildBytes(t *testing.T, dir, col string, kind indices.IndexType) int64 {
	t.Helper()
	ctx := context.Background()
	ds := openTestDataset(t, dir)
	defer ds.Close()
	before := ds.Stats().BytesRead
	next, err := ds.CreateIndex(ctx, col, kind, IndexParams{Name: col + "_" + string(kind)})
	if err != nil {
		t.Fatal(err)
	}
	next.Close()
	return ds.Stats().BytesRead - before
}

// TestZoneSeedsFlag: FLAG_ZONE_WRITE_SEEDS is set only when asked for
// (WithZoneSeedsFlag), in both flag sets; later commits keep it, and
// this package reads the dataset.
func TestZoneSeedsFlag(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for k := range 1000 {
		b.Field(0).(*array.Int64Builder).Append(int64(k))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	reader := func() array.RecordReader {
		r, _ := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
		return r
	}
	seeds := WithFileOptions(filewriter.WithZoneSeeds(0))
	for _, flag := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "ds.lance")
		opts := []DatasetWriteOption{seeds}
		if flag {
			opts = append(opts, WithZoneSeedsFlag())
		}
		r := reader()
		ds, err := CreateDataset(ctx, dir, r, opts...)
		r.Release()
		if err != nil {
			t.Fatal(err)
		}
		r = reader()
		d2, err := ds.Append(ctx, r, seeds) // no flag option: kept when set
		r.Release()
		ds.Close()
		if err != nil {
			t.Fatal(err)
		}
		d2.Close()
		d3, err := OpenDataset(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		got := d3.man.ReaderFlags&FlagZoneWriteSeeds != 0 && d3.man.WriterFlags&FlagZoneWriteSeeds != 0
		none := d3.man.ReaderFlags&FlagZoneWriteSeeds == 0 && d3.man.WriterFlags&FlagZoneWriteSeeds == 0
		if flag && !got || !flag && !none {
			t.Fatalf("asked %v: reader flags %#x, writer flags %#x", flag, d3.man.ReaderFlags, d3.man.WriterFlags)
		}
		if n, err := d3.CountRows(ctx); err != nil || n != 2000 {
			t.Fatalf("asked %v: %d rows, %v", flag, n, err)
		}
		d3.Close()
	}
}
