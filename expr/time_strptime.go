package expr

import (
	"errors"
	"math"
	"strings"
	"unicode"
)

// Parsing with chrono strftime items (to_timestamp(s, fmt…),
// to_date(s, fmt…), to_unixtime(s, fmt…)): the fields a string gives are
// collected as chrono's Parsed does, then resolved into a date and time,
// with chrono's consistency checks and error kinds.

// Errors of chrono's parser, with its messages.
var (
	errPOutOfRange = errors.New("input is out of range")
	errPImpossible = errors.New("no possible date and time matching input")
	errPNotEnough  = errors.New("input is not enough for unique date and time")
	errPInvalid    = errors.New("input contains invalid characters")
	errPTooShort   = errors.New("premature end of input")
	errPTooLong    = errors.New("trailing input")
	errPBadFormat  = errors.New("bad or unsupported format string")
)

// optInt is a field of parsed, set at most once.
type optInt struct {
	v  int64
	ok bool
}

// set sets the field, failing when it holds another value.
func (o *optInt) set(v int64) error {
	if o.ok && o.v != v {
		return errPImpossible
	}
	o.v, o.ok = v, true
	return nil
}

// or returns the field's value, or d when unset.
func (o optInt) or(d int64) int64 {
	if o.ok {
		return o.v
	}
	return d
}

// parsed holds the fields read from a string (chrono's Parsed).
type parsed struct {
	year, yearDiv100, yearMod100          optInt
	isoYear, isoYearDiv100, isoYearMod100 optInt
	quarter, month, weekFromSun           optInt
	weekFromMon, isoWeek, weekday         optInt // weekday: days since Sunday
	ordinal, day                          optInt
	hourDiv12, hourMod12, minute, second  optInt
	nanosecond, timestamp, offset         optInt
}

// setRange sets field o to v when lo <= v <= hi.
func setRange(o *optInt, v, lo, hi int64) error {
	if v < lo || v > hi {
		return errPOutOfRange
	}
	return o.set(v)
}

// setNumeric stores a numeric field.
func (p *parsed) setNumeric(spec tfSpec, v int64) error {
	switch spec {
	case nYear:
		return setRange(&p.year, v, math.MinInt32, math.MaxInt32)
	case nYearDiv100:
		return setRange(&p.yearDiv100, v, 0, math.MaxInt32)
	case nYearMod100:
		return setRange(&p.yearMod100, v, 0, 99)
	case nIsoYear:
		return setRange(&p.isoYear, v, math.MinInt32, math.MaxInt32)
	case nIsoYearMod100:
		return setRange(&p.isoYearMod100, v, 0, 99)
	case nQuarter:
		return setRange(&p.quarter, v, 1, 4)
	case nMonth:
		return setRange(&p.month, v, 1, 12)
	case nDay:
		return setRange(&p.day, v, 1, 31)
	case nWeekFromSun:
		return setRange(&p.weekFromSun, v, 0, 53)
	case nWeekFromMon:
		return setRange(&p.weekFromMon, v, 0, 53)
	case nIsoWeek:
		return setRange(&p.isoWeek, v, 1, 53)
	case nDaysFromSun:
		if v < 0 || v > 6 {
			return errPOutOfRange
		}
		return p.weekday.set(v)
	case nWeekdayFromMon:
		if v < 1 || v > 7 {
			return errPOutOfRange
		}
		return p.weekday.set(v % 7)
	case nOrdinal:
		return setRange(&p.ordinal, v, 1, 366)
	case nHour:
		if v < 0 || v > 23 {
			return errPOutOfRange
		}
		if err := p.hourDiv12.set(v / 12); err != nil {
			return err
		}
		return p.hourMod12.set(v % 12)
	case nHour12:
		if v < 1 || v > 12 {
			return errPOutOfRange
		}
		return p.hourMod12.set(v % 12)
	case nMinute:
		return setRange(&p.minute, v, 0, 59)
	case nSecond:
		return setRange(&p.second, v, 0, 60)
	case nNanosecond:
		return setRange(&p.nanosecond, v, 0, 999_999_999)
	case nTimestamp:
		return p.timestamp.set(v)
	}
	return errPBadFormat
}

// numericWidth returns the most digits a numeric field reads without a
// sign, and whether it takes a sign.
func numericWidth(spec tfSpec) (int, bool) {
	switch spec {
	case nYear, nIsoYear:
		return 4, true
	case nQuarter, nDaysFromSun, nWeekdayFromMon:
		return 1, false
	case nOrdinal:
		return 3, false
	case nNanosecond:
		return 9, false
	case nTimestamp:
		return math.MaxInt, false
	}
	return 2, false
}

