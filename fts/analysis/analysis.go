// Package analysis turns text into the tokens Lance's INVERTED (full-text) indices store, in the
// style of bleve's analysis packages: a base Tokenizer splits text, TokenFilters transform the
// stream, and an Analyzer chains them. Each tokenizer and filter lives in its own sub-package;
// FromParams (params.go) builds the chain an index's stored parameters describe, in Lance's order
// (remove long → lower case → stem → stop words → ASCII folding).
package analysis

// Token is one term and its position (the index of the base token it came from; filters that
// drop tokens leave gaps, as tantivy's do).
type Token struct {
	Term     string
	Position int
}

// Tokenizer splits text into base tokens, appending them to dst.
type Tokenizer interface {
	Tokenize(dst []Token, text string) []Token
}

// TokenFilter transforms a token stream in place and returns the kept tokens.
type TokenFilter interface {
	Filter(tokens []Token) []Token
}

// Analyzer is a Tokenizer followed by TokenFilters.
type Analyzer struct {
	Tokenizer Tokenizer
	Filters   []TokenFilter
}

// Analyze returns the tokens of text, appended to dst[:0].
func (a *Analyzer) Analyze(dst []Token, text string) []Token {
	toks := a.Tokenizer.Tokenize(dst[:0], text)
	for _, f := range a.Filters {
		toks = f.Filter(toks)
	}
	return toks
}

// Keep is a helper for filters that drop tokens: it keeps tokens for which keep is true.
func Keep(tokens []Token, keep func(string) bool) []Token {
	out := tokens[:0]
	for _, t := range tokens {
		if keep(t.Term) {
			out = append(out, t)
		}
	}
	return out
}

// Map is a helper for filters that rewrite every term.
func Map(tokens []Token, f func(string) string) []Token {
	for i := range tokens {
		tokens[i].Term = f(tokens[i].Term)
	}
	return tokens
}
