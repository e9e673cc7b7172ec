package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// Dates and timestamps: parsing and formatting as arrow-rs (chrono) does,
// and the casts between dates, timestamps of every unit and their raw
// integers.

// chrono's date range, in years.
const (
	minChronoYear = -262143
	maxChronoYear = 262142
)

// castDaysFromCivil returns the days since 1970-01-01 of a proleptic
// Gregorian date.
func castDaysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// castCivilFromDays is the inverse of castDaysFromCivil.
func castCivilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era = (z - 146096) / 146097
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// castValidDate reports whether y-m-d is a real date in chrono's range.
func castValidDate(y, m, d int64) bool {
	if y < minChronoYear || y > maxChronoYear || m < 1 || m > 12 || d < 1 {
		return false
	}
	dim := [...]int64{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && (y%4 == 0 && (y%100 != 0 || y%400 == 0)) {
		dim = 29
	}
	return d <= dim
}

// castAppendDate appends days since the epoch as chrono's Debug does
// (YYYY-MM-DD; a sign and at least 4 digits outside years 0–9999).
func castAppendDate(dst []byte, days int64) ([]byte, bool) {
	if days < -100_000_000 || days > 100_000_000 {
		return dst, false
	}
	y, m, d := castCivilFromDays(days)
	if y < minChronoYear || y > maxChronoYear {
		return dst, false
	}
	if y >= 0 && y <= 9999 {
		dst = castAppendPadded(dst, y, 4)
	} else {
		if y < 0 {
			dst = append(dst, '-')
		} else {
			dst = append(dst, '+')
		}
		dst = castAppendPadded(dst, castAbsI64(y), 4)
	}
	dst = append(dst, '-')
	dst = castAppendPadded(dst, m, 2)
	dst = append(dst, '-')
	return castAppendPadded(dst, d, 2), true
}

func castAbsI64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// castAppendPadded appends v (>= 0) with at least width digits.
func castAppendPadded(dst []byte, v int64, width int) []byte {
	var s [20]byte
	b := strconv.AppendInt(s[:0], v, 10)
	for i := len(b); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, b...)
}

// castUnitsPerSec returns how many of unit make a second.
func castUnitsPerSec(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Millisecond:
		return 1e3
	case arrow.Microsecond:
		return 1e6
	case arrow.Nanosecond:
		return 1e9
	}
	return 1
}

// castUnitName is arrow-rs's Debug spelling of a time unit.
func castUnitName(u arrow.TimeUnit) string {
	return [...]string{"Second", "Millisecond", "Microsecond", "Nanosecond"}[u&3]
}

// castFloorDivMod returns the floor quotient and the non-negative remainder.
func castFloorDivMod(a, b int64) (int64, int64) {
	q, r := a/b, a%b
	if r < 0 {
		q--
		r += b
	}
	return q, r
}

// castAppendDateTime appends a timestamp value as chrono's NaiveDateTime
// Debug does: 2021-01-01T01:02:03[.fff|.ffffff|.fffffffff].
func castAppendDateTime(dst []byte, v int64, u arrow.TimeUnit) ([]byte, bool) {
	ups := castUnitsPerSec(u)
	secs, sub := castFloorDivMod(v, ups)
	nanos := sub * (1e9 / ups)
	days, sod := castFloorDivMod(secs, 86400)
	dst, ok := castAppendDate(dst, days)
	if !ok {
		return dst, false
	}
	dst = append(dst, 'T')
	dst = castAppendPadded(dst, sod/3600, 2)
	dst = append(dst, ':')
	dst = castAppendPadded(dst, sod/60%60, 2)
	dst = append(dst, ':')
	dst = castAppendPadded(dst, sod%60, 2)
	switch {
	case nanos == 0:
	case nanos%1e6 == 0:
		dst = append(dst, '.')
		dst = castAppendPadded(dst, nanos/1e6, 3)
	case nanos%1e3 == 0:
		dst = append(dst, '.')
		dst = castAppendPadded(dst, nanos/1e3, 6)
	default:
		dst = append(dst, '.')
		dst = castAppendPadded(dst, nanos, 9)
	}
	return dst, true
}

// castDigitAt returns the digit at s[i], or -1.
func castDigitAt(s string, i int) int64 {
	if i < len(s) && s[i] >= '0' && s[i] <= '9' {
		return int64(s[i] - '0')
	}
	return -1
}

