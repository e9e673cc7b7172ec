package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Strings to instants: arrow-rs's timestamp parser (to_timestamp(s),
// casts of strings to timestamps), its date parser (to_date(s)), and the
// resolution of chrono's parsed fields (formatted parsing).

// dateTime is a parsed naive date and time: days since 1970-01-01 and
// nanoseconds within the day (up to 1e9 more inside a leap second).
type dateTime struct {
	day   int64
	nanos int64
}

// unixNanos returns the instant in nanoseconds, false outside int64.
func (dt dateTime) unixNanos() (int64, bool) {
	v, ok := checkedMul(dt.unixSeconds(), nanosPerSec)
	if !ok {
		return 0, false
	}
	return checkedAdd(v, floorMod(dt.nanos, nanosPerSec))
}

// unixSeconds returns the instant's whole seconds (floored).
func (dt dateTime) unixSeconds() int64 { return dt.day*secsPerDay + floorDiv(dt.nanos, nanosPerSec) }

// ymdValid checks a civil date within chrono's range.
func ymdValid(y int64, m, d int) bool {
	if y < -262143 || y > 262142 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return false
	}
	return true
}

// hmsValid checks a time as chrono's from_hms_nano_opt does.
func hmsValid(h, m, s, nano int64) bool {
	return h < 24 && m < 60 && s < 60 && nano < 2*nanosPerSec && (nano < nanosPerSec || s == 59)
}

// tsParseError is arrow-rs's message for a string it cannot parse.
func tsParseError(s, ctx string) error {
	return fmt.Errorf("%w: error parsing timestamp from %q: %s", ErrEval, s, ctx)
}

// parseTimestampString parses s as arrow-rs's string_to_datetime does
// (RFC 3339 and its relaxed forms, a trailing offset or zone name) and
// returns the UTC instant.
func parseTimestampString(s string) (dateTime, error) {
	if len(s) < 10 {
		return dateTime{}, tsParseError(s, "timestamp must contain at least 10 characters")
	}
	var dg [32]byte
	var mask uint32
	for i := 0; i < len(s) && i < 32; i++ {
		dg[i] = s[i] - '0'
		if dg[i] < 10 {
			mask |= 1 << i
		}
	}
	if mask&0b1111111111 != 0b1101101111 || s[4] != '-' || s[7] != '-' {
		return dateTime{}, tsParseError(s, "error parsing date")
	}
	y := int64(dg[0])*1000 + int64(dg[1])*100 + int64(dg[2])*10 + int64(dg[3])
	mo, d := int(dg[5])*10+int(dg[6]), int(dg[8])*10+int(dg[9])
	if !ymdValid(y, mo, d) {
		return dateTime{}, tsParseError(s, "error parsing date")
	}
	day := daysFromCivil(y, mo, d)
	if len(s) == 10 {
		return dateTime{day: day}, nil
	}
	if s[10] != 'T' && s[10] != 't' && s[10] != ' ' {
		return dateTime{}, tsParseError(s, "invalid timestamp separator")
	}
	var h, mi, sec, nano int64
	end := 0
	switch (mask >> 11) & 0xff {
	case 0b11011011:
		if s[13] != ':' || s[16] != ':' {
			return dateTime{}, tsParseError(s, "error parsing time")
		}
		h, mi, sec = int64(dg[11])*10+int64(dg[12]), int64(dg[14])*10+int64(dg[15]), int64(dg[17])*10+int64(dg[18])
		end = 19
		if len(s) > 19 && s[19] == '.' {
			n := 0
			for n < 12 && mask&(1<<(20+n)) != 0 {
				n++
			}
			if n == 0 {
				return dateTime{}, tsParseError(s, "error parsing time")
			}
			k := min(n, 9)
			for i := 0; i < k; i++ {
				nano = nano*10 + int64(dg[20+i])
			}
			nano *= pow10(9 - k)
			end = 20 + n
		}
	case 0b111111:
		h, mi, sec = int64(dg[11])*10+int64(dg[12]), int64(dg[13])*10+int64(dg[14]), int64(dg[15])*10+int64(dg[16])
		end = 17
	default:
		return dateTime{}, tsParseError(s, "error parsing time")
	}
	if sec == 60 {
		sec, nano = 59, nano+nanosPerSec
	}
	if !hmsValid(h, mi, sec, nano) {
		return dateTime{}, tsParseError(s, "error parsing time")
	}
	dt := dateTime{day: day, nanos: (h*3600+mi*60+sec)*nanosPerSec + nano}
	if end == 32 {
		for end < len(s) && s[end] >= '0' && s[end] <= '9' {
			end++
		}
	}
	if len(s) <= end {
		return dt, nil
	}
	if (s[end] == 'z' || s[end] == 'Z') && end == len(s)-1 {
		return dt, nil
	}
	name := trimSpace(s[end:])
	z, err := parseZone(name)
	if err != nil {
		return dateTime{}, fmt.Errorf("%w: invalid timezone %q: failed to parse timezone", ErrEval, name)
	}
	secs, ok := z.localToUTC(dt.unixSeconds())
	if !ok {
		return dateTime{}, tsParseError(s, "error computing timezone offset")
	}
	return shiftSeconds(dt, secs-dt.unixSeconds()), nil
}

