package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// INTERVAL literals, parsed as DataFusion plans them (arrow-rs's
// Postgres-style interval parser with seconds as the default unit):
// "1 day", "2 hours", "1 month 2 days", "1.5 days", "1d", "-1 day 2 hours".
// Fractions spill into the smaller fields (0.5 month = 15 days, 1.5 days =
// 1 day 12 hours, 1.5 years = 18 months); a unit may appear once.

// intervalPrecision is the number of fractional digits an amount keeps.
const intervalPrecision = 15

// intervalUnit is a unit of an interval amount; the values are bits, to
// find repeated units.
type intervalUnit uint16

const (
	ivCentury intervalUnit = 1 << iota
	ivDecade
	ivYear
	ivMonth
	ivWeek
	ivDay
	ivHour
	ivMinute
	ivSecond
	ivMillisecond
	ivMicrosecond
	ivNanosecond
)

// ivUnitNames maps the lower-case unit names arrow-rs accepts.
var ivUnitNames = map[string]intervalUnit{
	"c": ivCentury, "cent": ivCentury, "cents": ivCentury, "century": ivCentury, "centuries": ivCentury,
	"dec": ivDecade, "decs": ivDecade, "decade": ivDecade, "decades": ivDecade,
	"y": ivYear, "yr": ivYear, "yrs": ivYear, "year": ivYear, "years": ivYear,
	"mon": ivMonth, "mons": ivMonth, "month": ivMonth, "months": ivMonth,
	"w": ivWeek, "week": ivWeek, "weeks": ivWeek,
	"d": ivDay, "day": ivDay, "days": ivDay,
	"h": ivHour, "hr": ivHour, "hrs": ivHour, "hour": ivHour, "hours": ivHour,
	"m": ivMinute, "min": ivMinute, "mins": ivMinute, "minute": ivMinute, "minutes": ivMinute,
	"s": ivSecond, "sec": ivSecond, "secs": ivSecond, "second": ivSecond, "seconds": ivSecond,
	"ms": ivMillisecond, "msec": ivMillisecond, "msecs": ivMillisecond, "msecond": ivMillisecond,
	"mseconds": ivMillisecond, "millisecond": ivMillisecond, "milliseconds": ivMillisecond,
	"us": ivMicrosecond, "usec": ivMicrosecond, "usecs": ivMicrosecond, "usecond": ivMicrosecond,
	"useconds": ivMicrosecond, "microsecond": ivMicrosecond, "microseconds": ivMicrosecond,
	"nanosecond": ivNanosecond, "nanoseconds": ivNanosecond,
}

// monthDayNano is an interval value.
type monthDayNano struct {
	months, days int32
	nanos        int64
}

// ivAmount is an interval amount: an integer and a fraction scaled by
// 10^intervalPrecision, both carrying the sign.
type ivAmount struct{ integer, frac int64 }

var errIntervalOverflow = fmt.Errorf("interval overflows its fields")

// parseInterval parses the text of an INTERVAL literal.
func parseInterval(text string) (monthDayNano, error) {
	var iv monthDayNano
	bad := fmt.Errorf("invalid input syntax for type interval: %q", text)
	parts := splitWhitespace(text)
	var seen intervalUnit
	for i := 0; i < len(parts); i++ {
		word := parts[i]
		var amount, unitText string
		hasUnit := true
		if k := strings.IndexFunc(word, notIntervalAmount); k >= 0 {
			amount, unitText = word[:k], word[k:]
		} else if i+1 < len(parts) {
			amount, unitText = word, parts[i+1]
			i++
		} else {
			amount, hasUnit = word, false
		}
		a, ok := parseIvAmount(amount)
		if !ok {
			return iv, bad
		}
		unit := ivSecond
		if hasUnit {
			u, ok := ivUnitNames[strings.ToLower(unitText)]
			if !ok {
				return iv, bad
			}
			unit = u
		}
		if seen&unit != 0 {
			return iv, fmt.Errorf("invalid input syntax for type interval: %q: repeated type %q", text, unitText)
		}
		seen |= unit
		var err error
		if iv, err = iv.add(a, unit); err != nil {
			return iv, fmt.Errorf("interval %q: %w", text, err)
		}
	}
	if len(parts) == 0 {
		return iv, bad
	}
	return iv, nil
}

// splitWhitespace splits s at every whitespace rune, keeping empty words
// (as Rust's str::split(char::is_whitespace) does).
func splitWhitespace(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if unicode.IsSpace(r) {
			out = append(out, s[start:i])
			start = i + utf8.RuneLen(r)
		}
	}
	return append(out, s[start:])
}

// notIntervalAmount reports whether r cannot be part of an amount.
func notIntervalAmount(r rune) bool { return !(r >= '0' && r <= '9') && r != '.' && r != '-' }

