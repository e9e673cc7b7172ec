package zonestats

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// oneZone collects arr into a one-zone seed of column "x" and returns the
// parsed seed and a record holding arr.
func oneZone(t *testing.T, mem memory.Allocator, arr arrow.Array) (*Seed, arrow.RecordBatch) {
	t.Helper()
	n := uint64(arr.Len())
	data := collect(t, mem, arr.DataType(), n, true, arr)
	seed, err := ParseSeed(data, arr.DataType(), n, n, mem)
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arr.DataType(), Nullable: true}}, nil)
	return seed, array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
}

func TestMayMatchSemantics(t *testing.T) {
	i64, f64, str, u64 := arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Uint64
	cases := []struct {
		dt      arrow.DataType
		data    string // JSON, or float bit patterns via bits
		bits    []uint64
		filter  string
		may     bool
		matches int
	}{
		{i64, `[null, null]`, nil, "x = 5", false, 0},
		{i64, `[null, null]`, nil, "x IS NULL", true, 2},
		{i64, `[null, null]`, nil, "NOT (x = 5)", false, 0},
		{i64, `[null, null]`, nil, "x IS NOT NULL", false, 0},
		{i64, `[5, 5, null]`, nil, "x != 5", false, 0},
		{i64, `[5, 5, null]`, nil, "NOT (x = 5)", false, 0},
		{i64, `[5, 5, null]`, nil, "NOT (x > 5)", true, 2},
		{i64, `[5, 5, null]`, nil, "NOT NOT (x > 5)", false, 0},
		{i64, `[5, 5, null]`, nil, "x IN (5)", true, 2},
		{i64, `[5, 5, null]`, nil, "x NOT IN (5, 7)", false, 0},
		{i64, `[5, 6, null]`, nil, "x NOT IN (5, 7)", true, 1},
		{i64, `[5, 6, null]`, nil, "x IN (7, NULL)", false, 0},
		{i64, `[5, 6, null]`, nil, "NOT (x IN (7, NULL))", false, 0},
		{i64, `[5, 6, null]`, nil, "x = NULL", false, 0},
		{i64, `[5, 6, null]`, nil, "x IN ()", false, 0},
		{i64, `[5, 6, null]`, nil, "NOT (x IN ())", true, 2},
		{i64, `[5, 6]`, nil, "x > 6 OR x < 5", false, 0},
		{i64, `[5, 6]`, nil, "5 < x", true, 1},
		{f64, "", []uint64{one, posNaN}, "x > 5", true, 1},
		{f64, "", []uint64{one, posNaN}, "x IS NAN", true, 1},
		{f64, "", []uint64{one, one}, "x IS NAN", false, 0},
		{f64, "", []uint64{one, negNaN}, "x > 5", false, 0},
		{f64, "", []uint64{one, negNaN}, "x < -5", true, 1},
		{f64, "", []uint64{one, negNaN}, "x < -INF", true, 1},
		{f64, "", []uint64{one, posInf}, "x > 5", true, 1},
		{f64, "", []uint64{one, posInf}, "x > INF", false, 0},
		{f64, "", []uint64{negZero}, "x = 0.0", false, 0},
		{f64, "", []uint64{negZero}, "x = -0.0", true, 1},
		{f64, "", []uint64{negZero}, "x < 0", true, 1},
		{f64, "", []uint64{0}, "x < 0", false, 0},
		{f64, "", []uint64{posNaN, negNaN}, "x = 1", false, 0},
		{f64, "", []uint64{posNaN, negNaN}, "x = NAN", true, 1},
		{f64, "", []uint64{posNaN, negNaN}, "NOT (x IS NAN)", false, 0},
		{str, `["ab", "abc"]`, nil, "x > 'abc'", false, 0},
		{str, `["ab", "abc"]`, nil, "x >= 'abc'", true, 1},
		{str, `["ab", "abc"]`, nil, "x < 'ab'", false, 0},
		{str, `["ab", "abc"]`, nil, "x = ''", false, 0},
		{str, `["", "abc"]`, nil, "x = ''", true, 1},
		{u64, `[9223372036854775809]`, nil, "x > 9223372036854775808", true, 1},
		{u64, `[9223372036854775809]`, nil, "x < 9223372036854775808", false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.filter+" on "+tc.data, func(t *testing.T) {
			mem := newMem(t)
			var arr arrow.Array
			if tc.bits != nil {
				arr = f64Array(mem, tc.bits, nil)
			} else {
				arr = arrayFromJSON(t, mem, tc.dt, tc.data)
			}
			defer arr.Release()
			seed, rec := oneZone(t, mem, arr)
			defer rec.Release()
			e, err := ParseFilter(tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Bind(e, rec.Schema())
			if err != nil {
				t.Fatal(err)
			}
			mask, err := p.MayMatch(map[string]*Seed{"x": seed}, seed.RowsPerZone, seed.Rows())
			if err != nil {
				t.Fatal(err)
			}
			sel, err := p.Evaluate(rec)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, b := range sel {
				if b {
					n++
				}
			}
			if mask[0] != tc.may || n != tc.matches {
				t.Errorf("may=%v matches=%d, want may=%v matches=%d", mask[0], n, tc.may, tc.matches)
			}
			if unknown, _ := p.MayMatch(nil, seed.RowsPerZone, seed.Rows()); !unknown[0] {
				t.Error("pruned without a seed")
			}
		})
	}
}

func TestV0SeedPrunesConservatively(t *testing.T) {
	mem := newMem(t)
	// v0, float64, zone 0: values 1 and a NaN (max holds the +NaN marker);
	// zone 1: values in [1, 5], no NaN.
	s := spec{dt: arrow.PrimitiveTypes.Float64, nulls: []uint32{0, 0}, nans: []uint32{1, 0}, lens: []uint64{2, 2},
		mutate: func(f []arrow.Field, c []arrow.Array) ([]arrow.Field, []arrow.Array) {
			c[0].Release()
			c[1].Release()
			c[0] = f64Array(mem, []uint64{one, one}, nil)
			c[1] = f64Array(mem, []uint64{posNaN, 0x4014000000000000}, nil)
			return f, c
		}, minJSON: `[1, 1]`, maxJSON: `[1, 1]`}
	seed, err := ParseSeed(s.build(t, mem), s.dt, 2, 4, mem)
	if err != nil {
		t.Fatal(err)
	}
	if seed.Version != 0 || seed.Zones[0].NaNSignKnown {
		t.Fatalf("version %d sign known %v", seed.Version, seed.Zones[0].NaNSignKnown)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Float64}}, nil)
	for filter, want := range map[string][2]bool{
		"x > 100":      {true, false}, // a +NaN may exist in zone 0
		"x < -100":     {true, false}, // ... or a -NaN: both signs possible
		"x IS NAN":     {true, false},
		"x > 2":        {true, true}, // the NaN marker is no upper bound
		"x < 1":        {true, false},
		"x = 1":        {true, true},
		"x IS NOT NAN": {true, true},
	} {
		e, err := ParseFilter(filter)
		if err != nil {
			if filter == "x IS NOT NAN" {
				continue // not in the grammar: NOT (x IS NAN)
			}
			t.Fatal(err)
		}
		p, err := Bind(e, schema)
		if err != nil {
			t.Fatal(err)
		}
		mask, err := p.MayMatch(map[string]*Seed{"x": seed}, 2, 4)
		if err != nil {
			t.Fatal(err)
		}
		if mask[0] != want[0] || mask[1] != want[1] {
			t.Errorf("%s: mask %v, want %v", filter, mask, want)
		}
	}
	js, _ := seed.JSON()
	if got := jsonOf(t, js); got != `{"version":0,"rows_per_zone":2,"zones":[{"min":"0x3ff0000000000000","max":null,"null_count":0,"nan_count":1,"zone_length":2},{"min":"0x3ff0000000000000","max":"0x4014000000000000","null_count":0,"nan_count":0,"zone_length":2}]}` {
		t.Errorf("v0 JSON %s", got)
	}
}