// shiftSeconds moves dt by delta seconds.
func shiftSeconds(dt dateTime, delta int64) dateTime {
	ns := dt.nanos + floorMod(delta, secsPerDay)*nanosPerSec
	return dateTime{day: dt.day + floorDiv(delta, secsPerDay) + floorDiv(ns, nanosPerDay), nanos: floorMod(ns, nanosPerDay)}
}

// localToUTC returns the UTC second of local second local in z; false in
// a gap or an overlap of a location (chrono's from_local_datetime that
// is not single).
func (z *zone) localToUTC(local int64) (int64, bool) {
	c, n := z.candidates(local)
	return c[0], n == 1
}

// candidates returns the UTC seconds whose local time in z is local,
// earliest first (none in a gap, two in an overlap).
func (z *zone) candidates(local int64) ([2]int64, int) {
	var out [2]int64
	if z == nil || z.loc == nil {
		out[0] = local
		if z != nil {
			out[0] = local - z.off
		}
		return out, 1
	}
	n := 0
	o1, o2 := z.offsetAt(local-43200), z.offsetAt(local+43200)
	// A larger offset gives an earlier instant.
	if o1 < o2 {
		o1, o2 = o2, o1
	}
	for k, o := range [2]int64{o1, o2} {
		if k == 1 && o == o1 {
			break
		}
		if z.offsetAt(local-o) == o {
			out[n] = local - o
			n++
		}
	}
	return out, n
}

// parseDateString parses s as arrow-rs's Date32 parser does: YYYY-MM-DD
// (one-digit month and day allowed), YYYYMMDD, a signed extended year
// (+10000-01-01), or a longer timestamp (its UTC date).
func parseDateString(s string) (int64, bool) {
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
		k := strings.IndexByte(s[1:], '-')
		if k < 4 {
			return 0, false
		}
		y, err := strconv.ParseInt(s[:k+1], 10, 32)
		if err != nil {
			return 0, false
		}
		ms, ds, ok := strings.Cut(s[k+2:], "-")
		if !ok {
			return 0, false
		}
		m, ok1 := parseRustU32(ms)
		d, ok2 := parseRustU32(ds)
		if !ok1 || !ok2 || m > 12 || d > 31 || !ymdValid(y, int(m), int(d)) {
			return 0, false
		}
		return daysFromCivil(y, int(m), int(d)), true
	}
	if len(s) > 10 {
		dt, err := parseTimestampString(s)
		if err != nil {
			return 0, false
		}
		return dt.day, true
	}
	var dg [10]byte
	var mask uint16
	for i := 0; i < len(s); i++ {
		dg[i] = s[i] - '0'
		if dg[i] < 10 {
			mask |= 1 << i
		}
	}
	const hyphen = byte(0xfd) // '-' - '0', wrapped
	y := int64(dg[0])*1000 + int64(dg[1])*100 + int64(dg[2])*10 + int64(dg[3])
	var m, d int
	if dg[4] != hyphen {
		if mask != 0xff || len(s) != 8 {
			return 0, false
		}
		m, d = int(dg[4])*10+int(dg[5]), int(dg[6])*10+int(dg[7])
	} else {
		switch mask {
		case 0b1101101111:
			if dg[7] != hyphen {
				return 0, false
			}
			m, d = int(dg[5])*10+int(dg[6]), int(dg[8])*10+int(dg[9])
		case 0b101101111:
			if dg[7] != hyphen {
				return 0, false
			}
			m, d = int(dg[5])*10+int(dg[6]), int(dg[8])
		case 0b110101111:
			if dg[6] != hyphen {
				return 0, false
			}
			m, d = int(dg[5]), int(dg[7])*10+int(dg[8])
		case 0b10101111:
			if dg[6] != hyphen {
				return 0, false
			}
			m, d = int(dg[5]), int(dg[7])
		default:
			return 0, false
		}
	}
	if !ymdValid(y, m, d) {
		return 0, false
	}
	return daysFromCivil(y, m, d), true
}

