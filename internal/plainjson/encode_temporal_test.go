package plainjson

import (
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func ts(unit arrow.TimeUnit, tz string, v ...int64) func(memory.Allocator) arrow.Array {
	return func(mem memory.Allocator) arrow.Array {
		b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: unit, TimeZone: tz})
		defer b.Release()
		for _, x := range v {
			b.Append(arrow.Timestamp(x))
		}
		b.AppendNull()
		return b.NewArray()
	}
}

func temporalCases(t *testing.T) []encodeCase {
	date32 := func(mem memory.Allocator) arrow.Array {
		b := array.NewDate32Builder(mem)
		defer b.Release()
		b.AppendValues([]arrow.Date32{0, -1, -719528, 2932896, -719529, 2932897, math.MinInt32, math.MaxInt32}, nil)
		return b.NewArray()
	}
	date64 := func(mem memory.Allocator) arrow.Array {
		b := array.NewDate64Builder(mem)
		defer b.Release()
		b.AppendValues([]arrow.Date64{86400000 * 3 / 2, -1, math.MaxInt64}, nil)
		return b.NewArray()
	}
	time32 := func(unit arrow.TimeUnit, v ...arrow.Time32) func(memory.Allocator) arrow.Array {
		return func(mem memory.Allocator) arrow.Array {
			b := array.NewTime32Builder(mem, &arrow.Time32Type{Unit: unit})
			defer b.Release()
			b.AppendValues(v, nil)
			return b.NewArray()
		}
	}
	time64 := func(unit arrow.TimeUnit, v ...arrow.Time64) func(memory.Allocator) arrow.Array {
		return func(mem memory.Allocator) arrow.Array {
			b := array.NewTime64Builder(mem, &arrow.Time64Type{Unit: unit})
			defer b.Release()
			b.AppendValues(v, nil)
			return b.NewArray()
		}
	}
	return []encodeCase{
		{"date32", date32, []string{`"1970-01-01"`, `"1969-12-31"`, `"0000-01-01"`, `"9999-12-31"`, "-719529", "2932897", "-2147483648", "2147483647"}},
		{"date64", date64, []string{`"1970-01-02"`, `"1969-12-31"`, "9223372036854775807"}},
		{"time32_s", time32(arrow.Second, 0, 86399, 86400, -1), []string{`"00:00:00"`, `"23:59:59"`, "86400", "-1"}},
		{"time32_ms", time32(arrow.Millisecond, 1500, 45296789), []string{`"00:00:01.5"`, `"12:34:56.789"`}},
		{"time64_us", time64(arrow.Microsecond, 1, 86399999999, math.MaxInt64), []string{`"00:00:00.000001"`, `"23:59:59.999999"`, "9223372036854775807"}},
		{"time64_ns", time64(arrow.Nanosecond, 1, 3723000000010), []string{`"00:00:00.000000001"`, `"01:02:03.00000001"`}},
		{"timestamp_ns_naive", ts(arrow.Nanosecond, "", 0, -1, math.MaxInt64, math.MinInt64),
			[]string{`"1970-01-01T00:00:00"`, `"1969-12-31T23:59:59.999999999"`, `"2262-04-11T23:47:16.854775807"`, `"1677-09-21T00:12:43.145224192"`, "null"}},
		{"timestamp_s_extremes", ts(arrow.Second, "", math.MaxInt64, math.MinInt64, 253402300799, 253402300800, -62167219200, -62167219201),
			[]string{"9223372036854775807", "-9223372036854775808", `"9999-12-31T23:59:59"`, "253402300800", `"0000-01-01T00:00:00"`, "-62167219201", "null"}},
		{"timestamp_ms_utc", ts(arrow.Millisecond, "UTC", 0, 1500), []string{`"1970-01-01T00:00:00Z"`, `"1970-01-01T00:00:01.5Z"`, "null"}},
		{"timestamp_us_new_york", ts(arrow.Microsecond, "America/New_York", 0, 1720000000000000, -3000000000000000),
			[]string{`"1969-12-31T19:00:00-05:00"`, `"2024-07-03T05:46:40-04:00"`, `"1874-12-07T13:43:58-04:56:02"`, "null"}},
		{"timestamp_s_fixed_offset", ts(arrow.Second, "+05:30", 0), []string{`"1970-01-01T05:30:00+05:30"`, "null"}},
		{"duration_ms", js(t, &arrow.DurationType{Unit: arrow.Millisecond}, `[-5, 9223372036854775807, null]`), []string{"-5", "9223372036854775807", "null"}},
		{"month_interval", js(t, arrow.FixedWidthTypes.MonthInterval, `[{"months":-3}]`), []string{`{"months":-3}`}},
		{"day_time_interval", js(t, arrow.FixedWidthTypes.DayTimeInterval, `[{"days":2,"milliseconds":-7}]`), []string{`{"days":2,"milliseconds":-7}`}},
		{"month_day_nano_interval", js(t, arrow.FixedWidthTypes.MonthDayNanoInterval, `[{"months":1,"days":2,"nanoseconds":9223372036854775807}]`),
			[]string{`{"months":1,"days":2,"nanoseconds":9223372036854775807}`}},
	}
}

// TestUnknownTimeZone: a zone neither in the tz database nor an offset is
// an error naming it, not a guess.
func TestUnknownTimeZone(t *testing.T) {
	arr := ts(arrow.Second, "Mars/Olympus", 0)(memory.DefaultAllocator)
	defer arr.Release()
	_, err := compile(arr)
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("err = %v, want ErrUnsupported", err)
	}
}
