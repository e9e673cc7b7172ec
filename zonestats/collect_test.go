package zonestats

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// f64Array builds a float64 array from bit patterns; valid[i] false = null.
func f64Array(mem memory.Allocator, bits []uint64, valid []bool) arrow.Array {
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	for i, x := range bits {
		if valid != nil && !valid[i] {
			b.AppendNull()
			continue
		}
		b.Append(math.Float64frombits(x))
	}
	return b.NewArray()
}

const (
	posNaN  = 0x7ff8000000000000
	negNaN  = 0xfff8000000000000
	posInf  = 0x7ff0000000000000
	negInf  = 0xfff0000000000000
	negZero = 0x8000000000000000
	one     = 0x3ff0000000000000
)

func TestCollectEdgeCases(t *testing.T) {
	f64 := arrow.PrimitiveTypes.Float64
	cases := []struct {
		name  string
		dt    arrow.DataType
		build func(memory.Allocator) arrow.Array
		rpz   uint64
		want  string // JSON of the zones
	}{
		{"neg NaN only", f64, func(m memory.Allocator) arrow.Array { return f64Array(m, []uint64{negNaN, negNaN}, nil) }, 8,
			`[{"min":null,"max":null,"null_count":0,"nan_count":2,"negative_nan_count":2,"zone_length":2}]`},
		{"pos NaN only", f64, func(m memory.Allocator) arrow.Array { return f64Array(m, []uint64{posNaN}, nil) }, 8,
			`[{"min":null,"max":null,"null_count":0,"nan_count":1,"negative_nan_count":0,"zone_length":1}]`},
		{"mixed NaN signs and values", f64, func(m memory.Allocator) arrow.Array {
			return f64Array(m, []uint64{posNaN, one, negNaN, 0xfff8000000000001}, nil)
		}, 8, `[{"min":"0x3ff0000000000000","max":"0x3ff0000000000000","null_count":0,"nan_count":3,"negative_nan_count":2,"zone_length":4}]`},
		{"-0.0 and +0.0", f64, func(m memory.Allocator) arrow.Array { return f64Array(m, []uint64{0, negZero}, nil) }, 8,
			`[{"min":"0x8000000000000000","max":"0x0000000000000000","null_count":0,"nan_count":0,"negative_nan_count":0,"zone_length":2}]`},
		{"only -0.0", f64, func(m memory.Allocator) arrow.Array { return f64Array(m, []uint64{negZero}, nil) }, 8,
			`[{"min":"0x8000000000000000","max":"0x8000000000000000","null_count":0,"nan_count":0,"negative_nan_count":0,"zone_length":1}]`},
		{"infinities", f64, func(m memory.Allocator) arrow.Array { return f64Array(m, []uint64{posInf, one, negInf, posNaN}, nil) }, 8,
			`[{"min":"0xfff0000000000000","max":"0x7ff0000000000000","null_count":0,"nan_count":1,"negative_nan_count":0,"zone_length":4}]`},
		{"all null", f64, func(m memory.Allocator) arrow.Array { return f64Array(m, []uint64{0, 0}, []bool{false, false}) }, 8,
			`[{"min":null,"max":null,"null_count":2,"nan_count":0,"negative_nan_count":0,"zone_length":2}]`},
		{"null and NaN fill zone, short final zone", f64, func(m memory.Allocator) arrow.Array {
			return f64Array(m, []uint64{0, negNaN, one}, []bool{false, true, true})
		}, 2, `[{"min":null,"max":null,"null_count":1,"nan_count":1,"negative_nan_count":1,"zone_length":2},` +
			`{"min":"0x3ff0000000000000","max":"0x3ff0000000000000","null_count":0,"nan_count":0,"negative_nan_count":0,"zone_length":1}]`},
		{"strings prefixes and empty", arrow.BinaryTypes.String, func(m memory.Allocator) arrow.Array {
			return arrayFromJSON(t, m, arrow.BinaryTypes.String, `["abc","ab","abd",null,"","b\u00e9"]`)
		}, 8, `[{"min":"","max":"bé","null_count":1,"nan_count":0,"negative_nan_count":0,"zone_length":6}]`},
		{"large binary", arrow.BinaryTypes.LargeBinary, func(m memory.Allocator) arrow.Array {
			return arrayFromJSON(t, m, arrow.BinaryTypes.LargeBinary, `["/w==","AA==","AAA="]`)
		}, 8, `[{"min":"AA==","max":"/w==","null_count":0,"nan_count":0,"negative_nan_count":0,"zone_length":3}]`},
		{"uint64 above 2^63", arrow.PrimitiveTypes.Uint64, func(m memory.Allocator) arrow.Array {
			return arrayFromJSON(t, m, arrow.PrimitiveTypes.Uint64, `[9223372036854775809, 5, 18446744073709551615]`)
		}, 8, `[{"min":"5","max":"18446744073709551615","null_count":0,"nan_count":0,"negative_nan_count":0,"zone_length":3}]`},
		{"int64 extremes", arrow.PrimitiveTypes.Int64, func(m memory.Allocator) arrow.Array {
			return arrayFromJSON(t, m, arrow.PrimitiveTypes.Int64, `[0, -9223372036854775808, 9223372036854775807]`)
		}, 8, `[{"min":"-9223372036854775808","max":"9223372036854775807","null_count":0,"nan_count":0,"negative_nan_count":0,"zone_length":3}]`},
		{"bool", arrow.FixedWidthTypes.Boolean, func(m memory.Allocator) arrow.Array {
			return arrayFromJSON(t, m, arrow.FixedWidthTypes.Boolean, `[true, null, true]`)
		}, 8, `[{"min":true,"max":true,"null_count":1,"nan_count":0,"negative_nan_count":0,"zone_length":3}]`},
		{"float16 neg NaN", arrow.FixedWidthTypes.Float16, func(m memory.Allocator) arrow.Array {
			b := array.NewFloat16Builder(m)
			defer b.Release()
			b.Append(float16.New(1.5))
			b.Append(float16.New(-2))
			b.Append(float16.FromBits(0xfe00))
			return b.NewArray()
		}, 8, `[{"min":"0xc000","max":"0x3e00","null_count":0,"nan_count":1,"negative_nan_count":1,"zone_length":3}]`},
		{"list has null bounds", arrow.ListOf(arrow.PrimitiveTypes.Int32), func(m memory.Allocator) arrow.Array {
			return arrayFromJSON(t, m, arrow.ListOf(arrow.PrimitiveTypes.Int32), `[[1], null, []]`)
		}, 8, `[{"min":null,"max":null,"null_count":1,"nan_count":0,"negative_nan_count":0,"zone_length":3}]`},
		{"decimal128 unscaled", &arrow.Decimal128Type{Precision: 10, Scale: 2}, func(m memory.Allocator) arrow.Array {
			return arrayFromJSON(t, m, &arrow.Decimal128Type{Precision: 10, Scale: 2}, `["-1.50", "12.34"]`)
		}, 8, `[{"min":"-150","max":"1234","null_count":0,"nan_count":0,"negative_nan_count":0,"zone_length":2}]`},
		{"timestamp", arrow.FixedWidthTypes.Timestamp_us, func(m memory.Allocator) arrow.Array {
			return arrayFromJSON(t, m, arrow.FixedWidthTypes.Timestamp_us, `[5, 3]`)
		}, 8, `[{"min":"3","max":"5","null_count":0,"nan_count":0,"negative_nan_count":0,"zone_length":2}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := newMem(t)
			arr := tc.build(mem)
			defer arr.Release()
			data := collect(t, mem, tc.dt, tc.rpz, false, arr)
			seed, err := ParseSeed(data, tc.dt, tc.rpz, uint64(arr.Len()), mem)
			if err != nil {
				t.Fatal(err)
			}
			js, err := seed.JSON()
			if err != nil {
				t.Fatal(err)
			}
			if got := jsonOf(t, js.Zones); got != tc.want {
				t.Errorf("zones\n got %s\nwant %s", got, tc.want)
			}
			if js.Version != 1 || js.RowsPerZone != tc.rpz {
				t.Errorf("version %d rpz %d", js.Version, js.RowsPerZone)
			}
		})
	}
}

func TestCollectDictionaryByValue(t *testing.T) {
	mem := newMem(t)
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	dict := arrayFromJSON(t, mem, arrow.BinaryTypes.String, `["zz","aa","mm"]`)
	defer dict.Release()
	idx := arrayFromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[0, 2, null, 2]`)
	defer idx.Release()
	arr := array.NewDictionaryArray(dt, idx, dict)
	defer arr.Release()
	data := collect(t, mem, dt, 2, true, arr)
	seed, err := ParseSeed(data, dt, 2, 4, mem)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := seed.JSON()
	want := `[{"min":"mm","max":"zz","null_count":0,"nan_count":0,"negative_nan_count":0,"zone_length":2},` +
		`{"min":"mm","max":"mm","null_count":1,"nan_count":0,"negative_nan_count":0,"zone_length":2}]`
	if got := jsonOf(t, js.Zones); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestCollectAcrossBatchesAndBitmap(t *testing.T) {
	mem := newMem(t)
	dt := arrow.PrimitiveTypes.Int32
	a := arrayFromJSON(t, mem, dt, `[1, null, 3]`)
	defer a.Release()
	b := arrayFromJSON(t, mem, dt, `[null, 9, -4, null]`)
	defer b.Release()
	sliced := array.NewSlice(b, 1, 4) // [9, -4, null]
	defer sliced.Release()
	data := collect(t, mem, dt, 4, true, a, b, sliced)
	seed, err := ParseSeed(data, dt, 4, 10, mem)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := seed.JSON()
	want := `[{"min":1,"max":3,"null_count":2,"nan_count":0,"negative_nan_count":0,"zone_length":4},` +
		`{"min":-4,"max":9,"null_count":1,"nan_count":0,"negative_nan_count":0,"zone_length":4},` +
		`{"min":-4,"max":-4,"null_count":1,"nan_count":0,"negative_nan_count":0,"zone_length":2}]`
	if got := jsonOf(t, js.Zones); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if got := seed.NullBitmap.ToArray(); !slices.Equal(got, []uint32{1, 3, 6, 9}) {
		t.Errorf("null bitmap %v", got)
	}
	// The writer uses the no-run cookie only.
	r, err := ipc.NewFileReader(bytes.NewReader(data), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	text, _ := r.Schema().Metadata().GetValue(MetaNullBitmap)
	raw, _ := hex.DecodeString(text)
	if binary.LittleEndian.Uint32(raw) != cookieNoRun {
		t.Errorf("cookie %x", raw[:4])
	}
}

func TestDecodeRunContainersMatchesLibrary(t *testing.T) {
	bm := roaring.New()
	bm.AddRange(10, 5000)
	bm.AddRange(70000, 70010)
	bm.Add(200000)
	for k := uint32(0); k < 5; k++ {
		bm.AddRange(uint64(k)<<16+300000, uint64(k)<<16+300100)
	}
	for _, run := range []bool{false, true} {
		c := bm.Clone()
		if run {
			c.RunOptimize()
		}
		raw, err := c.ToBytes()
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeNullBitmap(hex.EncodeToString(raw), 1<<32)
		if err != nil {
			t.Fatalf("run=%v: %v", run, err)
		}
		if !got.Equals(bm) {
			t.Errorf("run=%v: decoded bitmap differs", run)
		}
		upper, _ := decodeNullBitmap(strings.ToUpper(hex.EncodeToString(raw)), 1<<32)
		if upper == nil || !upper.Equals(bm) {
			t.Errorf("run=%v: upper-case hex not accepted", run)
		}
	}
	empty, err := decodeNullBitmap("3a30000000000000", 0)
	if err != nil || !empty.IsEmpty() {
		t.Errorf("serialized empty bitmap: %v", err)
	}
}

func TestCollectorErrors(t *testing.T) {
	mem := newMem(t)
	if _, err := NewCollector(arrow.PrimitiveTypes.Int32, Config{RowsPerZone: 1 << 33}); err == nil {
		t.Error("oversized zone accepted")
	}
	c, _ := NewCollector(arrow.PrimitiveTypes.Int32, Config{Allocator: mem})
	wrong := arrayFromJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1]`)
	defer wrong.Release()
	if err := c.Append(wrong); err == nil {
		t.Error("wrong type accepted")
	}
	data, err := c.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Finish(); err == nil {
		t.Error("second Finish accepted")
	}
	seed, err := ParseSeed(data, arrow.PrimitiveTypes.Int32, DefaultRowsPerZone, 0, mem)
	if err != nil || len(seed.Zones) != 0 {
		t.Errorf("empty seed: %v", err)
	}
}
