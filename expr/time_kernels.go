package expr

import (
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Kernels of the date and time functions (bound in funcs_time.go): loops
// over the int64/int32 values of timestamp and date arrays, NULL in,
// NULL out; any row a function cannot compute fails the query, as
// DataFusion does.

var errNanosRange = errors.New("the dates that can be represented as nanoseconds have to be between 1677-09-21T00:12:44.0 and 2262-04-11T23:47:16.854775804")

// evalErr wraps a kernel failure.
func evalErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrEval, fmt.Sprintf(format, args...))
}

// toNanosKernel casts dates and strings to Timestamp(ns).
func toNanosKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	a := args[0]
	out := newFixedOut[int64](ec.mem, ec.n, a)
	switch a.DataType().ID() {
	case arrow.DATE32:
		for i, v := range int32Values(a) {
			if !out.isValid(i) {
				continue
			}
			ns, ok := checkedMul(int64(v), nanosPerDay)
			if !ok {
				out.release()
				return nil, evalErr("cannot cast Date32 value %d to Timestamp(ns): converted value exceeds the representable i64 range", v)
			}
			out.vals[i] = ns
		}
	case arrow.DATE64:
		for i, v := range int64Values(a) {
			if !out.isValid(i) {
				continue
			}
			ns, ok := checkedMul(v, 1_000_000)
			if !ok {
				out.release()
				return nil, evalErr("cannot cast Date64 value %d to Timestamp(ns): converted value exceeds the representable i64 range", v)
			}
			out.vals[i] = ns
		}
	default:
		v := bytesOf(a)
		for i := 0; i < ec.n; i++ {
			if !out.isValid(i) {
				continue
			}
			dt, err := parseTimestampString(v.str(i))
			if err != nil {
				out.release()
				return nil, err
			}
			ns, ok := dt.unixNanos()
			if !ok {
				out.release()
				return nil, evalErr("%v", errNanosRange)
			}
			out.vals[i] = ns
		}
	}
	return out.finish(tsNanos), nil
}

// rescaleKernel casts a timestamp to the unit of typ (as arrow's cast:
// checked multiplication to a finer unit, truncating division to a
// coarser one).
func rescaleKernel(typ *arrow.TimestampType) kernel {
	return func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		from := unitPerSec(a.DataType().(*arrow.TimestampType).Unit)
		to := unitPerSec(typ.Unit)
		out := newFixedOut[int64](ec.mem, ec.n, a)
		for i, v := range int64Values(a) {
			if !out.isValid(i) {
				continue
			}
			if to >= from {
				r, ok := checkedMul(v, to/from)
				if !ok {
					out.release()
					return nil, evalErr("arithmetic overflow: overflow happened on: %d * %d", v, to/from)
				}
				out.vals[i] = r
			} else {
				out.vals[i] = v / (from / to)
			}
		}
		return out.finish(typ), nil
	}
}

// truncNanos truncates ns (UTC nanoseconds) to unit, in zone z.
func truncNanos(ns int64, unit string, z *zone) (int64, bool) {
	off := int64(0)
	if z != nil {
		off = z.offsetAt(floorDiv(ns, nanosPerSec))
	}
	local, ok := checkedAdd(ns, off*nanosPerSec)
	if !ok {
		return 0, false
	}
	var g int64
	switch unit {
	case "microsecond":
		g = 1_000
	case "millisecond":
		g = 1_000_000
	case "second":
		g = nanosPerSec
	case "minute":
		g = 60 * nanosPerSec
	case "hour":
		g = 3600 * nanosPerSec
	case "day":
		g = nanosPerDay
	}
	var r int64
	if g != 0 {
		if r, ok = checkedMul(floorDiv(local, g), g); !ok {
			return 0, false
		}
	} else {
		day := floorDiv(local, nanosPerDay)
		y, m, _ := civilFromDays(day)
		switch unit {
		case "week":
			day -= int64((weekdayOf(day) + 6) % 7)
		case "month":
			day = daysFromCivil(y, m, 1)
		case "quarter":
			day = daysFromCivil(y, (m-1)/3*3+1, 1)
		case "year":
			day = daysFromCivil(y, 1, 1)
		}
		if r, ok = checkedMul(day, nanosPerDay); !ok {
			return 0, false
		}
	}
	if z == nil {
		return r, true
	}
	secs := floorDiv(r, nanosPerSec)
	utc, ok := z.resolveTrunc(secs, off)
	if !ok {
		return 0, false
	}
	if utc, ok = checkedMul(utc, nanosPerSec); !ok {
		return 0, false
	}
	return checkedAdd(utc, r-secs*nanosPerSec)
}

