package plainjson

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// encodeAll returns the JSON of every row of arr, checking each is valid.
func encodeAll(t *testing.T, arr arrow.Array) []string {
	t.Helper()
	a, err := compile(arr)
	if err != nil {
		t.Fatalf("%s: %v", arr.DataType(), err)
	}
	out := make([]string, arr.Len())
	for i := range out {
		out[i] = string(a(nil, i))
		if !json.Valid([]byte(out[i])) {
			t.Errorf("%s row %d: invalid JSON %s", arr.DataType(), i, out[i])
		}
	}
	return out
}

// fromJSON builds an array with arrow-go's JSON reader (its own parser,
// not ours).
func fromJSON(t *testing.T, mem memory.Allocator, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	if err != nil {
		t.Fatalf("%s from %s: %v", dt, js, err)
	}
	return arr
}

type encodeCase struct {
	name  string
	build func(mem memory.Allocator) arrow.Array
	want  []string
}

func TestEncodeTypes(t *testing.T) {
	var cases []encodeCase
	for _, group := range [][]encodeCase{scalarCases(t), floatCases(), decimalCases(), temporalCases(t), nestedCases(t)} {
		cases = append(cases, group...)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			arr := tc.build(mem)
			defer arr.Release()
			got := encodeAll(t, arr)
			if strings.Join(got, " | ") != strings.Join(tc.want, " | ") {
				t.Errorf("\n got %s\nwant %s", strings.Join(got, " | "), strings.Join(tc.want, " | "))
			}
		})
	}
}

func js(t *testing.T, dt arrow.DataType, s string) func(memory.Allocator) arrow.Array {
	return func(mem memory.Allocator) arrow.Array { return fromJSON(t, mem, dt, s) }
}

func scalarCases(t *testing.T) []encodeCase {
	return []encodeCase{
		{"null", func(mem memory.Allocator) arrow.Array { return array.NewNull(2) }, []string{"null", "null"}},
		{"bool", js(t, arrow.FixedWidthTypes.Boolean, `[true,false,null]`), []string{"true", "false", "null"}},
		{"int8", js(t, arrow.PrimitiveTypes.Int8, `[-128,127,null]`), []string{"-128", "127", "null"}},
		{"int16", js(t, arrow.PrimitiveTypes.Int16, `[-32768,32767]`), []string{"-32768", "32767"}},
		{"int32", js(t, arrow.PrimitiveTypes.Int32, `[-2147483648,2147483647]`), []string{"-2147483648", "2147483647"}},
		{"int64", func(mem memory.Allocator) arrow.Array {
			b := array.NewInt64Builder(mem)
			defer b.Release()
			b.AppendValues([]int64{math.MinInt64, math.MaxInt64, 0}, nil)
			return b.NewArray()
		}, []string{"-9223372036854775808", "9223372036854775807", "0"}},
		{"uint8", js(t, arrow.PrimitiveTypes.Uint8, `[0,255]`), []string{"0", "255"}},
		{"uint16", js(t, arrow.PrimitiveTypes.Uint16, `[65535]`), []string{"65535"}},
		{"uint32", js(t, arrow.PrimitiveTypes.Uint32, `[4294967295]`), []string{"4294967295"}},
		{"uint64", func(mem memory.Allocator) arrow.Array {
			b := array.NewUint64Builder(mem)
			defer b.Release()
			b.AppendValues([]uint64{math.MaxUint64, 1 << 63}, nil)
			return b.NewArray()
		}, []string{"18446744073709551615", "9223372036854775808"}},
		{"utf8", func(mem memory.Allocator) arrow.Array {
			b := array.NewStringBuilder(mem)
			defer b.Release()
			b.AppendValues([]string{"", `a"b\c`, "\x00\x1f\n\r\t", "<&>é😀", "\u2028\u2029", "bad\xffutf8\xc3", "\ufffd kept"}, nil)
			b.AppendNull()
			return b.NewArray()
		}, []string{`""`, `"a\"b\\c"`, `"\u0000\u001f\n\r\t"`, `"<&>é😀"`, `"\u2028\u2029"`, `"bad\ufffdutf8\ufffd"`, "\"\ufffd kept\"", "null"}},
		{"large_utf8", js(t, arrow.BinaryTypes.LargeString, `["x",null]`), []string{`"x"`, "null"}},
		{"utf8_view", js(t, arrow.BinaryTypes.StringView, `["a string longer than twelve bytes","s"]`), []string{`"a string longer than twelve bytes"`, `"s"`}},
		{"binary", func(mem memory.Allocator) arrow.Array {
			b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
			defer b.Release()
			b.AppendValues([][]byte{{}, {0, 0xff}, []byte("hello")}, nil)
			b.AppendNull()
			return b.NewArray()
		}, []string{`""`, `"AP8="`, `"aGVsbG8="`, "null"}},
		{"large_binary", js(t, arrow.BinaryTypes.LargeBinary, `["AAEC"]`), []string{`"AAEC"`}},
		{"binary_view", js(t, arrow.BinaryTypes.BinaryView, `["AAEC"]`), []string{`"AAEC"`}},
		{"fixed_size_binary", js(t, &arrow.FixedSizeBinaryType{ByteWidth: 3}, `["AAEC",null]`), []string{`"AAEC"`, "null"}},
		{"dictionary", js(t, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, `["b","a",null,"b"]`),
			[]string{`"b"`, `"a"`, "null", `"b"`}},
		{"extension_uuid", func(mem memory.Allocator) arrow.Array {
			b := extensions.NewUUIDBuilder(mem)
			defer b.Release()
			b.AppendBytes([16]byte{0: 1, 15: 0xff})
			b.AppendNull()
			return b.NewArray()
		}, []string{`"AQAAAAAAAAAAAAAAAAAA/w=="`, "null"}},
	}
}

