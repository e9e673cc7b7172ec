// Package asciifold is tantivy's AsciiFoldingFilter, approximated: letters are decomposed
// (Unicode NFD) and combining marks dropped, plus the ligatures and letters without
// decomposition Lucene's table folds (ß, æ, ø, œ, ł, đ, þ, …). Pure-ASCII terms are untouched.
package asciifold

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/lancego/lancego/fts/analysis"
)

var special = map[rune]string{
	'ß': "ss", 'æ': "ae", 'Æ': "AE", 'ø': "o", 'Ø': "O", 'œ': "oe", 'Œ': "OE", 'ł': "l", 'Ł': "L",
	'đ': "d", 'Đ': "D", 'þ': "th", 'Þ': "TH", 'ð': "d", 'Ð': "D", 'ı': "i", 'ĸ': "q", 'ŉ': "'n",
	'‘': "'", '’': "'", '“': "\"", '”': "\"", '–': "-", '—': "-",
}

// Filter folds every term to ASCII where Lucene's table does.
type Filter struct{}

// Fold returns s folded.
func Fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if rep, ok := special[r]; ok {
			b.WriteString(rep)
			continue
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

// Filter implements analysis.TokenFilter.
func (Filter) Filter(t []analysis.Token) []analysis.Token { return analysis.Map(t, Fold) }