// resolveTrunc maps a truncated local second back to UTC as DataFusion's
// date_trunc does: in an overlap the instant with the original offset
// (else the later one), in a gap the local time three hours earlier,
// resolved, plus three hours.
func (z *zone) resolveTrunc(local, origOff int64) (int64, bool) {
	c, n := z.candidates(local)
	switch n {
	case 1:
		return c[0], true
	case 2:
		if local-c[0] == origOff {
			return c[0], true
		}
		return c[1], true
	}
	c, n = z.candidates(local - 3*3600)
	if n != 1 {
		return 0, false
	}
	return c[0] + 3*3600, true
}

// truncGranule is a date_trunc unit of fixed length, in nanoseconds
// (0 for week, month, quarter, year).
func truncGranule(unit string) int64 {
	switch unit {
	case "microsecond":
		return 1_000
	case "millisecond":
		return 1_000_000
	case "second":
		return nanosPerSec
	case "minute":
		return 60 * nanosPerSec
	case "hour":
		return 3600 * nanosPerSec
	case "day":
		return nanosPerDay
	}
	return 0
}

// truncKernel is date_trunc(unit, ts) as DataFusion computes it: over a
// column, units up to a minute (and, without a zone, hours and days) are
// floored in the timestamp's own unit; everything else, and every
// constant, goes through nanoseconds and the calendar (in the zone),
// where a value outside the nanosecond range fails.
func truncKernel(unit string, typ *arrow.TimestampType, z *zone, scalar bool) kernel {
	scale := nanosPerSec / unitPerSec(typ.Unit)
	g := truncGranule(unit)
	fine := !scalar && g != 0 && (g <= 60*nanosPerSec || z == nil)
	return func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		out := newFixedOut[int64](ec.mem, ec.n, a)
		vals := int64Values(a)
		if fine {
			step := g / scale
			for i, v := range vals {
				if step > 1 {
					v -= floorMod(v, step)
				}
				out.vals[i] = v
			}
			return out.finish(typ), nil
		}
		for i, v := range vals {
			if !out.isValid(i) {
				continue
			}
			ns, ok := checkedMul(v, scale)
			if ok {
				ns, ok = truncNanos(ns, unit, z)
			}
			if !ok {
				out.release()
				return nil, evalErr("timestamp %d out of range", v)
			}
			out.vals[i] = truncBack(ns, typ.Unit, unit)
		}
		return out.finish(typ), nil
	}
}

// truncBack converts truncated nanoseconds back to unit u as DataFusion's
// general_date_trunc does, truncating again toward zero (in UTC) for the
// units below an hour.
func truncBack(ns int64, u arrow.TimeUnit, unit string) int64 {
	switch u {
	case arrow.Second:
		if unit == "minute" {
			return ns / nanosPerSec / 60 * 60
		}
		return ns / nanosPerSec
	case arrow.Millisecond:
		switch unit {
		case "minute":
			return ns / 1_000_000 / 1_000 / 60 * 1_000 * 60
		case "second":
			return ns / 1_000_000 / 1_000 * 1_000
		}
		return ns / 1_000_000
	case arrow.Microsecond:
		switch unit {
		case "minute":
			return ns / 1_000 / 1_000_000 / 60 * 60 * 1_000_000
		case "second":
			return ns / 1_000 / 1_000_000 * 1_000_000
		case "millisecond":
			return ns / 1_000 / 1_000 * 1_000
		}
		return ns / 1_000
	}
	switch unit {
	case "minute":
		return ns / nanosPerSec / 60 * nanosPerSec * 60
	case "second":
		return ns / nanosPerSec * nanosPerSec
	case "millisecond":
		return ns / 1_000_000 * 1_000_000
	case "microsecond":
		return ns / 1_000 * 1_000
	}
	return ns
}

// Parts of date_part.
const (
	pYear = iota
	pQuarter
	pMonth
	pWeek
	pDay
	pDoy
	pDow
	pIsoDow
	pIsoYear
	pHour
	pMinute
	pSecond
	pMilli
	pMicro
	pNano
	pEpoch
)

var partCodes = map[string]int{"year": pYear, "quarter": pQuarter, "month": pMonth, "week": pWeek, "day": pDay,
	"doy": pDoy, "dow": pDow, "isodow": pIsoDow, "isoyear": pIsoYear, "hour": pHour, "minute": pMinute,
	"second": pSecond, "millisecond": pMilli, "microsecond": pMicro, "nanosecond": pNano, "epoch": pEpoch}

