// Package whitespace is tantivy's WhitespaceTokenizer: runs of non-whitespace characters
// (Rust's char::is_whitespace) are tokens.
package whitespace

import (
	"unicode"

	"github.com/lancego/lancego/fts/analysis"
)

// Tokenizer splits on Unicode white space.
type Tokenizer struct{}

// Tokenize implements analysis.Tokenizer.
func (Tokenizer) Tokenize(dst []analysis.Token, text string) []analysis.Token {
	start, pos := -1, 0
	for i, r := range text {
		if !unicode.IsSpace(r) {
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