// parseRustU32 parses an unsigned decimal as Rust's u32::from_str does
// (an optional leading +).
func parseRustU32(s string) (uint64, bool) {
	s = strings.TrimPrefix(s, "+")
	if s == "" || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 32)
	return v, err == nil
}

// Resolution of parsed fields (chrono's Parsed::to_naive_date and co).

// resolveYear combines a year with its century and year of century.
func resolveYear(y, q, r optInt) (optInt, error) {
	switch {
	case !q.ok && !r.ok:
		return y, nil
	case y.ok:
		if y.v < 0 {
			return y, errPImpossible
		}
		if q.or(y.v/100) != y.v/100 || r.or(y.v%100) != y.v%100 {
			return y, errPImpossible
		}
		return y, nil
	case q.ok && r.ok:
		v, ok := checkedAdd(q.v*100, r.v)
		if !ok || v > math.MaxInt32 {
			return y, errPOutOfRange
		}
		return optInt{v: v, ok: true}, nil
	case r.ok:
		if r.v < 70 {
			return optInt{v: r.v + 2000, ok: true}, nil
		}
		return optInt{v: r.v + 1900, ok: true}, nil
	}
	return y, errPNotEnough
}

// weeksFrom returns chrono's weeks_from: the week number of day z of its
// year, weeks starting on weekday start (0 = Sunday).
func weeksFrom(z int64, start int) int64 {
	y, m, d := civilFromDays(z)
	since := int64(floorMod(int64(weekdayOf(z)-start), 7))
	return (int64(ordinalOf(y, m, d)) - since + 6) / 7
}

// toDate resolves the date fields.
func (p *parsed) toDate() (int64, error) {
	year, err := resolveYear(p.year, p.yearDiv100, p.yearMod100)
	if err != nil {
		return 0, err
	}
	isoYear, err := resolveYear(p.isoYear, p.isoYearDiv100, p.isoYearMod100)
	if err != nil {
		return 0, err
	}
	verifyYMD := func(z int64) bool {
		y, m, d := civilFromDays(z)
		var q, r optInt
		if y >= 0 {
			q, r = optInt{y / 100, true}, optInt{y % 100, true}
		}
		return p.year.or(y) == y && eqOpt(p.yearDiv100, q) && eqOpt(p.yearMod100, r) &&
			p.month.or(int64(m)) == int64(m) && p.day.or(int64(d)) == int64(d)
	}
	verifyISO := func(z int64) bool {
		iy, iw := isoWeek(z)
		var q, r optInt
		if iy >= 0 {
			q, r = optInt{iy / 100, true}, optInt{iy % 100, true}
		}
		return p.isoYear.or(iy) == iy && eqOpt(p.isoYearDiv100, q) && eqOpt(p.isoYearMod100, r) &&
			p.isoWeek.or(int64(iw)) == int64(iw) && p.weekday.or(int64(weekdayOf(z))) == int64(weekdayOf(z))
	}
	verifyOrdinal := func(z int64) bool {
		y, m, d := civilFromDays(z)
		o := int64(ordinalOf(y, m, d))
		return p.ordinal.or(o) == o && p.weekFromSun.or(weeksFrom(z, 0)) == weeksFrom(z, 0) &&
			p.weekFromMon.or(weeksFrom(z, 1)) == weeksFrom(z, 1)
	}
	var z int64
	var verified bool
	switch {
	case year.ok && p.month.ok && p.day.ok:
		if !ymdValid(year.v, int(p.month.v), int(p.day.v)) {
			return 0, errPOutOfRange
		}
		z = daysFromCivil(year.v, int(p.month.v), int(p.day.v))
		verified = verifyISO(z) && verifyOrdinal(z)
	case year.ok && p.ordinal.ok:
		if year.v < -262143 || year.v > 262142 || (p.ordinal.v == 366 && !isLeap(year.v)) {
			return 0, errPOutOfRange
		}
		z = daysFromCivil(year.v, 1, 1) + p.ordinal.v - 1
		verified = verifyYMD(z) && verifyISO(z) && verifyOrdinal(z)
	case year.ok && p.weekFromSun.ok && p.weekday.ok, year.ok && p.weekFromMon.ok && p.weekday.ok:
		start, week := int64(0), p.weekFromSun.v
		if !p.weekFromSun.ok {
			start, week = 1, p.weekFromMon.v
		}
		if year.v < -262143 || year.v > 262142 {
			return 0, errPOutOfRange
		}
		first := daysFromCivil(year.v, 1, 1)
		firstStart := 1 + floorMod(start-int64(weekdayOf(first)), 7)
		ord := firstStart + (week-1)*7 + floorMod(p.weekday.v-start, 7)
		days := int64(365)
		if isLeap(year.v) {
			days = 366
		}
		if ord <= 0 || ord > days {
			return 0, errPImpossible
		}
		z = first + ord - 1
		verified = verifyYMD(z) && verifyISO(z) && verifyOrdinal(z)
	case isoYear.ok && p.isoWeek.ok && p.weekday.ok:
		y := isoYear.v
		if y < -262143 || y > 262142 {
			return 0, errPOutOfRange
		}
		jan1 := daysFromCivil(y, 1, 1)
		wd1 := weekdayOf(jan1)
		weeks := int64(52)
		if wd1 == 4 || (wd1 == 3 && isLeap(y)) {
			weeks = 53
		}
		if p.isoWeek.v > weeks {
			return 0, errPOutOfRange
		}
		jan4 := jan1 + 3
		mon1 := jan4 - int64((weekdayOf(jan4)+6)%7)
		z = mon1 + (p.isoWeek.v-1)*7 + int64((int(p.weekday.v)+6)%7)
		if z < minChronoDay || z > maxChronoDay {
			return 0, errPOutOfRange
		}
		verified = verifyYMD(z) && verifyOrdinal(z)
	default:
		return 0, errPNotEnough
	}
	if !verified {
		return 0, errPImpossible
	}
	if p.quarter.ok {
		_, m, _ := civilFromDays(z)
		if p.quarter.v != int64((m-1)/3+1) {
			return 0, errPImpossible
		}
	}
	return z, nil
}

