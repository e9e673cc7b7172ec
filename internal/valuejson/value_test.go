package valuejson

import (
	"math/big"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestPrimitives(t *testing.T) {
	mem := newMem(t)
	cases := []struct {
		dt   arrow.DataType
		in   string
		want string
	}{
		{arrow.Null, `[null,null]`, `[null,null]`},
		{arrow.FixedWidthTypes.Boolean, `[true,null,false]`, `[true,null,false]`},
		{arrow.PrimitiveTypes.Int8, `[-128,127,null]`, `[-128,127,null]`},
		{arrow.PrimitiveTypes.Int16, `[-32768,32767]`, `[-32768,32767]`},
		{arrow.PrimitiveTypes.Int32, `[-2147483648,2147483647,null]`, `[-2147483648,2147483647,null]`},
		{arrow.PrimitiveTypes.Uint8, `[0,255]`, `[0,255]`},
		{arrow.PrimitiveTypes.Uint16, `[65535]`, `[65535]`},
		{arrow.PrimitiveTypes.Uint32, `[4294967295,null]`, `[4294967295,null]`},
		{arrow.PrimitiveTypes.Int64, `["-9223372036854775808","9223372036854775807",null,0]`,
			`["-9223372036854775808","9223372036854775807",null,"0"]`},
		{arrow.PrimitiveTypes.Uint64, `["18446744073709551615",0,null]`, `["18446744073709551615","0",null]`},
		{arrow.FixedWidthTypes.Date32, `[0,-1,19000,null]`, `[0,-1,19000,null]`},
		{arrow.FixedWidthTypes.Date64, `[86400000,-86400000,null]`, `["86400000","-86400000",null]`},
		{arrow.FixedWidthTypes.Time32ms, `[0,86399999,null]`, `[0,86399999,null]`},
		{arrow.FixedWidthTypes.Time64us, `[0,86399999999,null]`, `["0","86399999999",null]`},
		{&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, `[299864979006106,-1,null]`,
			`["299864979006106","-1",null]`},
		{&arrow.TimestampType{Unit: arrow.Nanosecond}, `[-9223372036854775807]`, `["-9223372036854775807"]`},
		{arrow.FixedWidthTypes.Duration_us, `[-5,null,7]`, `["-5",null,"7"]`},
		{arrow.BinaryTypes.String, `["","a\u0000b","q\"\\","🚀中文","<&>\u2028",null]`,
			`["","a\u0000b","q\"\\","🚀中文","<&>\u2028",null]`},
		{arrow.BinaryTypes.LargeString, `["x",null,""]`, `["x",null,""]`},
		{arrow.BinaryTypes.StringView, `["short","a string longer than twelve bytes",null]`,
			`["short","a string longer than twelve bytes",null]`},
		{arrow.BinaryTypes.Binary, `["","AAH/",null]`, `["","AAH/",null]`},
		{arrow.BinaryTypes.LargeBinary, `["bw==",null]`, `["bw==",null]`},
		{&arrow.FixedSizeBinaryType{ByteWidth: 3}, `["AAH/",null]`, `["AAH/",null]`},
	}
	for _, c := range cases {
		arr := fromJSON(t, mem, c.dt, c.in)
		checkColumn(t, arr, c.want)
		arr.Release()
	}
}

func TestFloatBits(t *testing.T) {
	mem := newMem(t)
	u32 := uint32Array(mem, []uint32{0x7fc00000, 0xffc00000, 0x7fa00001, 0x80000000, 0x00000001, 0x3f800000, 0},
		[]bool{true, true, true, true, true, true, false})
	f32 := reinterpret(u32, arrow.PrimitiveTypes.Float32)
	checkColumn(t, f32, `["0x7fc00000","0xffc00000","0x7fa00001","0x80000000","0x00000001","0x3f800000",null]`)
	sliced := array.NewSlice(f32, 2, 5)
	checkColumn(t, sliced, `["0x7fa00001","0x80000000","0x00000001"]`)

	u64 := uint64Array(mem, []uint64{0x8000000000000000, 0x7ff0000000000001, 0xfff8000000000000, 0x3ff0000000000000, 0},
		[]bool{true, true, true, true, false})
	f64 := reinterpret(u64, arrow.PrimitiveTypes.Float64)
	checkColumn(t, f64, `["0x8000000000000000","0x7ff0000000000001","0xfff8000000000000","0x3ff0000000000000",null]`)

	u16 := uint16Array(mem, []uint16{0x7e00, 0xfe00, 0x8000, 0x0001, 0x7c01, 0x3c00, 0}, []bool{true, true, true, true, true, true, false})
	f16 := reinterpret(u16, arrow.FixedWidthTypes.Float16)
	checkColumn(t, f16, `["0x7e00","0xfe00","0x8000","0x0001","0x7c01","0x3c00",null]`)
	release(u32, f32, sliced, u64, f64, u16, f16)
}

func bigInt(t *testing.T, s string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad big int %q", s)
	}
	return n
}