func TestMayMatchRegroupAndZoneMap(t *testing.T) {
	mem := newMem(t)
	dt := arrow.PrimitiveTypes.Int64
	arr := arrayFromJSON(t, mem, dt, `[0,1,2,3,4,5,6,7,8,9]`)
	defer arr.Release()
	seed, err := ParseSeed(collect(t, mem, dt, 4, false, arr), dt, 4, 10, mem)
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: dt}}, nil)
	p, err := Bind(Col("x").Gt(Int64(6)), schema)
	if err != nil {
		t.Fatal(err)
	}
	for rpz, want := range map[uint64][]bool{4: {false, true, true}, 3: {false, true, true, true}, 8: {true, true}, 10: {true}} {
		mask, err := p.MayMatch(map[string]*Seed{"x": seed}, rpz, 10)
		if err != nil || jsonOf(t, mask) != jsonOf(t, want) {
			t.Errorf("rpz %d: %v %v, want %v", rpz, mask, err, want)
		}
	}
	if _, err := p.MayMatch(map[string]*Seed{"x": seed}, 4, 11); err == nil {
		t.Error("row mismatch not reported")
	}
	zm, err := BuildZoneMap(seed, seed)
	if err != nil {
		t.Fatal(err)
	}
	if len(zm.Entries) != 6 || zm.Entries[3].Offset != 10 || zm.Entries[3].Source != 1 || zm.Rows != 20 {
		t.Errorf("zone map %+v", zm.Entries[3])
	}
	if got := zm.MayMatch(p, "x"); jsonOf(t, got) != `[false,true,true,false,true,true]` {
		t.Errorf("zone map mask %v", got)
	}
	sum, err := zm.Summary()
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, _ := sum.Bounds()
	if lo != "0" || hi != "9" || sum.ZoneLength != 20 {
		t.Errorf("summary %v %v %d", lo, hi, sum.ZoneLength)
	}
	q, _ := Bind(Col("x").Gt(Int64(9)), schema)
	if q.MayMatchStats(map[string]Stats{"x": sum}) {
		t.Error("summary did not prune x > 9")
	}
	if !q.MayMatchStats(nil) {
		t.Error("pruned without stats")
	}
}

func TestMergeUnknownBounds(t *testing.T) {
	mem := newMem(t)
	s := goodInt() // zone 1 is all null with null bounds: known empty
	seed, err := ParseSeed(s.build(t, mem), s.dt, 4, 6, mem)
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := seed.Summary()
	if !sum.HasBounds() {
		t.Error("an all-null zone made the summary unknown")
	}
	// A zone with ordinary values but null bounds is unknown; so is the merge.
	unknown := Stats{info: seed.info, ZoneLength: 3, NaNSignKnown: true}
	m, _ := Merge(sum, unknown)
	if m.HasBounds() {
		t.Error("unknown bounds became known")
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: s.dt}}, nil)
	p, _ := Bind(Col("x").Gt(Int64(1000)), schema)
	if !p.MayMatchStats(map[string]Stats{"x": m}) {
		t.Error("unknown bounds excluded a value")
	}
}
