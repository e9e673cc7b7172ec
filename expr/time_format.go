package expr

import (
	"unicode"
	"unicode/utf8"
)

// chrono's strftime format strings, as to_char, to_timestamp(s, fmt…) and
// to_date(s, fmt…) read them: a format is split into items once, then
// items format a datetime (time_format.go) or parse a string
// (time_strptime.go). An unknown or malformed specifier becomes an error
// item, which fails formatting or parsing when it is reached.

// tfKind is the kind of a format item.
type tfKind uint8

const (
	tfLiteral tfKind = iota // text to copy or match
	tfSpace                 // whitespace: copied; in parsing, any whitespace
	tfNum                   // a numeric field
	tfFixed                 // a named field
	tfError                 // a bad specifier
)

// tfSpec is the field of a tfNum or tfFixed item.
type tfSpec uint8

// Numeric fields.
const (
	nYear tfSpec = iota
	nYearDiv100
	nYearMod100
	nIsoYear
	nIsoYearMod100
	nQuarter
	nMonth
	nDay
	nWeekFromSun
	nWeekFromMon
	nIsoWeek
	nDaysFromSun
	nWeekdayFromMon
	nOrdinal
	nHour
	nHour12
	nMinute
	nSecond
	nNanosecond
	nTimestamp
)

// Fixed fields.
const (
	fShortMonth tfSpec = iota
	fLongMonth
	fShortWeekday
	fLongWeekday
	fLowerAmPm
	fUpperAmPm
	fNanos  // %.f
	fNanos3 // %.3f
	fNanos6 // %.6f
	fNanos9 // %.9f
	fNanos3NoDot
	fNanos6NoDot
	fNanos9NoDot
	fTzName        // %Z
	fTzOffset      // %z
	fTzColon       // %:z
	fTzDoubleColon // %::z
	fTzTripleColon // %:::z
	fTzPermissive  // %#z (parsing only)
	fRFC3339       // %+
)

// Padding of a numeric field.
const (
	padNone byte = iota
	padZero
	padSpace
)

// tfItem is one item of a format.
type tfItem struct {
	kind tfKind
	spec tfSpec
	pad  byte
	text string
}

func num0(s tfSpec) tfItem { return tfItem{kind: tfNum, spec: s, pad: padZero} }
func nums(s tfSpec) tfItem { return tfItem{kind: tfNum, spec: s, pad: padSpace} }
func num(s tfSpec) tfItem  { return tfItem{kind: tfNum, spec: s, pad: padNone} }
func fixed(s tfSpec) tfItem {
	return tfItem{kind: tfFixed, spec: s}
}
func lit(s string) tfItem { return tfItem{kind: tfLiteral, text: s} }
func space(s string) tfItem {
	return tfItem{kind: tfSpace, text: s}
}

// Composite specifiers.
var (
	tfD = []tfItem{num0(nMonth), lit("/"), num0(nDay), lit("/"), num0(nYearMod100)}
	tfF = []tfItem{num0(nYear), lit("-"), num0(nMonth), lit("-"), num0(nDay)}
	tfR = []tfItem{num0(nHour), lit(":"), num0(nMinute)}
	tfT = []tfItem{num0(nHour), lit(":"), num0(nMinute), lit(":"), num0(nSecond)}
	tfr = []tfItem{num0(nHour12), lit(":"), num0(nMinute), lit(":"), num0(nSecond), space(" "), fixed(fUpperAmPm)}
	tfc = []tfItem{fixed(fShortWeekday), space(" "), fixed(fShortMonth), space(" "), nums(nDay), space(" "),
		num0(nHour), lit(":"), num0(nMinute), lit(":"), num0(nSecond), space(" "), num0(nYear)}
	tfv = []tfItem{nums(nDay), lit("-"), fixed(fShortMonth), lit("-"), num0(nYear)}
)

// parseFormat splits a chrono strftime format into items.
func parseFormat(f string) []tfItem {
	var out []tfItem
	for len(f) > 0 {
		c, w := utf8.DecodeRuneInString(f)
		switch {
		case c == '%':
			var items []tfItem
			items, f = parseSpec(f[1:])
			out = append(out, items...)
		case unicode.IsSpace(c):
			k := w
			for k < len(f) {
				r, n := utf8.DecodeRuneInString(f[k:])
				if !unicode.IsSpace(r) {
					break
				}
				k += n
			}
			out = append(out, space(f[:k]))
			f = f[k:]
		default:
			k := w
			for k < len(f) {
				r, n := utf8.DecodeRuneInString(f[k:])
				if r == '%' || unicode.IsSpace(r) {
					break
				}
				k += n
			}
			out = append(out, lit(f[:k]))
			f = f[k:]
		}
	}
	return out
}

