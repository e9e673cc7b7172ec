package zonestats

import (
	"encoding/hex"
	"math"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// spec describes a hand-written seed: every part can be corrupted.
type spec struct {
	version  string // "" = no version key (v0)
	dt       arrow.DataType
	minJSON  string
	maxJSON  string
	nulls    []uint32
	nans     []uint32
	negs     []uint32 // nil = v0 layout without the column
	lens     []uint64
	bitmap   *string
	mutate   func(fields []arrow.Field, cols []arrow.Array) ([]arrow.Field, []arrow.Array)
	boundsDT arrow.DataType // type of min/max (default dt)
}

// build writes the seed described by s.
func (s spec) build(t testing.TB, mem memory.Allocator) []byte {
	t.Helper()
	bdt := s.boundsDT
	if bdt == nil {
		bdt = s.dt
	}
	u32 := func(v []uint32) arrow.Array {
		b := array.NewUint32Builder(mem)
		defer b.Release()
		b.AppendValues(v, nil)
		return b.NewArray()
	}
	lb := array.NewUint64Builder(mem)
	lb.AppendValues(s.lens, nil)
	lens := lb.NewArray()
	lb.Release()
	fields := []arrow.Field{{Name: "min", Type: bdt, Nullable: true}, {Name: "max", Type: bdt, Nullable: true},
		{Name: "null_count", Type: arrow.PrimitiveTypes.Uint32}, {Name: "nan_count", Type: arrow.PrimitiveTypes.Uint32}}
	cols := []arrow.Array{arrayFromJSON(t, mem, bdt, s.minJSON), arrayFromJSON(t, mem, bdt, s.maxJSON), u32(s.nulls), u32(s.nans)}
	if s.negs != nil {
		fields = append(fields, arrow.Field{Name: "negative_nan_count", Type: arrow.PrimitiveTypes.Uint32})
		cols = append(cols, u32(s.negs))
	}
	fields = append(fields, arrow.Field{Name: "zone_length", Type: arrow.PrimitiveTypes.Uint64})
	cols = append(cols, lens)
	if s.mutate != nil {
		fields, cols = s.mutate(fields, cols)
	}
	meta := map[string]string{}
	if s.version != "" {
		meta["version"] = s.version
	}
	if s.bitmap != nil {
		meta["seed_null_bitmap"] = *s.bitmap
	}
	md := arrow.MetadataFrom(meta)
	return handSeed(t, mem, arrow.NewSchema(fields, &md), cols...)
}

// goodInt is a valid v1 seed of an int32 column: 2 zones of 4 rows, 6 rows.
func goodInt() spec {
	return spec{version: "1", dt: arrow.PrimitiveTypes.Int32, minJSON: `[1, null]`, maxJSON: `[5, null]`,
		nulls: []uint32{1, 2}, nans: []uint32{0, 0}, negs: []uint32{0, 0}, lens: []uint64{4, 2}}
}

// goodFloat is a valid v1 seed of a float64 column: 1 zone of 3 rows.
func goodFloat() spec {
	return spec{version: "1", dt: arrow.PrimitiveTypes.Float64, minJSON: `[1]`, maxJSON: `[2]`,
		nulls: []uint32{0}, nans: []uint32{1}, negs: []uint32{1}, lens: []uint64{3}}
}

func strp(s string) *string { return &s }

// bitmapHex serializes the given offsets.
func bitmapHex(vals ...uint32) string {
	raw, _ := roaring.BitmapOf(vals...).ToBytes()
	return hex.EncodeToString(raw)
}

func TestValidSeedsParse(t *testing.T) {
	mem := newMem(t)
	intSeed := goodInt()
	intSeed.bitmap = strp(bitmapHex(0, 4, 5))
	for _, tc := range []struct {
		s         spec
		rpz, rows uint64
	}{{intSeed, 4, 6}, {goodFloat(), 3, 3}} {
		if _, err := ParseSeed(tc.s.build(t, mem), tc.s.dt, tc.rpz, tc.rows, mem); err != nil {
			t.Errorf("valid seed rejected: %v", err)
		}
	}
}

func TestCorruptSeeds(t *testing.T) {
	type tcase struct {
		name      string
		s         spec
		rpz, rows uint64
		rule      string
	}
	with := func(f func(*spec)) spec { s := goodInt(); f(&s); return s }
	withF := func(f func(*spec)) spec { s := goodFloat(); f(&s); return s }
	cases := []tcase{
		{"version 2", with(func(s *spec) { s.version = "2" }), 4, 6, "L3"},
		{"missing negative_nan_count in v1", with(func(s *spec) { s.negs = nil }), 4, 6, "L2"},
		{"v0 with extra column", with(func(s *spec) { s.version = "" }), 4, 6, "L2"},
		{"renamed field", with(func(s *spec) {
			s.mutate = func(f []arrow.Field, c []arrow.Array) ([]arrow.Field, []arrow.Array) {
				f[2].Name = "nulls"
				return f, c
			}
		}), 4, 6, "L2"},
		{"bound type differs", with(func(s *spec) { s.boundsDT = arrow.PrimitiveTypes.Int64 }), 4, 6, "L4"},
		{"count nullable", with(func(s *spec) {
			s.mutate = func(f []arrow.Field, c []arrow.Array) ([]arrow.Field, []arrow.Array) {
				f[3].Nullable = true
				return f, c
			}
		}), 4, 6, "L4"},
		{"count declared int64", with(func(s *spec) {
			s.mutate = func(f []arrow.Field, c []arrow.Array) ([]arrow.Field, []arrow.Array) {
				c[2].Release()
				c[2] = arrayFromJSON(t, memory.DefaultAllocator, arrow.PrimitiveTypes.Int64, `[1, 4294967296]`)
				f[2].Type = arrow.PrimitiveTypes.Int64
				return f, c
			}
		}), 4, 6, "C4"},
		{"too few zones", with(func(s *spec) {}), 4, 9, "L5"},
		{"short middle zone", with(func(s *spec) { s.lens = []uint64{3, 3} }), 4, 6, "L5"},
		{"zone lengths do not sum", with(func(s *spec) { s.lens = []uint64{4, 4} }), 4, 6, "L5"},
		{"last zone empty", with(func(s *spec) { s.lens = []uint64{4, 0}; s.nulls = []uint32{1, 0} }), 4, 4, "L5"},
		{"C1 nulls exceed length", with(func(s *spec) { s.nulls = []uint32{5, 0} }), 4, 6, "C1"},
		{"C1 at the u32 limit", withF(func(s *spec) {
			s.nulls, s.nans, s.negs, s.lens = []uint32{math.MaxUint32}, []uint32{math.MaxUint32}, []uint32{0}, []uint64{math.MaxUint32}
		}), math.MaxUint32, math.MaxUint32, "C1"},
		{"C2 negative exceeds nan", withF(func(s *spec) { s.negs = []uint32{2} }), 3, 3, "C2"},
		{"C3 NaN count on ints", with(func(s *spec) { s.nans = []uint32{1, 0} }), 4, 6, "C3"},
		{"C3 negative NaN count on ints", with(func(s *spec) { s.negs = []uint32{0, 1} }), 4, 6, "C3"},
		{"B1 NaN bound in v1", withF(func(s *spec) {
			s.mutate = nanMax
		}), 3, 3, "B1"},
		{"B4 min above max", with(func(s *spec) { s.minJSON = `[9, null]` }), 4, 6, "B4"},
		{"B4 -0.0 above... +0.0 below -0.0", withF(func(s *spec) {
			s.mutate = func(f []arrow.Field, c []arrow.Array) ([]arrow.Field, []arrow.Array) {
				c[0].Release()
				c[1].Release()
				c[0] = f64Array(memory.DefaultAllocator, []uint64{0}, nil)
				c[1] = f64Array(memory.DefaultAllocator, []uint64{negZero}, nil)
				return f, c
			}
		}), 3, 3, "B4"},
		{"B5 bound on a list column", spec{version: "1", dt: arrow.ListOf(arrow.PrimitiveTypes.Int32),
			minJSON: `[[1]]`, maxJSON: `[null]`, nulls: []uint32{0}, nans: []uint32{0}, negs: []uint32{0}, lens: []uint64{2}}, 2, 2, "B5"},
		{"N2 not hex", with(func(s *spec) { s.bitmap = strp("zz") }), 4, 6, "N2"},
		{"N2 odd length", with(func(s *spec) { s.bitmap = strp("3a3") }), 4, 6, "N2"},
		{"N3 bad cookie", with(func(s *spec) { s.bitmap = strp("0100000000000000") }), 4, 6, "N3"},
		{"N3 trailing bytes", with(func(s *spec) { s.bitmap = strp(bitmapHex(0, 4, 5) + "00") }), 4, 6, "N3"},
		{"N3 truncated", with(func(s *spec) { b := bitmapHex(0, 4, 5); s.bitmap = strp(b[:len(b)-2]) }), 4, 6, "N3"},
		{"N3 unsorted array", with(func(s *spec) { s.bitmap = strp(strings.Replace(bitmapHex(0, 4, 5), "000004000500", "000005000400", 1)) }), 4, 6, "N3"},
		{"N4 member beyond rows", with(func(s *spec) { s.bitmap = strp(bitmapHex(0, 4, 6)) }), 4, 6, "N4"},
		{"N4 count mismatch", with(func(s *spec) { s.bitmap = strp(bitmapHex(0, 1, 4)) }), 4, 6, "N4"},
		{"N4 empty bitmap with nulls", with(func(s *spec) { s.bitmap = strp("") }), 4, 6, "N4"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := newMem(t)
			data := tc.s.build(t, mem)
			_, err := ParseSeed(data, tc.s.dt, tc.rpz, tc.rows, mem)
			wantRule(t, err, tc.rule)
		})
	}
}