func TestDecimal(t *testing.T) {
	mem := newMem(t)
	b128 := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 38, Scale: 10})
	for _, s := range []string{"-12345", "0", "-1", "99999999999999999999999999999999999999",
		"-99999999999999999999999999999999999999", "-9223372036854775809", "18446744073709551616"} {
		b128.Append(decimal128.FromBigInt(bigInt(t, s)))
	}
	b128.AppendNull()
	d128 := b128.NewArray()
	b128.Release()
	checkColumn(t, d128, `["-12345","0","-1","99999999999999999999999999999999999999",`+
		`"-99999999999999999999999999999999999999","-9223372036854775809","18446744073709551616",null]`)

	b256 := array.NewDecimal256Builder(mem, &arrow.Decimal256Type{Precision: 50, Scale: 5})
	big50 := "12345678901234567890123456789012345678901234567890"
	for _, s := range []string{big50, "-" + big50, "-42", "-340282366920938463463374607431768211456"} {
		b256.Append(decimal256.FromBigInt(bigInt(t, s)))
	}
	b256.AppendNull()
	d256 := b256.NewArray()
	b256.Release()
	checkColumn(t, d256, `["`+big50+`","-`+big50+`","-42","-340282366920938463463374607431768211456",null]`)

	if got := Text(d128, 0); got != "-0.0000012345" {
		t.Errorf("Text decimal128 = %q", got)
	}
	if got := Text(d256, 2); got != "-0.00042" {
		t.Errorf("Text decimal256 = %q", got)
	}
	release(d128, d256)
}

func listStructType() arrow.DataType {
	return arrow.ListOf(arrow.StructOf(
		arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true},
	))
}

func TestListStructByHand(t *testing.T) {
	mem := newMem(t)
	lb := array.NewListBuilder(mem, listStructType().(*arrow.ListType).Elem())
	defer lb.Release()
	sb := lb.ValueBuilder().(*array.StructBuilder)
	xb := sb.FieldBuilder(0).(*array.Int32Builder)
	yb := sb.FieldBuilder(1).(*array.StringBuilder)
	// row 0: [{x:1,y:"a\u0000"}, null, {x:null,y:"é"}]
	lb.Append(true)
	sb.Append(true)
	xb.Append(1)
	yb.Append("a\x00")
	sb.AppendNull()
	sb.Append(true)
	xb.AppendNull()
	yb.Append("é")
	lb.AppendNull() // row 1: null
	lb.Append(true) // row 2: []
	lb.Append(true) // row 3: [{x:3,y:null}]
	sb.Append(true)
	xb.Append(3)
	yb.AppendNull()
	arr := lb.NewArray()
	checkColumn(t, arr, `[[{"x":1,"y":"a\u0000"},null,{"x":null,"y":"é"}],null,[],[{"x":3,"y":null}]]`)
	sliced := array.NewSlice(arr, 2, 4)
	checkColumn(t, sliced, `[[],[{"x":3,"y":null}]]`)
	if got := Text(arr, 0); got != `[{"x":1,"y":"a\u0000"},null,{"x":null,"y":"é"}]` {
		t.Errorf("Text = %s", got)
	}
	release(arr, sliced)
}