// parseSpec reads the specifier after a %, returning its items and the
// rest of the format. A bad specifier gives one error item.
func parseSpec(f string) ([]tfItem, string) {
	bad := []tfItem{{kind: tfError}}
	next := func() (rune, bool) {
		if f == "" {
			return 0, false
		}
		r, w := utf8.DecodeRuneInString(f)
		f = f[w:]
		return r, true
	}
	spec, ok := next()
	if !ok {
		return bad, f
	}
	pad, padded := byte(0), true
	switch spec {
	case '-':
		pad = padNone
	case '0':
		pad = padZero
	case '_':
		pad = padSpace
	default:
		padded = false
	}
	alternate := spec == '#'
	if padded || alternate {
		if spec, ok = next(); !ok {
			return bad, f
		}
	}
	if alternate && spec != 'z' {
		return bad, f
	}
	var items []tfItem
	switch spec {
	case 'A':
		items = []tfItem{fixed(fLongWeekday)}
	case 'B':
		items = []tfItem{fixed(fLongMonth)}
	case 'C':
		items = []tfItem{num0(nYearDiv100)}
	case 'D', 'x':
		items = tfD
	case 'F':
		items = tfF
	case 'G':
		items = []tfItem{num0(nIsoYear)}
	case 'H':
		items = []tfItem{num0(nHour)}
	case 'I':
		items = []tfItem{num0(nHour12)}
	case 'M':
		items = []tfItem{num0(nMinute)}
	case 'P':
		items = []tfItem{fixed(fLowerAmPm)}
	case 'R':
		items = tfR
	case 'S':
		items = []tfItem{num0(nSecond)}
	case 'T', 'X':
		items = tfT
	case 'U':
		items = []tfItem{num0(nWeekFromSun)}
	case 'V':
		items = []tfItem{num0(nIsoWeek)}
	case 'W':
		items = []tfItem{num0(nWeekFromMon)}
	case 'Y':
		items = []tfItem{num0(nYear)}
	case 'Z':
		items = []tfItem{fixed(fTzName)}
	case 'a':
		items = []tfItem{fixed(fShortWeekday)}
	case 'b', 'h':
		items = []tfItem{fixed(fShortMonth)}
	case 'c':
		items = tfc
	case 'd':
		items = []tfItem{num0(nDay)}
	case 'e':
		items = []tfItem{nums(nDay)}
	case 'f':
		items = []tfItem{num0(nNanosecond)}
	case 'g':
		items = []tfItem{num0(nIsoYearMod100)}
	case 'j':
		items = []tfItem{num0(nOrdinal)}
	case 'k':
		items = []tfItem{nums(nHour)}
	case 'l':
		items = []tfItem{nums(nHour12)}
	case 'm':
		items = []tfItem{num0(nMonth)}
	case 'n':
		items = []tfItem{space("\n")}
	case 'p':
		items = []tfItem{fixed(fUpperAmPm)}
	case 'q':
		items = []tfItem{num(nQuarter)}
	case 'r':
		items = tfr
	case 's':
		items = []tfItem{num(nTimestamp)}
	case 't':
		items = []tfItem{space("\t")}
	case 'u':
		items = []tfItem{num(nWeekdayFromMon)}
	case 'v':
		items = tfv
	case 'w':
		items = []tfItem{num(nDaysFromSun)}
	case 'y':
		items = []tfItem{num0(nYearMod100)}
	case 'z':
		if alternate {
			items = []tfItem{fixed(fTzPermissive)}
		} else {
			items = []tfItem{fixed(fTzOffset)}
		}
	case '+':
		items = []tfItem{fixed(fRFC3339)}
	case ':':
		switch {
		case len(f) >= 3 && f[:3] == "::z":
			f, items = f[3:], []tfItem{fixed(fTzTripleColon)}
		case len(f) >= 2 && f[:2] == ":z":
			f, items = f[2:], []tfItem{fixed(fTzDoubleColon)}
		case len(f) >= 1 && f[0] == 'z':
			f, items = f[1:], []tfItem{fixed(fTzColon)}
		default:
			return bad, f
		}
	case '.':
		c, ok := next()
		if !ok {
			return bad, f
		}
		switch c {
		case 'f':
			items = []tfItem{fixed(fNanos)}
		case '3', '6', '9':
			if d, ok := next(); !ok || d != 'f' {
				return bad, f
			}
			items = []tfItem{fixed(fNanos3 + tfSpec((c-'3')/3))}
		default:
			return bad, f
		}
	case '3', '6', '9':
		if d, ok := next(); !ok || d != 'f' {
			return bad, f
		}
		items = []tfItem{fixed(fNanos3NoDot + tfSpec((spec-'3')/3))}
	case '%':
		items = []tfItem{lit("%")}
	default:
		return bad, f
	}
	if padded {
		if len(items) != 1 || items[0].kind != tfNum {
			return bad, f
		}
		it := items[0]
		it.pad = pad
		return []tfItem{it}, f
	}
	return items, f
}
