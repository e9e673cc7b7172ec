package expr

import (
	"sort"
	"strings"
	"unicode"
)

// Unicode sets of Rust's regex syntax that Go's regexp lacks or defines
// otherwise: \w, \s, loose \p{…} names, derived properties.

// runeRange is an inclusive range of code points.
type runeRange struct{ lo, hi rune }

// rangesOf returns the union of tables as sorted, merged ranges.
func rangesOf(tabs ...*unicode.RangeTable) []runeRange {
	var rs []runeRange
	add := func(lo, hi, stride rune) {
		if stride == 1 {
			rs = append(rs, runeRange{lo, hi})
			return
		}
		for r := lo; r <= hi; r += stride {
			rs = append(rs, runeRange{r, r})
		}
	}
	for _, tab := range tabs {
		for _, r := range tab.R16 {
			add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
		for _, r := range tab.R32 {
			add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
	}
	return mergeRanges(rs)
}

func mergeRanges(rs []runeRange) []runeRange {
	sort.Slice(rs, func(i, j int) bool { return rs[i].lo < rs[j].lo })
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// complementRanges returns the scalar values outside rs (surrogates
// excluded).
func complementRanges(rs []runeRange) []runeRange {
	var out []runeRange
	next := rune(0)
	for _, r := range rs {
		if r.lo > next {
			out = append(out, runeRange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, runeRange{next, unicode.MaxRune})
	}
	var res []runeRange
	for _, r := range out { // cut out the surrogates
		if r.hi < 0xD800 || r.lo > 0xDFFF {
			res = append(res, r)
			continue
		}
		if r.lo < 0xD800 {
			res = append(res, runeRange{r.lo, 0xD7FF})
		}
		if r.hi > 0xDFFF {
			res = append(res, runeRange{0xE000, r.hi})
		}
	}
	return res
}

// wordRanges is Rust's \w: Alphabetic, marks, decimal digits, connector
// punctuation and Join_Control.
func wordRanges() []runeRange {
	return rangesOf(unicode.L, unicode.Nl, unicode.Other_Alphabetic, unicode.Other_Lowercase,
		unicode.Other_Uppercase, unicode.M, unicode.Nd, unicode.Pc, unicode.Join_Control)
}

// whiteSpaceRanges is Rust's \s: the White_Space property.
func whiteSpaceRanges() []runeRange { return rangesOf(unicode.White_Space) }

// categoryNames maps the long names of general categories to Go's.
var categoryNames = map[string]string{
	"other": "C", "control": "Cc", "cntrl": "Cc", "format": "Cf", "privateuse": "Co", "surrogate": "Cs",
	"letter": "L", "lowercaseletter": "Ll", "modifierletter": "Lm", "otherletter": "Lo",
	"titlecaseletter": "Lt", "uppercaseletter": "Lu", "mark": "M", "combiningmark": "M",
	"spacingmark": "Mc", "enclosingmark": "Me", "nonspacingmark": "Mn", "number": "N",
	"decimalnumber": "Nd", "digit": "Nd", "letternumber": "Nl", "othernumber": "No",
	"punctuation": "P", "punct": "P", "connectorpunctuation": "Pc", "dashpunctuation": "Pd",
	"closepunctuation": "Pe", "finalpunctuation": "Pf", "initialpunctuation": "Pi",
	"otherpunctuation": "Po", "openpunctuation": "Ps", "symbol": "S", "currencysymbol": "Sc",
	"modifiersymbol": "Sk", "mathsymbol": "Sm", "othersymbol": "So", "separator": "Z",
	"lineseparator": "Zl", "paragraphseparator": "Zp", "spaceseparator": "Zs",
}

// normalizeProperty applies Unicode's loose matching (UAX44-LM3).
func normalizeProperty(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '_' || r == '-' || unicode.Is(unicode.White_Space, r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// unicodeProperty resolves a \p name: a category or script Go's regexp
// knows (native), or a computed set.
func unicodeProperty(name string) (native string, set []runeRange, ok bool) {
	n := normalizeProperty(name)
	kind := ""
	if k := strings.IndexAny(n, "=:"); k >= 0 {
		kind, n = n[:k], n[k+1:]
		switch kind {
		case "gc", "generalcategory":
			kind = "gc"
		case "sc", "script":
			kind = "sc"
		default:
			return "", nil, false
		}
	}
	if kind != "sc" {
		for cat := range unicode.Categories {
			if normalizeProperty(cat) == n {
				return cat, nil, true
			}
		}
		if cat, found := categoryNames[n]; found {
			return cat, nil, true
		}
		if n == "lc" || n == "casedletter" {
			return "", rangesOf(unicode.Lu, unicode.Ll, unicode.Lt), true
		}
	}
	if kind != "gc" {
		for sc := range unicode.Scripts {
			if normalizeProperty(sc) == n {
				return sc, nil, true
			}
		}
	}
	if kind != "" {
		return "", nil, false
	}
	switch n {
	case "any":
		return "", []runeRange{{0, unicode.MaxRune}}, true
	case "ascii":
		return "", []runeRange{{0, 0x7F}}, true
	case "alphabetic", "alpha":
		return "", rangesOf(unicode.L, unicode.Nl, unicode.Other_Alphabetic, unicode.Other_Lowercase, unicode.Other_Uppercase), true
	case "whitespace", "wspace", "space":
		return "", whiteSpaceRanges(), true
	case "lowercase", "lower":
		return "", rangesOf(unicode.Ll, unicode.Other_Lowercase), true
	case "uppercase", "upper":
		return "", rangesOf(unicode.Lu, unicode.Other_Uppercase), true
	}
	for p, tab := range unicode.Properties {
		if normalizeProperty(p) == n && !strings.HasPrefix(p, "Other_") {
			return "", rangesOf(tab), true
		}
	}
	return "", nil, false
}