// parseIvAmount parses "1", "-1", "1.5", ".5", "-.5".
func parseIvAmount(s string) (ivAmount, bool) {
	integer, frac, hasDot := strings.Cut(s, ".")
	if !hasDot || frac == "" || len(frac) > intervalPrecision || frac[0] == '-' {
		if hasDot {
			return ivAmount{}, false
		}
		v, err := strconv.ParseInt(s, 10, 64)
		return ivAmount{integer: v}, err == nil
	}
	neg := strings.HasPrefix(integer, "-")
	var iv int64
	if integer != "" && integer != "-" {
		v, err := strconv.ParseInt(integer, 10, 64)
		if err != nil {
			return ivAmount{}, false
		}
		iv = v
	}
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil || f < 0 || frac[0] == '+' {
		return ivAmount{}, false
	}
	for k := len(frac); k < intervalPrecision; k++ {
		f *= 10
	}
	if iv < 0 || neg {
		f = -f
	}
	return ivAmount{integer: iv, frac: f}, true
}

// pow10 returns 10^k for 0 <= k <= 18.
func pow10(k int) int64 {
	p := int64(1)
	for ; k > 0; k-- {
		p *= 10
	}
	return p
}

// add adds an amount of unit to iv, as arrow-rs's Interval::add does.
func (iv monthDayNano) add(a ivAmount, unit intervalUnit) (monthDayNano, error) {
	months := func(perUnit, fracScale int64) (monthDayNano, error) {
		m, ok := checkedMul(a.integer, perUnit)
		if !ok {
			return iv, errIntervalOverflow
		}
		m, ok = checkedAdd(m, a.frac*12/fracScale)
		if !ok || m < math.MinInt32 || m > math.MaxInt32 {
			return iv, errIntervalOverflow
		}
		s := int64(iv.months) + m
		if s < math.MinInt32 || s > math.MaxInt32 {
			return iv, errIntervalOverflow
		}
		iv.months = int32(s)
		return iv, nil
	}
	nanos := func(perUnit, frac int64) (monthDayNano, error) {
		n, ok := checkedMul(a.integer, perUnit)
		if !ok {
			return iv, errIntervalOverflow
		}
		if n, ok = checkedAdd(n, frac); !ok {
			return iv, errIntervalOverflow
		}
		if iv.nanos, ok = checkedAdd(iv.nanos, n); !ok {
			return iv, errIntervalOverflow
		}
		return iv, nil
	}
	days := func(d, n int64) (monthDayNano, error) {
		s := int64(iv.days) + d
		if d < math.MinInt32 || d > math.MaxInt32 || s < math.MinInt32 || s > math.MaxInt32 {
			return iv, errIntervalOverflow
		}
		var ok bool
		if iv.nanos, ok = checkedAdd(iv.nanos, n); !ok {
			return iv, errIntervalOverflow
		}
		iv.days = int32(s)
		return iv, nil
	}
	switch unit {
	case ivCentury:
		return months(1200, pow10(intervalPrecision-2))
	case ivDecade:
		return months(120, pow10(intervalPrecision-1))
	case ivYear:
		return months(12, pow10(intervalPrecision))
	case ivMonth:
		if a.integer < math.MinInt32 || a.integer > math.MaxInt32 {
			return iv, errIntervalOverflow
		}
		d := a.frac * 3 / pow10(intervalPrecision-1)
		m := int64(iv.months) + a.integer
		if m < math.MinInt32 || m > math.MaxInt32 {
			return iv, errIntervalOverflow
		}
		out, err := days(d, 0)
		if err != nil {
			return iv, err
		}
		out.months = int32(m)
		return out, nil
	case ivWeek:
		d, ok := checkedMul(a.integer, 7)
		if !ok {
			return iv, errIntervalOverflow
		}
		return days(d, a.frac*7*24*6*6/pow10(intervalPrecision-11))
	case ivDay:
		return days(a.integer, a.frac*24*6*6/pow10(intervalPrecision-11))
	case ivHour:
		return nanos(3600*nanosPerSec, a.frac*6*6/pow10(intervalPrecision-11))
	case ivMinute:
		return nanos(60*nanosPerSec, a.frac*6/pow10(intervalPrecision-10))
	case ivSecond:
		return nanos(nanosPerSec, a.frac/pow10(intervalPrecision-9))
	case ivMillisecond:
		return nanos(1_000_000, a.frac/pow10(intervalPrecision-6))
	case ivMicrosecond:
		return nanos(1_000, a.frac/pow10(intervalPrecision-3))
	}
	return nanos(1, a.frac/pow10(intervalPrecision))
}

// bindInterval binds an INTERVAL literal (a function argument) to a
// constant of type Interval(MonthDayNano).
func (b *binder) bindInterval(l *Literal) (node, error) {
	iv, err := parseInterval(l.Str)
	if err != nil {
		return nil, fmt.Errorf("%w: %w (at %d)", ErrBind, err, l.At)
	}
	return &constNode{val: intervalArray(b, iv)}, nil
}

// intervalArray returns a one-row MonthDayNano interval array.
func intervalArray(b *binder, iv monthDayNano) arrow.Array {
	bl := array.NewMonthDayNanoIntervalBuilder(b.mem)
	defer bl.Release()
	bl.Append(arrow.MonthDayNanoInterval{Months: iv.months, Days: iv.days, Nanoseconds: iv.nanos})
	return bl.NewArray()
}

