package expr

import (
	"unicode"
	"unicode/utf8"
)

// Case mapping as Rust's str::to_lowercase / to_uppercase, which
// DataFusion's lower, upper and initcap use: full Unicode mappings (ß
// upper-cases to SS, İ lower-cases to i̇) and, for lower, the Greek final
// sigma (Σ at the end of a word becomes ς).

// bindCaseMap binds lower(s), upper(s) and initcap(s).
func bindCaseMap(b *binder, c *Call, args []node) (node, error) {
	if err := argRange(c, 1, 1); err != nil {
		return nil, err
	}
	if err := wantStrings(c, args, 0); err != nil {
		return nil, err
	}
	typ := stringResultType(args[0].dataType())
	f := appendLower
	switch c.Name {
	case "upper":
		f = appendUpper
	case "initcap":
		f = appendInitcap
	}
	return newStrFunc(c, args, typ, strToStr(typ, f)), nil
}

// appendLower appends s lower-cased.
func appendLower(dst, s []byte) []byte {
	i := 0
	for ; i < len(s) && s[i] < utf8.RuneSelf; i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	for i < len(s) {
		r, w := utf8.DecodeRune(s[i:])
		switch {
		case r == 'Σ':
			if finalSigma(s, i, i+w) {
				dst = utf8.AppendRune(dst, 'ς')
			} else {
				dst = utf8.AppendRune(dst, 'σ')
			}
		case r == utf8.RuneError && w == 1:
			dst = append(dst, s[i])
		default:
			dst = appendLowerRune(dst, r)
		}
		i += w
	}
	return dst
}

// appendLowerRune appends the full lower-case mapping of r.
func appendLowerRune(dst []byte, r rune) []byte {
	if r == '\u0130' { // İ: i and a combining dot above
		return append(dst, "i\u0307"...)
	}
	return utf8.AppendRune(dst, unicode.ToLower(r))
}

// appendUpperRune appends the full upper-case mapping of r.
func appendUpperRune(dst []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		return append(dst, byte(r))
	}
	if s, ok := specialUpper[r]; ok {
		return append(dst, s...)
	}
	return utf8.AppendRune(dst, unicode.ToUpper(r))
}

// appendUpper appends s upper-cased.
func appendUpper(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, w := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && w == 1 {
			dst = append(dst, s[i])
		} else {
			dst = appendUpperRune(dst, r)
		}
		i += w
	}
	return dst
}

// appendInitcap appends s with every code point after an alphanumeric
// one lower-cased and every other one upper-cased (DataFusion's initcap).
func appendInitcap(dst, s []byte) []byte {
	prevAlnum := false
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			dst = append(dst, s[i])
		case prevAlnum:
			dst = appendLowerRune(dst, r)
		default:
			dst = appendUpperRune(dst, r)
		}
		prevAlnum = isAlnumRust(r)
		i += w
	}
	return dst
}

// finalSigma reports whether the Σ at s[i:j] ends a word: a cased code
// point precedes it (past case-ignorable ones) and none follows it.
func finalSigma(s []byte, i, j int) bool {
	before := false
	for k := i; k > 0; {
		r, w := utf8.DecodeLastRune(s[:k])
		k -= w
		if !caseIgnorable(r) {
			before = isCased(r)
			break
		}
	}
	if !before {
		return false
	}
	for k := j; k < len(s); {
		r, w := utf8.DecodeRune(s[k:])
		k += w
		if !caseIgnorable(r) {
			return !isCased(r)
		}
	}
	return true
}