// eqOpt reports whether a set field equals want (an unset field is
// consistent with anything; a set field needs want set).
func eqOpt(field, want optInt) bool {
	if !field.ok {
		return true
	}
	return want.ok && field.v == want.v
}

// toTime resolves the time fields into nanoseconds within the day.
func (p *parsed) toTime() (int64, error) {
	if !p.hourDiv12.ok || !p.hourMod12.ok || !p.minute.ok {
		if (p.hourDiv12.ok && p.hourDiv12.v > 1) || (p.hourMod12.ok && p.hourMod12.v > 11) {
			return 0, errPOutOfRange
		}
		return 0, errPNotEnough
	}
	h := p.hourDiv12.v*12 + p.hourMod12.v
	sec, nano := p.second.or(0), int64(0)
	if sec == 60 {
		sec, nano = 59, nanosPerSec
	}
	if p.nanosecond.ok {
		if !p.second.ok {
			return 0, errPNotEnough
		}
		nano += p.nanosecond.v
	}
	if !hmsValid(h, p.minute.v, sec, nano) {
		return 0, errPOutOfRange
	}
	return (h*3600+p.minute.v*60+sec)*nanosPerSec + nano, nil
}

// toDateTimeWithOffset resolves a naive datetime, the local time at
// offset (seconds east) when only a timestamp was given.
func (p *parsed) toDateTimeWithOffset(offset int64) (dateTime, error) {
	day, derr := p.toDate()
	nanos, terr := p.toTime()
	if derr == nil && terr == nil {
		dt := dateTime{day: day, nanos: nanos}
		if p.timestamp.ok {
			ts := dt.unixSeconds() - offset
			leap := p.second.ok && p.second.v == 60
			if leap {
				ts-- // chrono's timestamp() does not count the leap second
			}
			if p.timestamp.v != ts && !(leap && p.timestamp.v == ts+1) {
				return dateTime{}, errPImpossible
			}
		}
		return dt, nil
	}
	if !p.timestamp.ok {
		if derr != nil {
			return dateTime{}, derr
		}
		return dateTime{}, terr
	}
	for _, e := range []error{derr, terr} {
		if e == errPOutOfRange {
			return dateTime{}, errPOutOfRange
		}
	}
	for _, e := range []error{derr, terr} {
		if e == errPImpossible {
			return dateTime{}, errPImpossible
		}
	}
	ts, ok := checkedAdd(p.timestamp.v, offset)
	if !ok {
		return dateTime{}, errPOutOfRange
	}
	z, sod := floorDiv(ts, secsPerDay), floorMod(ts, secsPerDay)
	if z < minChronoDay || z > maxChronoDay {
		return dateTime{}, errPOutOfRange
	}
	q := *p
	if q.second.ok && q.second.v == 60 {
		switch sod % 60 {
		case 59:
		case 0:
			ts--
			z, sod = floorDiv(ts, secsPerDay), floorMod(ts, secsPerDay)
		default:
			return dateTime{}, errPImpossible
		}
	} else if err := q.second.set(sod % 60); err != nil {
		return dateTime{}, err
	}
	y, m, d := civilFromDays(z)
	if err := q.year.set(y); err != nil {
		return dateTime{}, err
	}
	if err := q.ordinal.set(int64(ordinalOf(y, m, d))); err != nil {
		return dateTime{}, err
	}
	if err := q.setNumeric(nHour, sod/3600); err != nil {
		return dateTime{}, err
	}
	if err := q.minute.set(sod / 60 % 60); err != nil {
		return dateTime{}, err
	}
	if day, derr = q.toDate(); derr != nil {
		return dateTime{}, derr
	}
	if nanos, terr = q.toTime(); terr != nil {
		return dateTime{}, terr
	}
	return dateTime{day: day, nanos: nanos}, nil
}