// bindIntervalArith binds timestamp ± interval, interval + timestamp and
// date ± interval as arrow-rs computes them (DataFusion plans these
// inside function arguments, the only place Lance accepts INTERVAL):
// months (the day clamped to the month's end) and days move the local
// calendar of a zoned timestamp, nanoseconds move the instant; a date
// adds the whole days of the nanoseconds. handled is false when the
// operands are not such a pair; the operator bindings (arith.go) call it.
func (b *binder) bindIntervalArith(op BinaryOp, l, r node, at int) (n node, handled bool, err error) {
	lt, rt := l.dataType().ID(), r.dataType().ID()
	isIv := func(id arrow.Type) bool { return id == arrow.INTERVAL_MONTH_DAY_NANO }
	isDT := func(id arrow.Type) bool { return id == arrow.TIMESTAMP || id == arrow.DATE32 }
	switch {
	case (op == OpPlus || op == OpMinus) && isDT(lt) && isIv(rt):
	case op == OpPlus && isIv(lt) && isDT(rt):
		l, r = r, l
	default:
		return nil, false, nil
	}
	ivc, ok := asConst(r)
	if !ok {
		return nil, true, fmt.Errorf("%w: an interval operand must be a literal (at %d)", ErrUnsupported, at)
	}
	typ := l.dataType()
	if ivc.isNull() {
		return &constNode{val: nullOf(b.mem, typ)}, true, nil
	}
	v := ivc.val.(*array.MonthDayNanoInterval).Value(0)
	iv := monthDayNano{months: v.Months, days: v.Days, nanos: v.Nanoseconds}
	sign := int64(1)
	if op == OpMinus {
		sign = -1
	}
	z, err := timestampZone(typ)
	if err != nil {
		return nil, true, fmt.Errorf("%w: %w (at %d)", ErrBind, err, at)
	}
	n, err = b.fold(&callNode{name: op.String(), args: []node{l}, typ: typ, k: intervalArithKernel(typ, iv, sign, z)}, nil)
	return n, true, err
}

// intervalArithKernel adds sign × iv to timestamps or dates.
func intervalArithKernel(typ arrow.DataType, iv monthDayNano, sign int64, z *zone) kernel {
	months, days, nanos := sign*int64(iv.months), sign*int64(iv.days), sign*iv.nanos
	return func(ec *evalCtx, args []arrow.Array) (arrow.Array, error) {
		a := args[0]
		if typ.ID() == arrow.DATE32 {
			out := newFixedOut[int32](ec.mem, ec.n, a)
			for i, d := range int32Values(a) {
				if !out.isValid(i) {
					continue
				}
				r := addMonths(int64(d), months) + days + nanos/nanosPerDay
				if r < minChronoDay || r > maxChronoDay {
					out.release()
					return nil, evalErr("date out of range")
				}
				out.vals[i] = int32(r)
			}
			return out.finish(typ), nil
		}
		per := unitPerSec(typ.(*arrow.TimestampType).Unit)
		out := newFixedOut[int64](ec.mem, ec.n, a)
		for i, v := range int64Values(a) {
			if !out.isValid(i) {
				continue
			}
			r, ok := addInterval(v, per, months, days, nanos, z)
			if !ok {
				out.release()
				return nil, evalErr("timestamp out of range")
			}
			out.vals[i] = r
		}
		return out.finish(typ), nil
	}
}

// addInterval adds months and days (in the local calendar) and nanos to
// timestamp v of per ticks a second, floored back to its unit.
func addInterval(v, per, months, days, nanos int64, z *zone) (int64, bool) {
	secs, sub := splitTicks(v, per)
	if d := floorDiv(secs, secsPerDay); d < minChronoDay || d > maxChronoDay {
		return 0, false
	}
	if months != 0 || days != 0 {
		local := secs + z.offsetAt(secs)
		day := floorDiv(local, secsPerDay)
		sod := local - day*secsPerDay
		day = addMonths(day, months) + days
		if day < minChronoDay || day > maxChronoDay {
			return 0, false
		}
		utc, single := z.localToUTC(day*secsPerDay + sod)
		if !single {
			return 0, false
		}
		secs = utc
	}
	ns, ok := checkedMul(secs, nanosPerSec)
	if ok {
		ns, ok = checkedAdd(ns, sub)
	}
	if ok {
		ns, ok = checkedAdd(ns, nanos)
	}
	if !ok {
		// Outside nanoseconds: exact for the coarser units.
		s2, n2 := secs+nanos/nanosPerSec, sub+nanos%nanosPerSec
		s2 += floorDiv(n2, nanosPerSec)
		n2 = floorMod(n2, nanosPerSec)
		if per == nanosPerSec {
			return 0, false
		}
		r, ok := checkedMul(s2, per)
		if !ok {
			return 0, false
		}
		return checkedAdd(r, n2/(nanosPerSec/per))
	}
	return floorDiv(ns, nanosPerSec/per), true
}
