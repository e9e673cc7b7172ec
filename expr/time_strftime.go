package expr

import "strconv"

// Formatting with chrono strftime items (to_char): chrono's
// DelayedFormat, field by field, including its quirks (two-digit fields
// of out-of-range years print past '9', years outside 0..9999 carry a
// sign).

// tfValue is a broken-down datetime to format.
type tfValue struct {
	hasDate, hasTime, hasOff bool
	day                      int64 // days since 1970-01-01 (local)
	year                     int64
	month, mday              int
	hour, min, sec           int
	nano                     int
	off                      int64 // seconds east of UTC
}

var (
	shortMonths   = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	longMonths    = [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	shortWeekdays = [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	longWeekdays  = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

// appendFormat appends v formatted by items to dst; ok is false when an
// item cannot format v (chrono's fmt::Error: a bad specifier, a zone
// field without a zone, a date field of a time).
func appendFormat(dst []byte, items []tfItem, v *tfValue) ([]byte, bool) {
	for i := range items {
		it := &items[i]
		var ok bool
		switch it.kind {
		case tfLiteral, tfSpace:
			dst, ok = append(dst, it.text...), true
		case tfNum:
			dst, ok = appendNumeric(dst, it.spec, it.pad, v)
		case tfFixed:
			dst, ok = appendFixed(dst, it.spec, v)
		}
		if !ok {
			return dst, false
		}
	}
	return dst, true
}

// appendTwo writes v as chrono's write_two: the tens digit (even when it
// is past 9) unless zero, then the ones digit.
func appendTwo(dst []byte, v uint8, pad byte) []byte {
	switch {
	case v/10 != 0:
		dst = append(dst, '0'+v/10)
	case pad == padZero:
		dst = append(dst, '0')
	case pad == padSpace:
		dst = append(dst, ' ')
	}
	return append(dst, '0'+v%10)
}

// appendN writes v padded to width n; with sign, the sign always
// shows and counts in the width.
func appendN(dst []byte, n int, v int64, pad byte, sign bool) []byte {
	var num [24]byte
	digits := strconv.AppendInt(num[:0], v, 10)
	neg := v < 0
	if neg {
		digits = digits[1:]
	}
	signCh := byte(0)
	switch {
	case neg:
		signCh = '-'
	case sign:
		signCh = '+'
	}
	width := n
	if sign {
		width = n + 1
	}
	size := len(digits)
	if signCh != 0 {
		size++
	}
	switch pad {
	case padZero:
		if signCh != 0 {
			dst = append(dst, signCh)
		}
		for ; size < width; size++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	case padSpace:
		for ; size < width; size++ {
			dst = append(dst, ' ')
		}
	}
	if signCh != 0 {
		dst = append(dst, signCh)
	}
	return append(dst, digits...)
}

// appendYear writes a year as chrono's write_year.
func appendYear(dst []byte, y int64, pad byte) []byte {
	if y >= 1000 && y <= 9999 {
		return strconv.AppendInt(dst, y, 10)
	}
	return appendN(dst, 4, y, pad, y < 0 || y >= 10000)
}

func appendNumeric(dst []byte, spec tfSpec, pad byte, v *tfValue) ([]byte, bool) {
	needDate := spec <= nOrdinal || spec == nTimestamp
	needTime := spec >= nHour
	if (needDate && !v.hasDate) || (needTime && !v.hasTime) {
		return dst, false
	}
	switch spec {
	case nYear:
		return appendYear(dst, v.year, pad), true
	case nYearDiv100:
		return appendTwo(dst, uint8(floorDiv(v.year, 100)), pad), true
	case nYearMod100:
		return appendTwo(dst, uint8(floorMod(v.year, 100)), pad), true
	case nIsoYear:
		y, _ := isoWeek(v.day)
		return appendYear(dst, y, pad), true
	case nIsoYearMod100:
		y, _ := isoWeek(v.day)
		return appendTwo(dst, uint8(floorMod(y, 100)), pad), true
	case nQuarter:
		return append(dst, byte('0'+(v.month-1)/3+1)), true
	case nMonth:
		return appendTwo(dst, uint8(v.month), pad), true
	case nDay:
		return appendTwo(dst, uint8(v.mday), pad), true
	case nWeekFromSun, nWeekFromMon:
		wd := weekdayOf(v.day) // days since Sunday
		if spec == nWeekFromMon {
			wd = (wd + 6) % 7
		}
		w := (ordinalOf(v.year, v.month, v.mday) - wd + 6) / 7
		return appendTwo(dst, uint8(w), pad), true
	case nIsoWeek:
		_, w := isoWeek(v.day)
		return appendTwo(dst, uint8(w), pad), true
	case nDaysFromSun:
		return append(dst, byte('0'+weekdayOf(v.day))), true
	case nWeekdayFromMon:
		return append(dst, byte('0'+(weekdayOf(v.day)+6)%7+1)), true
	case nOrdinal:
		return appendN(dst, 3, int64(ordinalOf(v.year, v.month, v.mday)), pad, false), true
	case nHour:
		return appendTwo(dst, uint8(v.hour), pad), true
	case nHour12:
		h := v.hour % 12
		if h == 0 {
			h = 12
		}
		return appendTwo(dst, uint8(h), pad), true
	case nMinute:
		return appendTwo(dst, uint8(v.min), pad), true
	case nSecond:
		return appendTwo(dst, uint8(v.sec), pad), true
	case nNanosecond:
		return appendN(dst, 9, int64(v.nano), pad, false), true
	case nTimestamp:
		ts := v.day*secsPerDay + int64(v.hour*3600+v.min*60+v.sec) - v.off
		return appendN(dst, 9, ts, pad, false), true
	}
	return dst, false
}

// appendDigits writes v zero-padded to n digits.
func appendDigits(dst []byte, v int64, n int) []byte { return appendN(dst, n, v, padZero, false) }

// appendOffset writes a zone offset: hours, minutes (seconds for prec 2,
// none for prec 0), with colons if asked.
func appendOffset(dst []byte, off int64, prec int, colons bool) []byte {
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	var h, m, s int64
	switch prec {
	case 0:
		h = off / 3600
	case 1:
		mins := (off + 30) / 60
		h, m = mins/60, mins%60
	default:
		h, m, s = off/3600, off/60%60, off%60
	}
	dst = append(dst, sign)
	dst = appendDigits(dst, h, 2)
	if prec >= 1 {
		if colons {
			dst = append(dst, ':')
		}
		dst = appendDigits(dst, m, 2)
	}
	if prec == 2 {
		if colons {
			dst = append(dst, ':')
		}
		dst = appendDigits(dst, s, 2)
	}
	return dst
}

// appendAutoNanos writes a non-zero fraction as .ddd, .dddddd or
// .ddddddddd, the shortest that is exact.
func appendAutoNanos(dst []byte, nano int) []byte {
	switch {
	case nano == 0:
		return dst
	case nano%1_000_000 == 0:
		return appendDigits(append(dst, '.'), int64(nano/1_000_000), 3)
	case nano%1_000 == 0:
		return appendDigits(append(dst, '.'), int64(nano/1_000), 6)
	}
	return appendDigits(append(dst, '.'), int64(nano), 9)
}

func appendFixed(dst []byte, spec tfSpec, v *tfValue) ([]byte, bool) {
	switch spec {
	case fShortMonth, fLongMonth, fShortWeekday, fLongWeekday:
		if !v.hasDate {
			return dst, false
		}
		switch spec {
		case fShortMonth:
			return append(dst, shortMonths[v.month-1]...), true
		case fLongMonth:
			return append(dst, longMonths[v.month-1]...), true
		case fShortWeekday:
			return append(dst, shortWeekdays[weekdayOf(v.day)]...), true
		}
		return append(dst, longWeekdays[weekdayOf(v.day)]...), true
	case fLowerAmPm, fUpperAmPm:
		if !v.hasTime {
			return dst, false
		}
		pm := v.hour >= 12
		switch {
		case spec == fLowerAmPm && pm:
			return append(dst, "pm"...), true
		case spec == fLowerAmPm:
			return append(dst, "am"...), true
		case pm:
			return append(dst, "PM"...), true
		}
		return append(dst, "AM"...), true
	case fNanos, fNanos3, fNanos6, fNanos9, fNanos3NoDot, fNanos6NoDot, fNanos9NoDot:
		if !v.hasTime {
			return dst, false
		}
		switch spec {
		case fNanos:
			return appendAutoNanos(dst, v.nano), true
		case fNanos3:
			return appendDigits(append(dst, '.'), int64(v.nano/1_000_000), 3), true
		case fNanos6:
			return appendDigits(append(dst, '.'), int64(v.nano/1_000), 6), true
		case fNanos9:
			return appendDigits(append(dst, '.'), int64(v.nano), 9), true
		case fNanos3NoDot:
			return appendDigits(dst, int64(v.nano/1_000_000), 3), true
		case fNanos6NoDot:
			return appendDigits(dst, int64(v.nano/1_000), 6), true
		}
		return appendDigits(dst, int64(v.nano), 9), true
	case fTzName:
		if !v.hasOff {
			return dst, false
		}
		return append(dst, fmtOffset(v.off)...), true
	case fTzOffset:
		if !v.hasOff {
			return dst, false
		}
		return appendOffset(dst, v.off, 1, false), true
	case fTzColon:
		if !v.hasOff {
			return dst, false
		}
		return appendOffset(dst, v.off, 1, true), true
	case fTzDoubleColon:
		if !v.hasOff {
			return dst, false
		}
		return appendOffset(dst, v.off, 2, true), true
	case fTzTripleColon:
		if !v.hasOff {
			return dst, false
		}
		return appendOffset(dst, v.off, 0, false), true
	case fRFC3339:
		if !v.hasDate || !v.hasTime || !v.hasOff {
			return dst, false
		}
		if v.year >= 0 && v.year <= 9999 {
			dst = appendDigits(dst, v.year, 4)
		} else {
			dst = appendN(dst, 4, v.year, padZero, true)
		}
		dst = append(dst, '-')
		dst = appendDigits(dst, int64(v.month), 2)
		dst = append(dst, '-')
		dst = appendDigits(dst, int64(v.mday), 2)
		dst = append(dst, 'T')
		dst = appendDigits(dst, int64(v.hour), 2)
		dst = append(dst, ':')
		dst = appendDigits(dst, int64(v.min), 2)
		dst = append(dst, ':')
		dst = appendDigits(dst, int64(v.sec), 2)
		dst = appendAutoNanos(dst, v.nano)
		return appendOffset(dst, v.off, 1, true), true
	}
	return dst, false
}