// partValue returns part of local day z at second of day sod and
// nanosecond nanos.
func partValue(part int, z, sod, nanos int64) int64 {
	switch part {
	case pHour:
		return sod / 3600
	case pMinute:
		return sod / 60 % 60
	case pSecond:
		return sod % 60
	case pMilli:
		return sod%60*1_000 + nanos/1_000_000
	case pMicro:
		return sod%60*1_000_000 + nanos/1_000
	case pNano:
		return sod%60*nanosPerSec + nanos
	case pDow:
		return int64(weekdayOf(z))
	case pIsoDow:
		return int64((weekdayOf(z)+6)%7 + 1)
	case pWeek:
		_, w := isoWeek(z)
		return int64(w)
	case pIsoYear:
		y, _ := isoWeek(z)
		return y
	}
	y, m, d := civilFromDays(z)
	switch part {
	case pYear:
		return y
	case pQuarter:
		return int64((m-1)/3 + 1)
	case pMonth:
		return int64(m)
	case pDay:
		return int64(d)
	}
	return int64(ordinalOf(y, m, d))
}

// partKernel is date_part(part, x) for timestamps, dates and times.
func partKernel(name string, t arrow.DataType, z *zone) kernel {
	part := partCodes[name]
	return func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		// ticks per second, and whether a value counts days (date32),
		// or is a time of day.
		var per int64
		var vals []int64
		switch x := t.(type) {
		case *arrow.TimestampType:
			per = unitPerSec(x.Unit)
		case *arrow.Date64Type:
			per = 1_000
		case *arrow.Time32Type:
			per = unitPerSec(x.Unit)
		case *arrow.Time64Type:
			per = unitPerSec(x.Unit)
		}
		if t.ID() == arrow.DATE32 || t.ID() == arrow.TIME32 {
			v32 := int32Values(a)
			vals = make([]int64, len(v32))
			for i, v := range v32 {
				vals[i] = int64(v)
			}
		} else {
			vals = int64Values(a)
		}
		if part == pEpoch {
			out := newFixedOut[float64](ec.mem, ec.n, a)
			for i, v := range vals {
				if t.ID() == arrow.DATE32 {
					out.vals[i] = float64(v * secsPerDay)
				} else {
					out.vals[i] = float64(v) / float64(per)
				}
			}
			return out.finish(arrow.PrimitiveTypes.Float64), nil
		}
		isTime := t.ID() == arrow.TIME32 || t.ID() == arrow.TIME64
		res := newFixedOut[int64](ec.mem, ec.n, a)
		for i, v := range vals {
			if !res.isValid(i) {
				continue
			}
			var secs, nanos int64
			if t.ID() == arrow.DATE32 {
				secs = v * secsPerDay
			} else {
				secs, nanos = splitTicks(v, per)
			}
			day := floorDiv(secs, secsPerDay)
			if !isTime && (day < minChronoDay || day > maxChronoDay) {
				res.setNull(i)
				continue
			}
			if z != nil {
				secs += z.offsetAt(secs)
				day = floorDiv(secs, secsPerDay)
			}
			sod := secs - day*secsPerDay
			if isTime {
				sod = secs
			}
			res.vals[i] = partValue(part, day, sod, nanos)
		}
		if name == "nanosecond" {
			return res.finish(arrow.PrimitiveTypes.Int64), nil
		}
		out := newFixedOut[int32](ec.mem, ec.n)
		out.valid = res.valid
		for i, v := range res.vals {
			out.vals[i] = int32(v)
		}
		res.release()
		return out.finish(arrow.PrimitiveTypes.Int32), nil
	}
}

// binDistance is DataFusion's compute_distance: diff rounded toward zero
// to a multiple of stride, then down a bin for a negative diff.
func binDistance(diff, stride int64) int64 {
	delta := diff - diff%stride
	if diff < 0 && stride > 1 && delta != diff {
		return delta - stride
	}
	return delta
}

// addMonths adds n months to the date of day z, clamping the day of the
// month (chrono's Months arithmetic).
func addMonths(z, n int64) int64 {
	y, m, d := civilFromDays(z)
	t := y*12 + int64(m-1) + n
	ny, nm := floorDiv(t, 12), int(floorMod(t, 12))+1
	return daysFromCivil(ny, nm, min(d, daysIn(ny, nm)))
}