// parseFormatted parses s with a chrono format as DataFusion's
// string_to_datetime_formatted does (UTC unless the string gives an
// offset; a trailing " %Z" names a zone), returning the UTC instant.
func parseFormatted(s string, tf *timeFormat) (dateTime, error) {
	fail := func(err error) (dateTime, error) {
		return dateTime{}, fmt.Errorf("%w: error parsing timestamp from %q using format %q: %v", ErrEval, s, tf.text, err)
	}
	str := s
	var z *zone
	switch {
	case tf.zoneSuffix:
		k := strings.LastIndexByte(str, ' ')
		if k < 0 {
			return fail(fmt.Errorf("no zone name at the end"))
		}
		zz, err := parseZone(str[k+1:])
		if err != nil || zz.loc == nil {
			return fail(fmt.Errorf("%q is not a valid timezone", str[k+1:]))
		}
		z, str = zz, str[:k]
	case tf.badZone:
		return fail(fmt.Errorf("'%%Z' is only supported at the end of the format string preceded by a space"))
	}
	var p parsed
	if err := p.parseItems(str, tf.items); err != nil {
		return fail(err)
	}
	if dt, err := p.toZoned(z); err == nil {
		return dt, nil
	}
	dt, err := p.toDateTimeWithOffset(0)
	if err != nil {
		day, derr := p.toDate()
		if derr != nil {
			return fail(derr)
		}
		dt = dateTime{day: day}
	}
	return dt, nil
}

// toZoned resolves an instant: with the parsed offset (chrono's
// to_datetime), or in zone z (to_datetime_with_timezone).
func (p *parsed) toZoned(z *zone) (dateTime, error) {
	if z == nil {
		off := int64(0)
		switch {
		case p.offset.ok:
			off = p.offset.v
		case p.timestamp.ok:
		default:
			return dateTime{}, errPNotEnough
		}
		dt, err := p.toDateTimeWithOffset(off)
		if err != nil {
			return dateTime{}, err
		}
		if off <= -secsPerDay || off >= secsPerDay {
			return dateTime{}, errPOutOfRange
		}
		return shiftSeconds(dt, -off), nil
	}
	guess := int64(0)
	if p.timestamp.ok {
		guess = z.offsetAt(p.timestamp.v)
	}
	dt, err := p.toDateTimeWithOffset(guess)
	if err != nil {
		return dateTime{}, err
	}
	local := dt.unixSeconds()
	utc, ok := z.localToUTC(local)
	if !ok {
		return dateTime{}, errPImpossible
	}
	if p.offset.ok && local-utc != p.offset.v {
		return dateTime{}, errPImpossible
	}
	return shiftSeconds(dt, utc-local), nil
}