func floatCases() []encodeCase {
	f64 := func(v ...float64) func(memory.Allocator) arrow.Array {
		return func(mem memory.Allocator) arrow.Array {
			b := array.NewFloat64Builder(mem)
			defer b.Release()
			b.AppendValues(v, nil)
			return b.NewArray()
		}
	}
	f32 := func(v ...float32) func(memory.Allocator) arrow.Array {
		return func(mem memory.Allocator) arrow.Array {
			b := array.NewFloat32Builder(mem)
			defer b.Release()
			b.AppendValues(v, nil)
			return b.NewArray()
		}
	}
	f16 := func(bits ...uint16) func(memory.Allocator) arrow.Array {
		return func(mem memory.Allocator) arrow.Array {
			b := array.NewFloat16Builder(mem)
			defer b.Release()
			for _, x := range bits {
				b.Append(float16.FromBits(x))
			}
			return b.NewArray()
		}
	}
	return []encodeCase{
		{"float64", f64(0.1, math.Copysign(0, -1), 0, math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, 2.2250738585072014e-308,
			math.MaxFloat64, 1e21, 1e20, 1234567, 1e-7, 0.000001, -1.5),
			[]string{"0.1", "-0", "0", `"NaN"`, `"Infinity"`, `"-Infinity"`, "5e-324", "2.2250738585072014e-308",
				"1.7976931348623157e+308", "1e+21", "100000000000000000000", "1234567", "1e-7", "0.000001", "-1.5"}},
		{"float32", f32(0.1, float32(math.Copysign(0, -1)), math.MaxFloat32, math.SmallestNonzeroFloat32, 16777217, float32(math.NaN())),
			[]string{"0.1", "-0", "3.4028235e+38", "1e-45", "16777216", `"NaN"`}},
		{"float16", f16(0x2e66, 0x8000, 0x7bff, 0x0001, 0x03ff, 0x3c00, 0x3c01, 0x7c00, 0xfc00, 0x7e00),
			[]string{"0.1", "-0", "65500", "6e-8", "0.000061", "1", "1.001", `"Infinity"`, `"-Infinity"`, `"NaN"`}},
	}
}

func decimalCases() []encodeCase {
	d128 := func(prec, scale int32, v ...decimal128.Num) func(memory.Allocator) arrow.Array {
		return func(mem memory.Allocator) arrow.Array {
			b := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: prec, Scale: scale})
			defer b.Release()
			b.AppendValues(v, nil)
			b.AppendNull()
			return b.NewArray()
		}
	}
	max38, _ := decimal128.FromString(strings.Repeat("9", 38), 38, 0)
	d256 := func(mem memory.Allocator) arrow.Array {
		b := array.NewDecimal256Builder(mem, &arrow.Decimal256Type{Precision: 76, Scale: 5})
		defer b.Release()
		big, _ := decimal256.FromString("-"+strings.Repeat("9", 76), 76, 0)
		b.AppendValues([]decimal256.Num{decimal256.FromI64(-1), decimal256.FromI64(123456789), big}, nil)
		return b.NewArray()
	}
	d32 := func(mem memory.Allocator) arrow.Array {
		b := array.NewDecimal32Builder(mem, &arrow.Decimal32Type{Precision: 9, Scale: 2})
		defer b.Release()
		b.AppendValues([]decimal.Decimal32{-150, 999999999, 0}, nil)
		return b.NewArray()
	}
	d64 := func(mem memory.Allocator) arrow.Array {
		b := array.NewDecimal64Builder(mem, &arrow.Decimal64Type{Precision: 18, Scale: -2})
		defer b.Release()
		b.AppendValues([]decimal.Decimal64{12, -7, 0}, nil)
		return b.NewArray()
	}
	nines := strings.Repeat("9", 38)
	return []encodeCase{
		{"decimal128", d128(38, 10, decimal128.FromI64(1), decimal128.FromI64(-150), max38, max38.Negate(), decimal128.FromI64(math.MinInt64)),
			[]string{`"0.0000000001"`, `"-0.0000000150"`, `"` + nines[:28] + "." + nines[28:] + `"`, `"-` + nines[:28] + "." + nines[28:] + `"`,
				`"-922337203.6854775808"`, "null"}},
		{"decimal128_scale0", d128(20, 0, decimal128.FromU64(math.MaxUint64), decimal128.FromI64(-3)),
			[]string{`"18446744073709551615"`, `"-3"`, "null"}},
		{"decimal256", d256, []string{`"-0.00001"`, `"1234.56789"`, `"-` + strings.Repeat("9", 71) + "." + strings.Repeat("9", 5) + `"`}},
		{"decimal32", d32, []string{`"-1.50"`, `"9999999.99"`, `"0.00"`}},
		{"decimal64_negative_scale", d64, []string{`"1200"`, `"-700"`, `"0"`}},
	}
}