// scanNumber reads min to max ASCII digits.
func scanNumber(s string, lo, hi int) (string, int64, error) {
	if len(s) < lo {
		return s, 0, errPTooShort
	}
	var n int64
	i := 0
	for ; i < len(s) && i < hi; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			if i < lo {
				return s, 0, errPInvalid
			}
			return s[i:], n, nil
		}
		if n > (math.MaxInt64-int64(c-'0'))/10 {
			return s, 0, errPOutOfRange
		}
		n = n*10 + int64(c-'0')
	}
	return s[i:], n, nil
}

var nanoScale = [10]int64{0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1}

// scanNanos reads 1 to 9 digits of a fraction, skipping any more digits.
func scanNanos(s string) (string, int64, error) {
	rest, v, err := scanNumber(s, 1, 9)
	if err != nil {
		return s, 0, err
	}
	v *= nanoScale[len(s)-len(rest)]
	return strings.TrimLeft(rest, "0123456789"), v, nil
}

// scanNanosFixed reads exactly n digits of a fraction.
func scanNanosFixed(s string, n int) (string, int64, error) {
	rest, v, err := scanNumber(s, n, n)
	if err != nil {
		return s, 0, err
	}
	return rest, v * nanoScale[n], nil
}

// foldEq reports whether s equals the lower-case ASCII name ignoring
// ASCII case (chrono compares bytes with the 0x20 bit set).
func foldEq(s, name string) bool {
	if len(s) != len(name) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i]|32 != name[i]|32 {
			return false
		}
	}
	return true
}

// scanName matches the 3-letter prefix of one of names (ignoring ASCII
// case), then, for long, the rest of the full name when it follows.
func scanName(s string, names []string, long bool) (string, int, error) {
	if len(s) < 3 {
		return s, 0, errPTooShort
	}
	for i, n := range names {
		if !foldEq(s[:3], n[:3]) {
			continue
		}
		s = s[3:]
		if suf := n[3:]; long && len(s) >= len(suf) && foldEq(s[:len(suf)], suf) {
			s = s[len(suf):]
		}
		return s, i, nil
	}
	return s, 0, errPInvalid
}

// scanOffset reads a zone offset: [+-−]HH, a colon or spaces, MM
// (optional when missingMinutes); Z when zulu.
func scanOffset(s string, zulu, missingMinutes bool) (string, int64, error) {
	if zulu && s != "" && (s[0] == 'Z' || s[0] == 'z') {
		return s[1:], 0, nil
	}
	neg := false
	switch {
	case s == "":
		return s, 0, errPTooShort
	case s[0] == '+':
		s = s[1:]
	case s[0] == '-':
		s, neg = s[1:], true
	case strings.HasPrefix(s, "\u2212"):
		s, neg = s[len("\u2212"):], true
	default:
		return s, 0, errPInvalid
	}
	if len(s) < 2 {
		return s, 0, errPTooShort
	}
	if s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return s, 0, errPInvalid
	}
	h := int64(s[0]-'0')*10 + int64(s[1]-'0')
	s = strings.TrimLeftFunc(s[2:], func(r rune) bool { return r == ':' || unicode.IsSpace(r) })
	var m int64
	switch {
	case len(s) >= 2:
		switch {
		case s[0] >= '0' && s[0] <= '5' && s[1] >= '0' && s[1] <= '9':
			m = int64(s[0]-'0')*10 + int64(s[1]-'0')
		case s[0] >= '6' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9':
			return s, 0, errPOutOfRange
		default:
			return s, 0, errPInvalid
		}
		s = s[2:]
	case missingMinutes && len(s) == 0:
	default:
		return s, 0, errPTooShort
	}
	off := h*3600 + m*60
	if neg {
		off = -off
	}
	return s, off, nil
}

// trimSpace drops leading whitespace.
func trimSpace(s string) string { return strings.TrimLeftFunc(s, unicode.IsSpace) }

// parseItems reads s with items into p; all of s must be consumed.
func (p *parsed) parseItems(s string, items []tfItem) error {
	rest, err := p.parseInternal(s, items)
	if err != nil {
		return err
	}
	if rest != "" {
		return errPTooLong
	}
	return nil
}

