package plainjson

import (
	"fmt"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The ISO forms cover the years 0000 through 9999; values outside (and
// times of day outside 00:00 to 24:00) print as their integer ticks.
const (
	minDay = -719528 // 0000-01-01, in days since 1970-01-01
	maxDay = 2932896 // 9999-12-31
	daySec = 86400
)

// compileTemporal returns the appender of a date, time, timestamp,
// duration or interval array (ok false for other types).
func compileTemporal(arr arrow.Array) (appender, bool, error) {
	switch a := arr.(type) {
	case *array.Date32:
		return func(dst []byte, i int) []byte { return appendDate(dst, int64(a.Value(i)), int64(a.Value(i))) }, true, nil
	case *array.Date64:
		return func(dst []byte, i int) []byte {
			ms := int64(a.Value(i))
			return appendDate(dst, floorDiv(ms, daySec*1000), ms)
		}, true, nil
	case *array.Time32:
		per := perSecond(a.DataType().(*arrow.Time32Type).Unit)
		return func(dst []byte, i int) []byte { return appendClock(dst, int64(a.Value(i)), per) }, true, nil
	case *array.Time64:
		per := perSecond(a.DataType().(*arrow.Time64Type).Unit)
		return func(dst []byte, i int) []byte { return appendClock(dst, int64(a.Value(i)), per) }, true, nil
	case *array.Timestamp:
		ap, err := compileTimestamp(a)
		return ap, true, err
	case *array.Duration:
		return ints(func(i int) int64 { return int64(a.Value(i)) }), true, nil
	case *array.MonthInterval:
		return func(dst []byte, i int) []byte {
			dst = append(dst, `{"months":`...)
			return append(strconv.AppendInt(dst, int64(a.Value(i)), 10), '}')
		}, true, nil
	case *array.DayTimeInterval:
		return func(dst []byte, i int) []byte {
			v := a.Value(i)
			dst = strconv.AppendInt(append(dst, `{"days":`...), int64(v.Days), 10)
			dst = strconv.AppendInt(append(dst, `,"milliseconds":`...), int64(v.Milliseconds), 10)
			return append(dst, '}')
		}, true, nil
	case *array.MonthDayNanoInterval:
		return func(dst []byte, i int) []byte {
			v := a.Value(i)
			dst = strconv.AppendInt(append(dst, `{"months":`...), int64(v.Months), 10)
			dst = strconv.AppendInt(append(dst, `,"days":`...), int64(v.Days), 10)
			dst = strconv.AppendInt(append(dst, `,"nanoseconds":`...), v.Nanoseconds, 10)
			return append(dst, '}')
		}, true, nil
	}
	return nil, false, nil
}

func perSecond(u arrow.TimeUnit) int64 { return int64(time.Second / u.Multiplier()) }

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// appendDate writes day (days since the epoch) as "2006-01-02", or raw
// as a number when the day is outside the years 0000-9999.
func appendDate(dst []byte, day, raw int64) []byte {
	if day < minDay || day > maxDay {
		return strconv.AppendInt(dst, raw, 10)
	}
	dst = append(dst, '"')
	dst = time.Unix(day*daySec, 0).UTC().AppendFormat(dst, time.DateOnly)
	return append(dst, '"')
}

// appendClock writes v ticks (per per second) since midnight as
// "15:04:05" with as many fraction digits as needed, or as a number when
// v is not a time of day.
func appendClock(dst []byte, v, per int64) []byte {
	if v < 0 || v >= daySec*per {
		return strconv.AppendInt(dst, v, 10)
	}
	sec, frac := v/per, v%per
	dst = append(dst, '"')
	dst = append2(dst, sec/3600)
	dst = append2(append(dst, ':'), sec/60%60)
	dst = append2(append(dst, ':'), sec%60)
	dst = appendFraction(dst, frac, per)
	return append(dst, '"')
}

func append2(dst []byte, n int64) []byte { return append(dst, byte('0'+n/10), byte('0'+n%10)) }

// appendFraction writes frac/per (0 <= frac < per, per a power of ten)
// as "." and its digits without trailing zeros; nothing for 0.
func appendFraction(dst []byte, frac, per int64) []byte {
	if frac == 0 {
		return dst
	}
	dst = append(dst, '.')
	for per /= 10; frac != 0; per /= 10 {
		dst = append(dst, byte('0'+frac/per))
		frac %= per
	}
	return dst
}

// compileTimestamp prints RFC 3339 strings: with a time zone, the local
// time there and its offset (Z for UTC, seconds when the offset has them,
// as in 19th-century local mean time); without one, the naive wall time
// and no offset.
func compileTimestamp(a *array.Timestamp) (appender, error) {
	dt := a.DataType().(*arrow.TimestampType)
	per := perSecond(dt.Unit)
	loc := time.UTC
	if dt.TimeZone != "" {
		var err error
		if loc, err = dt.GetZone(); err != nil {
			return nil, fmt.Errorf("%w: time zone %q of %s", ErrUnsupported, dt.TimeZone, dt)
		}
	}
	const (
		naive   = "2006-01-02T15:04:05.999999999"
		zoned   = naive + "Z07:00"
		zonedSS = zoned + ":00"
	)
	return func(dst []byte, i int) []byte {
		v := int64(a.Value(i))
		sec := floorDiv(v, per)
		if sec < minDay*daySec-daySec || sec > (maxDay+2)*daySec {
			return strconv.AppendInt(dst, v, 10)
		}
		t := time.Unix(sec, (v-sec*per)*(int64(time.Second)/per)).In(loc)
		if y := t.Year(); y < 0 || y > 9999 {
			return strconv.AppendInt(dst, v, 10)
		}
		layout := naive
		if dt.TimeZone != "" {
			layout = zoned
			if _, off := t.Zone(); off%60 != 0 {
				layout = zonedSS
			}
		}
		dst = append(dst, '"')
		dst = t.AppendFormat(dst, layout)
		return append(dst, '"')
	}, nil
}
