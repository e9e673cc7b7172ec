// Package simple is Lance's default base tokenizer (tantivy's SimpleTokenizer): maximal runs of
// Unicode alphanumeric characters (Rust's char::is_alphanumeric) are tokens.
package simple

import (
	"unicode"
	"unicode/utf8"

	"github.com/lancego/lancego/fts/analysis"
)

// Tokenizer splits on every non-alphanumeric character.
type Tokenizer struct{}

// IsAlphanumeric is Rust's char::is_alphanumeric (Alphabetic or Numeric).
func IsAlphanumeric(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Other_Alphabetic, r)
}

// Tokenize implements analysis.Tokenizer.
func (Tokenizer) Tokenize(dst []analysis.Token, text string) []analysis.Token {
	start, pos := -1, 0
	for i, r := range text {
		if IsAlphanumeric(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			dst = append(dst, analysis.Token{Term: text[start:i], Position: pos})
			pos++
			start = -1
		}
	}
	if start >= 0 {
		dst = append(dst, analysis.Token{Term: text[start:], Position: pos})
	}
	return dst
}