// castParseDate parses a date as arrow-rs's Date32 parser does: a signed
// year of 4+ digits ("+10000-01-01"); longer than 10 bytes, a timestamp
// whose date is taken; YYYYMMDD; or YYYY-M[M]-D[D] (only the positions
// of the pattern are read, as arrow-rs reads them).
func castParseDate(s string) (int64, bool) {
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
		rest := s[1:]
		h := strings.IndexByte(rest, '-')
		if h < 4 {
			return 0, false
		}
		y, err := strconv.ParseInt(s[:h+1], 10, 32)
		if err != nil {
			return 0, false
		}
		md := s[h+2:]
		ms, ds, ok := strings.Cut(md, "-")
		if !ok {
			return 0, false
		}
		m, err1 := strconv.ParseUint(ms, 10, 32)
		d, err2 := strconv.ParseUint(ds, 10, 32)
		if err1 != nil || err2 != nil || !castValidDate(y, int64(m), int64(d)) {
			return 0, false
		}
		return castDaysFromCivil(y, int64(m), int64(d)), true
	}
	if len(s) > 10 {
		secs, _, err := castParseTimestamp(s)
		if err != nil {
			return 0, false
		}
		days, _ := castFloorDivMod(secs, 86400)
		return days, true
	}
	var dg [10]int64
	mask := 0
	for i := 0; i < 10; i++ {
		dg[i] = -1
		if i < len(s) {
			dg[i] = castDigitAt(s, i)
			if dg[i] >= 0 {
				mask |= 1 << i
			}
		}
	}
	hy := func(i int) bool { return i < len(s) && s[i] == '-' }
	year := func() int64 { return dg[0]*1000 + dg[1]*100 + dg[2]*10 + dg[3] }
	var y, m, d int64
	if !hy(4) {
		if mask != 0b11111111 || len(s) != 8 {
			return 0, false
		}
		y, m, d = year(), dg[4]*10+dg[5], dg[6]*10+dg[7]
	} else {
		switch mask {
		case 0b1101101111:
			if !hy(7) {
				return 0, false
			}
			m, d = dg[5]*10+dg[6], dg[8]*10+dg[9]
		case 0b101101111:
			if !hy(7) {
				return 0, false
			}
			m, d = dg[5]*10+dg[6], dg[8]
		case 0b110101111:
			if !hy(6) {
				return 0, false
			}
			m, d = dg[5], dg[7]*10+dg[8]
		case 0b10101111:
			if !hy(6) {
				return 0, false
			}
			m, d = dg[5], dg[7]
		default:
			return 0, false
		}
		y = year()
	}
	if !castValidDate(y, m, d) {
		return 0, false
	}
	return castDaysFromCivil(y, m, d), true
}