// isCased is Unicode's Cased property.
func isCased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is Unicode's Case_Ignorable property.
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '\u00B7', '\u0387', '\u055F', '\u05F4', '\u2018', '\u2019', '\u2024', '\u2027',
		'\uFE13', '\uFE52', '\uFE55', '\uFF07', '\uFF0E', '\uFF1A':
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// isAlphabetic is Unicode's Alphabetic property (Rust's
// char::is_alphabetic).
func isAlphabetic(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// isAlnumRust is Rust's char::is_alphanumeric: Alphabetic or a number
// (Nd, Nl, No).
func isAlnumRust(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return isAlphabetic(r) || unicode.IsNumber(r)
}

// specialUpper holds the code points whose upper-case mapping is more
// than one code point (SpecialCasing.txt, unconditional mappings).
var specialUpper = map[rune]string{
	0x00DF: "\u0053\u0053", 0x0149: "\u02BC\u004E", 0x01F0: "\u004A\u030C", 0x0390: "\u0399\u0308\u0301",
	0x03B0: "\u03A5\u0308\u0301", 0x0587: "\u0535\u0552", 0x1E96: "\u0048\u0331", 0x1E97: "\u0054\u0308",
	0x1E98: "\u0057\u030A", 0x1E99: "\u0059\u030A", 0x1E9A: "\u0041\u02BE", 0x1F50: "\u03A5\u0313",
	0x1F52: "\u03A5\u0313\u0300", 0x1F54: "\u03A5\u0313\u0301", 0x1F56: "\u03A5\u0313\u0342", 0x1F80: "\u1F08\u0399",
	0x1F81: "\u1F09\u0399", 0x1F82: "\u1F0A\u0399", 0x1F83: "\u1F0B\u0399", 0x1F84: "\u1F0C\u0399",
	0x1F85: "\u1F0D\u0399", 0x1F86: "\u1F0E\u0399", 0x1F87: "\u1F0F\u0399", 0x1F88: "\u1F08\u0399",
	0x1F89: "\u1F09\u0399", 0x1F8A: "\u1F0A\u0399", 0x1F8B: "\u1F0B\u0399", 0x1F8C: "\u1F0C\u0399",
	0x1F8D: "\u1F0D\u0399", 0x1F8E: "\u1F0E\u0399", 0x1F8F: "\u1F0F\u0399", 0x1F90: "\u1F28\u0399",
	0x1F91: "\u1F29\u0399", 0x1F92: "\u1F2A\u0399", 0x1F93: "\u1F2B\u0399", 0x1F94: "\u1F2C\u0399",
	0x1F95: "\u1F2D\u0399", 0x1F96: "\u1F2E\u0399", 0x1F97: "\u1F2F\u0399", 0x1F98: "\u1F28\u0399",
	0x1F99: "\u1F29\u0399", 0x1F9A: "\u1F2A\u0399", 0x1F9B: "\u1F2B\u0399", 0x1F9C: "\u1F2C\u0399",
	0x1F9D: "\u1F2D\u0399", 0x1F9E: "\u1F2E\u0399", 0x1F9F: "\u1F2F\u0399", 0x1FA0: "\u1F68\u0399",
	0x1FA1: "\u1F69\u0399", 0x1FA2: "\u1F6A\u0399", 0x1FA3: "\u1F6B\u0399", 0x1FA4: "\u1F6C\u0399",
	0x1FA5: "\u1F6D\u0399", 0x1FA6: "\u1F6E\u0399", 0x1FA7: "\u1F6F\u0399", 0x1FA8: "\u1F68\u0399",
	0x1FA9: "\u1F69\u0399", 0x1FAA: "\u1F6A\u0399", 0x1FAB: "\u1F6B\u0399", 0x1FAC: "\u1F6C\u0399",
	0x1FAD: "\u1F6D\u0399", 0x1FAE: "\u1F6E\u0399", 0x1FAF: "\u1F6F\u0399", 0x1FB2: "\u1FBA\u0399",
	0x1FB3: "\u0391\u0399", 0x1FB4: "\u0386\u0399", 0x1FB6: "\u0391\u0342", 0x1FB7: "\u0391\u0342\u0399",
	0x1FBC: "\u0391\u0399", 0x1FC2: "\u1FCA\u0399", 0x1FC3: "\u0397\u0399", 0x1FC4: "\u0389\u0399",
	0x1FC6: "\u0397\u0342", 0x1FC7: "\u0397\u0342\u0399", 0x1FCC: "\u0397\u0399", 0x1FD2: "\u0399\u0308\u0300",
	0x1FD3: "\u0399\u0308\u0301", 0x1FD6: "\u0399\u0342", 0x1FD7: "\u0399\u0308\u0342", 0x1FE2: "\u03A5\u0308\u0300",
	0x1FE3: "\u03A5\u0308\u0301", 0x1FE4: "\u03A1\u0313", 0x1FE6: "\u03A5\u0342", 0x1FE7: "\u03A5\u0308\u0342",
	0x1FF2: "\u1FFA\u0399", 0x1FF3: "\u03A9\u0399", 0x1FF4: "\u038F\u0399", 0x1FF6: "\u03A9\u0342",
	0x1FF7: "\u03A9\u0342\u0399", 0x1FFC: "\u03A9\u0399", 0xFB00: "\u0046\u0046", 0xFB01: "\u0046\u0049",
	0xFB02: "\u0046\u004C", 0xFB03: "\u0046\u0046\u0049", 0xFB04: "\u0046\u0046\u004C", 0xFB05: "\u0053\u0054",
	0xFB06: "\u0053\u0054", 0xFB13: "\u0544\u0546", 0xFB14: "\u0544\u0535", 0xFB15: "\u0544\u053B",
	0xFB16: "\u054E\u0546", 0xFB17: "\u0544\u053D",
}