func TestNested(t *testing.T) {
	mem := newMem(t)
	cases := []struct {
		dt   arrow.DataType
		in   string
		want string
	}{
		{arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32),
			`[[{"key":"b","value":1},{"key":"a","value":null}],[],null]`,
			`[[{"key":"b","value":1},{"key":"a","value":null}],[],null]`},
		{arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32), `[[1,null],null,[3,4]]`, `[[1,null],null,[3,4]]`},
		{arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int64)), `[[[1,2],[],null],null,[]]`, `[[["1","2"],[],null],null,[]]`},
		{arrow.LargeListOf(arrow.BinaryTypes.String), `[["a",null],null]`, `[["a",null],null]`},
		{arrow.StructOf(arrow.Field{Name: "z", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
			arrow.Field{Name: "a", Type: arrow.ListOf(arrow.PrimitiveTypes.Int8), Nullable: true}),
			`[{"z":1,"a":[1]},null,{"z":null,"a":null}]`,
			`[{"z":"0x3ff0000000000000","a":[1]},null,{"z":null,"a":null}]`},
	}
	for _, c := range cases {
		arr := fromJSON(t, mem, c.dt, c.in)
		checkColumn(t, arr, c.want)
		arr.Release()
	}
}

func TestDictionary(t *testing.T) {
	mem := newMem(t)
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	arr, err := array.DictArrayFromJSON(mem, dt, `[1,null,0,2,1]`, `["alpha","beta",null]`)
	if err != nil {
		t.Fatal(err)
	}
	checkColumn(t, arr, `["beta",null,"alpha",null,"beta"]`)
	arr.Release()
}

func TestRunEndEncoded(t *testing.T) {
	mem := newMem(t)
	b := array.NewRunEndEncodedBuilder(mem, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64)
	defer b.Release()
	vb := b.ValueBuilder().(*array.Int64Builder)
	b.Append(2)
	vb.Append(7)
	b.AppendNull()
	b.Append(1)
	vb.Append(-1)
	arr := b.NewArray()
	checkColumn(t, arr, `["7","7",null,"-1"]`)
	arr.Release()
}

func TestUnsupported(t *testing.T) {
	mem := newMem(t)
	b := array.NewMonthIntervalBuilder(mem)
	b.Append(1)
	arr := b.NewArray()
	b.Release()
	defer arr.Release()
	if _, err := Column(arr); err == nil || !strings.Contains(err.Error(), "month_interval") {
		t.Errorf("Column(interval) error = %v", err)
	}
	if _, err := Value(arr, 0); err == nil {
		t.Error("Value(interval) succeeded")
	}
	if got := Text(arr, 0); !strings.Contains(got, "unsupported") {
		t.Errorf("Text(interval) = %q", got)
	}
}

func TestValueOutOfRange(t *testing.T) {
	mem := newMem(t)
	arr := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[1]`)
	defer arr.Release()
	if _, err := Value(arr, 1); err == nil {
		t.Error("Value(1) on a 1-row array succeeded")
	}
}

// TestNoAliasing checks that strings survive the release of their array.
func TestNoAliasing(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	arr := fromJSON(t, mem, arrow.BinaryTypes.String, `["hello"]`)
	v, err := Value(arr, 0)
	if err != nil {
		t.Fatal(err)
	}
	bufs := arr.Data().Buffers()
	data := bufs[2].Bytes()
	arr.Release()
	copy(data, "XXXXX")
	if v != "hello" {
		t.Errorf("value changed after release: %q", v)
	}
	mem.AssertSize(t, 0)
}