// castParseTimestamp parses a timestamp as arrow-rs's string_to_datetime
// does: YYYY-MM-DD, then T, t or a space, then HH:MM:SS[.f…] or HHMMSS,
// then nothing (UTC), Z, or a zone: ±HH[:MM], ±HHMM or an IANA name
// (spaces before it allowed). It returns the UTC seconds since the epoch
// and the nanoseconds (1e9 and more for a leap second).
func castParseTimestamp(s string) (int64, int64, error) {
	bad := func(ctx string) error {
		return fmt.Errorf("parser error: Error parsing timestamp from '%s': %s", s, ctx)
	}
	if len(s) < 10 {
		return 0, 0, bad("timestamp must contain at least 10 characters")
	}
	dg := func(i int) int64 { return castDigitAt(s, i) }
	for _, i := range [...]int{0, 1, 2, 3, 5, 6, 8, 9} {
		if dg(i) < 0 {
			return 0, 0, bad("error parsing date")
		}
	}
	if s[4] != '-' || s[7] != '-' {
		return 0, 0, bad("error parsing date")
	}
	y, m, d := dg(0)*1000+dg(1)*100+dg(2)*10+dg(3), dg(5)*10+dg(6), dg(8)*10+dg(9)
	if !castValidDate(y, m, d) {
		return 0, 0, bad("error parsing date")
	}
	days := castDaysFromCivil(y, m, d)
	if len(s) == 10 {
		return days * 86400, 0, nil
	}
	if c := s[10]; c != 'T' && c != 't' && c != ' ' {
		return 0, 0, bad("invalid timestamp separator")
	}
	var hh, mm, ss, nanos int64
	end := 0
	isD := func(i int) bool { return i < 32 && dg(i) >= 0 }
	switch {
	case isD(11) && isD(12) && !isD(13) && isD(14) && isD(15) && !isD(16) && isD(17) && isD(18) && s[13] == ':' && s[16] == ':':
		hh, mm, ss = dg(11)*10+dg(12), dg(14)*10+dg(15), dg(17)*10+dg(18)
		end = 19
		if len(s) > 19 && s[19] == '.' {
			nd := 0
			for isD(20 + nd) {
				nd++
			}
			if nd == 0 {
				return 0, 0, bad("error parsing time")
			}
			for k := 0; k < 9; k++ {
				nanos *= 10
				if k < nd {
					nanos += dg(20 + k)
				}
			}
			end = 20 + nd
		}
	case isD(11) && isD(12) && isD(13) && isD(14) && isD(15) && isD(16) && !isD(17) && !isD(18):
		hh, mm, ss = dg(11)*10+dg(12), dg(13)*10+dg(14), dg(15)*10+dg(16)
		end = 17
	default:
		return 0, 0, bad("error parsing time")
	}
	if ss == 60 {
		ss, nanos = 59, nanos+1e9
	}
	if hh > 23 || mm > 59 || ss > 59 {
		return 0, 0, bad("error parsing time")
	}
	if end == 32 {
		for end < len(s) && s[end] >= '0' && s[end] <= '9' {
			end++
		}
	}
	local := days*86400 + hh*3600 + mm*60 + ss
	if len(s) <= end {
		return local, nanos, nil
	}
	if (s[end] == 'z' || s[end] == 'Z') && end == len(s)-1 {
		return local, nanos, nil
	}
	off, err := castZoneOffset(strings.TrimLeft(s[end:], " \t\n\r\f\v"), local)
	if err != nil {
		return 0, 0, bad(err.Error())
	}
	return local - off, nanos, nil
}

// castZoneOffset returns the UTC offset in seconds of zone tz at local wall
// time local (seconds since the epoch, as if UTC): a fixed ±HH:MM, ±HHMM
// or ±HH, or an IANA zone, where a wall time that does not exist or is
// ambiguous is an error (as chrono's single()).
func castZoneOffset(tz string, local int64) (int64, error) {
	b := tz
	var v [4]byte
	ok := true
	switch {
	case len(b) == 6 && b[3] == ':':
		v = [4]byte{b[1], b[2], b[4], b[5]}
	case len(b) == 5:
		v = [4]byte{b[1], b[2], b[3], b[4]}
	case len(b) == 3:
		v = [4]byte{b[1], b[2], '0', '0'}
	default:
		ok = false
	}
	if ok {
		for _, c := range v {
			if c < '0' || c > '9' {
				ok = false
			}
		}
	}
	if ok && (b[0] == '+' || b[0] == '-') {
		secs := int64((v[0]-'0')*10+(v[1]-'0'))*3600 + int64((v[2]-'0')*10+(v[3]-'0'))*60
		if secs >= 86400 {
			return 0, fmt.Errorf("error computing timezone offset")
		}
		if b[0] == '-' {
			secs = -secs
		}
		return secs, nil
	}
	if tz == "" || tz == "Local" || strings.ContainsAny(tz, " ") {
		return 0, fmt.Errorf("invalid timezone %q", tz)
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return 0, fmt.Errorf("invalid timezone %q", tz)
	}
	offAt := func(unix int64) int64 {
		_, o := time.Unix(unix, 0).In(loc).Zone()
		return int64(o)
	}
	cands := [2]int64{offAt(local - 86400), offAt(local + 86400)}
	found, n := int64(0), 0
	for i, c := range cands {
		if i == 1 && c == cands[0] {
			break
		}
		if offAt(local-c) == c {
			found = c
			n++
		}
	}
	if n != 1 {
		return 0, fmt.Errorf("error computing timezone offset")
	}
	return found, nil
}