func (p *parsed) parseInternal(s string, items []tfItem) (string, error) {
	var err error
	for i := range items {
		it := &items[i]
		switch it.kind {
		case tfLiteral:
			if len(s) < len(it.text) {
				return s, errPTooShort
			}
			if !strings.HasPrefix(s, it.text) {
				return s, errPInvalid
			}
			s = s[len(it.text):]
		case tfSpace:
			s = trimSpace(s)
		case tfNum:
			width, signed := numericWidth(it.spec)
			s = trimSpace(s)
			var v int64
			switch {
			case signed && strings.HasPrefix(s, "-"):
				if s, v, err = scanNumber(s[1:], 1, math.MaxInt); err != nil {
					return s, err
				}
				v = -v
			case signed && strings.HasPrefix(s, "+"):
				if s, v, err = scanNumber(s[1:], 1, math.MaxInt); err != nil {
					return s, err
				}
			default:
				if s, v, err = scanNumber(s, 1, width); err != nil {
					return s, err
				}
			}
			if err = p.setNumeric(it.spec, v); err != nil {
				return s, err
			}
		case tfFixed:
			if s, err = p.parseFixed(s, it.spec); err != nil {
				return s, err
			}
		default:
			return s, errPBadFormat
		}
	}
	return s, nil
}

func (p *parsed) parseFixed(s string, spec tfSpec) (string, error) {
	var err error
	var v int64
	switch spec {
	case fShortMonth, fLongMonth:
		var i int
		if s, i, err = scanName(s, longMonths[:], spec == fLongMonth); err != nil {
			return s, err
		}
		return s, p.month.set(int64(i) + 1)
	case fShortWeekday, fLongWeekday:
		var i int
		if s, i, err = scanName(s, longWeekdays[:], spec == fLongWeekday); err != nil {
			return s, err
		}
		return s, p.weekday.set(int64(i))
	case fLowerAmPm, fUpperAmPm:
		if len(s) < 2 {
			return s, errPTooShort
		}
		switch {
		case s[0]|32 == 'a' && s[1]|32 == 'm':
			v = 0
		case s[0]|32 == 'p' && s[1]|32 == 'm':
			v = 1
		default:
			return s, errPInvalid
		}
		return s[2:], p.hourDiv12.set(v)
	case fNanos, fNanos3, fNanos6, fNanos9:
		if !strings.HasPrefix(s, ".") {
			return s, nil
		}
		if spec == fNanos {
			s, v, err = scanNanos(s[1:])
		} else {
			s, v, err = scanNanosFixed(s[1:], 3*int(spec-fNanos3+1))
		}
		if err != nil {
			return s, err
		}
		return s, p.nanosecond.set(v)
	case fNanos3NoDot, fNanos6NoDot, fNanos9NoDot:
		n := 3 * int(spec-fNanos3NoDot+1)
		if len(s) < n {
			return s, errPTooShort
		}
		if s, v, err = scanNanosFixed(s, n); err != nil {
			return s, err
		}
		return s, p.nanosecond.set(v)
	case fTzName:
		return strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsSpace(r) }), nil
	case fTzOffset, fTzColon, fTzDoubleColon, fTzTripleColon, fTzPermissive:
		perm := spec == fTzPermissive
		if s, v, err = scanOffset(trimSpace(s), perm, perm); err != nil {
			return s, err
		}
		return s, p.offset.set(v)
	case fRFC3339:
		return p.parseRFC3339(s)
	}
	return s, errPBadFormat
}

var (
	rfcDateItems = []tfItem{num0(nYear), space(""), lit("-"), num0(nMonth), space(""), lit("-"), num0(nDay)}
	rfcTimeItems = []tfItem{num0(nHour), space(""), lit(":"), num0(nMinute), space(""), lit(":"),
		num0(nSecond), fixed(fNanos), space("")}
)

// parseRFC3339 reads %+: a date, T or space, a time, an offset or UTC.
func (p *parsed) parseRFC3339(s string) (string, error) {
	s, err := p.parseInternal(s, rfcDateItems)
	if err != nil {
		return s, err
	}
	switch {
	case s == "":
		return s, errPTooShort
	case s[0] == 't' || s[0] == 'T' || s[0] == ' ':
		s = s[1:]
	default:
		return s, errPInvalid
	}
	if s, err = p.parseInternal(s, rfcTimeItems); err != nil {
		return s, err
	}
	s = trimSpace(s)
	var off int64
	if len(s) >= 3 && foldEq(s[:3], "utc") {
		s = s[3:]
	} else if s, off, err = scanOffset(s, true, false); err != nil {
		return s, err
	}
	return s, p.offset.set(off)
}