// nanMax replaces the max column of a float seed with a NaN.
func nanMax(f []arrow.Field, c []arrow.Array) ([]arrow.Field, []arrow.Array) {
	c[1].Release()
	c[1] = f64Array(memory.DefaultAllocator, []uint64{posNaN}, nil)
	return f, c
}

func TestGarbageIsL2(t *testing.T) {
	mem := newMem(t)
	for _, data := range [][]byte{nil, []byte("ARROW1"), []byte("not an arrow file at all, really")} {
		_, err := ParseSeed(data, arrow.PrimitiveTypes.Int32, 4, 0, mem)
		wantRule(t, err, "L2")
	}
}

func TestCountsAtU32Limit(t *testing.T) {
	mem := newMem(t)
	s := goodFloat()
	big := uint64(math.MaxUint32) * 2
	s.nulls, s.nans, s.negs, s.lens = []uint32{math.MaxUint32}, []uint32{math.MaxUint32}, []uint32{math.MaxUint32}, []uint64{big}
	seed, err := ParseSeed(s.build(t, mem), s.dt, big, big, mem)
	if err != nil {
		t.Fatal(err)
	}
	z := seed.Zones[0]
	if z.OrdinaryCount() != 0 || z.NullCount != math.MaxUint32 {
		t.Errorf("counts %+v", z)
	}
	sum, err := MergeAll(z, z, z)
	if err != nil || sum.NullCount != 3*uint64(math.MaxUint32) || sum.ZoneLength != 3*big {
		t.Errorf("merge: %v %+v", err, sum)
	}
	huge := Stats{info: z.info, ZoneLength: math.MaxUint64}
	if _, err := Merge(huge, huge); err == nil {
		t.Error("64-bit overflow not reported")
	}
}

func TestLocator(t *testing.T) {
	l, err := ParseLocator("3:8192")
	if err != nil || l != (Locator{3, 8192}) || FormatLocator(l) != "3:8192" {
		t.Errorf("ParseLocator: %v %v", l, err)
	}
	for _, bad := range []string{"", "3", "3:", ":5", "3:0", "0:5", "1:2:3", "-1:5", "+1:5", " 1:5", "1:5 ", "x:5", "1:18446744073709551616"} {
		if _, err := ParseLocator(bad); err == nil {
			t.Errorf("ParseLocator(%q) accepted", bad)
		} else {
			wantRule(t, err, "L1")
		}
	}
	if err := l.CheckBuffer(3); err == nil {
		t.Error("buffer index 3 of 3 accepted")
	}
	if err := l.CheckBuffer(4); err != nil {
		t.Error(err)
	}
	if col, ok := ColumnOfSeedKey(SeedKey("a.b")); !ok || col != "a.b" {
		t.Error("seed key round trip")
	}
	if _, ok := ColumnOfSeedKey("lance.seedx"); ok {
		t.Error("wrong prefix accepted")
	}
}