// binKernel is date_bin(stride, ts, origin) on nanoseconds (wrapping as
// DataFusion's arithmetic does), back to ts's unit. ts - origin must not
// overflow: over a column that fails, for a constant it gives NULL.
func binKernel(months, stride, origin int64, typ *arrow.TimestampType, scalar bool) kernel {
	scale := nanosPerSec / unitPerSec(typ.Unit)
	return func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		out := newFixedOut[int64](ec.mem, ec.n, a)
		oDay := floorDiv(origin, nanosPerDay)
		oTod := origin - oDay*nanosPerDay
		oy, om, _ := civilFromDays(oDay)
		for i, v := range int64Values(a) {
			if !out.isValid(i) {
				continue
			}
			x := v * scale
			diff := x - origin
			if months == 0 && ((origin > 0 && diff > x) || (origin < 0 && diff < x)) {
				if scalar {
					out.setNull(i)
					continue
				}
				out.release()
				return nil, evalErr("date_bin source timestamp %d - origin %d overflows i64", x, origin)
			}
			var r int64
			if months == 0 {
				r = origin + binDistance(diff, stride)
			} else {
				if (x < 0 && x%nanosPerSec != 0) || (origin < 0 && origin%nanosPerSec != 0) {
					// DataFusion splits nanoseconds into seconds and a
					// (wrapped) unsigned fraction, which fails below zero.
					out.release()
					return nil, evalErr("invalid timestamp value")
				}
				sDay := floorDiv(x, nanosPerDay)
				sy, sm, _ := civilFromDays(sDay)
				delta := binDistance((sy-oy)*12+int64(sm-om), months)
				bin := addMonths(oDay, delta)*nanosPerDay + oTod
				if bin > x {
					bin = addMonths(oDay, delta-months)*nanosPerDay + oTod
				}
				d := floorDiv(bin, nanosPerDay)
				if d < floorDiv(math.MinInt64, nanosPerDay) || d > floorDiv(math.MaxInt64, nanosPerDay) {
					out.release()
					return nil, evalErr("%v", errNanosRange)
				}
				r = bin
			}
			out.vals[i] = r / scale
		}
		return out.finish(typ), nil
	}
}

// int32Column reads an integer or string argument as Int32 values (a
// cast: out-of-range values and unparsable strings fail).
func int32Column(a arrow.Array) ([]int32, error) {
	n := a.Len()
	out := make([]int32, n)
	put := func(i int, v int64) error {
		if v < math.MinInt32 || v > math.MaxInt32 {
			return evalErr("can't cast value %d to type Int32", v)
		}
		out[i] = int32(v)
		return nil
	}
	for i := 0; i < n; i++ {
		if a.IsNull(i) {
			continue
		}
		var err error
		switch x := a.(type) {
		case *array.Int8:
			err = put(i, int64(x.Value(i)))
		case *array.Int16:
			err = put(i, int64(x.Value(i)))
		case *array.Int32:
			err = put(i, int64(x.Value(i)))
		case *array.Int64:
			err = put(i, x.Value(i))
		case *array.Uint8:
			err = put(i, int64(x.Value(i)))
		case *array.Uint16:
			err = put(i, int64(x.Value(i)))
		case *array.Uint32:
			err = put(i, int64(x.Value(i)))
		case *array.Uint64:
			if v := x.Value(i); v > math.MaxInt32 {
				err = evalErr("can't cast value %d to type Int32", v)
			} else {
				out[i] = int32(v)
			}
		case *array.String, *array.LargeString:
			s := x.ValueStr(i)
			v, ok := parseRustInt(s, 32)
			if !ok {
				err = evalErr("cannot cast string '%s' to value of Int32 type", s)
			} else {
				out[i] = int32(v)
			}
		default:
			err = evalErr("cannot cast %s to Int32", a.DataType())
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// makeDateKernel is make_date(year, month, day).
func makeDateKernel(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
	var cols [3][]int32
	for k := range cols {
		var err error
		if cols[k], err = int32Column(args[k]); err != nil {
			return nil, err
		}
	}
	out := newFixedOut[int32](ec.mem, ec.n, args...)
	for i := 0; i < ec.n; i++ {
		if !out.isValid(i) {
			continue
		}
		y, m, d := cols[0][i], cols[1][i], cols[2][i]
		switch {
		case m < 1 || m > 12:
			out.release()
			return nil, evalErr("month value '%d' is out of range", m)
		case d < 1 || d > 31:
			out.release()
			return nil, evalErr("day value '%d' is out of range", d)
		case !ymdValid(int64(y), int(m), int(d)):
			out.release()
			return nil, evalErr("unable to parse date from %d, %d, %d", y, m, d)
		}
		out.vals[i] = int32(daysFromCivil(int64(y), int(m), int(d)))
	}
	return out.finish(arrow.FixedWidthTypes.Date32), nil
}
