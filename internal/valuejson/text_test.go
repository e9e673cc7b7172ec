package valuejson

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestText(t *testing.T) {
	mem := newMem(t)
	cases := []struct {
		dt   arrow.DataType
		in   string
		want []string
	}{
		{arrow.PrimitiveTypes.Int64, `["-9223372036854775808",null]`, []string{"-9223372036854775808", ""}},
		{arrow.PrimitiveTypes.Uint8, `[255]`, []string{"255"}},
		{arrow.FixedWidthTypes.Boolean, `[true]`, []string{"true"}},
		{arrow.PrimitiveTypes.Float32, `[0.1,1e20,-0.0]`, []string{"0.1", "1e+20", "-0"}},
		{arrow.PrimitiveTypes.Float64, `[0.1,123.5]`, []string{"0.1", "123.5"}},
		{arrow.FixedWidthTypes.Float16, `[1.5]`, []string{"1.5"}},
		{arrow.BinaryTypes.String, `["a,\"b\"",""]`, []string{`a,"b"`, ""}},
		{arrow.BinaryTypes.Binary, `["AAH/"]`, []string{"AAH/"}},
		{arrow.FixedWidthTypes.Date32, `[19000]`, []string{"2022-01-08"}},
		{arrow.FixedWidthTypes.Date64, `[86400000,1]`, []string{"1970-01-02", "1970-01-01T00:00:00.001"}},
		{arrow.FixedWidthTypes.Time64us, `[3723000001]`, []string{"01:02:03.000001"}},
		{arrow.FixedWidthTypes.Time32s, `[59]`, []string{"00:00:59"}},
		{&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, `[1500000]`, []string{"1970-01-01T00:00:01.5Z"}},
		{&arrow.TimestampType{Unit: arrow.Second, TimeZone: "+01:00"}, `[0]`, []string{"1970-01-01T01:00:00+01:00"}},
		{&arrow.TimestampType{Unit: arrow.Nanosecond}, `[1]`, []string{"1970-01-01T00:00:00.000000001"}},
		{arrow.FixedWidthTypes.Duration_ms, `[1500]`, []string{"1500ms"}},
		{&arrow.Decimal128Type{Precision: 10, Scale: 2}, `["-1.05","123.45"]`, []string{"-1.05", "123.45"}},
		{arrow.ListOf(arrow.PrimitiveTypes.Float64), `[[1.5,null],null]`, []string{"[1.5,null]", ""}},
		{arrow.StructOf(arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
			arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}),
			`[{"b":"<x>","a":"12"}]`, []string{`{"b":"<x>","a":12}`}},
	}
	for _, c := range cases {
		arr := fromJSON(t, mem, c.dt, c.in)
		for i, want := range c.want {
			if got := Text(arr, i); got != want {
				t.Errorf("Text(%s, %d) = %q, want %q", c.dt, i, got, want)
			}
		}
		arr.Release()
	}
}

func TestTextSpecialFloats(t *testing.T) {
	mem := newMem(t)
	u32 := uint32Array(mem, []uint32{0x7fc00000, 0x7f800000, 0xff800000}, nil)
	f32 := reinterpret(u32, arrow.PrimitiveTypes.Float32)
	for i, want := range []string{"NaN", "+Inf", "-Inf"} {
		if got := Text(f32, i); got != want {
			t.Errorf("Text(%d) = %q, want %q", i, got, want)
		}
	}
	release(u32, f32)
}
