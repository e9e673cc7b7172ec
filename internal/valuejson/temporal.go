package valuejson

import (
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

const (
	dateLayout     = "2006-01-02"
	timeLayout     = "15:04:05.999999999"
	dateTimeLayout = dateLayout + "T" + timeLayout
	msPerDay       = 86400000
)

// compileTemporal handles date, time, timestamp and duration arrays.
func compileTemporal(arr arrow.Array, st style) getter {
	switch a := arr.(type) {
	case *array.Date32:
		if st == humanStyle {
			return func(i int) any { return time.Unix(int64(a.Value(i))*86400, 0).UTC().Format(dateLayout) }
		}
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Date64:
		if st == humanStyle {
			return func(i int) any { return humanDate64(int64(a.Value(i))) }
		}
		return func(i int) any { return strconv.FormatInt(int64(a.Value(i)), 10) }
	case *array.Time32:
		unit := a.DataType().(*arrow.Time32Type).Unit
		if st == humanStyle {
			return func(i int) any { return timeOfDay(int64(a.Value(i)), unit) }
		}
		return func(i int) any { return int64(a.Value(i)) }
	case *array.Time64:
		unit := a.DataType().(*arrow.Time64Type).Unit
		if st == humanStyle {
			return func(i int) any { return timeOfDay(int64(a.Value(i)), unit) }
		}
		return func(i int) any { return strconv.FormatInt(int64(a.Value(i)), 10) }
	case *array.Timestamp:
		return compileTimestamp(a, st)
	case *array.Duration:
		unit := a.DataType().(*arrow.DurationType).Unit.String()
		if st == humanStyle {
			return func(i int) any { return strconv.FormatInt(int64(a.Value(i)), 10) + unit }
		}
		return func(i int) any { return strconv.FormatInt(int64(a.Value(i)), 10) }
	}
	return nil
}

func compileTimestamp(a *array.Timestamp, st style) getter {
	if st != humanStyle {
		return func(i int) any { return strconv.FormatInt(int64(a.Value(i)), 10) }
	}
	typ := a.DataType().(*arrow.TimestampType)
	layout, loc := dateTimeLayout, time.UTC
	if typ.TimeZone != "" {
		layout += "Z07:00"
		if l, err := typ.GetZone(); err == nil && l != nil {
			loc = l
		}
	}
	return func(i int) any {
		return unitTime(int64(a.Value(i)), typ.Unit).In(loc).Format(layout)
	}
}

// unitTime converts a count of unit since the Unix epoch to a time.
func unitTime(v int64, unit arrow.TimeUnit) time.Time {
	switch unit {
	case arrow.Second:
		return time.Unix(v, 0)
	case arrow.Millisecond:
		return time.UnixMilli(v)
	case arrow.Microsecond:
		return time.UnixMicro(v)
	default:
		return time.Unix(0, v)
	}
}

// timeOfDay formats a count of unit since midnight as HH:MM:SS[.fraction].
func timeOfDay(v int64, unit arrow.TimeUnit) string {
	return unitTime(v, unit).UTC().Format(timeLayout)
}

// humanDate64 formats milliseconds since the epoch as a date, or as a
// date-time when the value is not a whole day.
func humanDate64(ms int64) string {
	t := time.UnixMilli(ms).UTC()
	if ms%msPerDay == 0 {
		return t.Format(dateLayout)
	}
	return t.Format(dateTimeLayout)
}
