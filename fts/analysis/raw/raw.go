// Package raw is tantivy's RawTokenizer: the whole text is one token.
package raw

import "github.com/lancego/lancego/fts/analysis"

// Tokenizer emits the text unchanged as a single token.
type Tokenizer struct{}

// Tokenize implements analysis.Tokenizer.
func (Tokenizer) Tokenize(dst []analysis.Token, text string) []analysis.Token {
	return append(dst, analysis.Token{Term: text})
}
