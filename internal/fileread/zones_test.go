package fileread

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lancego/lancego/expr"
	"github.com/lancego/lancego/internal/filewriter"
	"github.com/lancego/lancego/zonestats"
)

// TestZoneSeedsRoundTrip writes seeds for every column and reads them
// back: locators, versions, zone layout and nested columns.
func TestZoneSeedsRoundTrip(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	path := writeZoneFile(t, r, 10_000, true, 1000, filewriter.WithZoneSeeds(1000), filewriter.WithPageBudget(16<<10))
	f, err := Open(ctx, path, WithAllocator(zoneMem(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before := f.Stats().Requests
	seeds, problems, err := f.ZoneSeeds(ctx)
	if err != nil || len(problems) != 0 {
		t.Fatalf("ZoneSeeds: %v %v", err, problems)
	}
	if n := f.Stats().Requests - before; n > 1 {
		t.Fatalf("loading %d seeds took %d requests", len(seeds), n)
	} else {
		t.Logf("loading %d seeds after Open took %d request(s)", len(seeds), n)
	}
	if len(seeds) != len(zoneSchema.Fields()) {
		t.Fatalf("%d seeds, want %d", len(seeds), len(zoneSchema.Fields()))
	}
	for name, s := range seeds {
		if s.Version != 1 || s.RowsPerZone != 1000 || len(s.Zones) != 10 || s.Rows() != 10_000 {
			t.Errorf("%s: version %d, rpz %d, %d zones, %d rows", name, s.Version, s.RowsPerZone, len(s.Zones), s.Rows())
		}
		if v := f.Metadata().SchemaMetadata[zonestats.SeedKey(name)]; !strings.HasSuffix(v, ":1000") {
			t.Errorf("%s: locator %q", name, v)
		}
	}
	if z := seeds["l"].Zones[0]; z.HasBounds() || z.NullCount == 0 {
		t.Errorf("list column: bounds %v, nulls %d", z.HasBounds(), z.NullCount)
	}
	sum, err := f.ZoneSummary(ctx, "i")
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, err := sum.Bounds()
	if err != nil || lo == nil || hi == nil || sum.ZoneLength != 10_000 {
		t.Fatalf("summary of i: %v %v %v rows %d", lo, hi, err, sum.ZoneLength)
	}
}

// TestZoneSeedsOptIn checks that nothing is written without the option
// and that only the named columns get seeds.
func TestZoneSeedsOptIn(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		opts []filewriter.Option
		want int
	}{{nil, 0}, {[]filewriter.Option{filewriter.WithZoneSeeds(0, "s", "i")}, 2}} {
		path := writeZoneFile(t, rand.New(rand.NewPCG(3, 4)), 500, false, 0, tc.opts...)
		f, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		seeds, _, err := f.ZoneSeeds(ctx)
		if err != nil || len(seeds) != tc.want || len(f.Metadata().GlobalBuffers) != 1+tc.want {
			t.Fatalf("%d seeds (%v), %d global buffers, want %d", len(seeds), err, len(f.Metadata().GlobalBuffers), tc.want)
		}
		if tc.want > 0 && seeds["s"].RowsPerZone != zonestats.DefaultRowsPerZone {
			t.Fatalf("rows per zone %d", seeds["s"].RowsPerZone)
		}
		f.Close()
	}
	_, err := filewriter.Create(ctx, filepath.Join(t.TempDir(), "x.lance"), zoneSchema, filewriter.WithZoneSeeds(0, "nope"))
	if !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("unknown column: %v", err)
	}
}

// writeBadSeeds writes a file with three invalid seed locators: i's seed
// claims i is always 2^40 (if trusted, "i < 100" would prune everything)
// but has the wrong zone lengths (L5); s points at a missing buffer (L2);
// f's locator does not parse (L1).
func writeBadSeeds(t *testing.T, mem memory.Allocator) string {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bad.lance")
	w, err := filewriter.Create(ctx, path, zoneSchema)
	if err != nil {
		t.Fatal(err)
	}
	rec := zoneRecord(rand.New(rand.NewPCG(5, 6)), mem, 0, 3000, true)
	defer rec.Release()
	if err := w.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	c, _ := zonestats.NewCollector(arrow.PrimitiveTypes.Int64, zonestats.Config{RowsPerZone: 1000})
	arr, _, _ := array.FromJSON(mem, arrow.PrimitiveTypes.Int64, strings.NewReader("["+strings.Repeat("1099511627776,", 1999)+"1]"))
	_ = c.Append(arr)
	arr.Release()
	data, _ := c.Finish()
	idx, err := w.AddGlobalBuffer(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	w.AddSchemaMetadata(zonestats.SeedKey("i"), zonestats.FormatLocator(zonestats.Locator{BufferIndex: uint64(idx), RowsPerZone: 1000}))
	w.AddSchemaMetadata(zonestats.SeedKey("s"), "7:1000")
	w.AddSchemaMetadata(zonestats.SeedKey("f"), "1:x")
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestZoneSeedsInvalid: bad seeds are reported, never used to prune, and
// an error in strict mode.
func TestZoneSeedsInvalid(t *testing.T) {
	ctx := context.Background()
	mem := zoneMem(t)
	f, err := Open(ctx, writeBadSeeds(t, mem), WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seeds, problems, err := f.ZoneSeeds(ctx)
	if err != nil || len(seeds) != 0 || len(problems) != 3 {
		t.Fatalf("seeds %v problems %v err %v", seeds, problems, err)
	}
	for col, rule := range map[string]string{"i": "L5", "s": "L2", "f": "L1"} {
		if p := problems[col]; !errors.Is(p, zonestats.ErrInvalidSeed) || !strings.Contains(p.Error(), rule) {
			t.Errorf("%s: %v, want rule %s", col, p, rule)
		}
	}
	opts := ScanOptions{Filter: expr.Lt(expr.Col("i"), expr.Lit(100))}
	got, _ := scanJSON(t, f, opts)
	if want := referenceJSON(t, f, opts); string(got) != string(want) || f.Stats().ZonesPruned != 0 {
		t.Fatalf("invalid seed pruned (pruned %d)", f.Stats().ZonesPruned)
	}
	opts.StrictZoneSeeds = true
	for _, err := range f.Batches(ctx, opts) {
		if err == nil || !strings.Contains(err.Error(), "L5") {
			t.Fatalf("strict: %v", err)
		}
		break
	}
}

// TestFilterScanBasics checks projections without the filter column,
// repeated columns, row windows and bind errors.
func TestFilterScanBasics(t *testing.T) {
	ctx := context.Background()
	path := writeZoneFile(t, rand.New(rand.NewPCG(7, 8)), 20_000, true, 0, filewriter.WithZoneSeeds(500), filewriter.WithPageBudget(32<<10))
	f, err := Open(ctx, path, WithAllocator(zoneMem(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	filter, err := expr.Parse("i >= 30000 AND i < 31500 OR s = 'a'")
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []ScanOptions{
		{Filter: filter},
		{Filter: filter, Columns: []string{"u", "u", "l"}, BatchSize: 333},
		{Filter: filter, Columns: []string{"s"}, From: 9_999, To: 10_777, BatchSize: 100},
		{Filter: expr.IsNullOf(expr.Col("d")), Columns: []string{"b"}},
		{FilterSQL: "u % 7 = 3 AND i > 100", Columns: []string{"u"}, BatchSize: 777},
	} {
		got, _ := scanJSON(t, f, opts)
		if want := referenceJSON(t, f, opts); string(got) != string(want) {
			t.Fatalf("%v %v: filtered scan differs from reference\n got %.300s\nwant %.300s", opts.Filter, opts.Columns, got, want)
		}
	}
	st := f.Stats()
	if st.ZonesPruned == 0 || st.ZonesTotal == 0 || st.BytesSkipped == 0 {
		t.Fatalf("nothing pruned: %+v", st)
	}
	if _, err := f.Scan(ctx, ScanOptions{Filter: expr.IsNullOf(expr.Col("zz"))}); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(fmt.Sprint(err), "zz") {
		t.Fatalf("unknown filter column: %v", err)
	}
}