// castTimestampValue converts UTC seconds and nanoseconds to a timestamp in
// unit (chrono's timestamp_*: only nanoseconds can overflow).
func castTimestampValue(secs, nanos int64, u arrow.TimeUnit) (int64, bool) {
	ups := castUnitsPerSec(u)
	if u == arrow.Second {
		return secs, true
	}
	if u != arrow.Nanosecond {
		return secs*ups + nanos/(1e9/ups), true
	}
	if secs > math.MaxInt64/1_000_000_000 || secs < math.MinInt64/1_000_000_000-1 {
		return 0, false
	}
	v := secs * 1e9
	r := v + nanos
	if (nanos > 0 && r < v) || r < v-2e9 {
		return 0, false
	}
	return r, true
}

// temporalCastKernel picks the cast from a date or timestamp.
func temporalCastKernel(fc, tc int) castKernel {
	switch {
	case tc == clsInt:
		return castNumeric
	case tc == clsTimestamp || tc == clsDate32 || tc == clsDate64:
		return castTemporal
	}
	return nil
}

// castTemporal converts between dates and timestamps: a date is midnight
// (an overflow fails), a timestamp's date is its floor day, a coarser
// unit truncates toward zero, a finer one multiplies (overflow fails).
func castTemporal(cc *castCtx, a arrow.Array) (arrow.Array, error) {
	from := a.DataType()
	n := a.Len()
	// Express the source as (value, units per second).
	var src []int64
	var fromUPS int64
	var tmp []int64
	switch from.ID() {
	case arrow.DATE32:
		d := primValues[int32](a)
		tmp = make([]int64, len(d))
		for i, v := range d {
			tmp[i] = int64(v)
		}
		src, fromUPS = tmp, 0
	case arrow.DATE64:
		src, fromUPS = primValues[int64](a), -1
	default:
		src, fromUPS = primValues[int64](a), castUnitsPerSec(from.(*arrow.TimestampType).Unit)
	}
	ns := nullSetter{mem: cc.mem, n: n, base: a}
	bm, off, has := validBits(a)
	fail := func(i int, format string, args ...any) error { return cc.failValue(&ns, i, format, args...) }
	switch cc.to.ID() {
	case arrow.DATE32:
		buf, dst := newPrimValues[int32](cc.mem, n)
		for i, v := range src {
			var days int64
			switch fromUPS {
			case 0:
				days = v
			case -1:
				days, _ = castFloorDivMod(v, 86400000)
			default:
				days, _ = castFloorDivMod(v, fromUPS*86400)
			}
			dst[i] = int32(days)
			if (days < math.MinInt32 || days > math.MaxInt32) && isValidAt(bm, off, has, i) {
				if err := fail(i, "Can't cast value %d to type Date32", v); err != nil {
					buf.Release()
					return nil, err
				}
			}
		}
		valid, nulls := ns.result()
		return makePrimArray(cc.to, n, buf, valid, nulls), nil
	}
	var toUPS int64 = 1000
	if ts, ok := cc.to.(*arrow.TimestampType); ok {
		toUPS = castUnitsPerSec(ts.Unit)
	}
	buf, dst := newPrimValues[int64](cc.mem, n)
	for i, v := range src {
		var r int64
		ok := true
		switch {
		case fromUPS == 0:
			r, ok = castMulChecked(v, 86400*toUPS)
			if !ok && isValidAt(bm, off, has, i) {
				if err := fail(i, "Cannot cast Date32 value %d to %s: converted value exceeds the representable i64 range", v, dfTypeName(cc.to)); err != nil {
					buf.Release()
					return nil, err
				}
				continue
			}
		default:
			f := fromUPS
			if f == -1 {
				f = 1000
			}
			if f >= toUPS {
				r = v / (f / toUPS)
			} else {
				r, ok = castMulChecked(v, toUPS/f)
			}
			if !ok && isValidAt(bm, off, has, i) {
				if err := fail(i, "Arithmetic overflow: Overflow happened on: %d * %d", v, toUPS/f); err != nil {
					buf.Release()
					return nil, err
				}
				continue
			}
		}
		dst[i] = r
	}
	valid, nulls := ns.result()
	return makePrimArray(cc.to, n, buf, valid, nulls), nil
}

// castMulChecked returns a*b, false on overflow.
func castMulChecked(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	r := a * b
	if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return r, true
}
